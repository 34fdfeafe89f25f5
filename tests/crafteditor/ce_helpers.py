"""Small image builders shared by the CraftEditor tests (imported as ``ce_helpers``)."""

from __future__ import annotations

import io
import os
from collections import Counter

import numpy as np
from PIL import Image

from crafter.spec.model import Edge, Figure, Node


def png_bytes(arr: np.ndarray, **save) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(arr).save(buf, format="PNG", **save)
    return buf.getvalue()


def box_image(w: int = 96, h: int = 64, color=(30, 60, 120)) -> np.ndarray:
    """A white image with one outlined filled rectangle: a tiny valid figure."""
    a = np.full((h, w, 3), 255, np.uint8)
    a[12:h - 12, 16:w - 16] = (214, 230, 244)
    a[12, 16:w - 16] = color
    a[h - 13, 16:w - 16] = color
    a[12:h - 12, 16] = color
    a[12:h - 12, w - 17] = color
    return a


def die_on(x: str) -> str:
    """A task for the executors' crash tests: kills its own worker process when given "die"."""
    if x == "die":
        os._exit(3)
    return x


def edge_pairs(fig: Figure, lifelines: bool = False) -> Counter:
    """(sender, receiver) label pairs of the edges; an edge between two nodes of one name (a
    participant's box and its repeat at the foot) left out unless asked for: a sequence's lifelines
    are no edges since round 9 (realset/README.md), and none should come back."""
    labels = {c.id: (c.label or "").strip() for c in fig.components if isinstance(c, Node)}
    return Counter((labels.get(e.source, "?"), labels.get(e.target, "?"))
                   for e in fig.components if isinstance(e, Edge)
                   and lifelines == (e.source != e.target and labels.get(e.source) == labels.get(e.target)))


def figure_png(fig, **save) -> bytes:
    """A matplotlib figure saved as PNG bytes, and closed."""
    import matplotlib.pyplot as plt  # heavy: only the tests that draw with matplotlib

    buf = io.BytesIO()
    fig.savefig(buf, format="png", **save)
    plt.close(fig)
    return buf.getvalue()


def math_labels_png(labels: list[str], dpi: int, width: float, height: float, radius: float, fontsize: float,
                    fill: str | None) -> bytes:
    """A row of math labels in Computer Modern (matplotlib's mathtext, cm set), each in a circle
    (``fill``: its colour; None: an outline only; radius 0: no circle), ``width`` inches a label."""
    import matplotlib  # heavy: the test's own drawing

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # heavy: as above

    with matplotlib.rc_context({"mathtext.fontset": "cm"}):
        fig, ax = plt.subplots(figsize=(width * len(labels), height), dpi=dpi)
        ax.set_xlim(0, len(labels))
        ax.set_ylim(0, 1)
        ax.set_aspect("equal")
        ax.axis("off")
        for i, lab in enumerate(labels):
            if radius:
                ax.add_patch(plt.Circle((i + 0.5, 0.5), radius, color=fill) if fill
                             else plt.Circle((i + 0.5, 0.5), radius, fill=False, lw=1.2))
            ax.text(i + 0.5, 0.5, lab, ha="center", va="center", fontsize=fontsize)
        return figure_png(fig, dpi=dpi)


def draw_messages(d, font, xs: list[int], names: list[str], messages, ys, label_dx: int) -> Counter:
    """Draw sequence messages ``(sender, receiver, label, dashed)`` (indices into ``xs``/``names``) at rows ``ys``
    on the ImageDraw ``d``: a 1 px line (dashed 4 on, 4 off) with a filled head at the receiver and its label
    above, ``label_dx`` px past the left lifeline; the (sender name, receiver name) pairs drawn, counted."""
    want: Counter = Counter()
    for (a, b, label, dashed), y in zip(messages, ys):
        s = 1 if b > a else -1
        if dashed:
            for x in range(xs[a], xs[b], 8 * s):
                d.line([(x, y), (x + 4 * s, y)], fill="black", width=1)
        else:
            d.line([(xs[a], y), (xs[b], y)], fill="black", width=1)
        d.polygon([(xs[b], y), (xs[b] - 10 * s, y - 5), (xs[b] - 10 * s, y + 5)], fill="black")
        d.text((min(xs[a], xs[b]) + label_dx, y - 20), label, fill="black", font=font)
        want[(names[a], names[b])] += 1
    return want


def noted_sequence_png(xs: list[int], note: tuple[int, int, int, int], lines: tuple[str, ...],
                       ys: tuple[int, ...]) -> tuple[bytes, Counter]:
    """PlantUML's ``hide footbox`` look: participants 'Client' and 'Controller' boxed at the top only, at columns
    ``xs``, over dashed lifelines; a pale note (``note`` = x0, y0, x1, y1) holding ``lines``; then four messages
    (:func:`draw_messages`) at rows ``ys``. Returns the PNG and the (sender, receiver) pairs drawn."""
    from PIL import ImageDraw, ImageFont

    names = ["Client", "Controller"]
    W, H = 560, 420
    img = Image.new("RGB", (W, H), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 14)
    for x in xs:
        for y in range(45, H - 10, 10):
            d.line([(x, y), (x, y + 5)], fill=(60, 60, 60), width=1)
    for x, name in zip(xs, names):
        tw = d.textlength(name, font=font)
        d.rectangle([x - tw / 2 - 12, 5, x + tw / 2 + 12, 43], fill=(250, 250, 250), outline=(60, 60, 60))
        d.text((x - tw / 2, 16), name, fill="black", font=font)
    d.rectangle(list(note), fill=(255, 255, 220), outline=(90, 90, 90))
    for k, line in enumerate(lines):
        d.text((note[0] + 10, note[1] + 5 + 19 * k), line, fill="black", font=font)
    want = draw_messages(d, font, xs, names, [(0, 1, "create machine", False), (1, 0, "get cluster", False),
                                              (0, 1, "response", True), (1, 0, "update status", False)], ys, 14)
    return png_bytes(np.asarray(img)), want


def named_boxes(d, font, names, xs, ys, height: int, text_dy: int, fill, outline, *, half: float | None = None,
                pad: float = 0, width: int = 1) -> None:
    """A sequence diagram's participant boxes drawn with PIL: one per name, centred on its column of ``xs``, at each
    row top of ``ys``, ``height`` tall and ``half`` wide either side (else the name's width / 2 + ``pad``), the name
    centred ``text_dy`` below the box's top."""
    for x, name in zip(xs, names):
        tw = d.textlength(name, font=font)
        hw = half if half is not None else tw / 2 + pad
        for y0 in ys:
            d.rectangle([x - hw, y0, x + hw, y0 + height], fill=fill, outline=outline, width=width)
            d.text((x - tw / 2, y0 + text_dy), name, fill="black", font=font)


DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def blank_page(w: int, h: int, size: int, font: str = DEJAVU):
    """A white RGB page to draw a test figure on: (image, its ImageDraw, a ``size``-px font)."""
    from PIL import ImageDraw, ImageFont

    img = Image.new("RGB", (w, h), "white")
    return img, ImageDraw.Draw(img), ImageFont.truetype(font, size)
