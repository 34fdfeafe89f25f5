"""Hachure fills: the parallel pen strokes of a sketched box read as the flat fill they stand for.

Excalidraw's (and rough.js's) default fill is a hachure: a box "filled" in orange is a dozen thin
orange strokes at about 40°, a few px apart, with the label written over them. Read as drawn,
the strokes were everything but a fill: the photo stage took one such box for a picture (its
label went with it), the shape stage found no face in it (the strokes cut the inside into
slivers), and the line stage read the strokes as lines, their ends as arrow heads (a dev figure
came back with its three hatched boxes as heaps of black triangles, no node).

Here, before anything is read, a region of thin strokes that run in one direction (a line
opening at that angle keeps them), packed densely and side by side (at least MIN_STROKES of
them, the region box-like), is painted in the strokes' optical mean with the paper: the
pastel a viewer sees. Only the strokes' own colours (and their blends with the paper) are
painted over; the label and the outline, in another colour, are kept as they are. The figure
then reads as a filled box, and is drawn back with a flat fill (the hachure is not redrawn).

Only the pixels read change: the figure drawn back is still compared with the original.
"""

from __future__ import annotations

import functools
import math
from dataclasses import replace

import cv2
import numpy as np

from crafteditor.blobs import find_blobs, hull_mask
from crafteditor.loading import RasterImage
from crafteditor.paint import channel_max

INK_CONTRAST = 30  # a stroke differs from the paper by this much in some channel
STROKE_PX = 15  # a hachure stroke is straight over at least this many px
ANGLES = tuple(range(20, 75, 5))  # hachure strokes run diagonally (degrees off horizontal, either way)
WINDOW = 31  # the stroke density is measured over this window (px)
DENSE = 0.2  # share of a window that diagonal strokes cover in a hachure
# rough.js spaces a hachure 8x its strokes' width (Excalidraw: gap 4 x stroke width, strokes half as wide): on
# a 2x export with wide strokes the gap outgrows WINDOW (and the strokes are 4-6 px wide); sparser passes over
# a wider window, thin meaning up to 6 px, finds those, kept only in a colour (Excalidraw's pastel fills), as
# grey or black ink there is text (italic letters run diagonally too)
THIN_PX = 5  # a stroke thinner than this is thin (a solid fill is not)
# (DENSE, WINDOW, THIN_PX, STROKE_PX) of those passes: a wide stroke's hachure is looked for in longer strokes
SPARSE = ((0.1, 45, 5, 15), (0.1, 45, 7, 25))
# Excalidraw's palest fills (#ffc9c9 pink 54 off white, #d0bfff lavender 64) drawn as 1 px strokes at scale 1 are
# anti-aliased to about half that where a diagonal stroke half covers a pixel: at INK_CONTRAST such strokes break
# into dashes (no hachure found, the box read as a heap of strokes, its label a free text). A last pass looks for
# them at this contrast, only where no hachure was found and only in a colour (grey or black ink there is text);
# the lower contrast is not taken for the passes above (it merged neighbouring cross-hatched boxes into one region)
FAINT_CONTRAST = 20
INK_GREY = 24  # a sparse hachure's strokes are more coloured than this (max - min channel of their median)
MIN_AREA = 1600  # a hatched region covers at least this many px...
MIN_SIDE = 30  # ...and is at least this wide and tall
BOXLIKE = 0.45  # share of its bounding box the region fills (a fan of edges or curves does not; a diamond 0.5)
ONE_WAY = 0.5  # share of its strokes that run at the commonest angle (±5°), or at it and across it
CROSS = 0.4  # a cross-hatch: the strokes across the commonest angle are at least this share of those at it
MIN_STROKES = 8  # parallel strokes at that angle
SEAL_PX = 5  # an outline's gaps up to this wide are sealed when the fill is grown to it
OUTLINE_PAD = 4.0  # the outline is looked for this share of the region's size beyond its crop...
GROW_MAX = 12  # ...and the fill grown to it covers at most this many times the region (not a frame's inside),
STROKED = 0.2  # its strokes there at least this share as dense as in the region (not an unfilled box overlapping it)
TINT_PX = 60.0  # a pixel this close (RGB) to the paper-to-stroke blend is fill, painted over
SLIT_TINT = 8  # a wide-stroke hachure's fill differs from the paper by this much (Mermaid's #ECECFF: 19)
SLIT_PX = 11  # a paper slit between its strokes is narrower than this along a row or a column
SLIT_DENSE = 0.04  # share of a window its slits cover
SLIT_FILL = 128  # a slit hachure's fill is at most this far off the paper (a pastel; #FF99FF: 102)
SLIT_FLAT = 0.6  # share of a slit hachure's fill pixels in its colour (the strokes are one colour)
SLIT_BLEND = 12.0  # a pixel this close (RGB) to the paper-to-fill blend is slit or fill, painted in the fill


