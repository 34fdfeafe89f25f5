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

FACES = {"sans": ("DejaVuSans.ttf",), "serif": ("STIXGeneral.ttf", "DejaVuSerif.ttf"), "mono": ("DejaVuSansMono.ttf",)}
MARGIN = 0.06  # how much better another class must fit than sans
_H = 40  # template height in pixels


@lru_cache(maxsize=1)
def _font_dirs() -> list[Path]:
    dirs = [Path("/usr/share/fonts/truetype/dejavu")]
    spec = importlib.util.find_spec("matplotlib")
    if spec is not None and spec.origin:
        dirs.insert(0, Path(spec.origin).parent / "mpl-data" / "fonts" / "ttf")
    return [d for d in dirs if d.is_dir()]


@lru_cache(maxsize=8)
def _face(name: str):
    for d in _font_dirs():
        if (d / name).is_file():
            return ImageFont.truetype(str(d / name), _H)
    return None


def _ink(mask: np.ndarray) -> np.ndarray | None:
    ys, xs = np.nonzero(mask)
    if ys.size == 0:
        return None
    return mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


@lru_cache(maxsize=512)
def _template(text: str, name: str) -> np.ndarray | None:
    face = _face(name)
    if face is None:
        return None
    x0, y0, x1, y1 = face.getbbox(text)
    if x1 <= x0 or y1 <= y0:
        return None
    im = Image.new("L", (x1 - x0 + 4, y1 - y0 + 4), 0)
    ImageDraw.Draw(im).text((2 - x0, 2 - y0), text, font=face, fill=255)
    return _ink(np.asarray(im) > 110)


def _fit(ink: np.ndarray, tpl: np.ndarray) -> float:
    """Overlap (IoU) of the template scaled onto the ink box, less the log misfit of the aspects."""
    h, w = ink.shape
    scaled = cv2.resize(tpl.astype(np.uint8), (w, h), interpolation=cv2.INTER_AREA) > 0
    inter = float(np.logical_and(scaled, ink).sum())
    union = float(np.logical_or(scaled, ink).sum())
    aspect = abs(math.log((w / h) / (tpl.shape[1] / tpl.shape[0])))
    return inter / max(union, 1.0) - 0.5 * aspect


def font_class(text: str, mask: np.ndarray) -> str | None:
    """'serif' or 'mono' where the glyphs fit that class clearly better than sans; else None
    (sans, or too little to tell: fewer than 4 letters, or a glyph mask under 10 px tall)."""
    text = text.strip()
    if sum(ch.isalpha() for ch in text) < 4 or mask.shape[0] < 10:
        return None
    ink = _ink(mask)
    if ink is None:
        return None
    scores = {}
    for cls, names in FACES.items():
        fits = [_fit(ink, t) for t in (_template(text, n) for n in names) if t is not None]
        if fits:
            scores[cls] = max(fits)
    if "sans" not in scores:
        return None
    best = max(scores, key=lambda k: scores[k])
    return best if best != "sans" and scores[best] >= scores["sans"] + MARGIN else None
