"""The renderer's font (DejaVu Sans, regular and bold) as the OCR measures readings against it:
the ink extents of a string in ems, and the font size and weight that make a reading as wide as
its ink (the ink height alone is a few pixels quantised by hinting).
"""

from __future__ import annotations

import threading
from functools import lru_cache

from fontTools.pens.boundsPen import BoundsPen
from fontTools.ttLib import TTFont

from crafter.base.text import font_path

_FONT_LOCK = threading.Lock()
SPACED_MIN_CHARS = 3
# a line is spaced where its ink is this much wider than it is drawn (share); narrower, at most SPACED_CLOSER
# (closer set, its letters would run into each other: a reading whose scripts went unread, 'Zin' for z_in)
SPACED_OFF = (0.02, 0.4)
SPACED_CLOSER = 0.22  # a bold condensed face (DIN's 'Service' is 0.8 of DejaVu Bold's width) is set closer
# ... but never closer than this share of the size a character: DejaVu's median gap between two letters' ink is
# 0.125 em (bold 0.114), its 10th percentile 0.056; closer, 'Service' ran its letters into each other and
# 'Source: R Graphics' lost its word gaps — a line narrower than that stands off its ink a little instead
SPACED_CLOSEST_EM = 0.05


@lru_cache(maxsize=None)
def _font(bold: bool):
    """DejaVu Sans (or Bold), opened lazily: (glyph set, codepoint → glyph name, units per em, advances).

    Opened once per face and process: with ``maxsize=2`` and three cache keys (``_font()``,
    ``_font(False)``, ``_font(True)``) the cache evicted on every text run, and reopening the
    fonts cost 0.14 s per figure (cProfile over the bench's 21 figures: 3.0 s of 30.6 s).
    """
    font = TTFont(str(font_path(bold)), lazy=True)
    return font.getGlyphSet(), font.getBestCmap(), font["head"].unitsPerEm, font["hmtx"].metrics


@lru_cache(maxsize=4096)
def _glyph_bounds(cp: int) -> tuple[float, float] | None:
    """Vertical ink extent (yMin, yMax) of one DejaVu Sans glyph, in ems (None: no glyph or no ink).

    Per character on demand: drawing the whole font up front cost 3.6 s per process
    (profiled on a 1188×672 diagram), more than the OCR of a figure.
    """
    glyphs, cmap, upem, _ = _font(False)
    name = cmap.get(cp)
    if name is None or cp > 0x2FFF:
        return None
    pen = BoundsPen(glyphs)
    with _FONT_LOCK:  # a lazily loaded font decompiles its tables on first touch
        glyphs[name].draw(pen)
    if pen.bounds is None:
        return None
    return pen.bounds[1] / upem, pen.bounds[3] / upem


@lru_cache(maxsize=4096)
def _glyph_x_extent(cp: int, bold: bool) -> tuple[float, float, float] | None:
    """(advance, ink xMin, ink xMax) of one DejaVu Sans glyph in ems (None: no glyph; no ink: xMin > xMax)."""
    glyphs, cmap, upem, hmtx = _font(bold)
    name = cmap.get(cp)
    if name is None or cp > 0x2FFF or name not in hmtx:
        return None
    pen = BoundsPen(glyphs)
    with _FONT_LOCK:
        glyphs[name].draw(pen)
    advance = hmtx[name][0] / upem
    if pen.bounds is None:
        return advance, 1.0, 0.0
    return advance, pen.bounds[0] / upem, pen.bounds[2] / upem


def ink_width_em(text: str, bold: bool = False) -> float | None:
    """Horizontal ink extent of one line of ``text`` in ems (DejaVu Sans, no kerning; None: unknown glyphs)."""
    pen_x, left, right = 0.0, None, None
    for ch in text:
        g = _glyph_x_extent(ord(ch), bold)
        if g is None:
            return None
        advance, x0, x1 = g
        if x0 <= x1:
            left = pen_x + x0 if left is None else left
            right = pen_x + x1
        pen_x += advance
    if left is None or right is None:
        return None
    return right - left


def size_and_weight_from_width(text: str, ink_w: float, font_px: float, bold: bool) -> tuple[float, bool]:
    """(font size, bold) that make ``text`` as wide as its ink, where that agrees with the height's estimate.

    The ink height of a line is a few pixels quantised by hinting (one pixel is 6% of a
    10 px label at 150 dpi); its width spans many glyphs and pins the size to about 1%.
    A width far from the height's estimate means the reading is not the drawn text
    (a missed glyph, a box edge in the crop) or the font is not DejaVu: keep the height's.
    Bold glyphs are ~13% wider, so a line the stroke test called bold whose width fits
    the regular face (and not the bold one) is regular: the stroke test errs on dark
    anti-aliasing, the width does not.
    """
    if len(text.replace(" ", "")) < 4:
        return font_px, bold
    em_regular, em_bold = ink_width_em(text, False), ink_width_em(text, True)
    if not em_regular or not em_bold:
        return font_px, bold
    off_regular = abs(ink_w / em_regular / font_px - 1.0)
    off_bold = abs(ink_w / em_bold / font_px - 1.0)
    if bold and off_regular <= 0.04 and off_bold >= 0.09:
        bold = False
    by_width = ink_w / (em_bold if bold else em_regular)
    return (by_width if abs(by_width / font_px - 1.0) <= 0.12 else font_px), bold


def fitted_spacing(text: str, ink_w: float, font_size: float, bold: bool) -> float | None:
    """The letter spacing (added after each character, the units of ``ink_w``) that sets ``text`` at
    ``font_size`` as wide as ``ink_w``, its ink's width: the drawn face is narrower or wider than DejaVu
    Sans (Verdana, Arial, Helvetica), and a line drawn narrower than its ink stands off it at both ends.
    None where the renderer's width is within 2 % of the ink's already, more than 40 % under it or 22 %
    over it (a reading that is not the drawn text), or unknown (a glyph DejaVu lacks; under three characters).
    Set closer, never by more than ``SPACED_CLOSEST_EM`` a character: the letters keep apart."""
    if len(text) < SPACED_MIN_CHARS:
        return None
    em = ink_width_em(text, bold)
    if not em:
        return None
    drawn = em * font_size
    off = ink_w / drawn - 1.0
    if not SPACED_OFF[0] <= abs(off) <= (SPACED_OFF[1] if off > 0 else SPACED_CLOSER):
        return None
    return max((ink_w - drawn) / (len(text) - 1), -SPACED_CLOSEST_EM * font_size)


def ink_extent_em(text: str) -> tuple[float, float]:
    """(lowest, highest) ink of ``text`` relative to the baseline, in ems (DejaVu Sans)."""
    lo, hi = [], []
    for ch in text:
        b = _glyph_bounds(ord(ch))
        if b is not None:
            lo.append(b[0])
            hi.append(b[1])
    if not lo:
        return -0.2, 0.73
    return min(lo), max(hi)