def dehatched(image: RasterImage) -> RasterImage | None:
    """The image with its hachure fills painted flat; None where it has none."""
    rgb = image.rgb
    paper = _paper(rgb)
    off = paper_distance(rgb, paper)
    slitted = slits_filled(rgb, paper, off)
    if slitted is not None:  # the slits painted: the page differs from the paper anew
        rgb, off = slitted, paper_distance(slitted, paper)
    regions = hatch_regions(rgb, off)
    if not regions:
        return None if slitted is None else replace(image, rgb=rgb)
    out = rgb.copy()
    for sl, region, strokes in regions:
        sl, region, strokes = _widened(sl, region, strokes, rgb.shape[:2])
        _paint(out[sl], _to_outline(rgb[sl], region, strokes, paper), strokes, paper)
    return replace(image, rgb=out)


def _widened(sl: tuple[slice, slice], region: np.ndarray, strokes: np.ndarray, shape: tuple[int, ...]
             ) -> tuple[tuple[slice, slice], np.ndarray, np.ndarray]:
    """The slice grown by OUTLINE_PAD of the region's size each way (within the image), the masks padded to it:
    the strokes' density stops short of a small box's rim and of its label, and the crop around it then cut
    the outline off (the fill reached the crop's border, and the hachure by the outline and the label stayed,
    read as dozens of short lines with heads)."""
    ys, xs = np.nonzero(region)
    if not len(ys):
        return sl, region, strokes
    pad = int(OUTLINE_PAD * max(ys.max() - ys.min(), xs.max() - xs.min())) + 1
    y0, y1 = max(0, sl[0].start - pad), min(shape[0], sl[0].stop + pad)
    x0, x1 = max(0, sl[1].start - pad), min(shape[1], sl[1].stop + pad)
    big = np.s_[y0:y1, x0:x1]
    inner = np.s_[sl[0].start - y0:sl[0].start - y0 + region.shape[0], sl[1].start - x0:sl[1].start - x0 + region.shape[1]]
    r, s = np.zeros((y1 - y0, x1 - x0), bool), np.zeros((y1 - y0, x1 - x0), bool)
    r[inner], s[inner] = region, strokes
    return big, r, s


def _to_outline(rgb: np.ndarray, region: np.ndarray, strokes: np.ndarray, paper: np.ndarray) -> np.ndarray:
    """The region grown out to the shape's outline: the strokes' density stops short of the rim (half the
    window is outside there) and of the label, and a wide-spaced hachure or a cross-hatch closes into blobs;
    the fill is the paper-or-hachure area the region lies in, walled by the outline and the label (other
    colours). Where that area reaches the crop's border (an outline left open), the region stays as read."""
    hue = np.median(rgb[strokes].astype(np.float32), axis=0)
    px = rgb.reshape(-1, 3).astype(np.float32)
    near = (_off_blend(px, paper, hue) < TINT_PX).reshape(rgb.shape[:2])
    d = hue - paper  # the stroke pixels: over halfway from the paper to the hue
    inked = near & (((px - paper) @ d) / max(float(d @ d), 1.0) > 0.5).reshape(rgb.shape[:2])
    for seal in (1, SEAL_PX):  # a rough outline's two strokes leave pin gaps: sealed by thinning the fill
        inner = near if seal == 1 else cv2.erode(near.astype(np.uint8), np.ones((seal, seal), np.uint8)) > 0
        _, lab = cv2.connectedComponents(inner.astype(np.uint8), connectivity=4)
        ids = np.unique(lab[region & inner])
        edge = np.unique(np.concatenate([lab[0], lab[-1], lab[:, 0], lab[:, -1]]))
        ids = ids[(ids > 0) & ~np.isin(ids, edge)]  # an area reaching the crop's border is outside
        grown = np.isin(lab, ids).astype(np.uint8)
        added = (grown > 0) & ~region
        if ids.size and grown.sum() <= GROW_MAX * region.sum() and (
                not added.any() or inked[added].mean() >= STROKED * inked[region].mean()):
            return region | (cv2.dilate(grown, np.ones((seal, seal), np.uint8)) > 0) & near
    return region


def paper_distance(rgb: np.ndarray, paper: np.ndarray) -> np.ndarray:
    """Each pixel's largest channel difference from the paper's colour (H×W uint8)."""
    return channel_max(cv2.absdiff(np.ascontiguousarray(rgb), (*(float(round(c)) for c in paper), 0.0)))


