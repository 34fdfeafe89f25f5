"""Text lines for the recogniser: the detector's boxes → glyph masks → lines → crops.

The detector runs on a mosaic of the places text can be (:mod:`crafteditor.text_regions`), on the
image resized until its glyphs are a set height (:func:`detection_scale`). Each box's glyphs are
told from strokes that cross it; boxes holding several stacked lines are split, and tall boxes
are cut into crops at each plausible angle, so rotated text (y-axis titles read bottom-to-top)
is read both ways; a box set at a slant (20° to 70°) is cut deskewed and its line keeps the angle.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from crafteditor.blobs import find_blobs, merge_rects
from crafteditor.ocr.engine import OcrEngine
from crafteditor.paint import darkest_color, distances
from crafteditor.text_regions import dark_components, regions_at, typical_glyph_height

DETECT_GLYPH_HEIGHT = 14.0  # px: large figures are shrunk for the detector until glyphs are this tall
SMALL_PRINT = 6.0  # px: a figure whose typical glyph is this tall at most is set in small print, and upscaled
# further for the detector where the bounds leave its glyphs under DETECT_GLYPH_HEIGHT (scale_at)...
MAX_UPSCALE = 4.0  # ...by this much at most...
MAX_DETECT_PIXELS = 2_500_000  # ...and to this many pixels of resized image at most
DARK_PAGE = 90  # a page whose median grey is under this is dark: its text is light
PLATE_SHARE = 0.05  # a label's plate covers this share of the detector's box, at least (plate_background)
PLATE_CONTRAST = 120  # and differs from the box's border colour by this (summed over R, G, B), at least
INNER_PLATE_SHARE = 0.3  # a plate under the glyphs covers this share of the detector's box, at least (inner_plate)
K3 = np.ones((3, 3), np.uint8)
GROUND_TOLERANCE = 40.0  # a glyph's ring pixel this close to the plate's colour is on the plate (_on_one_ground)
GROUND_SHARE = 0.8  # of the ring around the glyphs, this share on the plate at least
ENDS_INK = 60.0  # RGB distance from the box's ground at which a pixel on its side is a cut glyph's ink (whole_end_glyphs)
ENDS_COLOUR = 150.0  # and its ink this close (summed over R, G, B) to the box's ink in colour
END_REACH = 0.8  # a cut glyph is followed out this many box heights at most
SLANT_LENGTH = 1.7  # a slanted detector box is this many times as long as it is thick at least (a line, no glyph)
PLATE_GLYPHS = 2  # a box with fewer glyph pixels than this many times its height is looked at for a plate


@dataclass
class TextLine:
    mask: np.ndarray  # glyph mask of the line, in region coordinates
    y0: int  # region-relative ink box
    x0: int
    vertical: bool
    slant: float = 0.0  # degrees a slanted line runs at (SVG's rotate: -45 rises to the right); 0: upright or sideways


def line_jobs(rgb: np.ndarray, bgr: np.ndarray, engine: OcrEngine, regions: bool = True) -> list[tuple]:
    """The detector's lines, each as (background, crops at its plausible angles, region origin
    (y0, x0), the line, its region): what :func:`crafteditor.ocr.read.read_text` recognises (and
    what the reader's training pages are cut into, :mod:`crafteditor.training.reader_data`).
    ``regions``: detect on a mosaic of the places text can be (:mod:`crafteditor.text_regions`),
    not the whole image."""
    h, w = rgb.shape[:2]
    gray = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    dark_page = float(np.median(gray)) < DARK_PAGE
    if dark_page:
        # a dark page (a slide, a dark theme): its text is the light ink. Sought as dark ink, the
        # glyph sizes and text regions were the page's dark boxes, and 9 of 10 labels went unread
        gray = 255 - gray
        # and the detector sees it inverted, dark on light as it was trained: light on black it
        # missed nearly every one- and two-glyph tick label of a dark_background scatter ('0',
        # '−2', '6'), the x axis read as categories and every value was lost (issue 31)
        bgr = 255 - bgr
    dark = dark_components(gray)
    glyph_h = typical_glyph_height(dark)  # the scale's and the regions' glyph height, measured once
    quads = engine.detect_scaled(bgr, scale_at(rgb.shape, glyph_h), regions_at(gray, dark, glyph_h) if regions else None)
    jobs: list[tuple] = []
    for x0, y0, x1, y1, slant in line_boxes(quads, w, h):
        if not slant:
            x0, x1 = whole_end_glyphs(rgb, x0, y0, x1, y1)
        region = rgb[y0:y1, x0:x1]
        bg = region_background(region)
        glyph, crossing = glyph_mask(region, bg)
        # (on a dark page only: on a light one, white labels on bars read so changed how a stacked
        # bar chart's printed values were taken, Altair's barley: values 1.0 -> 0.7)
        plate = plate_background(region, bg) if dark_page and glyph.sum() < PLATE_GLYPHS * region.shape[0] else None
        if plate is not None:  # glyphs on a plate the box's border is not: read against the plate
            on_plate, plate_crossing = glyph_mask(region, plate)
            if on_plate.sum() > glyph.sum():
                bg, glyph, crossing = plate, on_plate, plate_crossing
        elif not glyph.any() and (plate := inner_plate(region, bg)) is not None:
            # nothing read against the border: the glyphs' ground is a fill the border is not
            on_plate, plate_crossing = glyph_mask(region, plate)
            if on_plate.any() and _on_one_ground(region, on_plate, plate):
                bg, glyph, crossing = plate, on_plate, plate_crossing
        for line in _slanted_line(glyph, slant) if slant else split_lines(glyph):
            jobs.append((bg, line_crops(region, line, bg), (y0, x0), line, region))
        if crossing.any() and not slant:
            # the line is no part of the text, so it is painted out of the crop (and of the ink
            # the stroke-width and colour estimates look at) — but where it runs down a glyph's
            # stem that loses the glyph ('layel's'): both are read, and dedupe keeps the more
            # confident reading of the line
            region = region.copy()
            region[crossing] = bg
            for line in split_lines(glyph):
                jobs.append((bg, line_crops(region, line, bg), (y0, x0), line, region))
    return jobs


def detection_scale(rgb: np.ndarray, dark: np.ndarray | None = None) -> float:
    """How much to resize the image for the text detector: until the typical glyph (median
    height of the dark components of glyph size) is ``DETECT_GLYPH_HEIGHT`` px tall.

    The detector used to see every small figure upscaled to a short side of 736 px (at most
    2×, never beyond 2000 px on the long side), whatever its glyphs: a 150 dpi chart (15 px
    glyphs) went in at 1.44×, a narrow 150 dpi diagram at 1.84×. That bound stays, and the
    glyph height now caps it (never below 1×): on ``crafteditor bench -n 6 --examples``
    26% fewer detector pixels for the same words, boxes, arrows and chart values. What the
    detector then missed were lone glyphs on a node's fill (the '+' of a summation node), which
    the lone-glyph pass now reads. Large figures are shrunk the same way (to 0.25× at most): on
    generated 300 dpi figures (``--dpi 300``) the same words, boxes and arrows for 40% less CPU.
    """
    if dark is None:
        dark = dark_components(cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY))
    return scale_at(rgb.shape[:2], typical_glyph_height(dark))


def scale_at(shape: tuple[int, ...], glyph_h: float | None) -> float:
    """:func:`detection_scale` of an image of ``shape`` (h, w), its typical glyph height known
    (:func:`~crafteditor.text_regions.typical_glyph_height`; None where under ten glyphs).

    Small print (typical glyph :data:`SMALL_PRINT` px at most) that the bounds above leave under
    :data:`DETECT_GLYPH_HEIGHT` px is upscaled further until its glyphs are that tall, at most
    :data:`MAX_UPSCALE`× and :data:`MAX_DETECT_PIXELS` pixels in all: a wide Mermaid flowchart
    shrunk to a README's column and screenshotted at 1× (862×178, 4 px glyphs) reached the detector
    at 2×, and labels went undetected ('Delete order'; issue 31). Taken to 10 px glyphs first (2.5× at
    4 px), the detector still left out short link labels on their plates ('render', 'restore export' of
    mermaid-wild seed 18's mw_000, found from 3× on); at the detector's own height, on that set's 11 column
    figures of glyphs <= 6 px, the runs read 306 truth words of 498, 297 at 10 px. Not for 7-8 px glyphs: on dev
    that raised three state machines and an architecture diagram, but split a sequence diagram's
    bold notes where they cross its coloured lifeline bands (words 0.88 -> 0.76)."""
    h, w = shape[:2]
    short = min(h, w)
    limit = min(max(736, short), 2000 * short / max(h, w), max(2 * short, 64))
    by_glyph = None if glyph_h is None else DETECT_GLYPH_HEIGHT / glyph_h
    if limit > short:
        up = limit / short
        if by_glyph is None:
            return up
        scale = max(1.0, min(up, by_glyph))
    else:
        scale = 1.0 if by_glyph is None else float(np.clip(by_glyph, 0.25, 1.0))
    if glyph_h is not None and glyph_h <= SMALL_PRINT and glyph_h * scale < DETECT_GLYPH_HEIGHT:
        budget = math.sqrt(MAX_DETECT_PIXELS / max(1, h * w))
        scale = max(scale, min(DETECT_GLYPH_HEIGHT / glyph_h, MAX_UPSCALE, budget))
    return scale


def line_boxes(quads: list[np.ndarray], w: int, h: int) -> list[tuple[int, int, int, int, float]]:
    """The detector's quadrilaterals as upright boxes (x0, y0, x1, y1, slant) with a margin, within the
    image (w × h), the pieces of one rotated line joined; ``slant``: the angle a slanted line runs at
    (:func:`slant_of`), 0 for the rest. A slanted line's box is no part of a rotated line: its wide upright
    box had swallowed the label of the node below it, as wide (a state machine's 'UnschedulableQ' under a
    message along a diagonal arrow; issue 31)."""
    rects, slanted = [], []
    for q in quads:
        x0 = max(0, int(math.floor(q[:, 0].min())) - 2)
        y0 = max(0, int(math.floor(q[:, 1].min())) - 2)
        x1 = min(w, int(math.ceil(q[:, 0].max())) + 3)
        y1 = min(h, int(math.ceil(q[:, 1].max())) + 3)
        if x1 - x0 >= 3 and y1 - y0 >= 3:
            slant = slant_of(q)
            if slant:
                slanted.append((x0, y0, x1, y1, slant))
            else:
                rects.append((x0, y0, x1, y1))
    return [(*r, 0.0) for r in _merge_vertical(rects)] + slanted


def whole_end_glyphs(rgb: np.ndarray, x0: int, y0: int, x1: int, y1: int) -> tuple[int, int]:
    """The box's ends (x0, x1) moved out past a glyph its side cuts. The detector's box may end
    inside a line's first or last glyph (hand-drawn and serif faces run past its quadrilateral),
    and a glyph the box's side cuts is dropped as a neighbouring stroke: 'InstanceManag',
    'Transfo', 'objec', 'evel' (issue 31). Ink on a side, clear of the box's top and bottom
    rows, is followed out by up to :data:`END_REACH` box heights; where it ends there, in the
    colour of the box's other ink, the box takes it in; where it runs on (an axis, a box's side,
    an arrow) or is of another colour (an icon beside the label) the box stays."""
    H, W = y1 - y0, x1 - x0
    if W < H or H < 6:
        return x0, x1
    bg = region_background(rgb[y0:y1, x0:x1])
    for side in (0, 1):
        col = rgb[y0:y1, x1 - 1 if side else x0]
        hit = distances(col[None], bg)[0] > ENDS_INK
        if not hit.any() or hit[0] or hit[-1]:
            continue
        reach = int(math.ceil(END_REACH * H))
        # the box and a strip out from its side
        a, b = (x0, min(rgb.shape[1], x1 + reach)) if side else (max(0, x0 - reach), x1)
        edge_col = (x1 - 1 - a) if side else (x0 - a)
        window = rgb[y0:y1, a:b]
        ink = distances(window, bg) > ENDS_INK
        n, lab, stats, _ = find_blobs(ink)
        ids = set(int(v) for v in lab[hit, edge_col]) - {0}
        if not ids:
            continue
        cut = np.isin(lab, list(ids))
        xs, ys, ws, hs = stats[:, 0], stats[:, 1], stats[:, 2], stats[:, 3]
        free = all(ys[i] > 0 and ys[i] + hs[i] < H and (xs[i] + ws[i] < b - a if side else xs[i] > 0) for i in ids)
        box_cols = slice(0, edge_col + 1) if side else slice(edge_col, None)
        if (not free or not _same_ink(window, ink, cut, bg) or not _near_rest(ink[:, box_cols], cut[:, box_cols], H)
                or _stub(cut, edge_col, side, H)):
            continue
        cols = np.flatnonzero(cut.any(axis=0))
        if side:
            x1 = min(rgb.shape[1], a + int(cols[-1]) + 3)
        else:
            x0 = max(0, a + int(cols[0]) - 2)
    return x0, x1


def _stub(cut: np.ndarray, edge_col: int, side: int, h: int) -> bool:
    """Whether the cut ink runs out of the box as a connector's stub, no glyph: its part outside the box
    a stroke under a fifth of the box's height, more than half its height long (a Mermaid link touching
    the last letter of its edge label, 'search' or 'train' on a tight plate, had been taken in with the
    letter and the link lost at the label)."""
    outside = cut[:, edge_col + 1:] if side else cut[:, :edge_col]
    rows, cols = np.flatnonzero(outside.any(axis=1)), np.flatnonzero(outside.any(axis=0))
    return bool(rows.size and rows[-1] - rows[0] + 1 < 0.2 * h and cols[-1] - cols[0] + 1 > 0.5 * h)


def _near_rest(ink: np.ndarray, cut: np.ndarray, h: int) -> bool:
    """Whether the cut glyph (``cut``) stands within a letter gap (0.35 box heights) of the box's
    other ink: the next word's first letter, a word space away, is no glyph of this box's (a box
    round 'Input' ending 1 px into the 'D' of 'Data' had grown over it). True where the box holds
    no other ink."""
    rest = np.flatnonzero((ink & ~cut).any(axis=0))
    cols = np.flatnonzero(cut.any(axis=0))
    if not rest.size or not cols.size:
        return True
    gap = np.maximum(0, np.maximum(cols[0] - rest, rest - cols[-1]) - 1)
    return int(gap.min()) <= 0.35 * h


def _same_ink(window: np.ndarray, ink: np.ndarray, cut: np.ndarray, bg: np.ndarray) -> bool:
    """Whether the cut glyph's ink (``cut``) is of the colour of the window's other ink: an icon
    beside a label (an ER table's golden key before 'id') is not taken in as a letter."""
    rest = ink & ~cut
    if not rest.any():
        return True
    # each the colour of its quarter of pixels farthest from the ground (a thin glyph is mostly antialiased rim)
    a, b = darkest_color(window, cut, bg, share=0.25), darkest_color(window, rest, bg, share=0.25)
    return float(np.abs(a - b).sum()) <= ENDS_COLOUR


def slant_of(quad: np.ndarray) -> float:
    """The angle a detector quadrilateral runs at where it runs along a slant (20° to 70° from the axes)
    and is longer than a glyph pair, in SVG's rotate degrees (y down: -45 rises to the right, 45 falls),
    read left to right; 0 for the rest. Text along a diagonal arrow, a chart's 45° category labels, a
    layer's size in PlotNeuralNet: no upright or rotated crop reads it, the deskewed crop does
    (:func:`line_crops`)."""
    (x0, y0), (x1, y1), (x2, y2) = quad[0], quad[1], quad[2]
    a, b = math.hypot(x1 - x0, y1 - y0), math.hypot(x2 - x1, y2 - y1)
    dx, dy = (x1 - x0, y1 - y0) if a >= b else (x2 - x1, y2 - y1)
    if max(a, b) < SLANT_LENGTH * max(1.0, min(a, b)):
        return 0.0
    if dx < 0:
        dx, dy = -dx, -dy
    angle = math.degrees(math.atan2(float(dy), float(dx)))
    return angle if 20 <= abs(angle) <= 70 else 0.0


def _slanted_line(glyph: np.ndarray, slant: float) -> list[TextLine]:
    """A slanted box's glyphs as lines at its slant, cut to their ink: stacked lines (a diagonal arrow's
    'moveRequest /' over 'flushUnschedulableQLeftover') told apart where the glyphs are turned level."""
    h, w = glyph.shape
    m, size = _level_matrix(h, w, slant)
    level = cv2.warpAffine(glyph.astype(np.uint8) * 255, m, size) >= 128
    rows = _merge_close(_bands(level.sum(axis=1)), gap=0)
    tall = max((b - a for a, b in rows), default=0)
    if len(rows) >= 2 and all(b - a >= 0.45 * tall for a, b in rows):
        # each row's glyphs, turned back onto the box (a row band is cut halfway into the gaps around it)
        cuts = [0] + [(rows[i][1] + rows[i + 1][0]) // 2 for i in range(len(rows) - 1)] + [level.shape[0]]
        parts = []
        for a, b in zip(cuts, cuts[1:]):
            band = np.zeros(level.shape, np.uint8)
            band[a:b] = 255
            parts.append(glyph & (cv2.warpAffine(band, m, (w, h), flags=cv2.WARP_INVERSE_MAP) >= 128))
    else:
        parts = [glyph]
    out = []
    for part in parts:
        ys, xs = np.nonzero(part)
        if ys.size:
            y0, x0 = int(ys.min()), int(xs.min())
            out.append(TextLine(part[y0:ys.max() + 1, x0:xs.max() + 1], y0, x0, False, slant))
    return out


def _level_matrix(h: int, w: int, slant: float) -> tuple[np.ndarray, tuple[int, int]]:
    """The affine map that turns an h × w image by -``slant`` about its centre onto a canvas that holds
    it whole, and that canvas's (width, height)."""
    rad = math.radians(slant)
    W = int(math.ceil(w * abs(math.cos(rad)) + h * abs(math.sin(rad)))) + 2
    H = int(math.ceil(w * abs(math.sin(rad)) + h * abs(math.cos(rad)))) + 2
    m = cv2.getRotationMatrix2D((w / 2, h / 2), slant, 1.0)
    m[0, 2] += W / 2 - w / 2
    m[1, 2] += H / 2 - h / 2
    return m, (W, H)


def deskewed(image: np.ndarray, mask: np.ndarray, slant: float, fill: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``image`` and its glyph ``mask`` (the same shape) turned by -``slant`` so the slanted line runs level,
    both cut to the turned glyphs' ink; the corners the turn uncovers filled with ``fill``."""
    m, size = _level_matrix(*mask.shape, slant)
    level = cv2.warpAffine(image, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                           borderValue=[int(v) for v in np.atleast_1d(fill)])
    level_mask = cv2.warpAffine(mask.astype(np.uint8) * 255, m, size, flags=cv2.INTER_LINEAR) >= 128
    ys, xs = np.nonzero(level_mask)
    if ys.size == 0:
        return level, level_mask
    y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    return level[y0:y1, x0:x1], level_mask[y0:y1, x0:x1]


def _merge_vertical(rects: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Join detector boxes that split one rotated line (a y-axis title) into words."""
    return merge_rects(rects, _one_rotated_line)


def _one_rotated_line(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    """Whether two detector boxes are parts of one rotated line (words, or letters stacked)."""
    wa, wb = a[2] - a[0], b[2] - b[0]
    tall_a, tall_b = (a[3] - a[1]) >= 1.4 * wa, (b[3] - b[1]) >= 1.4 * wb
    similar = 0.7 <= wa / max(1, wb) <= 1.4
    overlap_x = min(a[2], b[2]) - max(a[0], b[0])
    gap_y = max(a[1], b[1]) - min(a[3], b[3])
    # a rotated word split into letters: small boxes stacked almost touching (not
    # two wide lines: a title over a node's label had been read as one crop, as nothing)
    squat = wa <= 2 * (a[3] - a[1]) and wb <= 2 * (b[3] - b[1])
    letters = similar and squat and overlap_x >= 0.8 * min(wa, wb) and gap_y <= 0.3 * max(wa, wb)
    if not letters and (not (tall_a or tall_b) or not (tall_a and tall_b or similar)):
        return False
    return overlap_x >= 0.6 * min(wa, wb) and gap_y <= 0.8 * max(wa, wb)


def region_background(region: np.ndarray) -> np.ndarray:
    border = np.concatenate([region[0], region[-1], region[:, 0], region[:, -1]]).reshape(-1, 3)
    return _commonest_colour(border)[0]


def _commonest_colour(pixels: np.ndarray) -> tuple[np.ndarray, int]:
    """The commonest colour of (N, 3) ``pixels`` (N > 0), and how many pixels have it."""
    px = pixels.astype(np.int32)
    packed = (px[:, 0] << 16) | (px[:, 1] << 8) | px[:, 2]
    vals, counts = np.unique(packed, return_counts=True)
    k = int(counts.argmax())
    v = int(vals[k])
    return np.array([(v >> 16) & 255, (v >> 8) & 255, v & 255], dtype=np.uint8), int(counts[k])


def plate_background(region: np.ndarray, bg: np.ndarray) -> np.ndarray | None:
    """The colour of a label's plate in the detector's box, where the box holds plates and page
    around them (light pills on a dark page, draw.io's dark theme: each pill had been taken for one
    glyph, dropped as too big, and its 'e1-49' read as '·'): the commonest colour well apart from
    the border's ``bg``, covering :data:`PLATE_SHARE` of the box at least; None where there is none."""
    flat = region.reshape(-1, 3).astype(np.int32)
    far = np.abs(flat - bg.astype(np.int32)).sum(axis=1) > PLATE_CONTRAST
    if far.sum() < PLATE_SHARE * len(flat):
        return None
    colour, count = _commonest_colour(flat[far])
    return colour if count >= PLATE_SHARE * len(flat) else None


def inner_plate(region: np.ndarray, bg: np.ndarray) -> np.ndarray | None:
    """The fill a label is set on where the detector's box reaches past it (its border on the page):
    the commonest colour of the box, covering :data:`INNER_PLATE_SHARE` of it and well apart from the
    border's ``bg``; None where there is none. A bar's printed value fills the bar's height, and
    Mermaid's edge labels sit on plates as tight as the text: read against the border, a plate that
    touched the box's sides was dropped with the white glyphs on it, and nothing was read (Altair's
    barley, Mermaid's dark theme on a white page; issue 31). Only there is the plate looked for:
    where the border's reading took a plate for one glyph (a dark theme's edge label, its last
    letter lost at the plate's edge: 'resume signa'), reading against the plate left the plate a
    filled box, which assembly made a node (G_daedalus_pipeline nodes 0.88 -> 0.76)."""
    colour, count = _commonest_colour(region.reshape(-1, 3))
    if count < INNER_PLATE_SHARE * region.shape[0] * region.shape[1]:
        return None
    return colour if int(np.abs(colour.astype(np.int32) - bg.astype(np.int32)).sum()) > PLATE_CONTRAST else None


def _on_one_ground(region: np.ndarray, glyph: np.ndarray, plate: np.ndarray) -> bool:
    """Whether the glyphs stand on the plate all round: a line over two fills (a stacked bar's
    values '55.5 43.6' in one detector box over two segments) is left unread, as one run across
    both it had cut the bars of its row apart for the chart reader (Altair's barley: values 1.0 -> 0.7)."""
    near = cv2.dilate(glyph.astype(np.uint8), K3)
    ring = cv2.dilate(near, K3, iterations=2).astype(bool) & ~near.astype(bool)
    if not ring.any():
        return False
    return float((distances(region, plate)[ring] <= GROUND_TOLERANCE).mean()) >= GROUND_SHARE


def glyph_mask(region: np.ndarray, bg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Pixels of glyphs: far enough from the local background, minus strokes that cross the box;
    and the pixels of a line drawn across or along the glyphs (empty when there is none)."""
    dist = distances(region, bg)
    contrast = float(np.percentile(dist, 99.5)) if dist.size else 0.0
    ink = dist > max(30.0, 0.35 * contrast)
    mask = _glyph_components(ink)
    # a vertical line drawn across the label (an arrow through a group's title) joins the
    # glyphs it touches into one component crossing the box, dropped whole: take the line out
    # and look again, so those glyphs are read (not 'gr dients') and erased, and the line is
    # left whole for the line finder (it had taken the unread 'a' for an arrowhead)
    H, W = ink.shape
    rest = ink & ~mask
    none = np.zeros_like(ink)
    if not mask.any() or not rest.any():
        return mask, none
    # a line: columns of dropped ink with a vertical run across the box or 2.5 glyphs long (the
    # detector's box may hold two lines, or the line end in an arrowhead inside it); or rows of it
    # with a horizontal run across the box: an arrow's shaft under its label that the descenders
    # touch ('ExecRequest' over a sequence diagram's message had come back 'ExecR uest', 'Proxy' 'Prox')
    n, _, stats, _ = find_blobs(mask)
    glyph_h = float(np.median(stats[1:, 3]))
    cols = _longest_runs(rest) >= min(0.9 * H, 2.5 * glyph_h)
    rows = _longest_runs(rest.T) >= 0.9 * W
    cols &= cols.sum() <= 4
    rows &= rows.sum() <= 4
    if not cols.any() and not rows.any():
        return mask, none
    lines = np.zeros_like(ink)
    lines[:, cols] = True
    lines[rows, :] = True
    # only glyph-sized pieces the line touched, within the kept glyphs' rows (down or up to a shaft
    # the descenders or ascenders reach), come back (not a frame's corner or a box's top, not the
    # arrowhead the line ends in below the label)
    ys = np.flatnonzero(mask.any(axis=1))
    top, bottom = int(ys[0]), int(ys[-1]) + 1
    for r in np.flatnonzero(rows):
        if bottom <= r <= bottom + 0.6 * glyph_h:
            bottom = int(r)
        elif top - 0.6 * glyph_h <= r < top:
            top = int(r) + 1
    band = np.zeros_like(ink)
    band[top:bottom] = True
    pieces = rest & ~lines & band
    near = cv2.dilate(lines.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    n, lab, stats, _ = find_blobs(pieces)
    touched = False
    for i in range(1, n):
        x, y, cw, ch, _ = stats[i]
        if x > 0 and x + cw < W and ch <= 1.5 * glyph_h and cw <= 2 * glyph_h:
            piece = lab == i
            if (piece & near).any():
                mask |= piece
                touched = True
    if not touched:
        # a shaft no letter touched is only a box's side within the detector's margin: nothing to paint
        # out, and no second reading of the line (whose extra crops change the recogniser's batches)
        lines[:] = False
        lines[:, cols] = True
    return mask, lines & rest


def _longest_runs(mask: np.ndarray) -> np.ndarray:
    """The longest vertical run of True in each column of ``mask``."""
    out = np.zeros(mask.shape[1], int)
    run = np.zeros(mask.shape[1], int)
    for row in mask:  # row by row: a box is a few dozen rows tall, and hundreds of columns wide
        run = (run + 1) * row
        np.maximum(out, run, out=out)
    return out


def _glyph_components(ink: np.ndarray) -> np.ndarray:
    """The components of ``ink`` that do not run into the detector box's sides."""
    n, lab, stats, _ = find_blobs(ink)
    H, W = ink.shape
    x, y, cw, ch = stats[:, 0], stats[:, 1], stats[:, 2], stats[:, 3]
    sides = (x == 0).astype(int) + (y == 0) + (x + cw >= W) + (y + ch >= H)
    inside = [i for i in range(1, n) if sides[i] == 0]
    # the long side of the glyphs that stand clear of the box's edges
    glyph_long = float(np.median(np.maximum(cw[inside], ch[inside]))) if inside else None
    keep = np.zeros(n, dtype=bool)
    for i in range(1, n):
        # the detector's box has a margin around the glyphs: what touches its edge is usually
        # a neighbouring stroke (a box border, an axis, a diamond's slanted side) — unless it is
        # a glyph filling much of a tight box (upright or rotated), touching one side only
        if sides[i] >= 2 or (sides[i] == 1 and ch[i] < 0.45 * H and cw[i] < 0.45 * W):
            continue
        long, short = max(cw[i], ch[i]), min(cw[i], ch[i])
        if sides[i] == 1 and glyph_long is not None and long >= 3 * glyph_long and short <= max(4, 0.1 * long):
            # a stroke many glyphs long along the box's side: the y axis beside a column of tick
            # labels, whose boxes had been joined into one (matplotlib's classic style sets its
            # labels close to the axis: the column was read as one rotated line, '8..2...68')
            continue
        keep[i] = True
    return keep[lab]


def _bands(profile: np.ndarray) -> list[tuple[int, int]]:
    on = profile > 0
    bands = []
    start = None
    for i, v in enumerate(on):
        if v and start is None:
            start = i
        elif not v and start is not None:
            bands.append((start, i))
            start = None
    if start is not None:
        bands.append((start, len(on)))
    return bands


def split_lines(glyph: np.ndarray) -> list[TextLine]:
    """One detector box → its text lines (stacked lines are split; tall single runs are vertical)."""
    ys, xs = np.nonzero(glyph)
    if ys.size == 0:
        return []
    y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    ink = glyph[y0:y1, x0:x1]
    bh, bw = ink.shape
    rows = _merge_close(_bands(ink.sum(axis=1)), gap=0)
    if bh >= 1.3 * bw:
        # tall: stacked short lines (tick labels), one rotated line, or one upright glyph
        gaps = [rows[i + 1][0] - rows[i][1] for i in range(len(rows) - 1)]
        heights = [b - a for a, b in rows]
        # stacked labels stand apart; the letters of a rotated word almost touch
        apart = bool(gaps) and float(np.median(gaps)) >= 0.6 * float(np.median(heights))
        # or rows of words, each twice as wide as tall, set close (Vega-Lite's legend labels; a
        # sliver of the next box's line cut off at the edge aside): a rotated word's rows are its
        # letters, about as wide as tall
        words = [(a, b) for a, b in rows if b - a >= 0.3 * max(heights)]
        wide = len(words) >= 3 and float(np.median([np.ptp(np.flatnonzero(ink[a:b].any(axis=0))) + 1
                                                    for a, b in words])) >= 2.0 * float(np.median(heights))
        if wide and all((b - a) * 0.55 <= bw for a, b in words) and _even(words):
            return [_row_line(ink, a, b, y0, x0) for a, b in words]
        if len(rows) >= 2 and apart and all((b - a) * 0.55 <= bw for a, b in rows) and _even(rows):
            return [_row_line(ink, a, b, y0, x0) for a, b in rows]
        return [TextLine(ink, y0, x0, True)]
    tall = max(b - a for a, b in rows)
    if len(rows) >= 2 and all(b - a >= 0.45 * tall for a, b in rows):
        return [_row_line(ink, a, b, y0, x0) for a, b in rows]
    return [TextLine(ink, y0, x0, False)]


def _row_line(ink: np.ndarray, a: int, b: int, y0: int, x0: int) -> TextLine:
    """Rows a:b of a box's glyph mask as a line of its own, cut to its own columns: a group's
    title and the label of the node under it in one detector box had both taken the wider
    line's extent ('Embedding layer' was placed 19 px left and not taken as its node's label)."""
    cols = np.flatnonzero(ink[a:b].any(axis=0))
    c0, c1 = int(cols[0]), int(cols[-1]) + 1
    return TextLine(ink[a:b, c0:c1], y0 + a, x0 + c0, False)


def _merge_close(bands: list[tuple[int, int]], gap: int) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for a, b in bands:
        if out and a - out[-1][1] <= gap:
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


def _even(rows: list[tuple[int, int]]) -> bool:
    heights = [b - a for a, b in rows]
    return max(heights) <= 1.6 * max(1, min(heights))


def crop_pad(line: TextLine) -> int:
    """The pixels :func:`line_crops` pads a line's glyphs by on each side: the line's upright crop holds
    its first glyph column ``crop_pad`` px in (a recogniser's character centre x there is ``x0 + c - pad``)."""
    lh, lw = line.mask.shape if not line.slant else line_mask_level(line).shape
    return max(3, int(round(0.25 * (min(lh, lw) if not line.vertical else lw))))


def line_mask_level(line: TextLine) -> np.ndarray:
    """The line's glyph mask as the recogniser sees it: turned level where the line is slanted."""
    if not line.slant:
        return line.mask
    return deskewed(line.mask.astype(np.uint8), line.mask, line.slant, np.zeros(1))[1]


def line_crops(region: np.ndarray, line: TextLine, bg: np.ndarray) -> list[tuple[np.ndarray, float]]:
    """BGR crops for the recogniser, one per plausible reading angle; non-glyph pixels painted over."""
    lh, lw = line.mask.shape
    patch = region[line.y0:line.y0 + lh, line.x0:line.x0 + lw].copy()
    # keep the anti-aliased rims of the glyphs, drop everything else
    keep = cv2.dilate(line.mask.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    patch[~keep] = bg
    if line.slant:
        patch = deskewed(patch, line.mask, line.slant, bg)[0]
    pad = crop_pad(line)
    patch = cv2.copyMakeBorder(patch, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=[int(v) for v in bg])
    bgr = np.ascontiguousarray(patch[:, :, ::-1])
    if line.slant:
        return [(bgr, line.slant)]
    if not line.vertical:
        return [(bgr, 0.0)]
    # bottom-to-top text turns upright clockwise; top-to-bottom counter-clockwise
    turned = [(np.ascontiguousarray(np.rot90(bgr, k=-1)), -90.0), (np.ascontiguousarray(np.rot90(bgr, k=1)), 90.0)]
    if lh < 2.2 * lw:  # a lone glyph or two is taller than wide without being rotated
        turned.insert(0, (bgr, 0.0))
    return turned
