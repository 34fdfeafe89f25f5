"""Block arrows: a thick shaft with a wide triangular head, drawn on its own between two nodes.

Google Drawings, draw.io and PowerPoint draw a connector as a block arrow (a shape: a narrow bar,
often pale-filled with a dark outline, ending in a triangle) set in the gap between two boxes,
touching neither. The line detector sees a blob far wider than a stroke, the shape stage no
node, and the arrow came back as a traced path joined to nothing (issue 31: a scheduling-queue
diagram's six transitions, all lost). A residual blob whose width along its long axis is a
steady bar widening once, at one end, into a head that tapers to a tip is such an arrow: it
becomes a line of the bar's width with a head at the tip, carried along its axis onto the node
ahead of the tip and the node behind its tail (within a share of its own length).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from crafteditor.assemble.geometry import ray_box
from crafteditor.blobs import find_blobs
from crafteditor.lines.paths import Arrowhead, LinePath
from crafteditor.shapes.detect import DetectedShape

MIN_SHAFT, MAX_SHAFT = 4.0, 40.0  # px: a bar narrower is a stroke (the line detector's), wider a box
MIN_ASPECT = 3.0  # the arrow's length over its shaft's width, at least
STEADY = 0.3  # the shaft's width varies at most this share about its median (a text line's glyphs do more)
SOLID = 0.85  # share of the shaft's span across that is ink (a rotated label's letters leave gaps)
HEAD_WIDER = 1.5  # the head at least this many shaft widths wide
TIP_NARROW = 0.6  # the last px at the tip at most this share of the head's width
HEAD_RATIO = 1.25  # a drawn head's length over its width, at least (the renderer's: 6 long, 4.8 wide)
OUTLINE_DARKER = 40.0  # the rim's colour at least this much farther from the canvas than the fill's
MAX_BLOB_ACROSS = 4 * MAX_SHAFT  # px: a blob's area over its diagonal at most this (a head 6 bars wide, solid)
REACH = 0.8  # the node ahead of the tip (behind the tail) at most this share of the arrow's length away


def block_arrows(residual: np.ndarray, rgb: np.ndarray, shapes: list[DetectedShape]
                 ) -> tuple[list[LinePath], np.ndarray]:
    """The block arrows in the ``residual`` ink (as lines carried onto the nodes they point from
    and at), and the mask of their pixels."""
    filled = filled_holes(residual)
    n, labels, stats, _ = find_blobs(filled)
    nodes = [s for s in shapes if not s.is_group]
    out: list[LinePath] = []
    taken = np.zeros(residual.shape, bool)
    for i in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[i])
        if area < 40 or max(w, h) < MIN_ASPECT * MIN_SHAFT or area > math.hypot(w, h) * MAX_BLOB_ACROSS:
            continue  # too small, or too much ink for a bar and its head along the blob's diagonal
        part = labels[y:y + h, x:x + w] == i
        found = _arrow_axis(part)
        if found is None:
            continue
        tail, tip, shaft, head_w, head_len = found
        if not _outlined(rgb[y:y + h, x:x + w], part):
            continue  # one paint throughout: a thick stroke's arrow, the line detector's (a TikZ figure's)
        tail, tip = (tail[0] + x, tail[1] + y), (tip[0] + x, tip[1] + y)
        color = tuple(int(c) for c in np.median(rgb[y:y + h, x:x + w][part], axis=0))
        length = math.dist(tail, tip)
        ux, uy = (tip[0] - tail[0]) / length, (tip[1] - tail[1]) / length
        base = (tip[0] - ux * head_len, tip[1] - uy * head_len)
        head = Arrowhead(tip=tip, base=base, length=head_len, width=head_w, mask_box=(x, y, x + w, y + h),
                         kind="arrow", pointing=(ux, uy), axis_from_shape=True)
        start = _node_along(tip, tail, nodes, REACH * length)
        end = _node_along(tail, tip, nodes, REACH * length)
        pts = [tail, tip]
        if start is not None:
            pts.insert(0, start)
        if end is not None:
            pts.append(end)
            head.tip = end
        out.append(LinePath(points=pts, width=shaft, color=color, head_end=head, ink=int(area)))
        taken[y:y + h, x:x + w] |= part
    return out, taken


def filled_holes(mask: np.ndarray) -> np.ndarray:
    """``scipy.ndimage.binary_fill_holes(mask)``: the mask and the background no 4-connected path joins to
    the image's border, by OpenCV's flood fill from a frame around it (the same pixels; scipy's iterated
    dilation had cost 70 ms of a 2 MP figure's lines stage, on every figure's leftover ink)."""
    outside = np.pad(~mask.astype(bool), 1, constant_values=True).astype(np.uint8)
    cv2.floodFill(outside, None, (0, 0), 2)  # 4-connected, as scipy's default structure
    return outside[1:-1, 1:-1] != 2


def _arrow_axis(part: np.ndarray) -> tuple[tuple[float, float], tuple[float, float], float, float, float] | None:
    """(tail, tip, shaft width, head width, head length) of a blob shaped as a block arrow, in the
    blob's own pixels; None for any other blob."""
    ys, xs = np.nonzero(part)
    pts = np.column_stack([xs, ys]).astype(np.float64) + 0.5
    c = pts.mean(axis=0)
    evals, evecs = np.linalg.eigh(np.cov((pts - c).T))
    u, v = evecs[:, 1], evecs[:, 0]  # the long axis, across it
    along, across = (pts - c) @ u, (pts - c) @ v
    length = float(along.max() - along.min())
    bins = np.floor(along - along.min()).astype(int)
    nb = bins.max() + 1
    if nb < 12:
        return None
    vmin = np.full(nb, np.inf)
    vmax = np.full(nb, -np.inf)
    order = np.argsort(bins, kind="stable")  # each bin's extremes by one sorted pass (ufunc.at is slow)
    sb, sa = bins[order], across[order]
    starts = np.flatnonzero(np.r_[True, sb[1:] != sb[:-1]])
    vmin[sb[starts]] = np.minimum.reduceat(sa, starts)
    vmax[sb[starts]] = np.maximum.reduceat(sa, starts)
    count = np.bincount(bins, minlength=nb).astype(np.float64)
    span = np.where(np.isfinite(vmin), vmax - vmin + 1.0, 0.0)
    # the head at the end where the blob is widest
    if span[: nb // 3].max() > span[-(nb // 3):].max():
        span, count, vmin, vmax = span[::-1], count[::-1], vmin[::-1], vmax[::-1]
        u, along = -u, -along
    middle = slice(nb // 5, nb // 2)
    shaft = float(np.median(span[middle]))
    if not MIN_SHAFT <= shaft <= MAX_SHAFT or length < MIN_ASPECT * shaft:
        return None
    if np.mean(np.abs(span[middle] - shaft) <= STEADY * shaft) < 0.8:
        return None
    if np.mean(count[middle] / np.maximum(span[middle], 1.0)) < SOLID:
        return None
    tail_w = float(np.median(span[: max(2, nb // 10)]))
    if tail_w > (1.0 + STEADY) * shaft:
        return None  # wide at both ends: a bar between two blobs, a double arrow, a glyph run
    head_w = float(span[nb // 2:].max())
    if head_w < HEAD_WIDER * shaft:
        return None
    widest = nb // 2 + int(np.argmax(span[nb // 2:]))
    tip_len = max(2, int(0.15 * (nb - widest)))
    if span[-tip_len:].mean() > TIP_NARROW * head_w or widest >= nb - 2:
        return None
    # the head widens once and narrows to its tip: no second bulge past the widest point
    if np.any(np.diff(span[widest:]) > max(2.0, 0.25 * shaft)):
        return None
    axis_v = float(np.median((vmin[middle] + vmax[middle]) / 2))  # the shaft's centre line, across
    tail = c + v * axis_v + u * float(along.min())
    tip = c + v * axis_v + u * float(along.max())
    # the head's length from its width (the barbs' bins read short where the outline is anti-aliased)
    head_len = max(float(nb - widest), HEAD_RATIO * head_w)
    return (float(tail[0]), float(tail[1])), (float(tip[0]), float(tip[1])), shaft, head_w, head_len


def _outlined(rgb: np.ndarray, part: np.ndarray) -> bool:
    """Whether the blob's rim is drawn farther from the canvas (its bounding box's corners, outside
    any arrow) than its inside: a pale-filled bar with a dark outline, not one paint whose rim
    anti-aliasing fades to the canvas."""
    inner = cv2.erode(part.astype(np.uint8), np.ones((3, 3), np.uint8), iterations=2).astype(bool)
    rim = part & ~cv2.erode(part.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    if inner.sum() < 10 or not rim.any():
        return False
    h, w = part.shape
    canvas = np.median(np.array([rgb[0, 0], rgb[0, w - 1], rgb[h - 1, 0], rgb[h - 1, w - 1]], np.float64), axis=0)
    far = lambda m: float(np.linalg.norm(np.median(rgb[m].astype(np.float64), axis=0) - canvas))  # noqa: E731
    return far(rim) >= far(inner) + OUTLINE_DARKER


def _node_along(frm: tuple[float, float], to: tuple[float, float], nodes: list[DetectedShape],
                reach: float) -> tuple[float, float] | None:
    """Where the course frm → to, continued past ``to``, first enters a node within ``reach`` px."""
    best = None
    for s in nodes:
        hit = ray_box(frm, to, (s.x, s.y, s.x + s.w, s.y + s.h))
        if hit is None:
            continue
        d = math.dist(to, hit)
        ahead = (hit[0] - to[0]) * (to[0] - frm[0]) + (hit[1] - to[1]) * (to[1] - frm[1]) >= 0
        if ahead and d <= reach and (best is None or d < best[0]):
            best = (d, hit)
    return None if best is None else best[1]