def slits_filled(rgb: np.ndarray, paper: np.ndarray, off: np.ndarray) -> np.ndarray | None:
    """The image with the paper slits of a wide-stroke hachure painted in its fill; None where it has none.

    Mermaid's handDrawn look (rough.js, stroke as wide as the gap's few px) draws a node's fill as wide strokes
    in the fill colour with thin slits of paper between them: the fill (a pastel only ~20 levels off white is no
    ink to the pass above) is solid but for parallel diagonal paper lines, which cut it into slivers (no face, no
    node) and read as lines. A slit is paper walled by the fill both across and along the rows (a closing each
    way), long and diagonal (a line opening at the hachure's angles keeps it); where MIN_STROKES of them lie
    side by side, densely, in a box-like region, they are painted in the fill colour around them. ``off``:
    :func:`paper_distance` of ``rgb``."""
    walled = cv2.min(cv2.morphologyEx(off, cv2.MORPH_CLOSE, np.ones((1, SLIT_PX), np.uint8)),
                     cv2.morphologyEx(off, cv2.MORPH_CLOSE, np.ones((SLIT_PX, 1), np.uint8)))
    tint = (off > SLIT_TINT).astype(np.uint8)
    slit = ((walled > SLIT_TINT) & (3 * off.astype(np.int16) < 2 * walled)).astype(np.uint8)  # paper-ward of the fill
    if slit.sum() < MIN_AREA:
        return None
    out = None
    for x, y, w, h, _ in _dense_boxes(slit, SLIT_DENSE, WINDOW):
        x0, y0 = max(0, x - WINDOW), max(0, y - WINDOW)
        sl = np.s_[y0:y + h + WINDOW, x0:x + w + WINDOW]
        for _region, strokes in _hatches(slit[sl], SLIT_DENSE, WINDOW, STROKE_PX):
            region = hull_mask(strokes)  # the strokes span the shape: their hull is its inside (a circle's, a diamond's)
            fill = region & (tint[sl] > 0) & (off[sl] <= SLIT_FILL)  # not the label's or outline's ink
            if fill.sum() < (region & (slit[sl] > 0)).sum():
                continue
            hue = np.median(rgb[sl][fill].astype(np.float32), axis=0)
            if np.abs(hue - paper).max() > SLIT_FILL:
                continue  # a deep fill: the paper-near marks on it may be its label's letters (white on blue)
            if (np.linalg.norm(rgb[sl][fill].astype(np.float32) - hue, axis=1) < 2 * SLIT_BLEND).mean() < SLIT_FLAT:
                continue  # no flat fill: the paper between a fan of close curves, each in its colour
            out = rgb.copy() if out is None else out
            px = out[sl][region].astype(np.float32)
            px[_off_blend(px, paper, hue) < SLIT_BLEND] = hue  # the slits' anti-aliased rims: painted too
            out[sl][region] = np.clip(px + 0.5, 0, 255).astype(np.uint8)
    return out


def hatch_regions(rgb: np.ndarray, off: np.ndarray) -> list[tuple[tuple[slice, slice], np.ndarray, np.ndarray]]:
    """(the image's slice, the region's mask and its strokes' mask in that slice) of each hachure fill;
    ``off``: :func:`paper_distance` of ``rgb``."""
    out: list[tuple[tuple[slice, slice], np.ndarray, np.ndarray]] = []
    thins: dict[tuple[int, int], np.ndarray] = {}
    passes = [(INK_CONTRAST, DENSE, WINDOW, THIN_PX, STROKE_PX), *((INK_CONTRAST, *p) for p in SPARSE),
              (FAINT_CONTRAST, DENSE, WINDOW, THIN_PX, STROKE_PX)]
    # the later passes keep only boxes whose strokes are in a colour (_colour_share): on a page whose ink holds
    # no coloured pixel at all none can, and they are not run (29 of the dev split's 127 figures, all grey)
    coloured = _any_coloured(rgb, off > FAINT_CONTRAST)  # the lowest contrast of the passes
    for contrast, dense, window, px, length in passes:
        sparse = window != WINDOW or contrast != INK_CONTRAST  # a later pass: coloured strokes where none was found
        if sparse and not coloured:
            break
        if (contrast, px) not in thins:  # thin strokes only: a solid fill survives any line opening
            ink = (off > contrast).astype(np.uint8)
            solid = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((px, px), np.uint8))
            thins[contrast, px] = ink & (1 - cv2.dilate(solid, np.ones((3, 3), np.uint8)))
        thin = thins[contrast, px]
        taken = np.zeros(thin.shape, bool)
        for sl, region, _ in out:
            taken[sl] |= region
        # the diagonal strokes are looked for only where thin strokes are dense at all (cheap)
        for x, y, w, h, _ in _dense_boxes(thin, dense, window):
            box = np.s_[y:y + h, x:x + w]
            if sparse and (taken[box].mean() > 0.5 or _colour_share(rgb[box][thin[box] > 0]) < 0.3):
                continue  # read already, or dark ink (text): a sparse hachure is coloured
            x0, y0 = max(0, x - window), max(0, y - window)
            sl = np.s_[y0:y + h + window, x0:x + w + window]
            for region, strokes in _hatches(thin[sl], dense, window, length):
                if (region & taken[sl]).any() or (sparse and not _coloured(rgb[sl][strokes])):
                    continue
                out.append((sl, region, strokes))
    return out


