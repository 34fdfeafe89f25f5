"""The colour model of a figure: its paints (the few flat colours it was drawn with).

Rendered figures are drawn with a handful of flat colours plus anti-aliasing between
them. :func:`find_paints` recovers those colours from exact-colour counts (merging near
neighbours, so JPEG noise or a denoised scan still gives one paint per colour), and
labels every pixel with the paint it belongs to, or -1 for in-between (anti-aliased)
pixels. Faces, ink masks and colour estimates all build on these labels.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import cv2
import numpy as np

from crafteditor.config import Config

LOSSY_BIN_BITS = 4  # lossy images: paints are seeded from 16-level colour bins
LOSSY_FLAT_MERGE = 6.0  # lossy images: two flat (solid) exact colours farther apart than this are two paints
# ... where solid means this many times a paint's least pixel count, in pixels whose four neighbours
# share their exact colour: chroma noise on a pale fill leaves solid specks of ~100 px (EFF6FF
# beside Crafter's F2F5FA: 143 px at 545×545, which had split the fill into two paints)
LOSSY_FLAT_SOLID = 10
VIVID_CHROMA = 100  # a flat colour this far from grey (max - min channel) is a chart's paint at a quarter of the share


@dataclass
class Paints:
    colors: np.ndarray  # P×3 uint8, most common first
    labels: np.ndarray  # H×W int16: paint index, -1 for anti-aliased / unmatched pixels
    background: int  # index of the canvas paint
    lossy: bool = False  # read from a lossy image (Config.lossy): edges are soft
    vivid: np.ndarray | None = None  # K×3: vivid flat colours short of a paint's share (see with_vivid)

    @property
    def background_rgb(self) -> np.ndarray:
        return self.colors[self.background]

    def ink_mask(self) -> np.ndarray:
        """Pixels that are not canvas background (anti-aliased pixels count as ink)."""
        return self.labels != self.background


def to_hex(rgb) -> str:
    r, g, b = (int(round(float(v))) for v in rgb[:3])
    return f"#{r:02X}{g:02X}{b:02X}"


def prepare(rgb: np.ndarray, config: Config) -> np.ndarray:
    """Denoise when the preset asks for it (scans, JPEG)."""
    if config.denoise:
        return cv2.medianBlur(rgb, 3)
    return rgb


def find_paints(rgb: np.ndarray, config: Config, page: tuple[int, int, int] | None = None) -> Paints:
    """The figure's paints (its flat colours, each pixel labelled with its own or -1 for anti-aliasing)
    and which one is the background: ``page`` where the loader knows it (a transparent figure's
    flattened page), else the paint that owns the band along the image's border."""
    h, w = rgb.shape[:2]
    packed = (rgb[:, :, 0].astype(np.int32) << 16) | (rgb[:, :, 1].astype(np.int32) << 8) | rgb[:, :, 2]
    uniq, inverse, counts = _unique_colors(packed.ravel())
    ucol = np.stack([(uniq >> 16) & 255, (uniq >> 8) & 255, uniq & 255], axis=1).astype(np.float32)
    min_count = max(8, int(config.min_paint_share * h * w))
    seed_cols, seed_counts = ucol, counts
    vivid_cols = ucol[:0]  # vivid flat colours short of the share (not looked for in a lossy image)
    if config.lossy:
        # compression spreads one paint over dozens of exact colours, none common enough to seed
        # it (a chart's markers, a thin series line): after the exact colours that are (a flat
        # fill's, which compression keeps), seeds come from coarse colour bins, each the mean of
        # its pixels. Bins alone had put Crafter's pale node fill (242, 245, 250) in white's bin
        q = rgb.reshape(-1, 3) >> LOSSY_BIN_BITS
        bits = 8 - LOSSY_BIN_BITS
        qp = (q[:, 0].astype(np.int32) << (2 * bits)) | (q[:, 1].astype(np.int32) << bits) | q[:, 2]
        # np.unique's arrays, counted in the 4,096 bins rather than sorted (a JPEG's every pixel)
        per_bin = np.bincount(qp, minlength=1 << (3 * bits))
        present = np.flatnonzero(per_bin)
        bin_counts = per_bin[present]
        qinv = np.zeros(len(per_bin), np.intp)
        qinv[present] = np.arange(len(present))
        qinv = qinv[qp]
        flat = rgb.reshape(-1, 3).astype(np.float64)
        sums = np.stack([np.bincount(qinv.ravel(), weights=flat[:, k]) for k in range(3)], axis=1)
        exact = counts >= min_count
        seed_cols = np.concatenate([ucol[exact], (sums / bin_counts[:, None]).astype(np.float32)])
        # exact colours first, then bins; most common first within each
        seed_counts = np.concatenate([counts[exact], bin_counts])
        rank = np.concatenate([np.zeros(int(exact.sum())), np.ones(len(bin_counts))])
        order = np.lexsort((-seed_counts, rank))
        # a flat fill survives compression as solid areas of one exact colour; noise does not.
        # Such a colour is a paint of its own even within color_merge of another: a group's grey
        # (247, 247, 247) had merged into white, and its frame came back as a node over its members
        solid = _solid_counts(packed, inverse.reshape(h, w), len(uniq))
        distinct = np.concatenate([solid[exact] >= LOSSY_FLAT_SOLID * min_count, np.zeros(len(bin_counts), bool)])
    else:
        order = np.argsort(-seed_counts)
        # vivid flat colours at a quarter of the share, for the charts (see with_vivid): not
        # anti-aliasing, which is paler, nor a blurred line's shades, of which few pixels have
        # four neighbours alike
        vivid = (ucol.max(axis=1) - ucol.min(axis=1) >= VIVID_CHROMA) & (seed_counts >= max(8, min_count // 4)) \
            & (seed_counts < min_count)
        if vivid.any():
            vivid &= _solid_counts(packed, inverse.reshape(h, w), len(uniq)) >= 0.25 * seed_counts
        vivid_cols = ucol[vivid][np.argsort(-seed_counts[vivid])]
        distinct = np.zeros(len(seed_counts), bool)
    centers: list[np.ndarray] = []
    weights: list[int] = []
    for i in order:
        if seed_counts[i] < min_count:
            if config.lossy:
                continue  # the bins follow the exact colours
            break
        c = seed_cols[i]
        if centers:
            d = np.linalg.norm(np.asarray(centers) - c, axis=1)
            j = int(np.argmin(d))
            if d[j] <= (min(config.color_merge, LOSSY_FLAT_MERGE) if distinct[i] else config.color_merge):
                # running weighted mean keeps the paint at the centre of its noise cloud
                tot = weights[j] + seed_counts[i]
                centers[j] = (centers[j] * weights[j] + c * seed_counts[i]) / tot
                weights[j] = tot
                continue
        centers.append(c.copy())
        weights.append(int(seed_counts[i]))
    if not centers:
        centers, weights = [seed_cols[order[0]]], [int(seed_counts[order[0]])]
    pal = np.asarray(centers, dtype=np.float32)
    # each exact colour → nearest paint, if it is close enough (and closer than half the gap to the next)
    d = np.linalg.norm(ucol[:, None, :] - pal[None, :, :], axis=2)
    nearest = np.argmin(d, axis=1)
    dmin = d[np.arange(len(ucol)), nearest]
    tol = np.full(len(pal), config.color_tolerance, dtype=np.float32)
    # a pixel between two paints is anti-aliasing, unless the image is lossy: a JPEG's noise
    # on a pale fill crosses half the gap to white, and left those pixels unlabelled (ink)
    if len(pal) > 1 and not config.lossy:
        gaps = np.linalg.norm(pal[:, None, :] - pal[None, :, :], axis=2)
        np.fill_diagonal(gaps, np.inf)
        tol = np.minimum(tol, np.maximum(gaps.min(axis=1) / 2.0, 2.0))
    ulabel = np.where(dmin <= tol[nearest], nearest, -1).astype(np.int16)
    labels = ulabel[inverse.ravel()].reshape(h, w)
    background = _background_paint(labels, len(pal))
    if page is not None:
        gap = np.linalg.norm(pal - np.asarray(page, np.float32), axis=1)
        if gap.min() <= config.color_tolerance:
            background = int(gap.argmin())
    vivid_left = [c for c in vivid_cols if np.linalg.norm(pal - c, axis=1).min() > config.color_merge]
    return Paints(colors=np.clip(np.rint(pal), 0, 255).astype(np.uint8), labels=labels, background=background,
                  lossy=config.lossy, vivid=np.asarray(vivid_left, np.float32).reshape(-1, 3))


def with_vivid(paints: Paints, rgb: np.ndarray, config: Config) -> Paints:
    """``paints`` with its vivid flat colours too short of the share for a paint of their own
    (:attr:`Paints.vivid`) made paints, for the charts: a chart's few small markers (nine 4 px
    dots, 190 px of one blue on a 720 px square) are a series, where in a diagram such specks
    (an icon's) had split its nodes. The unlabelled pixels within the tolerance take them."""
    if paints.vivid is None or not len(paints.vivid):
        return paints
    labels = paints.labels.copy()
    free = labels < 0
    px = rgb[free].astype(np.float32)
    d = np.linalg.norm(px[:, None, :] - paints.vivid[None, :, :], axis=2)
    near = d.argmin(axis=1)
    ok = d[np.arange(len(px)), near] <= config.color_tolerance
    sub = np.full(len(px), -1, np.int16)
    sub[ok] = (len(paints.colors) + near[ok]).astype(np.int16)
    labels[free] = sub
    colors = np.concatenate([paints.colors, np.clip(np.rint(paints.vivid), 0, 255).astype(np.uint8)])
    return Paints(colors=colors, labels=labels, background=paints.background, lossy=paints.lossy)


def _unique_colors(flat: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``np.unique(flat, return_inverse=True, return_counts=True)``, the same arrays, sorting
    only the pixels not of the first pixel's colour (mostly the canvas: 9 → 6 ms at 150 dpi).
    The rest are sorted by value (no argsort, which np.unique's inverse takes) and each finds its
    colour by a binary search among the few thousand: 38 → 15 ms at 1650×645, 110 → 29 at 1878×1314."""
    first = flat[0]
    same = flat == first
    rest = ~same
    vals = flat[rest]
    ordered = np.sort(vals)
    starts = np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1]))) if ordered.size else np.zeros(0, np.intp)
    uniq = ordered[starts]
    counts = np.diff(np.append(starts, ordered.size))
    inv = np.searchsorted(uniq, vals)
    at = int(np.searchsorted(uniq, first))
    inverse = np.full(flat.shape, at, dtype=np.intp)
    inverse[rest] = inv + (inv >= at)
    return np.insert(uniq, at, first), inverse, np.insert(counts, at, int(same.sum()))


def unique_rows(px: np.ndarray, return_inverse: bool = False) -> tuple[np.ndarray, ...]:
    """``np.unique(px, axis=0, return_counts=True)`` of N×3 uint8 colours (with ``return_inverse``,
    ``return_inverse=True`` too): the same arrays in the same order. Each colour is packed into one
    integer (R, G, B in that order of weight sorts as the rows do) and uniqued as a flat array: the
    row-wise unique views each row as a structured item, 4x slower (a transparent figure's page sample,
    250,000 pixels, 0.2 s of its loading)."""
    key = (px[:, 0].astype(np.int32) << 16) | (px[:, 1].astype(np.int32) << 8) | px[:, 2].astype(np.int32)
    keys, *rest = np.unique(key, return_inverse=return_inverse, return_counts=True)
    cols = np.column_stack([keys >> 16, (keys >> 8) & 255, keys & 255]).astype(px.dtype)
    if return_inverse:
        return cols, rest[0].reshape(-1), rest[1]
    return cols, rest[0]


def _solid_counts(packed: np.ndarray, inverse: np.ndarray, n: int) -> np.ndarray:
    """Per exact colour: its pixels whose four neighbours have the same exact colour."""
    same = np.zeros(packed.shape, bool)
    same[1:-1, 1:-1] = ((packed[1:-1, 1:-1] == packed[:-2, 1:-1]) & (packed[1:-1, 1:-1] == packed[2:, 1:-1])
                        & (packed[1:-1, 1:-1] == packed[1:-1, :-2]) & (packed[1:-1, 1:-1] == packed[1:-1, 2:]))
    return np.bincount(inverse[same], minlength=n)


def _background_paint(labels: np.ndarray, n: int) -> int:
    """The paint that owns most of a band along the image border (the canvas).

    A band several pixels deep, not the outermost ring: a screenshot framed by a thin dark
    line (the tuning playbook's gradient-clipping plot) read as a figure on a black page,
    every white pixel of it ink."""
    H, W = labels.shape
    k = int(min(max(4, min(H, W) // 50), 12, max(1, min(H, W) // 4)))
    border = np.concatenate([labels[:k].ravel(), labels[-k:].ravel(), labels[:, :k].ravel(), labels[:, -k:].ravel()])
    border = border[border >= 0]
    if border.size == 0:
        border = labels[labels >= 0]
    if border.size == 0:
        return 0
    return int(np.bincount(border, minlength=n).argmax())


def dominant_color(rgb: np.ndarray, mask: np.ndarray) -> np.ndarray | None:
    """The median colour of the masked pixels (robust to anti-aliased edges)."""
    px = rgb[mask]
    if px.size == 0:
        return None
    return np.median(px, axis=0)


def darkest_color(rgb: np.ndarray, mask: np.ndarray, background: np.ndarray, share: float = 0.3) -> np.ndarray | None:
    """The colour of the most contrasting pixels (thin strokes and glyphs are mostly anti-aliasing)."""
    px = rgb[mask].astype(np.float32)
    if px.size == 0:
        return None
    dist = distances(px, background)
    k = max(1, int(len(px) * share))
    idx = np.argpartition(-dist, k - 1)[:k]
    return np.median(px[idx], axis=0)


def blend_position(c, a, b) -> tuple[np.ndarray, np.ndarray]:
    """Where colours ``c`` (any shape …×3) lie on the way from paint ``a`` to paint ``b``: the
    share ``t`` (0: ``a``, 1: ``b``, clipped) of the nearest point on the segment, and the
    distance to it (a blend of the two, as anti-aliasing or transparency makes, lies on it)."""
    c, a, b = (np.asarray(v, np.float32) for v in (c, a, b))
    seg = b - a
    # channel by channel: numpy's product and norm over a 3-long last axis took 10 ms a panel
    d = c - a
    along = d[..., 0] * seg[0] + d[..., 1] * seg[1] + d[..., 2] * seg[2]
    t = np.clip(along / max(float(seg @ seg), 1e-6), 0.0, 1.0)
    return t, distances(c - (a + t[..., None] * seg), 0.0)


def _whole_bytes(pixels: np.ndarray, c: np.ndarray) -> bool:
    """Whether ``pixels`` is an image (H×W×3 uint8, not empty) and ``c`` a whole-number colour in 0..255:
    where byte differences (OpenCV's absdiff) give :func:`distances` and :func:`farther_than` exactly. A
    box cut from a page (not in C order: the line finder's crops, a chart's plot) is copied into C order
    first (:func:`_absdiff`): it had taken the float path, four times the time for the same values."""
    return (pixels.dtype == np.uint8 and pixels.ndim == 3 and pixels.shape[2] == 3 and c.shape == (3,)
            and pixels.size > 0 and bool(np.all((c == np.rint(c)) & (c >= 0) & (c <= 255))))


def _absdiff(pixels: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Each pixel's per-channel absolute difference from whole-number colour ``c`` (H×W×3 uint8, C order)."""
    return cv2.absdiff(np.ascontiguousarray(pixels), (float(c[0]), float(c[1]), float(c[2]), 0.0))


def distances(pixels: np.ndarray, color) -> np.ndarray:
    """Each pixel's RGB distance from ``color`` (pixels …×3, any dtype; float32 out): the values
    of ``np.linalg.norm(pixels - color, axis=-1)``, summed channel by channel; numpy's reduction
    over a 3-long last axis took 16 ms of a 150 dpi page, this 7. An image (H×W×3 uint8) from a
    whole-number colour: OpenCV's absolute difference in bytes, then the same float32 sums (the
    same values: squares and sums of whole numbers under 2^24 are exact), 52 -> 11 ms on 1600×1200."""
    c = np.asarray(color, dtype=np.float32)
    if _whole_bytes(pixels, c):
        d = _absdiff(pixels, c).astype(np.float32)
    else:
        d = pixels.astype(np.float32) - c
    d *= d
    s = d[..., 0] + d[..., 1]
    s += d[..., 2]
    return np.sqrt(s, out=s) if isinstance(s, np.ndarray) else np.sqrt(s)


def farther_than(pixels: np.ndarray, color, threshold: float, within: np.ndarray | None = None) -> np.ndarray:
    """``distances(pixels, color) > threshold``, the same booleans, in about a third of the time
    for an image (H×W×3 uint8) and a whole-number colour: a pixel whose largest channel difference
    is past the threshold is farther, one whose three together could not reach it is not (the
    paper and the ink: nearly all of a figure), and only the rest have their squared distance
    summed, in whole numbers: the float32 distance is the rounded square root of that whole sum, so
    it is past ``threshold`` exactly where the sum is at least the least one whose root is.
    ``within``: only these pixels are asked (False elsewhere): a mask being narrowed colour by colour
    (the paper near a pastel fill is a few tens off it, and was summed for nothing)."""
    c = np.asarray(color, dtype=np.float32)
    if not _whole_bytes(pixels, c):
        return distances(pixels, color) > threshold if within is None else (distances(pixels, color) > threshold) & within
    if within is not None and np.count_nonzero(within) < 0.5 * within.size:
        # a sparse mask: only its pixels, gathered into a one-column image, are asked (the same test
        # pixel by pixel); sketch_ink's fills after the paper asked every pixel of a 15 M px page each
        out = np.zeros(within.shape, bool)
        at = np.flatnonzero(within)
        if at.size:
            out.reshape(-1)[at] = farther_than(pixels.reshape(-1, 1, 3)[at], color, threshold)[:, 0]
        return out
    least = _least_sum_past(threshold)
    sure = math.ceil(math.sqrt(least))  # a largest difference this big is enough alone...
    could = math.ceil(math.sqrt(least / 3))  # ...and one under this is not, with the other two as big
    d = _absdiff(pixels, c)
    top = channel_max(d)
    out = top >= sure
    unsure = (top >= could) & ~out
    if within is not None:
        out &= within
        unsure &= within
    if unsure.any():
        px = d[unsure].astype(np.int32)
        out[unsure] = (px * px).sum(axis=1) >= least
    return out


def channel_max(d: np.ndarray) -> np.ndarray:
    """Each pixel's largest channel of an H×W×3 uint8 image (H×W): OpenCV's row reduction of the pixels
    taken as rows of three, the same bytes as ``cv2.max`` over its split channels without their three
    full-image copies (a 15 MP page: 0.12 -> 0.08 s with the difference it is taken of)."""
    h, w = d.shape[:2]
    return cv2.reduce(np.ascontiguousarray(d).reshape(h * w, 3), 1, cv2.REDUCE_MAX).reshape(h, w)


@functools.lru_cache(maxsize=64)
def _least_sum_past(threshold: float) -> int:
    """The least whole sum of squared channel differences (0 .. 3·255²) whose float32 square root,
    as :func:`distances` computes it, is past ``threshold`` (one past the range: none is)."""
    sums = np.arange(3 * 255 * 255 + 2, dtype=np.float32)
    return int(np.searchsorted(np.sqrt(sums) > threshold, True))  # compared as distances' callers compare


def color_distance(a, b) -> float:
    return float(np.linalg.norm(np.asarray(a, dtype=np.float32) - np.asarray(b, dtype=np.float32)))


BT601 = (0.299, 0.587, 0.114)  # ITU-R BT.601 luma weights: the grey (0-255) an RGB colour reads as
_BT601_32 = np.array(BT601, np.float32)
_BT601_64 = np.array(BT601, np.float64)


def luma(rgb, dtype=np.float32) -> np.ndarray:
    """BT.601 luma (0-255) of RGB colours or pixels (…×3; one colour gives a 0-d array), as a
    matrix product in ``dtype``: float32 for the light/dark tests on paints and pixels, float64
    where a value feeds further sums (a block's spread, an axis line's contrast)."""
    return np.asarray(rgb).astype(dtype) @ (_BT601_32 if dtype == np.float32 else _BT601_64)


def luma_summed(rgb) -> np.ndarray:
    """BT.601 luma summed channel by channel in float64, as Python sums one colour: for the scores
    (SSIM, GMSD: the numbers reported so far were computed so) and one colour's test against a threshold.
    Not :func:`luma` in float64: a matrix product rounds the last bit otherwise on 19 % of colours,
    and of the greys 42 of 256, which sit at thresholds (this gives 224.99999999999997 for
    (225, 225, 225), the product 225.0)."""
    a = np.asarray(rgb).astype(np.float64)
    return a[..., 0] * BT601[0] + a[..., 1] * BT601[1] + a[..., 2] * BT601[2]


GRADIENT_STEP = 4  # a gradient fill's neighbouring pixels differ by at most this (largest channel)
GRADIENT_SPAN = 8  # ... and its two ends by at least this: less is one flat paint's noise
GRADIENT_ROW_SPREAD = 2  # a band (one row across the ramp) is one colour give or take this ...
GRADIENT_ROW_OUTLIERS = 0.2  # ... but for this share of its pixels (a glyph's faintest edge, joined by small steps)
GRADIENT_MIN_AREA = 400  # pixels of one ramp, at the least
GRADIENT_MIN_BANDS = 4  # distinct band colours along the ramp: fewer are flat tones side by side
GRADIENT_WIDTH_SHARE = 0.9  # every band reaches across this share of the ramp's width
GRADIENT_MIN_WIDTH = 24  # ... which is this many pixels across, at the least
# a ramp longer than this many times its width is a colour scale (a heatmap's colorbar: matplotlib's is 20 times
# as long as wide, Vega's legend gradient 12.5), not a shaded box: its colours are values, read row by row
GRADIENT_MAX_ELONGATION = 6.0


def flattened_gradients(rgb: np.ndarray) -> np.ndarray:
    """``rgb`` with each linear gradient fill (draw.io's ``gradientColor``, PowerPoint's and Keynote's
    shaded boxes) painted its mean colour, so the paints read it as one face: banded, a box had come
    back as stacked rectangles, traced blobs and arrowhead-like triangles, its label unplaced and the
    edges into it without their end. A ramp is a region whose neighbouring pixels differ by a small
    step each (:data:`GRADIENT_STEP`) and whose colour changes monotonically along one axis, every band
    across it one colour spanning its width; two flat fills that touch (a class box's header and body)
    meet in a sharp step and stay two, and text and lines inside, drawn in contrast, are not in it (a
    glyph's faintest edge pixels, joined to the fill by small steps, are left as they are). A strip far
    longer along its ramp than across (:data:`GRADIENT_MAX_ELONGATION`) is a colour scale and stays as drawn.
    The same array when there is none (most figures: no soft steps at all)."""
    h, w = rgb.shape[:2]
    if h < 3 or w < 3:
        return rgb
    # neighbours' differences (largest channel) in the image's own bytes: an int16 copy of every figure
    # cost as much as the rest of this look, and only the few with soft steps need the colours as numbers
    dv = _largest_step(rgb[1:], rgb[:-1])
    dh = _largest_step(rgb[:, 1:], rgb[:, :-1])
    if not (_stacked_steps(dv, dh) or _stacked_steps(dh.T, dv.T)):
        return rgb
    px = rgb.astype(np.int16)
    # the smooth pixels: within a step of each of their four neighbours (a sharp edge, a glyph's or a
    # line's, or where two flat fills meet, parts them); their regions are the candidates
    smooth = np.ones((h, w), bool)
    smooth[:-1] &= dv <= GRADIENT_STEP
    smooth[1:] &= dv <= GRADIENT_STEP
    smooth[:, :-1] &= dh <= GRADIENT_STEP
    smooth[:, 1:] &= dh <= GRADIENT_STEP
    _, comp, stats, _ = cv2.connectedComponentsWithStats(smooth.astype(np.uint8), connectivity=4)
    out = rgb
    for c in np.flatnonzero(stats[1:, cv2.CC_STAT_AREA] >= GRADIENT_MIN_AREA) + 1:  # 0: the rough pixels
        x, y, bw, bh = (int(v) for v in stats[c, :4])
        inside = comp[y:y + bh, x:x + bw] == c
        if _span(rgb[y:y + bh, x:x + bw], inside) < GRADIENT_SPAN:
            continue  # one flat paint (or the page)
        ys, xs = np.nonzero(inside)
        ys, xs = ys + y, xs + x
        colors = px[ys, xs]
        for along, across, length, width in ((ys, xs, bh, bw), (xs, ys, bw, bh)):
            if length > GRADIENT_MAX_ELONGATION * width:
                continue
            ramp = _ramp(along, across, colors)
            if ramp is None:
                continue
            fill, medians = ramp
            if out is rgb:
                out = rgb.copy()
            mean = np.rint(colors[fill].mean(axis=0)).astype(np.uint8)
            out[ys[fill], xs[fill]] = mean
            ry, rx = _rim(comp, c, (x, y, bw, bh), px, medians, along is ys)
            out[ry, rx] = mean
            break
    return out


def _span(rgb: np.ndarray, inside: np.ndarray) -> int:
    """The largest of the channels' ranges (max less min) over the pixels ``inside`` (a mask, some set), as
    the region's colours gathered would give it: OpenCV's masked extremes per channel, without the region's
    pixel list (the page is a smooth region too, and nearly every one is flat: gathering them had cost a
    Mermaid page more than the ramps' test). With :func:`_band_medians`, the gradient look of
    G_clem_sleep-cycle took 1.26 -> 0.36 CPU-s, B_flash-attention_gpt3-eff's 2.2 -> 0.9, A_d2l_vit's
    0.45 -> 0.21 (the same output)."""
    mask = inside.view(np.uint8)
    spans = []
    for channel in cv2.split(rgb):
        lo, hi, _, _ = cv2.minMaxLoc(channel, mask)
        spans.append(int(hi) - int(lo))
    return max(spans)


def _largest_step(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """|a - b| in its largest channel, per pixel, without leaving the arrays' dtype (no overflow: the
    larger less the smaller); channel by channel, as numpy's reduce over a short last axis is slow."""
    d = np.maximum(a, b) - np.minimum(a, b)
    return np.maximum(np.maximum(d[..., 0], d[..., 1]), d[..., 2])


def _rim(comp: np.ndarray, c: int, box: tuple[int, int, int, int], px: np.ndarray, medians: np.ndarray,
         vertical: bool) -> tuple[np.ndarray, np.ndarray]:
    """The pixels (rows, columns) just outside ramp ``c`` (of the components ``comp``, within ``box``) that
    are its fill too: the ramp's outermost row and column, rough only for their sharp step to the page or
    outline, each the colour of its band (``medians``, by row where the ramp is ``vertical``, the nearest
    band past its ends) give or take :data:`GRADIENT_ROW_SPREAD`. Left in their own colours, they had
    ringed the flattened box with a frame of the ramp's ends (its lightest over, its darkest under), a
    second outline that an arrow's end and the box's corners were read against."""
    h, w = comp.shape
    x, y, bw, bh = box
    x0, y0, x1, y1 = max(x - 1, 0), max(y - 1, 0), min(x + bw + 1, w), min(y + bh + 1, h)
    inside = (comp[y0:y1, x0:x1] == c).astype(np.uint8)
    ring = (cv2.dilate(inside, np.ones((3, 3), np.uint8)) > 0) & (inside == 0)
    ry, rx = np.nonzero(ring)
    ry, rx = ry + y0, rx + x0
    band = np.clip((ry - y) if vertical else (rx - x), 0, len(medians) - 1)
    near = np.abs(px[ry, rx] - medians[band]).max(axis=1) <= GRADIENT_ROW_SPREAD
    return ry[near], rx[near]


def _stacked_steps(d_along: np.ndarray, d_across: np.ndarray) -> bool:
    """Whether a ramp along the first axis could be here: :data:`GRADIENT_MIN_BANDS` soft steps (one
    band to the next) that run straight across, each a segment of at least :data:`GRADIENT_MIN_WIDTH`
    pixels smooth along it. A cheap look before the step graph, whose cost grows with the image (a 14 M px
    photo's: 14 s); most figures have none."""
    n = min(d_along.shape[1], d_across.shape[1])
    steps = (d_along[:, :n] > 0) & (d_along[:, :n] <= GRADIENT_STEP) & (d_across[:-1, :n] <= GRADIENT_STEP)
    if np.count_nonzero(steps) < GRADIENT_MIN_BANDS * GRADIENT_MIN_WIDTH:
        return False
    runs = cv2.morphologyEx(steps.astype(np.uint8), cv2.MORPH_OPEN, np.ones((1, GRADIENT_MIN_WIDTH), np.uint8))
    return int(np.count_nonzero(runs.any(axis=1))) >= GRADIENT_MIN_BANDS


def _band_medians(bands: np.ndarray, count: np.ndarray, colors: np.ndarray) -> np.ndarray:
    """Each band's median colour, channel by channel (bands × 3, float64): ``np.median`` of the band's
    colours (0..255), the same values (the middle one, or the mean of the two middle ones), read from each
    band's histogram of the channel's 256 values in place of a median per band (a ramp hundreds of bands
    long had taken a tenth of a second, a sort of all its pixels as long)."""
    nb = len(count)
    lo, hi = (count - 1) // 2, count // 2  # the middle ranks in each band
    out = np.empty((nb, 3))
    for k in range(3):
        cum = np.bincount(bands * 256 + colors[:, k], minlength=nb * 256).reshape(nb, 256).cumsum(axis=1)
        # the value at rank r: the first whose running count passes r
        out[:, k] = ((cum <= lo[:, None]).sum(axis=1).astype(np.float64) + (cum <= hi[:, None]).sum(axis=1)) / 2
    return out


def _ramp(along: np.ndarray, across: np.ndarray, colors: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Which of the pixels (their positions ``along`` the ramp's axis and ``across`` it, their colours)
    are the fill of one linear ramp, and each band's colour (its median, from the first band on), or None
    where they are not one: every band (one ``along`` value) one colour but for a few outliers, reaching
    across the region's width, band after band in an unbroken run, each channel rising or falling
    monotonically through them."""
    bands = along - int(along.min())
    nb = int(bands.max()) + 1
    count = np.bincount(bands, minlength=nb)
    if (count == 0).any():
        return None
    width = int(across.max()) - int(across.min()) + 1
    first = np.full(nb, np.iinfo(np.int64).max)
    last = np.full(nb, -1)
    np.minimum.at(first, bands, across)
    np.maximum.at(last, bands, across)
    if ((last - first + 1) < GRADIENT_WIDTH_SHARE * width).any():
        return None
    medians = _band_medians(bands, count, colors)
    # past the spread in any channel (numpy's reduce over a 3-long last axis is slow)
    off = np.zeros(len(bands), bool)
    for k in range(3):
        off |= np.abs(colors[:, k] - medians[bands, k]) > GRADIENT_ROW_SPREAD
    if (np.bincount(bands, weights=off, minlength=nb) > GRADIENT_ROW_OUTLIERS * count).any():
        return None
    for k in range(3):
        step = np.diff(medians[:, k])
        if (step > 1).any() and (step < -1).any():
            return None  # up and down: not one ramp
    if len(np.unique(np.rint(medians).astype(np.int32), axis=0)) < GRADIENT_MIN_BANDS:
        return None
    return ~off, medians
