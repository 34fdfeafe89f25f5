"""Training pages for the reader: random strings drawn by matplotlib and by Crafter's renderer,
cut into crops exactly as CraftEditor cuts a figure (:func:`crafteditor.ocr.text_lines.line_jobs`).

The strings are random (pseudo-words, numbers, units, punctuation), never the synthetic
figures' vocabulary (:mod:`crafteditor.synthetic`), so what the bench measures is reading,
not recall. Each page lays its strings on a grid of cells; a crop is labelled with the string
of the cell its centre falls in, where that cell has one crop whose extent matches the
string's. Crops of no cell (strokes, markers the detector took for text) and a rotated
string's crops at the wrong angles are kept as negatives (label ``None``): the reader learns
to be unsure of them, and unsure readings go to rapidocr.
"""

from __future__ import annotations

import argparse
import io
import logging
import pickle
import random
import warnings
from dataclasses import dataclass

import cv2
import numpy as np

from crafteditor.ocr.engine import get_engine
from crafteditor.ocr.text_lines import line_jobs
from crafteditor.reader.model import HEIGHT, UNKNOWN, VOCAB, normalize_crop
from crafter.base.text import text_width
from crafter.formats import figure_to_png_bytes
from crafter.spec.model import Box, Figure, Node, Point, Size, Text

CONSONANTS = "bcdfghjklmnprstvwxyz"
VOWELS = "aeiou"
PUNCT_WORDS = ("(a)", "(b)", "Fig.", "e.g.", "i.e.", "vs.", "etc.", "&", "+", "=", "/", "#", "%", ":", "->")
# characters the reader has no class for, drawn so that it learns to say so (UNKNOWN)
OTHER_CHARS = "αβγδεθλπσφωΔΣΩ→←↑↓≤≥≈≠∞√∑∫∂∈·•…—–−€£§"
# DejaVu (what Crafter and matplotlib draw with) and the metric twins of Arial, Times and
# Helvetica, the fonts of most papers' figures (Debian's fonts-liberation, fonts-freefont-ttf);
# a font missing on the machine is left out (matplotlib would draw it in DejaVu Sans)
TRAIN_FONTS = ("DejaVu Sans", "DejaVu Sans", "DejaVu Sans Mono", "DejaVu Serif", "Liberation Sans",
               "Liberation Sans", "Liberation Serif", "FreeSans")
# held out, to measure how often the gate lets a font the reader never saw through misread
UNSEEN_FONTS = ("Roboto", "STIXGeneral")


def available_fonts(fonts: tuple[str, ...]) -> tuple[str, ...]:
    from matplotlib import font_manager  # heavy: 0.5 s to import; only the matplotlib pages need it

    def found(name: str) -> bool:
        try:
            font_manager.findfont(font_manager.FontProperties(family=name), fallback_to_default=False)
            return True
        except ValueError:
            return False

    return tuple(f for f in fonts if found(f)) or ("DejaVu Sans",)


def _pseudo_word(rng: random.Random) -> str:
    if rng.random() < 0.15:  # letters at random: no spelling to lean on
        return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(1, 9)))
    out = []
    for _ in range(rng.randint(1, 4)):
        syl = rng.choice(("cv", "cvc", "vc", "v", "ccv", "cvcc"))
        out.append("".join(rng.choice(CONSONANTS if k == "c" else VOWELS) for k in syl))
    return "".join(out)[: rng.randint(2, 12)]


def _cased(word: str, rng: random.Random) -> str:
    r = rng.random()
    if r < 0.35:
        return word
    if r < 0.75:
        return word[:1].upper() + word[1:]
    if r < 0.88:
        return word.upper()
    i = rng.randint(1, max(1, len(word) - 1))
    return word[:i] + word[i:].capitalize()


# numbers as figures print them: (cumulative share, how one is drawn)
_NUMBERS = (
    (0.25, lambda rng: str(rng.randint(0, 100) * rng.choice((1, 1, 5, 10, 100)))),
    (0.45, lambda rng: f"{rng.uniform(-10, 100):.{rng.randint(1, 3)}f}"),
    (0.55, lambda rng: f"{rng.randint(0, 100)}%"),
    (0.62, lambda rng: f"{rng.choice((1, 2, 5))}e{rng.choice(('-', '+', ''))}{rng.randint(1, 9)}"),
    (0.7, lambda rng: f"{rng.randint(1, 999)},{rng.randint(0, 999):03d}"),
    (0.78, lambda rng: f"-{rng.randint(1, 500)}"),
    (0.85, lambda rng: f"{rng.randint(1, 512)}×{rng.randint(1, 512)}"),
    (0.9, lambda rng: f"{rng.randint(0, 360)}°"),
    (0.95, lambda rng: f"±{rng.uniform(0, 5):.1f}"),
    (1.0, lambda rng: f"v{rng.randint(0, 9)}.{rng.randint(0, 20)}"),
)


