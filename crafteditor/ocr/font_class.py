"""A text run's font family class (sans, serif, mono) from its glyphs.

The reading is drawn in a face of each class (sans: DejaVu Sans; serif: STIX, a Times, and DejaVu
Serif; mono: DejaVu Sans Mono), fitted to the ink box, and compared with the glyph mask: the
overlap of the ink (serifs and the thin-thick strokes of a Times change it) less the misfit of
the line's aspect (a monospaced line is wider: every advance is 0.6 em). A class other than
sans is taken only where it fits clearly better (a label drawn in sans stays in the theme's font).
The faces come with matplotlib or the system; where none is found every run is sans.
"""

from __future__ import annotations

import importlib.util
import math
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

# sans in a wide and two narrow cuts (Roboto or Helvetica is narrower than DejaVu: with DejaVu
# alone a Roboto heading 'Schedulers' fitted STIX's narrow Times better and was called serif)
FACES = {"sans": ("DejaVuSans.ttf", "DejaVuSansCondensed.ttf", "cmss10.ttf"), "serif": ("STIXGeneral.ttf", "DejaVuSerif.ttf"),
         "mono": ("DejaVuSansMono.ttf",)}
BOLD_FACES = {"sans": ("DejaVuSans-Bold.ttf", "DejaVuSansCondensed-Bold.ttf", "cmss10.ttf"),
              "serif": ("STIXGeneralBol.ttf", "DejaVuSerif-Bold.ttf"), "mono": ("DejaVuSansMono-Bold.ttf",)}
MARGIN = 0.06  # how much better another class must fit than sans
SHORT_WORD = 0.4  # and more for a short word: this over its letters
MIN_FIT = 0.3  # a class is told only where some face fits this well
_H = 24  # template height in pixels (2.8 ms a run at 40, ~1 ms at 24)


@lru_cache(maxsize=1)
def _font_dirs() -> list[Path]:
    dirs = [Path("/usr/share/fonts/truetype/dejavu")]
    spec = importlib.util.find_spec("matplotlib")
    if spec is not None and spec.origin:
        dirs.insert(0, Path(spec.origin).parent / "mpl-data" / "fonts" / "ttf")
    return [d for d in dirs if d.is_dir()]


@lru_cache(maxsize=32)  # every face of FACES and BOLD_FACES (11): at 8 the cache thrashed, a font load per template
def load_face(name: str):
    for d in _font_dirs():
        if (d / name).is_file():
            return ImageFont.truetype(str(d / name), _H)
    return None


def ink_box(mask: np.ndarray) -> np.ndarray | None:
    rows, cols = np.flatnonzero(mask.any(axis=1)), np.flatnonzero(mask.any(axis=0))
    if rows.size == 0:
        return None
    return mask[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1]


@lru_cache(maxsize=2048)
def glyph(ch: str, name: str) -> tuple[np.ndarray | None, int, int, float]:
    """One character of a face: its ink (bool), left and top offsets, and advance (pixels)."""
    font = load_face(name)
    x0, y0, x1, y1 = font.getbbox(ch)
    advance = float(font.getlength(ch))
    if x1 <= x0 or y1 <= y0:
        return None, 0, 0, advance
    im = Image.new("L", (x1 - x0, y1 - y0), 0)
    ImageDraw.Draw(im).text((-x0, -y0), ch, font=font, fill=255)
    return np.asarray(im) > 110, x0, y0, advance


@lru_cache(maxsize=512)
def template(text: str, name: str) -> np.ndarray | None:
    """``text`` set in a face from its cached glyphs (no kerning: a class test, not typesetting)."""
    font = load_face(name)
    if font is None:
        return None
    ascent, descent = font.getmetrics()
    glyphs = [glyph(ch, name) for ch in text]
    width = int(math.ceil(sum(g[3] for g in glyphs))) + 2 * _H  # (bearings may reach out either side)
    canvas = np.zeros((ascent + descent + 2 * _H, width), bool)
    pen = float(_H)
    for ink, dx, dy, advance in glyphs:
        if ink is not None:
            x, y = max(0, int(round(pen)) + dx), max(0, _H + dy)
            h, w = ink.shape
            canvas[y:y + h, x:x + w] |= ink[:canvas.shape[0] - y, :canvas.shape[1] - x]
        pen += advance
    return ink_box(canvas)


def fit(ink: np.ndarray, tpl: np.ndarray) -> float:
    """Overlap (IoU) of the template scaled onto the ink box, less the log misfit of the aspects."""
    h, w = ink.shape
    scaled = cv2.resize(tpl.astype(np.uint8), (w, h), interpolation=cv2.INTER_AREA) > 0
    inter = float(np.count_nonzero(np.logical_and(scaled, ink)))  # counted: summing a bool mask is ~4x slower
    union = float(np.count_nonzero(np.logical_or(scaled, ink)))
    aspect = abs(math.log((w / h) / (tpl.shape[1] / tpl.shape[0])))
    return inter / max(union, 1.0) - 0.5 * aspect


def font_class(text: str, mask: np.ndarray) -> str | None:
    """'serif' or 'mono' where the glyphs fit that class clearly better than sans, else 'sans';
    None where there is too little to tell (fewer than 4 letters, a glyph mask under 10 px tall).
    Each class's best fit of its regular and bold faces counts (the stroke test misses bold
    serif titles)."""
    text = text.strip()
    if sum(ch.isalpha() for ch in text) < 4 or mask.shape[0] < 10:
        return None
    ink = ink_box(mask)
    if ink is None:
        return None
    scores = {}
    for cls in FACES:
        names = FACES[cls] + BOLD_FACES[cls]
        fits = [fit(ink, t) for t in (template(text, n) for n in names) if t is not None]
        if fits:
            scores[cls] = max(fits)
    if "sans" not in scores:
        return None
    best = max(scores, key=lambda k: scores[k])
    if scores[best] < MIN_FIT:  # no face fits (a misreading, a drawing read as text)
        return None
    # a short word is weak evidence: Arial's 'State' and 'Output' fitted STIX 0.09 and 0.12 better
    # than any sans cut, a Times 'Norm' 0.28 better
    letters = sum(ch.isalpha() for ch in text)
    return best if scores[best] >= scores["sans"] + MARGIN + SHORT_WORD / letters else "sans"
