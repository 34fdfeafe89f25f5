"""Where text can be in a figure, and the text detector run on a mosaic of those places only.

rapidocr's detector (a DBNet) looks at every pixel of the image, though text covers ~13% of a
generated figure's area: it was a third of a bench figure's CPU time. Glyphs are easy to find
cheaply: dark components of glyph size, and (for white or coloured text on a fill) components
of the contrast edges. :func:`find_text_regions` grows each by a margin of context and groups
them into rectangles (tiles), cut where that saves area. :func:`region_probabilities` packs the
tiles into a mosaic on the page's background colour, runs the detector on it, and pastes each
tile's probabilities back where the tile came from; the detector's own post-processing then
runs on that map as it would on the whole image's.

A text blob that reaches a tile's cut edge may have lost context (or a letter) at the cut: it
is looked at again in a second mosaic with three glyph heights of context around it. Where the
tiles would cover most of the image anyway (a photo, a dense table) the whole image is detected.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from crafteditor.blobs import find_blobs

DARK = 140  # grey level under which a pixel is ink (the glyph-height estimate's own threshold)
FAINT_INK = 90  # a figure whose darkest ink is lighter than this is drawn in faint ink (ink_level)
EDGE_CONTRAST = 40  # morphological gradient above which a pixel is an edge (white text on a fill)
MARGIN = 1.5  # context around a glyph, in glyph heights
GAP = 16  # pixels between tiles in the mosaic
SHORTEST_GLYPH = 7.0  # px: a dark component shorter than this on its long side is no glyph...
SMALL_PRINT_FLOOR = 4.0  # ...but in small print, one a pixel under the typical glyph height, down to this (glyph_boxes)
SAME = 4  # an edge component within this many pixels of a dark one is that glyph's outline
CONTEXT = 3.0  # context around a blob looked at again, in glyph heights
TOUCH = 3  # a blob this close (px, after the detector's box growth) to a cut edge is looked at again
MAX_SHARE = 0.6  # first mosaic above this share of the image: detect the whole image
MAX_TOTAL = 0.8  # both mosaics above this share: detect the whole image
K3 = np.ones((3, 3), np.uint8)


def ink_level(gray: np.ndarray) -> float:
    """The grey under which a pixel is ink: :data:`DARK`, or, in a figure drawn all in faint grey
    ink (its darkest 0.2 % lighter than :data:`FAINT_INK`), halfway from that ink to the page. A
    TikZ figure in ``black!55`` (grey 115, its 120 dpi hairlines lighter still) had no pixel under
    140 in its glyphs: no text region, nothing read (``craftbench makers tikz``, the faint ones)."""
    sample = gray[::3, ::3]
    darkest = float(np.percentile(sample, 0.2))
    if darkest <= FAINT_INK:
        return DARK
    page = float(np.median(sample))
    return max(DARK, min(page - 24.0, (darkest + page) / 2))


def dark_components(gray: np.ndarray) -> np.ndarray:
    """(x, y, w, h, area) of each dark component (grey under :func:`ink_level`), the background dropped."""
    return find_blobs(gray < ink_level(gray))[2][1:]


def typical_glyph_height(dark: np.ndarray, letters_only: bool = False) -> float | None:
    """The median height of the dark components of glyph size; None where there are under ten.
    ``letters_only``: without solid near-square blobs (a scatter's markers, hundreds of 5 px dots,
    had made a figure in 10 px type look like small print)."""
    cw, ch = dark[:, 2], dark[:, 3]
    sized = (ch >= 4) & (ch <= 120) & (cw <= 1.5 * ch)
    if letters_only:
        fill = dark[:, 4] / np.maximum(cw * ch, 1)
        sized &= ~((fill >= 0.7) & (cw >= 0.7 * ch))
    glyph_h = ch[sized]
    return float(np.median(glyph_h)) if glyph_h.size >= 10 else None


@dataclass
class TextRegions:
    rects: list[tuple[float, float, float, float]]  # (x0, y0, x1, y1) tiles
    glyph_h: float

    def scaled(self, fx: float, fy: float) -> TextRegions:
        return TextRegions([(x0 * fx, y0 * fy, x1 * fx, y1 * fy) for x0, y0, x1, y1 in self.rects],
                           self.glyph_h * math.sqrt(fx * fy))


def _glyph_sized(stats: np.ndarray, unit: int, min_fill: float, words: bool = False,
                 shortest: float = SHORTEST_GLYPH) -> np.ndarray:
    """The (x, y, w, h) of the components (stats on a grid of ``unit`` px) that could be glyphs:
    ``shortest``–120 px on the long side, not a thin solid bar (a rule, an axis, a box side). ``words``:
    a whole word too, 7-40 px on the short side (the edges of white letters on a fill run
    together into one component: 'LogicManager', 133 px, went undetected; issue 31)."""
    st = stats.astype(np.float32)
    fill = st[:, 4] / (st[:, 2] * st[:, 3])
    w, h = st[:, 2] * unit, st[:, 3] * unit
    lo, hi = np.minimum(w, h), np.maximum(w, h)
    sized = (hi <= 120) | ((lo >= 7) & (lo <= 40)) if words else hi <= 120
    keep = (hi >= shortest) & sized & (lo >= 2) & (hi <= 15 * lo) & (fill >= min_fill)
    keep &= ~((fill >= 0.85) & (lo <= 3 * unit) & (hi >= 2.5 * lo))
    return st[keep, :4] * unit


def glyph_boxes(gray: np.ndarray, dark: np.ndarray) -> np.ndarray:
    """Boxes (x, y, w, h) of what could be glyphs: dark components, and edge components (on a
    2 px grid) that are not a dark glyph's own outline.

    In a figure set in small print (its typical glyph under :data:`SHORTEST_GLYPH`), a dark
    glyph may be a pixel shorter than that typical glyph: a slide of matplotlib panels in 7 px
    type, whose lower-case letters are 4-6 px, had only its capitals in a tile, or none, and its
    axis titles and ticks went undetected or cut mid-word ('Global Step' and the '2.8×10⁰' ticks
    never read, 'Training at lea' 'rning rate'; issue 31). Lowered in every figure, the floor
    changed the tiles of 44 dev figures and cut long lines elsewhere at the new tiles' edges."""
    g = typical_glyph_height(dark, letters_only=True)
    shortest = SHORTEST_GLYPH if g is None or g >= SHORTEST_GLYPH else max(SMALL_PRINT_FLOOR, g - 1.0)
    dark_glyphs = _glyph_sized(dark, 1, 0.12, shortest=shortest)
    edge = (cv2.morphologyEx(gray, cv2.MORPH_GRADIENT, K3) > EDGE_CONTRAST).astype(np.uint8)
    pooled = cv2.dilate(edge, np.ones((2, 2), np.uint8), anchor=(0, 0))[::2, ::2].copy()
    edges = _glyph_sized(find_blobs(pooled)[2][1:], 2, 0.45, words=True)
    d = dark[(dark[:, 2] <= 124) & (dark[:, 3] <= 124)].astype(np.float32)
    if len(edges) and len(d):
        ex0, ey0 = edges[:, 0:1], edges[:, 1:2]
        ex1, ey1 = ex0 + edges[:, 2:3], ey0 + edges[:, 3:4]
        dx0, dy0 = d[None, :, 0], d[None, :, 1]
        dx1, dy1 = dx0 + d[None, :, 2], dy0 + d[None, :, 3]
        t = SAME
        same = ((dx0 >= ex0 - 1) & (dx0 - ex0 <= t) & (dy0 >= ey0 - 1) & (dy0 - ey0 <= t)
                & (dx1 <= ex1 + 1) & (ex1 - dx1 <= t) & (dy1 <= ey1 + 1) & (ey1 - dy1 <= t)).any(axis=1)
        edges = edges[~same]
    if len(edges) and len(dark_glyphs):
        # a word's edge component is wanted only where its letters are no dark glyphs already
        cx, cy = dark_glyphs[:, 0] + dark_glyphs[:, 2] / 2, dark_glyphs[:, 1] + dark_glyphs[:, 3] / 2
        word = np.maximum(edges[:, 2], edges[:, 3]) > 120
        holds = ((cx[None, :] >= edges[:, 0:1]) & (cx[None, :] <= edges[:, 0:1] + edges[:, 2:3])
                 & (cy[None, :] >= edges[:, 1:2]) & (cy[None, :] <= edges[:, 1:2] + edges[:, 3:4])).any(axis=1)
        edges = edges[~(word & holds)]
    return np.concatenate([dark_glyphs, edges])


