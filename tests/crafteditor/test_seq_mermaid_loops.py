"""Mermaid's sequence diagrams: a self-message is a curve bulging out of the lifeline and back (no straight run out
of it), and an ``alt``/``loop`` fragment is a dotted frame whose top, ``else`` divider and foot run across every
lifeline and on past the outermost. The curve had read as an ellipse node and no message, each frame row as a
message between the outermost participants (a drawn Mermaid figure of kubernetes/enhancements: edge F1 0.50, five
self-messages lost and three false messages). PlantUML's square self-message with its label just above (the
label's descenders 4 px over the loop) and a note right under it had read as no message, or took the note for its
label (the note's node lost)."""

from __future__ import annotations

from collections import Counter

import numpy as np
from ce_helpers import blank_page, edge_pairs, named_boxes, png_bytes
from PIL import ImageDraw

from crafteditor.convert import convert
from crafter.spec.model import Node

PURPLE, INK = (147, 112, 219), (51, 51, 51)


def _cubic(p0, p1, p2, p3, n: int = 40) -> list[tuple[float, float]]:
    t = np.linspace(0, 1, n)[:, None]
    pts = (1 - t) ** 3 * np.array(p0) + 3 * (1 - t) ** 2 * t * np.array(p1) + 3 * (1 - t) * t ** 2 * np.array(p2) \
        + t ** 3 * np.array(p3)
    return [tuple(p) for p in pts.tolist()]