def _number(rng: random.Random) -> str:
    r = rng.random()
    return next(make for bound, make in _NUMBERS if r < bound or bound == 1.0)(rng)


def _token(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.55:
        return _cased(_pseudo_word(rng), rng)
    if r < 0.85:
        return _number(rng)
    if r < 0.92:
        return rng.choice(PUNCT_WORDS)
    w = _cased(_pseudo_word(rng), rng)
    return rng.choice((f"({w})", f"{w}:", f"{w},", f"{w}_{rng.randint(0, 9)}", f"{w}-{_pseudo_word(rng)}",
                       f"{w}={rng.randint(0, 99)}", f"[{w}]", f"'{w}'", f'"{w}"', f"{w}/{_pseudo_word(rng)}",
                       f"{w}?", f"{w}!", f"{w};", f"<{rng.randint(1, 9)}", f">{rng.randint(1, 9)}", f"{w}*"))


def random_string(rng: random.Random) -> str:
    """A figure label: 1 to 5 tokens (words, numbers, units, punctuation), at most 28 characters."""
    n = rng.choices((1, 2, 3, 4, 5), (0.38, 0.3, 0.17, 0.1, 0.05))[0]
    s = " ".join(_token(rng) for _ in range(n))[:28].strip()
    s = "".join(ch for ch in s if ch in VOCAB and ch != UNKNOWN)
    if s and rng.random() < 0.06:
        i = rng.randint(0, len(s))
        s = s[:i] + rng.choice(OTHER_CHARS) + s[i:]
    return s or _number(rng)


def label_of(text: str) -> str:
    """What the reader is taught to read for ``text``: characters it has no class for as UNKNOWN."""
    return "".join(ch if ch in VOCAB else UNKNOWN for ch in text)


@dataclass
class Cell:
    text: str
    box: tuple[float, float, float, float]  # x0, y0, x1, y1 in image pixels: the cell
    vertical: bool
    length: float | None = None  # the string's drawn length along the line (image px), where known
    em: float = 0.0  # its font size (image px)

    def whole(self, length: float) -> bool:
        """Whether a crop ``length`` px along the line holds the whole string: the detector can
        miss a word or cut a line in two, and such a crop labelled with the whole string taught
        the reader to drop characters ('Hadonvbe v' read 'onvbe')."""
        if self.length is None:
            return True
        # the ink is 0.1 em short of the advance widths (side bearings), ±0.2 em; a lost glyph
        # is 0.3 em or more
        d = length - self.length
        return -0.45 * self.em - 0.02 * self.length <= d <= 0.25 * self.em + 0.02 * self.length


def _mpl_page(rng: random.Random, fonts: tuple[str, ...]) -> tuple[np.ndarray, list[Cell]]:
    import matplotlib  # heavy: 0.5 s to import; only the matplotlib pages need it

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # heavy: as matplotlib above, after its backend is set

    # matplotlib's own defaults, whatever style the calling process has set: the same seed draws
    # the same page (a test's page had come out otherwise after other tests had run)
    with plt.style.context("default"):
        return _draw_mpl_page(rng, fonts, plt)


def _draw_mpl_page(rng: random.Random, fonts: tuple[str, ...], plt) -> tuple[np.ndarray, list[Cell]]:
    dpi = rng.choice((100, 150, 150, 150, 200, 300))
    cols, rows = rng.randint(2, 4), rng.randint(5, 10)
    cw, ch = 2.6, 0.5  # inches per cell
    fig = plt.figure(figsize=(cols * cw, rows * ch), dpi=dpi)
    page = "#FFFFFF" if rng.random() < 0.8 else rng.choice(("#F0F0F0", "#FDF6E3", "#EAEAF2", "#FFFFF0"))
    fig.patch.set_facecolor(page)
    cells: list[Cell] = []
    texts = []
    W, H = cols * cw * dpi, rows * ch * dpi
    for r in range(rows):
        for c in range(cols):
            if rng.random() < 0.1:
                continue
            vertical = rng.random() < 0.06
            s = random_string(rng)
            if vertical:
                s = s[:10].strip()
            size = rng.uniform(6.5, 15.0)
            color = rng.choice(("#000000", "#000000", "#262626", "#333333", "#555555", "#808080",
                                "#1F77B4", "#D62728", "#2CA02C", "#9467BD", "#8C564B", "#E24A33"))
            kw = dict(fontsize=size, family=rng.choice(fonts), color=color,
                      fontweight="bold" if rng.random() < 0.2 else "normal",
                      fontstyle="italic" if rng.random() < 0.1 else "normal",
                      ha="center", va="center", rotation=90 if vertical else 0)
            if rng.random() < 0.2:
                dark = rng.random() < 0.3
                fill = rng.choice(("#1F3A5F", "#333333", "#8B0000", "#2F4F4F")) if dark else rng.choice(
                    ("#D6E6F4", "#FBEBCB", "#CDEBE1", "#F3E0EC", "#E5E5E5", "#FFF2CC"))
                if dark:
                    kw["color"] = "#FFFFFF"
                kw["bbox"] = dict(boxstyle=rng.choice(("square", "round")), fc=fill,
                                  ec=rng.choice(("none", "#333333", fill)), pad=0.4)
            x = (c + 0.5) / cols
            y = 1 - (r + 0.5) / rows
            t = fig.text(x, y, s, parse_math=False, **kw)
            cells.append(Cell(s, (c * cw * dpi, r * ch * dpi, (c + 1) * cw * dpi, (r + 1) * ch * dpi), vertical,
                              em=size * dpi / 72))
            texts.append(t)
    if rng.random() < 0.5:  # strokes and markers between the cells, for the detector's junk crops
        ax = fig.add_axes((0, 0, 1, 1), facecolor="none")
        ax.set_axis_off()
        ax.set_xlim(0, cols)
        ax.set_ylim(rows, 0)
        for _ in range(rng.randint(2, 8)):
            x0, y0 = rng.randint(0, cols), rng.uniform(0, rows)
            ax.plot([x0, x0 + rng.uniform(-0.05, 0.05)], [y0, y0 + rng.uniform(0.2, 1.2)], color="#444444", lw=1)
            ax.plot([x0], [y0], marker=rng.choice("o^s+x"), color=rng.choice(("#1F77B4", "#333333")), ms=5)
    renderer = fig.canvas.get_renderer()
    for cl, t in zip(cells, texts):
        ext = t.get_window_extent(renderer)
        cl.length = float(ext.height if cl.vertical else ext.width)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, facecolor=page)
    plt.close(fig)
    rgb = cv2.cvtColor(cv2.imdecode(np.frombuffer(buf.getvalue(), np.uint8), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
    sy, sx = rgb.shape[0] / H, rgb.shape[1] / W
    cells = [Cell(cl.text, (cl.box[0] * sx, cl.box[1] * sy, cl.box[2] * sx, cl.box[3] * sy), cl.vertical,
                  cl.length * sx, cl.em * sx) for cl in cells]
    return rgb, cells


def _crafter_page(rng: random.Random) -> tuple[np.ndarray, list[Cell]]:
    dpi = rng.choice((100, 150, 150, 200, 300))
    cols, rows = rng.randint(2, 4), rng.randint(5, 9)
    cw, ch = 240.0, 48.0
    comps = []
    cells: list[Cell] = []
    for r in range(rows):
        for c in range(cols):
            if rng.random() < 0.1:
                continue
            s = random_string(rng)[:22].strip()
            cx, cy = 10 + (c + 0.5) * cw, 10 + (r + 0.5) * ch
            size = rng.uniform(8.0, 16.0)
            i = len(comps)
            bold, italic = rng.random() < 0.2, rng.random() < 0.1
            if rng.random() < 0.35:
                dark = rng.random() < 0.25
                fill = rng.choice(("#1F3A5F", "#333333", "#8B0000")) if dark else rng.choice(
                    ("#D6E6F4", "#FBEBCB", "#CDEBE1", "#F3E0EC", "#FFFFFF", "#F2F5FA"))
                comps.append(Node(kind="node", id=f"n{i}", label=s, fill=fill, font_size=size,
                                  text_color="#FFFFFF" if dark else None,
                                  shape=rng.choice(("box", "round", "ellipse")),
                                  box=Box(x=cx - 110, y=cy - 20, w=220, h=40), pinned=True, width=220, height=40))
            else:
                comps.append(Text(kind="text", id=f"t{i}", text=s, at=Point(x=cx, y=cy), font_size=size,
                                  color=rng.choice((None, "#333333", "#666666", "#1F77B4", "#C0392B")),
                                  bold=bold, italic=italic))
            if isinstance(comps[-1], Node):
                bold = italic = False
            cells.append(Cell(s, (10 + c * cw, 10 + r * ch, 10 + (c + 1) * cw, 10 + (r + 1) * ch), False,
                              text_width(s, size, bold=bold, italic=italic), size))
    fig = Figure(canvas=Size(w=20 + cols * cw, h=20 + rows * ch), components=comps)
    png = figure_to_png_bytes(fig, dpi)
    rgb = cv2.cvtColor(cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
    s = rgb.shape[1] / fig.canvas.w
    return rgb, [Cell(cl.text, tuple(v * s for v in cl.box), cl.vertical, cl.length * s, cl.em * s) for cl in cells]


def _jpeg(rgb: np.ndarray, quality: int) -> np.ndarray:
    ok, buf = cv2.imencode(".jpg", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.cvtColor(cv2.imdecode(buf, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)


def page_crops(rgb: np.ndarray, cells: list[Cell]) -> list[tuple[np.ndarray, str | None]]:
    """The page cut as CraftEditor cuts a figure; each crop with its string, or None (a negative)."""
    bgr = cv2.cvtColor(np.ascontiguousarray(rgb), cv2.COLOR_RGB2BGR)
    jobs = line_jobs(rgb, bgr, get_engine())
    claims: dict[int, list[int]] = {}
    where: list[int | None] = []
    for j, (_bg, crops, (y0, x0), line, _region) in enumerate(jobs):
        lh, lw = line.mask.shape
        cx, cy = x0 + line.x0 + lw / 2, y0 + line.y0 + lh / 2
        k = next((i for i, cl in enumerate(cells)
                  if cl.box[0] <= cx < cl.box[2] and cl.box[1] <= cy < cl.box[3]), None)
        where.append(k)
        if k is not None:
            claims.setdefault(k, []).append(j)
    out: list[tuple[np.ndarray, str | None]] = []
    for j, (_bg, crops, _o, line, _region) in enumerate(jobs):
        k = where[j]
        if k is None:
            out.extend((c, None) for c, _a in crops)
            continue
        cell = cells[k]
        # a cell read as one line: every claim on it is the same line (crossing-stroke twins)
        if len({(jobs[i][2], jobs[i][3].y0, jobs[i][3].x0, jobs[i][3].mask.shape) for i in claims[k]}) != 1:
            continue
        if not cell.whole(line.mask.shape[0] if cell.vertical else line.mask.shape[1]):
            continue
        want = -90.0 if cell.vertical else 0.0
        for c, a in crops:
            out.append((c, label_of(cell.text) if a == want else None))
    return out


def make_pages(n: int, seed: int, fonts: tuple[str, ...] = TRAIN_FONTS) -> tuple[list[np.ndarray], list[str | None]]:
    """``n`` random pages → normalised crops (uint8, HEIGHT rows) and their labels."""
    rng = random.Random(seed)
    fonts = available_fonts(fonts)
    crops: list[np.ndarray] = []
    labels: list[str | None] = []
    for _ in range(n):
        rgb, cells = _mpl_page(rng, fonts) if rng.random() < 0.65 else _crafter_page(rng)
        if rng.random() < 0.15:
            rgb = _jpeg(rgb, rng.randint(70, 95))
        for crop, label in page_crops(rgb, cells):
            x = normalize_crop(crop)
            if x is None:
                continue
            crops.append(x)
            labels.append(label)
    return crops, labels


def main(argv: list[str] | None = None) -> None:
    # a training font without a bold face, or without a glyph of OTHER_CHARS (drawn as a box,
    # labelled UNKNOWN all the same), is said once per string otherwise
    logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)
    warnings.filterwarnings("ignore", message="Glyph .* missing from font")

    p = argparse.ArgumentParser(description="Cut random training pages into reader crops")
    p.add_argument("--pages", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--fonts", help="comma-separated matplotlib font families (default: the training fonts)")
    p.add_argument("-o", "--output", required=True)
    a = p.parse_args(argv)
    fonts = tuple(f.strip() for f in a.fonts.split(",")) if a.fonts else TRAIN_FONTS
    crops, labels = make_pages(a.pages, a.seed, fonts)
    with open(a.output, "wb") as f:
        pickle.dump({"crops": crops, "labels": labels, "height": HEIGHT}, f)
    pos = sum(lb is not None for lb in labels)
    print(f"{a.pages} pages: {len(crops)} crops, {pos} labelled, {len(crops) - pos} negatives -> {a.output}")


if __name__ == "__main__":
    main()
