"""Photos and screenshots inside a figure (a paper's input image, a row of patch thumbnails):
kept whole as an embedded image crop, never read for text, shapes or lines.

Drawn content is flat: a block of pixels is mostly one or two paints, whatever its
anti-aliased (or colour-fringed) edges add. A photo's block is many colours none of which
dominates. Blocks of 8×8 pixels with many distinct colours (16 levels a channel) whose two
commonest cover at most half the block are photo blocks; 8-connected groups of them
large enough to be a picture, closed over their small gaps, are photo regions, each kept
as the rectangle of its blocks (a smooth gradient fill: one or two colours a block; a
glyph's edge: isolated blocks, and strokes are drawn in contrast, a block's brightness
spread wide). Measured on paper figures: photo blocks have a median
top-two share of 0.34–0.45, text blocks 0.64–0.80.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from crafteditor.blobs import find_blobs, merge_rects
from crafteditor.paint import luma

BLOCK = 8  # block side, px
MIN_COLOURS = 10  # distinct colours (16 levels a channel) in a photo block
MAX_TOP2 = 0.5  # share of a photo block its two commonest colours cover at most
MAX_TOP2_LOSSY = 0.4  # a JPEG's ringing mixes colours around every stroke
MAX_LUMA_STD = 60.0  # a photo block's brightness varies less than a block of strokes on paper
MAX_MIXED = 0.9  # share of a block's pixels that are blends of two of its three commonest colours: drawn, no photo
MIX_TOLERANCE = 8.0  # RGB distance from such a blend within which a pixel still is one
MAX_TEXTURE_STD = 30.0  # a soft-textured block (sky, a faded patch): low contrast
MIN_BLOCKS = 6  # blocks a photo region needs (a 20×20 px thumbnail covers about 6)
MIN_FILL = 0.45  # share of a region's rectangle its photo blocks cover
GUTTER = 2  # rows (columns) of blocks with no photo block between two photos the closing joined


@dataclass
class PhotoRegion:
    x: int
    y: int
    w: int
    h: int

    @property
    def box(self) -> tuple[int, int, int, int]:
        return self.x, self.y, self.x + self.w, self.y + self.h


def photo_blocks(rgb: np.ndarray, lossy: bool = False,
                 background: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Two (H/8)×(W/8) bool grids: blocks whose colours look like a photo's (seeds), and
    blocks of soft texture off the page (a photo's sky or wall, which may join a seed)."""
    H, W = rgb.shape[:2]
    bh, bw = H // BLOCK, W // BLOCK
    if bh == 0 or bw == 0:
        empty = np.zeros((max(bh, 0), max(bw, 0)), bool)
        return empty, empty
    crop = np.ascontiguousarray(rgb[:bh * BLOCK, :bw * BLOCK])
    seeds = np.zeros((bh, bw), bool)
    texture = np.zeros((bh, bw), bool)
    # only blocks of more than one colour level are looked at (most of a figure is flat page).
    # Each block's max and min per channel: a BLOCK-square dilation and erosion anchored at the
    # block's top left corner, read at the corners (numpy's max over a copy of every block took
    # 35 ms of a 1650×645 figure, 12× this)
    square = np.ones((BLOCK, BLOCK), np.uint8)
    high = cv2.dilate(crop, square, anchor=(0, 0), borderType=cv2.BORDER_REPLICATE)[::BLOCK, ::BLOCK]
    low = cv2.erode(crop, square, anchor=(0, 0), borderType=cv2.BORDER_REPLICATE)[::BLOCK, ::BLOCK]
    # the largest channel's spread (a dilation is never under the erosion: no wrap in bytes), channel
    # by channel: numpy's max over a 3-long last axis of an int16 copy took 4x as long
    r, g, b = cv2.split(cv2.subtract(np.ascontiguousarray(high), np.ascontiguousarray(low)))
    cand = cv2.max(cv2.max(r, g), b) >= 16
    if not cand.any():
        return seeds, texture
    blocks = crop.reshape(bh, BLOCK, bw, BLOCK, 3).transpose(0, 2, 1, 3, 4)  # a view: only the candidates are copied
    px = blocks[cand].reshape(-1, BLOCK * BLOCK, 3).astype(np.int32)  # N×64×3
    q = px >> 4
    unsorted = (q[..., 0] << 8) | (q[..., 1] << 4) | q[..., 2]
    codes = np.sort(unsorted, axis=1)
    change = np.diff(codes, axis=1) != 0
    distinct = 1 + change.sum(axis=1)
    # run lengths of equal codes in each sorted block: the two longest are the commonest colours
    n = BLOCK * BLOCK
    starts = np.where(change, np.arange(1, n), 0)
    run_start = np.maximum.accumulate(np.concatenate([np.zeros((len(px), 1), int), starts], axis=1), axis=1)
    ends = np.concatenate([change, np.ones((len(px), 1), bool)], axis=1)
    lens = np.where(ends, np.arange(n) - run_start + 1, 0)
    top2 = np.sort(lens, axis=1)[:, -2:].sum(axis=1) / n
    # glyphs and strokes are drawn in contrast (dark on light): a block of them spans the range
    std = luma(px, np.float64).std(axis=1)
    seed = (distinct >= MIN_COLOURS) & (top2 <= (MAX_TOP2_LOSSY if lossy else MAX_TOP2)) & (std <= MAX_LUMA_STD)
    if seed.any():
        seed[seed] = _blended_share(px[seed], unsorted[seed], codes[seed], lens[seed]) < MAX_MIXED
    seeds[cand] = seed
    bg = np.asarray(background if background is not None else (255, 255, 255), np.int32)
    off_page = np.abs(px - bg).max(axis=2).mean(axis=1) > 10
    texture[cand] = (distinct >= 3) & (std <= MAX_TEXTURE_STD) & off_page & (top2 < 1.0)
    return seeds, texture