def _any_coloured(rgb: np.ndarray, ink: np.ndarray) -> bool:
    """Whether any ``ink`` pixel is in a colour as :func:`_colour_share` counts one (not grey or black)."""
    r, g, b = cv2.split(np.ascontiguousarray(rgb))
    spread = cv2.subtract(cv2.max(cv2.max(r, g), b), cv2.min(cv2.min(r, g), b))
    return bool(np.count_nonzero((spread > INK_GREY) & ink))


def _colour_share(px: np.ndarray) -> float:
    """Share of the pixels in a colour (not grey or black)."""
    if not len(px):
        return 0.0
    return float(((px.max(axis=1).astype(np.int16) - px.min(axis=1)) > INK_GREY).mean())


def _coloured(px: np.ndarray) -> bool:
    """Strokes in a colour (not grey or black ink)."""
    hue = np.median(px.astype(np.float32), axis=0)
    return bool(hue.max() - hue.min() > INK_GREY)


def _dense_boxes(mask: np.ndarray, share: float, window: int) -> list[tuple[int, int, int, int, int]]:
    """(x, y, w, h, area) of each box-like region where ``mask`` covers more than ``share`` of a window."""
    n, _, stats, _ = find_blobs(_dense(mask, share, window))  # OpenCV's labelling, the dense windows in their box
    return [box for box in (tuple(stats[i].tolist()) for i in range(1, n)) if _boxlike(*box)]


def _boxlike(x: int, y: int, w: int, h: int, area: int) -> bool:
    """A region (component stats) large enough, wide and tall enough, and filling its box."""
    return area >= MIN_AREA and min(w, h) >= MIN_SIDE and area >= BOXLIKE * w * h


