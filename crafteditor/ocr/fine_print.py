"""Print too small for the detector: lines of glyphs ~3 px tall found from their own ink.

A Mermaid flowchart drawn at scale < 0.5 into a README's column sets its labels in glyphs whose x-height
is ~3 px and whose ink, anti-aliased, is grey (150-200 on a white page): too light for the dark-ink glyph
height (:func:`~crafteditor.text_regions.typical_glyph_height` found none, so the page was not taken for
small print) and too small for rapidocr's detector at any size it can afford (drawn mermaid-wild seed 20's
mw_026: 0 lines at 2×, 6 at 4×, 17 pieces of words at 6×, 1.1 CPU-s). Its boxes came back empty and their
links were lost.

The lines are found here from the ink instead (:func:`fine_print_boxes`): pixels clearly darker than the
page, their components of glyph size (2-6 px tall, no solid dot or square), joined along rows by a gap
under a word space; a row of them three times times as wide as tall, is a line.
It fires only where it should (:func:`unfound`): the page has no typical glyph height of ordinary type, at
least :data:`MIN_ROWS` such rows, and the detector left most of them out. Pages whose text was found,
charts' plot areas (markers are solid), photos (no rows of small pieces on a flat page) and hand-drawn
strokes (long components) do not fire, and pay only for the check. The recogniser reads the rows as it
reads the detector's lines, and small print's re-read at working sizes (:mod:`crafteditor.ocr.small_print`)
then reads each again upscaled.

Measured (not wired into :func:`~crafteditor.ocr.text_lines.line_jobs`): on mermaid-wild seed 20's four column
figures with no typical glyph height (mw_016, mw_020, mw_026, mw_028) it found the rows (mw_026: 38 rows, the
detector 2), but rapidocr's recogniser reads none of them: at 1×, bilinear 4×, and contrast-stretched
bicubic 4×/6× with or without a gamma the readings are junk ('Naty nine lier' for 'Ready review filter',
confidence 0.4-0.7); words kept 0.0% -> 0.4% on the four, 1-5 CPU-s more on each. Kept for a recogniser that
can read ~3 px print.
"""

from __future__ import annotations

import cv2
import numpy as np

from crafteditor.blobs import find_blobs

INK_CONTRAST = 45  # grey levels under the page's: fine print's anti-aliased ink (its darkest 120-180 on 255)
GLYPH_MIN, GLYPH_MAX = 2, 6  # px: a fine glyph's component is this tall (an 'i' dot to a capital with a descender)
WORD_GAP = 3  # px: glyphs of one line this close (a word space at ~3 px x-height is 2-3 px)
WORD_LONG = 15  # a piece is this many times as wide as tall at most (a long word run together)
SOLID = 0.85  # a piece this full of ink is a dot, a marker or a rule, no glyph
MIN_ROWS = 4  # rows on the page before the pass fires
UNFOUND_SHARE = 0.5  # and at least this share of them outside every detector box
LINE_MAX = 9  # px: a row is at most this tall


def fine_print_boxes(gray: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Rows of fine glyphs (x0, y0, x1, y1, image pixels) in a page's grey image (dark ink on a light page)."""
    page = float(np.median(gray[::2, ::2]))
    ink = gray < page - INK_CONTRAST
    n, _, stats, _ = find_blobs(ink)
    st = stats[1:]
    x, y, w, h, area = st.T
    fill = area / np.maximum(w * h, 1)
    # at this size a word's glyphs run together into one piece (at 3 px 'valid' is one component 8×3):
    # up to a long word wide; a solid dot, square or bar (a marker, a rule) is none
    glyph = (h >= GLYPH_MIN) & (h <= GLYPH_MAX) & (w <= WORD_LONG * h) & (fill < SOLID)
    if glyph.sum() < MIN_ROWS:
        return []
    H, W = gray.shape
    m = np.zeros((H, W), np.uint8)
    for xi, yi, wi, hi in st[glyph, :4]:
        m[yi:yi + hi, xi:xi + wi] = 1
    joined = cv2.dilate(m, np.ones((1, 2 * WORD_GAP + 1), np.uint8))
    rn, lab, rst, _ = find_blobs(joined)
    cx, cy = x[glyph] + w[glyph] // 2, y[glyph] + h[glyph] // 2
    counts = np.bincount(lab[cy, cx], minlength=rn)
    out = []
    for i in range(1, rn):
        X, Y, Wd, Hd = (int(v) for v in rst[i, :4])
        if counts[i] and Hd <= LINE_MAX and Wd >= 3 * Hd:
            out.append((X + WORD_GAP, Y, X + Wd - WORD_GAP, Y + Hd))
    return out


def unfound(rows: list[tuple[int, int, int, int]], quads: list[np.ndarray]) -> list[tuple[int, int, int, int]]:
    """The rows whose centre no detector quadrilateral's box holds."""
    boxes = [(q[:, 0].min(), q[:, 1].min(), q[:, 0].max(), q[:, 1].max()) for q in quads]
    return [r for r in rows if not any(b[0] <= (r[0] + r[2]) / 2 <= b[2] and b[1] <= (r[1] + r[3]) / 2 <= b[3]
                                       for b in boxes)]


def fine_print_quads(gray: np.ndarray, glyph_h: float | None, quads: list[np.ndarray]) -> list[np.ndarray]:
    """Quadrilaterals (4×2, image pixels) of fine-print rows the detector left out, on a page with no typical
    glyph of ordinary type (``glyph_h`` None) where at least :data:`MIN_ROWS` rows lie and the detector's
    ``quads`` miss :data:`UNFOUND_SHARE` of them at least; none elsewhere."""
    if glyph_h is not None:
        return []
    rows = fine_print_boxes(gray)
    if len(rows) < MIN_ROWS:
        return []
    missed = unfound(rows, quads)
    if len(missed) < UNFOUND_SHARE * len(rows):
        return []
    return [np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float32) for x0, y0, x1, y1 in missed]