def _blended_share(px: np.ndarray, codes: np.ndarray, order: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Per block (``px`` N×64×3, ``codes`` N×64 its 16-level colour codes, ``order`` them sorted,
    ``counts`` each code's count at its run's last place in ``order``, 0 elsewhere; every block holds
    :data:`MIN_COLOURS` codes or more): the share of its pixels that are a blend of two of its three
    commonest colours. A coloured outline's anti-aliased
    diagonal crossing a fill (a teal diamond's tip where a grey connector meets it) has a dozen
    colour levels and no dominant pair, as a photo does, but every pixel lies between two of
    the outline, the fill and the page; a photo's colours do not."""
    # the three commonest (ties: the lower code first, as runs lie in code order)
    top = np.take_along_axis(order, np.argsort(-counts, axis=1, kind="stable")[:, :3], axis=1)  # N×3 codes
    pts = px.astype(np.float64)
    colours = []
    for k in range(3):
        own = (codes == top[:, k:k + 1])[..., None]  # N×64×1
        colours.append((pts * own).sum(axis=1) / np.maximum(own.sum(axis=1), 1))  # N×3 mean colour
    best = np.full(codes.shape, np.inf)
    for i, j in ((0, 1), (0, 2), (1, 2)):
        a, ab = colours[i][:, None, :], (colours[j] - colours[i])[:, None, :]
        t = np.clip(((pts - a) * ab).sum(axis=2) / np.maximum((ab * ab).sum(axis=2), 1e-9), 0.0, 1.0)
        best = np.minimum(best, np.linalg.norm(pts - (a + t[..., None] * ab), axis=2))
    return (best <= MIX_TOLERANCE).mean(axis=1)


def find_photos(rgb: np.ndarray, lossy: bool = False, background: np.ndarray | None = None) -> list[PhotoRegion]:
    """The photo regions of an image, as pixel rectangles: groups of photo blocks, and groups
    of photo blocks with the soft-textured blocks around them (a patch of sky beside a
    tower), overlapping rectangles merged."""
    seeds, texture = photo_blocks(rgb, lossy, background)
    if not seeds.any():
        return []
    boxes = _regions(seeds, seeds) + _regions(seeds | texture, seeds)
    H, W = rgb.shape[:2]
    merged = _merge([(x * BLOCK, y * BLOCK, min(W, (x + w) * BLOCK), min(H, (y + h) * BLOCK)) for x, y, w, h in boxes])
    return [_snug(rgb, PhotoRegion(x0, y0, x1 - x0, y1 - y0)) for x0, y0, x1, y1 in merged]


def _regions(grid: np.ndarray, seeds: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Block rectangles (x, y, w, h) of the closed groups of ``grid`` that are photos: enough
    seed blocks, and blocks filling enough of the rectangle."""
    closed = cv2.morphologyEx(grid.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    closed = (closed.astype(bool) | grid).astype(np.uint8)
    n, lab, stats, _ = find_blobs(closed)
    out = []
    for i in range(1, n):
        for x, y, w, h in _between_gutters(grid & (lab == i), *(int(v) for v in stats[i][:4])):
            mine = lab[y:y + h, x:x + w] == i
            n_seeds = int((seeds[y:y + h, x:x + w] & mine).sum())
            own = int((grid[y:y + h, x:x + w] & mine).sum())
            if n_seeds >= max(2, MIN_BLOCKS // 2) and own >= MIN_BLOCKS and own >= MIN_FILL * w * h:
                out.append((x, y, w, h))
    return out


def _between_gutters(grid: np.ndarray, x: int, y: int, w: int, h: int) -> list[tuple[int, int, int, int]]:
    """A closed group's block rectangle cut at its gutters: :data:`GUTTER` or more rows (or
    columns) of blocks with no photo block across it, which the closing had bridged (SAM's
    three output photos stacked 16 px apart were kept as one picture, issue 31)."""
    part = grid[y:y + h, x:x + w]
    for axis in (1, 0):  # rows first, then columns
        filled = part.any(axis=axis)
        runs, start = [], None
        for k, v in enumerate(np.append(filled, False)):
            if v and start is None:
                start = k
            elif not v and start is not None:
                runs.append((start, k))
                start = None
        gaps = [b2[0] - a2[1] for a2, b2 in zip(runs, runs[1:])]
        if runs and gaps and max(gaps) >= GUTTER:
            out, lo = [], runs[0][0]
            for (a2, b2), gap, nxt in zip(runs, gaps + [GUTTER], runs[1:] + [None]):
                if gap >= GUTTER:
                    hi = b2
                    if axis == 1:
                        out += _between_gutters(grid, x, y + lo, w, hi - lo)
                    else:
                        out += _between_gutters(grid, x + lo, y, hi - lo, h)
                    lo = nxt[0] if nxt else lo
            return out
    return [(x, y, w, h)]


def _merge(boxes: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Overlapping rectangles (x0, y0, x1, y1) as their union boxes."""
    return merge_rects(boxes, lambda a, b: a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3])


def _snug(rgb: np.ndarray, r: PhotoRegion) -> PhotoRegion:
    """The region grown by up to a block where the photo goes on (blocks are on an 8 px grid,
    the photo's edge is not): rows and columns next to it that still vary in colour."""
    H, W = rgb.shape[:2]
    x0, y0, x1, y1 = r.box

    def busy(sl) -> bool:
        a = sl.reshape(-1, 3).astype(np.int16)
        return a.size > 0 and float(np.abs(np.diff(a, axis=0)).mean()) > 6.0

    for _ in range(BLOCK - 1):
        if x0 > 0 and busy(rgb[y0:y1, x0 - 1]):
            x0 -= 1
        if y0 > 0 and busy(rgb[y0 - 1, x0:x1]):
            y0 -= 1
        if x1 < W and busy(rgb[y0:y1, x1]):
            x1 += 1
        if y1 < H and busy(rgb[y1, x0:x1]):
            y1 += 1
    return PhotoRegion(x0, y0, x1 - x0, y1 - y0)


def photo_mask(regions: list[PhotoRegion], shape: tuple[int, int]) -> np.ndarray:
    m = np.zeros(shape, bool)
    for r in regions:
        m[r.y:r.y + r.h, r.x:r.x + r.w] = True
    return m