def _hatches(thin: np.ndarray, share: float, window: int, length: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """(region, strokes) of each hachure in a crop of thin strokes."""
    per = {s * a: cv2.morphologyEx(thin, cv2.MORPH_OPEN, _line_kernel(length, s * a)) for a in ANGLES for s in (1, -1)}
    diag = np.zeros_like(thin)
    for o in per.values():
        diag |= o
    dense = _dense(diag, share, window)
    n, lab, stats, _ = find_blobs(dense)
    out = []
    for i in range(1, n):
        x, y, w, h, area = stats[i].tolist()
        if not _boxlike(x, y, w, h, area):
            continue
        sl = np.s_[y:y + h, x:x + w]
        m = lab[sl] == i
        counts = {k: int(v[sl][m].sum()) for k, v in per.items()}
        strokes, main = np.zeros((h, w), np.uint8), np.zeros((h, w), np.uint8)
        top, dirs = max(counts, key=counts.__getitem__), _directions(counts)
        for k in dirs:
            strokes |= per[k][sl] & m
            if abs(k - top) <= 5:  # a cross-hatch's strokes join in one grid: counted one way
                main |= per[k][sl] & m
        if strokes.sum() < ONE_WAY * diag[sl][m].sum() or cv2.connectedComponents(main)[0] - 1 < MIN_STROKES:
            continue
        full, inside = np.zeros(thin.shape, np.uint8), np.zeros(thin.shape, bool)
        full[sl], inside[sl] = strokes, m
        full = _whole_strokes(full, per, dirs, (x, y, w, h), window)
        out.append((_filled(full, inside | full.astype(bool)), full.astype(bool)))
    return out


def _whole_strokes(strokes: np.ndarray, per: dict[int, np.ndarray], dirs: list[int], box: tuple[int, int, int, int],
                   window: int) -> np.ndarray:
    """The strokes run out to the outline: the density window stops short of a fill's rim (half a window
    there is outside), which kept a band of hachure along the outline; a stroke seen inside is followed out
    to its ends (within a window of the box)."""
    x, y, w, h = box
    near = np.zeros_like(strokes)
    near[max(0, y - window):y + h + window, max(0, x - window):x + w + window] = 1
    whole = np.zeros_like(strokes)
    for k in dirs:
        whole |= per[k]
    whole &= near
    n, lab = cv2.connectedComponents(whole)
    seen = np.unique(lab[(strokes > 0) & (lab > 0)])
    return (strokes | np.isin(lab, seen).astype(np.uint8)) if n > 1 else strokes


def _directions(counts: dict[int, int]) -> list[int]:
    """The angles of a hachure's strokes: the commonest (±5°), and for a cross-hatch the one across it."""
    top = max(counts, key=counts.__getitem__)
    across = [k for k in counts if abs(abs(k - top) - 90) <= 10]
    second = max(across, key=counts.__getitem__) if across else None
    if second is not None and counts[second] < CROSS * counts[top]:
        second = None
    return [k for k in counts if abs(k - top) <= 5 or (second is not None and abs(k - second) <= 5)]


def _paint(rgb: np.ndarray, region: np.ndarray, strokes: np.ndarray, paper: np.ndarray) -> None:
    """Paint the region's stroke and paper pixels in their mean colour."""
    hue = np.median(rgb[strokes].astype(np.float32), axis=0)
    px = rgb[region].astype(np.float32)
    near = _off_blend(px, paper, hue) < TINT_PX  # anti-aliased edges are blends of the paper and the strokes
    if not near.any():
        return
    fill = px[near].mean(axis=0)
    px[near] = fill
    rgb[region] = np.clip(px + 0.5, 0, 255).astype(np.uint8)


def _off_blend(px: np.ndarray, paper: np.ndarray, hue: np.ndarray) -> np.ndarray:
    """Each pixel's (N×3, float32) distance to the segment from the paper to ``hue``: small for the
    paper, the hue and their blends (anti-aliased edges)."""
    d = hue - paper
    t = np.clip(((px - paper) @ d) / max(float(d @ d), 1.0), 0.0, 1.0)
    return np.linalg.norm(px - (paper + t[:, None] * d), axis=1)


def _filled(strokes: np.ndarray, dense: np.ndarray) -> np.ndarray:
    """The area the strokes cover: closed across the gaps between them, holes filled."""
    gap = cv2.distanceTransform((1 - strokes).astype(np.uint8), cv2.DIST_L2, 3)
    inner = gap[dense & (strokes == 0)]
    k = int(2 * np.percentile(inner, 97) + 3) | 1 if inner.size else 9  # a cross-hatch's cells: wider than p90
    closed = cv2.morphologyEx(strokes, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    cnts, _ = cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros_like(closed)
    cv2.drawContours(out, cnts, -1, 1, thickness=-1)
    return out.astype(bool)


def _dense(mask: np.ndarray, share: float, window: int) -> np.ndarray:
    """Where ``mask`` covers more than ``share`` of the window around (outside the image counts as empty).
    The window's pixels are counted in 16-bit integers (a window holds at most 45² = 2,025) and each count
    is compared with the floor of ``share`` times the window's area: a whole count is over that product
    exactly when it is over its floor, so no float rounding moves a count past the share. 7.4 -> 4.1 ms a
    3 MP mask against a 32-bit count, itself 2.5x faster than the float mean on a 15 MP page."""
    assert window * window < 1 << 16, window
    got = cv2.boxFilter(mask.astype(np.uint8), cv2.CV_16U, (window, window), normalize=False,
                        borderType=cv2.BORDER_CONSTANT)
    return (got > math.floor(share * window * window)).view(np.uint8)


def _paper(rgb: np.ndarray) -> np.ndarray:
    """The paper's colour: the median of the image's border."""
    border = np.concatenate([rgb[0], rgb[-1], rgb[:, 0], rgb[:, -1]]).astype(np.float32)
    return np.median(border, axis=0)


@functools.lru_cache(maxsize=64)  # 22 angles x 2 lengths; drawn afresh for every crop they were 9% of hatch_regions
def _line_kernel(length: int, degrees: float) -> np.ndarray:
    """A line ``length`` px long through the centre of a square kernel at ``degrees`` (read-only: it is shared)."""
    k = np.zeros((length, length), np.uint8)
    c = (length - 1) / 2
    dx, dy = np.cos(np.deg2rad(degrees)) * c, -np.sin(np.deg2rad(degrees)) * c
    cv2.line(k, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1, 1)
    k.flags.writeable = False
    return k