def find_text_regions(gray: np.ndarray, dark: np.ndarray | None = None) -> TextRegions | None:
    """The tiles where text can be (image pixels); None where the whole image should be detected
    (under three glyph-like components, or tiles over :data:`MAX_SHARE` of the image)."""
    if dark is None:
        dark = dark_components(gray)
    return regions_at(gray, dark, typical_glyph_height(dark))


def regions_at(gray: np.ndarray, dark: np.ndarray, glyph_h: float | None) -> TextRegions | None:
    """:func:`find_text_regions`, where the caller has the dark components' typical glyph height
    already (``glyph_h``: :func:`typical_glyph_height`, letters and blobs alike)."""
    H, W = gray.shape
    boxes = glyph_boxes(gray, dark)
    if len(boxes) < 3:
        return None
    g = glyph_h
    if g is None:
        g = float(np.median(np.minimum(boxes[:, 2], boxes[:, 3])))
    x, y, w, h = boxes.T
    m = MARGIN * np.maximum(g, np.minimum(w, h) / 2)
    rects = np.stack([np.clip(x - m, 0, W), np.clip(y - m, 0, H), np.clip(x + w + m, 0, W),
                      np.clip(y + h + m, 0, H)], 1)
    tiles = _tiles(rects, boxes, g, H, W)
    if sum((t[2] - t[0]) * (t[3] - t[1]) for t in tiles) > MAX_SHARE * H * W:
        return None
    return TextRegions(tiles, g)


