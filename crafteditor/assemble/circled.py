"""An operator circle's glyph the recogniser does not read: ⊙, +, ×, ⊕, ⊗ set inside a small circle.

Paper architectures draw an elementwise operator as a filled circle holding one symbol (d2l's LSTM:
four ⊙ and a +; its residual block: a +). The recogniser reads no such lone symbol, so the circle
came back unlabelled, its glyph was dropped from the drawing, and every arrow into or out of it
ended at a nameless node (issue 31: the LSTM's edges scored 0). The ink inside the circle, clear of
its rim, is set beside each operator in a sans and a serif face (:func:`crafteditor.ocr.font_class.fit`:
overlap less aspect misfit) and named where one fits well. A cross drawn from rim to rim (TikZ's
``circle, draw, cross``) touches the rim: that is the shape's own drawing, no label, and is left alone.
A symbol the recogniser did read, unsurely, is :mod:`crafteditor.ocr.operators`'s.
"""

from __future__ import annotations

import math
import string

import numpy as np

from crafteditor.ocr.font_class import fit, ink_box, load_face, template
from crafteditor.ocr.greek import read_greek
from crafteditor.shapes.detect import DetectedShape

OPERATORS = "+×⊙⊕⊗−"
# shapes an operator is told from: a ring alone (a double circle's inner ring), a dot, a Latin letter
# (a lone letter in a circle the recogniser missed: DejaVu Sans' x and X fit × well, its e ⊕)
RIVALS = "○●" + string.ascii_letters
FACES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "STIXGeneral.ttf")
GOOD_FIT = 0.55  # the best operator's fit, at least
INK_DISTANCE = 80.0  # a glyph pixel's colour distance from the circle's fill, at least
MIN_INK_PX = 6  # the glyph's ink box, at least this tall or wide (pixels)
# the circle's inside radius (pixels), at least: a TikZ operator circle at 1x (``minimum size=0.5cm`` at 150 dpi) is
# 23 px across, 9.5 px inside its rim, and its × 8 px tall (12 px had left every such circle unnamed; 8: a 2 px rim)
MIN_INNER_PX = 8.0
# an operator keeps clear of the rim's band (0.8 of the inner radius out); an italic Greek letter (σ) may reach
# into it, but no further than this share (a cross or a line through the circle reaches the rim)
GREEK_REACH = 0.9
MAX_SOLID = 0.6  # the share of its ink box a glyph's strokes fill, at most (a disk fills 0.79)


def operator_glyph(rgb: np.ndarray, s: DetectedShape) -> tuple[str, float] | None:
    """The operator a round node's inner ink is, and the ink's height in pixels (None: no ink clear
    of the rim, ink touching the rim, or nothing fits well)."""
    if s.shape not in ("circle", "ellipse") or s.is_group or max(s.w, s.h) > 1.25 * min(s.w, s.h):
        return None
    cx, cy = s.x + s.w / 2, s.y + s.h / 2
    # the box runs through the stroke's centre line: inside it, one pixel clear of the stroke's antialiasing
    inner = min(s.w, s.h) / 2 - max(1.0, s.stroke_px / 2) - 1.0
    if inner < MIN_INNER_PX:
        return None
    x0, y0 = max(0, int(cx - inner)), max(0, int(cy - inner))
    x1, y1 = min(rgb.shape[1], int(math.ceil(cx + inner)) + 1), min(rgb.shape[0], int(math.ceil(cy + inner)) + 1)
    crop = rgb[y0:y1, x0:x1].astype(np.float32)
    yy, xx = np.mgrid[y0:y1, x0:x1]
    dist = np.hypot(xx + 0.5 - cx, yy + 0.5 - cy)
    ink = (np.linalg.norm(crop - np.asarray(s.fill, np.float32), axis=2) > INK_DISTANCE) & (dist <= inner)
    # the rim's band: a glyph sits clear of it; a cross or a line drawn through the circle reaches it. An italic
    # Greek letter may reach into its inner part (a σ's tail fills its circle), never into the outer
    near_rim = np.count_nonzero(ink & (dist > 0.8 * inner)) > 2
    if np.count_nonzero(ink & (dist > GREEK_REACH * inner)) > 2:
        return None
    glyph = ink_box(ink)
    if glyph is None or max(glyph.shape) < MIN_INK_PX:
        return None
    # a glyph is strokes: a solid disk inside a ring (a state machine's final state) fills its box
    if np.count_nonzero(glyph) > MAX_SOLID * glyph.size:
        return None
    # the glyph is the circle's own, about its centre (a letter set off-centre is no operator)
    rows, cols = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
    gx, gy = x0 + (cols[0] + cols[-1] + 1) / 2, y0 + (rows[0] + rows[-1] + 1) / 2
    if math.hypot(gx - cx, gy - cy) > 0.3 * inner:
        return None
    if near_rim:
        return _greek(glyph)
    if _ring_round_dot(glyph):
        return "⊙", float(glyph.shape[0])
    best, best_fit = None, GOOD_FIT
    for ch in OPERATORS + RIVALS:
        for face in FACES:
            tpl = template(ch, face) if load_face(face) is not None else None
            if tpl is not None and (f := fit(glyph, tpl)) >= best_fit:
                best, best_fit = ch, f
    return _greek(glyph) if best is None or best in RIVALS else (best, float(glyph.shape[0]))


def _ring_round_dot(glyph: np.ndarray) -> bool:
    """Whether a glyph is a ring with a dot at its centre and nothing between: TeX's ⊙ (``$\\odot$``) in a
    TikZ operator circle, d2l's ⊙ shrunk to half. TeX's 1 px ring fits the templates' ○ as well as their ⊙ (0.55
    each at 300 dpi), d2l's at half their ⊕ and ⊗ as well (0.76, 0.75): the dot, a few pixels, decides nothing
    there; here it does."""
    h, w = glyph.shape
    if min(h, w) < 2 * MIN_INK_PX or max(h, w) > 1.25 * min(h, w):
        return False
    ys, xs = np.nonzero(glyph)
    d = np.hypot((ys + 0.5 - h / 2) / (h / 2), (xs + 0.5 - w / 2) / (w / 2))  # each ink pixel's; 1 at the box's sides
    dot, gap, ring = np.count_nonzero(d < 0.35), np.count_nonzero((d > 0.42) & (d < 0.6)), d >= 0.65
    if dot < 4 or gap > 1:
        return False
    # the ring runs all the way round: ink in at least 14 of 16 directions
    angles = np.arctan2(ys[ring] + 0.5 - h / 2, xs[ring] + 0.5 - w / 2)
    return len(np.unique(((angles + np.pi) / (2 * np.pi) * 16).astype(int) % 16)) >= 14


def _greek(glyph: np.ndarray) -> tuple[str, float] | None:
    """An activation's lone Greek letter (a Mamba block's or a GRU's σ, set in a circle): the recogniser has no
    class for it; :func:`crafteditor.ocr.greek.read_greek` weighs it against its Latin look-alikes."""
    letter = read_greek(glyph)
    return None if letter is None else (letter, float(glyph.shape[0]))


def operator_font_size(glyph: str, ink_px: float, scale: float) -> float:
    """The font size (user units) at which ``glyph`` set in the theme's sans is ``ink_px`` tall."""
    tpl = template(glyph, FACES[0])
    font = load_face(FACES[0])
    if tpl is None or font is None:
        return round(ink_px * scale, 1)
    em = float(font.size)  # the template's size in pixels
    return round(max(6.0, ink_px * em / tpl.shape[0] * scale), 1)