def _dotted(d: ImageDraw.ImageDraw, a: tuple[int, int], b: tuple[int, int]) -> None:
    (x0, y0), (x1, y1) = a, b
    n = int(max(abs(x1 - x0), abs(y1 - y0)) // 8)
    for k in range(n):
        t0, t1 = k / n, (k + 0.5) / n
        d.line([(x0 + (x1 - x0) * t0, y0 + (y1 - y0) * t0), (x0 + (x1 - x0) * t1, y0 + (y1 - y0) * t1)],
               fill=PURPLE, width=2)


def _mermaid_png() -> tuple[bytes, Counter]:
    """Mermaid's default theme at scale 2: three participants boxed at top and foot over solid lifelines, a dotted
    ``alt`` frame with an ``else`` divider reaching past the outer lifelines, inside it two curved self-messages and
    two messages between participants."""
    names, xs = ["Kubelet", "Runtime", "Container"], [200, 560, 920]
    W, H = 1120, 900
    img, d, font = blank_page(W, H, 26)
    for x in xs:
        d.line([(x, 110), (x, 790)], fill=PURPLE, width=2)
    named_boxes(d, font, names, xs, (20, 790), 90, 30, (236, 236, 255), PURPLE, half=100, width=2)
    for a, b in (((60, 170), (1060, 170)), ((1060, 170), (1060, 760)), ((1060, 760), (60, 760)),
                 ((60, 760), (60, 170)), ((60, 460), (1060, 460))):
        _dotted(d, a, b)
    d.rectangle([60, 170, 130, 200], fill=(236, 236, 255), outline=PURPLE, width=2)
    d.text((72, 172), "alt", fill="black", font=font)
    want: Counter = Counter()
    for k, y in ((0, 260), (1, 520)):  # self-messages: the curve, its head at its end, its label above
        x = xs[k]
        d.line(_cubic((x, y), (x + 120, y - 20), (x + 120, y + 60), (x, y + 40)), fill=INK, width=3, joint="curve")
        d.polygon([(x + 1, y + 40), (x + 22, y + 30), (x + 19, y + 48)], fill=INK)
        label = ["Validate support", "Convert context"][k]
        tw = d.textlength(label, font=font)
        d.text((x - tw / 2 + 40, y - 44), label, fill=INK, font=font)
        want[(names[k], names[k])] += 1
    for a, b, y, label in ((1, 2, 640, "CreateContainer()"), (2, 1, 720, "Created")):
        s = 1 if b > a else -1
        d.line([(xs[a], y), (xs[b] - 4 * s, y)], fill=INK, width=3)
        d.polygon([(xs[b], y), (xs[b] - 20 * s, y - 9), (xs[b] - 20 * s, y + 9)], fill=INK)
        tw = d.textlength(label, font=font)
        d.text(((xs[a] + xs[b]) / 2 - tw / 2, y - 40), label, fill=INK, font=font)
        want[(names[a], names[b])] += 1
    return png_bytes(np.asarray(img)), want


def test_mermaid_curved_self_messages_are_messages_and_its_dotted_frame_none():
    png, want = _mermaid_png()
    assert edge_pairs(convert(png).figure) == want


def _plantuml_png() -> tuple[bytes, Counter]:
    """PlantUML's default skin at 96 dpi: three participants over dashed lifelines, a message, a square
    self-message with its label right above it, a note right of the lifeline under it, two messages back."""
    names, xs = ["Alice", "Bob", "John"], [40, 100, 220]
    W, H = 420, 300
    img, d, font = blank_page(W, H, 12)
    for x in xs:
        for y in range(36, 262, 10):
            d.line([(x, y), (x, y + 5)], fill=(168, 0, 54), width=1)
    named_boxes(d, font, names, xs, (8, 262), 27, 7, (254, 254, 206), (168, 0, 54), pad=6)
    want: Counter = Counter()

    def message(a: int, b: int, y: int, label: str) -> None:
        s = 1 if b > a else -1
        d.line([(xs[a], y), (xs[b], y)], fill=(168, 0, 54), width=1)
        d.line([(xs[b] - 9 * s, y - 4), (xs[b], y), (xs[b] - 9 * s, y + 4)], fill=(168, 0, 54), width=1)
        d.text((min(xs[a], xs[b]) + 6, y - 15), label, fill="black", font=font)
        want[(names[a], names[b])] += 1

    message(0, 2, 66, "Hello John, how are you?")
    x, y = xs[2], 98  # the loop: out 42 px, down 13, back with an open head; its label 4 px over it
    d.line([(x, y), (x + 42, y), (x + 42, y + 13), (x, y + 13)], fill=(168, 0, 54), width=1)
    d.line([(x + 9, y + 9), (x, y + 13), (x + 9, y + 17)], fill=(168, 0, 54), width=1)
    d.text((x + 6, y - 17), "Fight against hypochondria", fill="black", font=font)
    want[("John", "John")] += 1
    d.polygon([(x + 4, 122), (x + 172, 122), (x + 180, 130), (x + 180, 146), (x + 4, 146)], fill=(251, 251, 119),
              outline=(168, 0, 54))
    d.text((x + 10, 127), "Rational thoughts prevail!", fill="black", font=font)
    message(2, 0, 180, "Great!")
    message(2, 1, 206, "How about you?")
    return png_bytes(np.asarray(img)), want


def test_a_plantuml_self_message_under_its_label_is_read_and_the_note_after_it_kept():
    png, want = _plantuml_png()
    fig = convert(png).figure
    assert edge_pairs(fig)[("John", "John")] == 1
    assert "Rational thoughts prevail!" in {(c.label or "").strip() for c in fig.components if isinstance(c, Node)}


def _jsd_png() -> tuple[bytes, Counter]:
    """js-sequence-diagrams' simple theme at scale 2: two participants boxed at top and foot, a message each way and
    a self-message between them, a small square loop (20 px out, 28 down) with a filled head and its label set
    against the loop's side."""
    names, xs = ["Kubelet", "Runtime"], [80, 520]
    W, H = 640, 420
    img, d, font = blank_page(W, H, 18, "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf")
    for x, name in zip(xs, names):
        d.line([(x, 60), (x, 350)], fill="black", width=3)
        for y0 in (10, 350):
            tw = d.textlength(name, font=font)
            d.rectangle([x - tw / 2 - 14, y0, x + tw / 2 + 14, y0 + 50], fill="white", outline="black", width=3)
            d.text((x - tw / 2, y0 + 14), name, fill="black", font=font)
    want: Counter = Counter()
    for a, b, y, label in ((0, 1, 120, "Create container"), (1, 0, 300, "Created")):
        s = 1 if b > a else -1
        d.line([(xs[a], y), (xs[b], y)], fill="black", width=3)
        d.polygon([(xs[b] - s, y), (xs[b] - 18 * s, y - 8), (xs[b] - 18 * s, y + 8)], fill="black")
        d.text((min(xs) + 40, y - 26), label, fill="black", font=font)
        want[(names[a], names[b])] += 1
    x, y = xs[0], 190
    d.line([(x, y), (x + 21, y), (x + 21, y + 26), (x + 2, y + 26)], fill="black", width=3)
    d.polygon([(x + 1, y + 26), (x + 13, y + 20), (x + 13, y + 32)], fill="black")
    d.text((x + 26, y + 2), "Validate system support", fill="black", font=font)
    want[("Kubelet", "Kubelet")] += 1
    return png_bytes(np.asarray(img)), want


def test_a_small_square_self_message_with_its_label_against_it_is_read():
    png, want = _jsd_png()
    assert edge_pairs(convert(png).figure) == want