def _tiles(rects, boxes, g, H, W, q=4):
    """The grown glyph boxes grouped: overlapping ones (on a ``q`` px grid) in one group, each
    group cut in two where a gap of a glyph height lets the two halves' boxes cost less area."""
    grid = np.zeros((int(math.ceil(H / q)), int(math.ceil(W / q))), np.uint8)
    cells = np.stack([np.floor(rects[:, 0] / q), np.floor(rects[:, 1] / q),
                      np.ceil(rects[:, 2] / q), np.ceil(rects[:, 3] / q)], 1).astype(int)
    for a, b, c, d in cells:
        grid[b:d, a:c] = 1
    n, lab = cv2.connectedComponents(grid, connectivity=4)
    part = lab[cells[:, 1], cells[:, 0]]
    out: list = []
    for p in range(1, n):
        _split(np.flatnonzero(part == p), rects, boxes, g, out)
    return [(int(a), int(b), int(math.ceil(c)), int(math.ceil(d))) for a, b, c, d in out]


def _bbox(r):
    return r[:, 0].min(), r[:, 1].min(), r[:, 2].max(), r[:, 3].max()


def _split(idx, rects, boxes, g, out, depth=0):
    box = _bbox(rects[idx])
    cost_whole = (box[2] - box[0] + GAP) * (box[3] - box[1] + GAP)
    if len(idx) < 2 or depth > 12:
        out.append(box)
        return
    best = None
    for axis in (0, 1):
        order = idx[np.argsort(boxes[idx, axis], kind="stable")]
        lo_s = boxes[order, axis]
        hi_s = boxes[order, axis] + boxes[order, axis + 2]
        # a cut after the k-th box: every box before ends a glyph height before any after begins
        ok = np.maximum.accumulate(hi_s)[:-1] + g <= np.minimum.accumulate(lo_s[::-1])[::-1][1:]
        if not ok.any():
            continue
        r = rects[order]
        pre = [np.minimum.accumulate(r[:, 0]), np.minimum.accumulate(r[:, 1]),
               np.maximum.accumulate(r[:, 2]), np.maximum.accumulate(r[:, 3])]
        suf = [np.minimum.accumulate(r[::-1, 0])[::-1], np.minimum.accumulate(r[::-1, 1])[::-1],
               np.maximum.accumulate(r[::-1, 2])[::-1], np.maximum.accumulate(r[::-1, 3])[::-1]]
        a_pre = (pre[2] - pre[0] + GAP) * (pre[3] - pre[1] + GAP)
        a_suf = (suf[2] - suf[0] + GAP) * (suf[3] - suf[1] + GAP)
        cost = np.where(ok, a_pre[:-1] + a_suf[1:], np.inf)
        k = int(np.argmin(cost))
        if best is None or cost[k] < best[0]:
            best = (cost[k], order[:k + 1], order[k + 1:])
    if best is None or best[0] >= cost_whole:
        out.append(box)
        return
    for sub in best[1:]:
        _split(sub, rects, boxes, g, out, depth + 1)


# -- the mosaic ---------------------------------------------------------------------------

@dataclass
class Mosaic:
    tiles: list[tuple[int, int, int, int]]  # (x0, y0, x1, y1) in the detector input's pixels
    places: list[tuple[int, int]]  # each tile's top-left corner (x, y) in the mosaic
    size: tuple[int, int]  # (height, width), multiples of 32

    def compose(self, image: np.ndarray, background) -> np.ndarray:
        out = np.empty((*self.size, 3), np.uint8)
        out[:] = background
        for (x0, y0, x1, y1), (X, Y) in zip(self.tiles, self.places):
            out[Y:Y + y1 - y0, X:X + x1 - x0] = image[y0:y1, x0:x1]
        return out


def plan_mosaic(rects, shape: tuple[int, int]) -> Mosaic | None:
    """The tiles packed in shelves (tallest first), at the width of a few tried that gives the
    smallest mosaic; None where no tile is left inside the image."""
    H, W = shape
    tiles = []
    for x0, y0, x1, y1 in rects:
        x0, y0 = max(0, int(math.floor(x0))), max(0, int(math.floor(y0)))
        x1, y1 = min(W, int(math.ceil(x1))), min(H, int(math.ceil(y1)))
        if x1 > x0 and y1 > y0:
            tiles.append((x0, y0, x1, y1))
    if not tiles:
        return None
    best = None
    widest = max(t[2] - t[0] for t in tiles)
    area = sum((t[2] - t[0] + GAP) * (t[3] - t[1] + GAP) for t in tiles)
    for f in (1.0, 1.25, 1.5, 2.0, 3.0):
        places, size = _shelves(tiles, max(widest, int(math.sqrt(area) * f)))
        if best is None or size[0] * size[1] < best[1][0] * best[1][1]:
            best = (places, size)
    return Mosaic(tiles, *best)


def _round32(v: int) -> int:
    return max(32, int(math.ceil(v / 32)) * 32)


def _shelves(tiles, width):
    order = sorted(range(len(tiles)), key=lambda i: -(tiles[i][3] - tiles[i][1]))
    places = [(0, 0)] * len(tiles)
    x = y = shelf_h = used_w = 0
    for i in order:
        x0, y0, x1, y1 = tiles[i]
        w, h = x1 - x0, y1 - y0
        if x + w > width and x > 0:
            y += shelf_h + GAP
            x, shelf_h = 0, 0
        places[i] = (x, y)
        x += w + GAP
        shelf_h = max(shelf_h, h)
        used_w = max(used_w, x - GAP)
    return places, (_round32(y + shelf_h), _round32(used_w))


@dataclass
class _Composite:
    """The probability map being put together: each pixel from the tile it lies deepest in."""
    shape: tuple[int, int]
    canvas: np.ndarray = field(init=False)
    depth: np.ndarray = field(init=False)
    owner: np.ndarray = field(init=False)
    tiles: list = field(default_factory=list)

    def __post_init__(self):
        H, W = self.shape
        self.canvas = np.zeros((1, 1, H, W), np.float32)
        self.depth = np.full((H, W), -1.0, np.float32)
        self.owner = np.full((H, W), -1, np.int32)

    def add(self, mosaic: Mosaic, pred: np.ndarray) -> None:
        H, W = self.shape
        for (x0, y0, x1, y1), (X, Y) in zip(mosaic.tiles, mosaic.places):
            d = _tile_depth(x0, y0, x1, y1, H, W)
            sub = self.depth[y0:y1, x0:x1]
            better = d > sub
            self.canvas[0, 0, y0:y1, x0:x1][better] = pred[0, 0, Y:Y + y1 - y0, X:X + x1 - x0][better]
            sub[better] = d[better]
            self.owner[y0:y1, x0:x1][better] = len(self.tiles)
            self.tiles.append((x0, y0, x1, y1))

    def touching(self, thresh: float, within: float) -> list[tuple[int, int, int, int]]:
        """Boxes (x0, y0, x1, y1) of the text blobs whose box, grown as the detector's
        post-processing grows it, comes within ``within`` px of a cut edge of the tile they were
        taken from (a tile's edge on the image border is no cut)."""
        H, W = self.shape
        n, _lab, st, cen = find_blobs(self.canvas[0, 0] > thresh)
        out = []
        for i in range(1, n):
            x, y, w, h = (int(v) for v in st[i, :4])
            t = self.owner[min(H - 1, int(cen[i, 1])), min(W - 1, int(cen[i, 0]))]
            if t < 0:
                continue
            tx0, ty0, tx1, ty1 = self.tiles[t]
            e = 0.8 * min(w, h) + within
            if (tx0 > 0 and x - e < tx0) or (ty0 > 0 and y - e < ty0) or (tx1 < W and x + w + e > tx1) \
                    or (ty1 < H and y + h + e > ty1):
                out.append((x, y, x + w, y + h))
        return out


def _tile_depth(x0, y0, x1, y1, H, W) -> np.ndarray:
    """Each pixel's distance to its tile's nearest cut edge (an edge on the image border is none)."""
    ys = np.arange(y0, y1, dtype=np.float32)
    xs = np.arange(x0, x1, dtype=np.float32)
    far_y, far_x = np.full_like(ys, np.inf), np.full_like(xs, np.inf)
    dy = np.minimum(ys - y0 if y0 > 0 else far_y, (y1 - 1 - ys) if y1 < H else far_y)
    dx = np.minimum(xs - x0 if x0 > 0 else far_x, (x1 - 1 - xs) if x1 < W else far_x)
    return np.minimum(dy[:, None], dx[None, :])


def page_background(image: np.ndarray) -> tuple[int, int, int]:
    """The commonest colour on the image's border (what the mosaic is laid on)."""
    border = np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]]).astype(np.int32)
    packed = (border[:, 0] << 16) | (border[:, 1] << 8) | border[:, 2]
    vals, counts = np.unique(packed, return_counts=True)
    v = int(vals[counts.argmax()])
    return (v >> 16) & 255, (v >> 8) & 255, v & 255


def region_probabilities(infer, image: np.ndarray, regions: TextRegions, thresh: float = 0.3):
    """The detector's probability map over ``image`` (1×1×H×W, zero outside the regions), from
    ``infer`` (an image → its map) run on mosaics of the regions; None where that would not be
    cheaper than running it on the whole image. ``thresh``: the detector's text threshold."""
    H, W = image.shape[:2]
    full = _round32(H) * _round32(W)
    first = plan_mosaic(regions.rects, (H, W))
    if first is None or first.size[0] * first.size[1] > MAX_SHARE * full:
        return None
    background = page_background(image)
    comp = _Composite((H, W))
    comp.add(first, infer(first.compose(image, background)))
    touching = comp.touching(thresh, TOUCH)
    if touching:
        m = CONTEXT * regions.glyph_h
        second = plan_mosaic([(x0 - m, y0 - m, x1 + m, y1 + m) for x0, y0, x1, y1 in touching], (H, W))
        if first.size[0] * first.size[1] + second.size[0] * second.size[1] > MAX_TOTAL * full:
            return None
        comp.add(second, infer(second.compose(image, background)))
    return comp.canvas
