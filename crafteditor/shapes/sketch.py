"""Hand-drawn shapes: wobbly, pencil-grey, not-quite-closed outlines read as clean nodes.

A sketched box is no face of one paint: its pencil stroke is grey and uneven, its sides
wobble by a few pixels (a face matches no ideal outline at the typeset 0.88 IoU), and it is
often left open where the pen lifted, so its inside leaks into the canvas. Here the ink is
taken by contrast alone (any paint far enough from the paper), gaps of a few per cent of an
outline's perimeter are closed, and every enclosed hole is compared with the ideal outlines
of :mod:`~crafteditor.shapes.outlines` at a looser IoU. A hole that matches becomes a
:class:`~crafteditor.shapes.detect.DetectedShape` in the theme's clean fill and stroke (the
sketch is redrawn, not copied); the text inside becomes its label and the strokes between
holes become edges in the usual stages that follow.

The stage runs when the config asks for it (``sketch='on'``, the ``sketch`` preset) or, with
``sketch='auto'``, when the outlines look hand-drawn: at least two holes match a shape only
loosely, their boundary off the ideal by a pixel or more on average (a typeset box is off by
a fraction of one, and is a face the shape stage has read already).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from crafteditor.assemble.geometry import dist_to_shape
from crafteditor.config import THEME, Config
from crafteditor.lines.paths import Arrowhead, LinePath, direction_out
from crafteditor.lines.skeleton import skeleton
from crafteditor.paint import Paints, distances
from crafteditor.shapes.detect import DetectedShape, mark_groups
from crafteditor.shapes.faces import Face
from crafteditor.shapes.outlines import classify, ideal_mask, mask_iou

SKETCH_MIN_IOU = 0.78  # a wobbly hole must match its outline this well (a box vs an ellipse: 0.785)
INK_CONTRAST = 45.0  # RGB distance from the paper that is pencil ink (sketchify's grey: ~70-130)
ROUGH_PX = 0.9  # mean distance (px) between a hole's edge and its ideal outline that reads as hand-drawn
GAP_SHARE = 0.025  # gaps closed: this share of the image's shorter side (≈ a few % of a box's perimeter)
LIFT_SHARE = 0.035  # stroke ends this share of the image's shorter side apart are joined (a pen lift)
LIFT_MIN = 20.0  # ...and at least this far apart (user units): a small box's 3 % gap on a small image
MAX_ENDS = 3000  # more stroke ends than this: noise, not a sketch (no joining)
PLAIN_MARGIN = 0.04  # IoU a cylinder, hexagon, parallelogram or document must gain over a box
SOLID_SHARE = 0.85  # share of an outline inked for a solid (not dashed) frame
SHAFT_BACK = 20.0  # px back from a line's end where its shaft is surely no barb of a head
HEAD_RADIUS = 16.0  # px about a line's end where its head's pencil is counted
HEAD_CLUTTER = 1.6  # an end with this many times the other's pencil holds the head
REACH_PX = 14  # a sketched line's loose end is carried on this far to the node it points at


def sketch_ink(rgb: np.ndarray, paints: Paints, exclude: np.ndarray | None = None) -> np.ndarray:
    """Pixels drawn in contrast with the paper (pencil grey included; paper grain is not)."""
    ink = distances(rgb, paints.background_rgb) > INK_CONTRAST
    if exclude is not None:
        ink &= ~exclude
    return ink


def add_sketch_shapes(rgb: np.ndarray, paints: Paints, config: Config, scale: float,
                      known: list[DetectedShape], exclude: np.ndarray | None = None) -> list[DetectedShape]:
    """``known`` plus the hand-drawn outlines, group frames marked over them all. ``rgb``: the
    pixels as decoded, text erased (a denoising median breaks a thin pencil line into dots)."""
    found = find_sketch_shapes(rgb, paints, config, scale, known, exclude)
    if not found:
        return known
    shapes = known + found
    if config.groups:
        mark_groups(shapes)
    return shapes


def find_sketch_shapes(rgb: np.ndarray, paints: Paints, config: Config, scale: float,
                       known: list[DetectedShape], exclude: np.ndarray | None = None) -> list[DetectedShape]:
    """The hand-drawn outlines not already among ``known`` (nodes and frames, image pixels).

    Empty where ``config.sketch`` is 'off', or 'auto' and the outlines do not look hand-drawn."""
    if config.sketch == "off":
        return []
    ink = sketch_ink(rgb, paints, exclude)
    H, W = ink.shape
    min_side = max(8.0, config.min_node_size / scale)
    gap = max(2, int(round(GAP_SHARE * min(H, W) / 2)))
    holes = _holes(_bridge_ends(ink, max(LIFT_SHARE * min(H, W), LIFT_MIN / scale)), gap, min_side)
    near = cv2.dilate(ink.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    found: list[tuple[DetectedShape, float]] = []
    for x, y, w, h, filled in holes:
        if any(_box_iou((x, y, w, h), (s.x, s.y, s.w, s.h)) > 0.5 for s in known):
            continue
        face = Face(paint=paints.background, x=x, y=y, w=w, h=h, mask=filled, filled=filled, soft=True)
        shape, iou = _sketch_class(face)
        if iou < SKETCH_MIN_IOU:
            continue
        area = float(filled.sum())
        perimeter = max(1.0, float(cv2.arcLength(_contour(filled), True)))
        rough = (1.0 - iou) * area / perimeter  # mean width of the band where hole and outline differ
        made = _clean_shape(face, shape, iou, ink, scale)
        made.dashed = _dash_style(face, near)
        found.append((made, rough))
    if config.sketch == "auto" and sum(r >= ROUGH_PX for _, r in found) < 2:
        return []
    shapes = [s for s, _ in found]
    # nested holes: a frame's inside holds its members' outlines; a node's inner ring (a doubled
    # stroke) is the same node
    return _drop_doubles(shapes)


def _sketch_class(face: Face) -> tuple[str, float]:
    """(shape, IoU) of a wobbly hole: a wobble trims a box's corners, which reads as a cylinder
    or a hexagon; a shape other than the plain ones must beat the box clearly."""
    shape, iou = classify(face)
    if shape in ("box", "round", "ellipse", "circle", "diamond"):
        return shape, iou
    box_iou = mask_iou(face.filled, ideal_mask("box", face.w, face.h))
    if iou - box_iou < PLAIN_MARGIN:
        return "round", box_iou
    return shape, iou


def _holes(ink: np.ndarray, gap: int, min_side: float) -> list[tuple[int, int, int, int, np.ndarray]]:
    """Enclosed holes of the ink once gaps up to ``2·gap`` px are closed: (x, y, w, h, filled mask)."""
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * gap + 1, 2 * gap + 1))
    closed = cv2.morphologyEx(ink.astype(np.uint8), cv2.MORPH_CLOSE, k)
    contours, hierarchy = cv2.findContours(closed, cv2.RETR_TREE, cv2.CHAIN_APPROX_NONE)
    if hierarchy is None:
        return []
    out = []
    depth = _depths(hierarchy[0])
    for i, c in enumerate(contours):
        if depth[i] % 2 == 0:  # an outer edge of ink, not a hole in it
            continue
        x, y, w, h = cv2.boundingRect(c)
        if w < min_side or h < min_side or cv2.contourArea(c) < 0.3 * w * h:
            continue
        local = np.zeros((h, w), np.uint8)
        cv2.drawContours(local, [c - np.array([x, y])], -1, 1, thickness=cv2.FILLED)
        out.append((x, y, w, h, local.astype(bool)))
    return out


def _bridge_ends(ink: np.ndarray, reach: float) -> np.ndarray:
    """The ink with a stroke drawn from every stroke end to its two nearest within ``reach`` px:
    where the pen lifted before an outline was closed (two, as a line's end often lies nearer
    to one end of a node's gap than the gap's other end does)."""
    skel = skeleton(ink)
    count = cv2.filter2D(skel.astype(np.uint8), -1, np.ones((3, 3), np.float32), borderType=cv2.BORDER_CONSTANT)
    ys, xs = np.nonzero(skel & (count == 2))  # the pixel and one neighbour: a stroke's end
    if len(xs) < 2 or len(xs) > MAX_ENDS:
        return ink
    pts = np.stack([xs, ys], axis=1).astype(np.float32)
    d = np.linalg.norm(pts[:, None, :] - pts[None, :, :], axis=2)
    np.fill_diagonal(d, np.inf)
    out = ink.astype(np.uint8)
    for i, row in enumerate(d):
        for j in np.argsort(row)[:2].tolist():
            if 3.0 < row[j] <= reach and (i < j or d[j].argsort()[:2].tolist().count(i) == 0):
                cv2.line(out, (int(xs[i]), int(ys[i])), (int(xs[j]), int(ys[j])), 1, thickness=2)
    return out.astype(bool)


def _depths(hier: np.ndarray) -> list[int]:
    """Nesting depth of every contour of a RETR_TREE hierarchy (0: outermost)."""
    depth = [-1] * len(hier)
    for i in range(len(hier)):
        chain, j = [], i
        while j >= 0 and depth[j] < 0:
            chain.append(j)
            j = int(hier[j][3])
        d = depth[j] if j >= 0 else -1
        for k in reversed(chain):
            d += 1
            depth[k] = d
    return depth


def _contour(mask: np.ndarray) -> np.ndarray:
    cs, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return max(cs, key=cv2.contourArea)


def _clean_shape(face: Face, shape: str, iou: float, ink: np.ndarray, scale: float) -> DetectedShape:
    """The outline redrawn cleanly: its sides where the hole's edges lie on average (not where the
    wobble reaches farthest), half the pencil stroke out, in the theme's fill and stroke."""
    stroke_px = _stroke_width(face, ink)
    x0, y0, x1, y1 = _robust_edges(face.filled, shape)
    grow = stroke_px / 2.0 + 0.5
    x, y = face.x + x0 - grow, face.y + y0 - grow
    w, h = (x1 - x0) + 2 * grow, (y1 - y0) + 2 * grow
    # the face takes in the wobbling pencil of its outline (so it is the node's, not a line), and
    # no paper beyond it: a line's end is cut back only as far as from a typeset node
    reach = int(math.ceil(stroke_px + 4))
    H, W = ink.shape
    pad = np.pad(face.filled, reach)
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    grown = cv2.dilate(pad.astype(np.uint8), k).astype(bool)
    fx, fy = face.x - reach, face.y - reach
    local = np.zeros_like(grown)
    ys0, xs0 = max(0, fy), max(0, fx)
    ys1, xs1 = min(H, fy + grown.shape[0]), min(W, fx + grown.shape[1])
    local[ys0 - fy:ys1 - fy, xs0 - fx:xs1 - fx] = ink[ys0:ys1, xs0:xs1]
    grown &= local | cv2.dilate(pad.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    big = Face(paint=face.paint, x=fx, y=fy, w=grown.shape[1], h=grown.shape[0], mask=grown, filled=grown, soft=True)
    return DetectedShape(shape=shape, x=float(x), y=float(y), w=float(w), h=float(h),
                         fill=_rgb(THEME.node_fill), stroke=_rgb(THEME.node_stroke),
                         stroke_px=THEME.stroke_width / scale, iou=iou, face=big, outside_share=1.0)


def _robust_edges(m: np.ndarray, shape: str) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of a hole, in its mask's pixels: for straight-sided shapes the
    median edge over the middle of each side, else the extremes."""
    h, w = m.shape
    if shape not in ("box", "round", "parallelogram", "document") or h < 6 or w < 6:
        return 0.0, 0.0, float(w), float(h)
    rows = m[int(0.25 * h):int(0.75 * h) + 1]
    cols = m[:, int(0.25 * w):int(0.75 * w) + 1]
    rows = rows[rows.any(axis=1)]
    cols = cols[:, cols.any(axis=0)]
    if len(rows) == 0 or cols.shape[1] == 0:
        return 0.0, 0.0, float(w), float(h)
    left = float(np.median(rows.argmax(axis=1)))
    right = float(np.median(w - rows[:, ::-1].argmax(axis=1)))
    top = float(np.median(cols.argmax(axis=0)))
    bottom = float(np.median(h - cols[::-1].argmax(axis=0)))
    if shape == "parallelogram":  # its slanted sides: keep the extremes across
        left, right = 0.0, float(w)
    return left, top, right, bottom


def _stroke_width(face: Face, ink: np.ndarray) -> float:
    """Pencil width in px: ink in a band around the hole per pixel of its perimeter."""
    H, W = ink.shape
    band = 6
    x0, y0 = max(0, face.x - band), max(0, face.y - band)
    x1, y1 = min(W, face.x + face.w + band), min(H, face.y + face.h + band)
    local = np.zeros((y1 - y0, x1 - x0), np.uint8)
    local[face.y - y0:face.y - y0 + face.h, face.x - x0:face.x - x0 + face.w] = face.filled
    ring = cv2.dilate(local, np.ones((2 * band + 1, 2 * band + 1), np.uint8)).astype(bool) & ~local.astype(bool)
    perim = max(1.0, float(cv2.arcLength(_contour(face.filled), True)))
    return float(np.clip(ink[y0:y1, x0:x1][ring].sum() / perim, 1.0, 6.0))


def _box_iou(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    ix = max(0.0, min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = a[2] * a[3] + b[2] * b[3] - inter
    return inter / union if union > 0 else 0.0


def _drop_doubles(shapes: list[DetectedShape]) -> list[DetectedShape]:
    """Of two outlines around the same place (a doubled rough stroke), the outer one."""
    order = sorted(shapes, key=lambda s: -s.w * s.h)
    kept: list[DetectedShape] = []
    for s in order:
        if not any(_box_iou((s.x, s.y, s.w, s.h), (t.x, t.y, t.w, t.h)) > 0.7 for t in kept):
            kept.append(s)
    return kept


def _dash_style(hole: Face, near: np.ndarray) -> str:
    """solid or dashed: the share of a hole's edge with pencil beside it (``near``: the ink, grown)."""
    H, W = near.shape
    c = _contour(hole.filled)[:, 0, :]
    xs = np.clip(c[:, 0] + hole.x, 0, W - 1)
    ys = np.clip(c[:, 1] + hole.y, 0, H - 1)
    inked = float(near[ys, xs].mean()) if len(xs) else 1.0
    return "solid" if inked >= SOLID_SHARE else "dashed"


def _rgb(hex_color: str) -> tuple[int, int, int]:
    h = hex_color.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def reach_nodes(lines: list[LinePath], shapes: list[DetectedShape]) -> None:
    """Carry a sketched line's loose end on to the node it points at (in place).

    A hand-drawn arrow stops short of a box or overshoots into its wobble, and the box's
    wobbling pencil is taken with the node: the line's end lies up to ~10 px farther from the
    node's clean outline than a typeset line's, past the edge stage's reach. An end that no
    shape is near is extended straight on, up to ``REACH_PX``, until it is."""
    for ln in lines:
        if len(ln.points) < 2:
            continue
        tol = 3 * ln.width + 6
        for at_start in (True, False):
            p = ln.start if at_start else ln.end
            if any(dist_to_shape(p, s) <= tol for s in shapes):
                continue
            q = _reached(p, ln.points, at_start, shapes, 0.5 * tol)
            if q is not None:
                if at_start:
                    ln.points.insert(0, q)
                else:
                    ln.points.append(q)


def _reached(p: tuple[float, float], pts: list[tuple[float, float]], at_start: bool, shapes: list[DetectedShape],
             near: float) -> tuple[float, float] | None:
    """The first point within ``near`` of a node straight on from the end ``p`` (along the line's
    course, or its last short piece: a dashed line's last dash turns a corner), or None."""
    for span in (8.0, 3.0):
        d = direction_out(pts, at_start, span)
        if d is None:
            continue
        for step in range(2, REACH_PX + 1, 2):
            q = (p[0] + d[0] * step, p[1] + d[1] * step)
            if any(not s.is_group and dist_to_shape(q, s) <= near for s in shapes):
                return q
    return None


def find_lost_heads(lines: list[LinePath], shapes: list[DetectedShape], ink: np.ndarray) -> list[LinePath]:
    """The lines with the arrowheads a sketched node took with its pencil given back, and the
    heads' loose strokes dropped.

    A hand-drawn head touches the wobbling outline, which the node's face reaches over, so the
    head goes with the node, or its barbs come apart from the line as short strokes of their
    own, and the line arrives bare. Where a line's bare end meets a node, the ink between them
    is looked at across the line's course: ink on both sides, a few line widths out, near the
    node and not farther back, is a head (filled or open)."""
    heads: list[Arrowhead] = []
    nodes = _node_mask(shapes, ink.shape)
    for ln in lines:
        if ln.length < 2 * REACH_PX or ln.head_start is not None or ln.head_end is not None:
            continue
        found: list[tuple[float, float] | None] = [None, None]
        clutter = [0, 0]
        for k, at_start in enumerate((True, False)):
            end = ln.start if at_start else ln.end
            node = _nearest_node(end, shapes, 3 * ln.width + 6)
            shaft = _shaft(ln.points, at_start)
            if node is None or shaft is None:
                continue
            found[k] = _head_tip(*shaft, node, ink, ln.width)
            clutter[k] = _end_ink(end, ink, nodes)
        if found[0] is None and found[1] is None and min(clutter) > 0 and ln.style == "solid":
            # an open head's barbs drag the line's last pixels off its course: the end with
            # clearly more pencil about it (two barbs beside the shaft) holds the head (not
            # along a dashed line: where its dashes break off varies more than that)
            k = int(clutter[1] > clutter[0])
            if clutter[k] >= HEAD_CLUTTER * clutter[1 - k] and clutter[k] - clutter[1 - k] >= 10 * ln.width:
                found[k] = ln.start if k == 0 else ln.end
        for k, tip in enumerate(found):
            if tip is None:
                continue
            p = _shaft(ln.points, k == 0)[0]  # type: ignore[index]
            w = 2.5 * ln.width + 6
            box = (int(min(p[0], tip[0]) - w), int(min(p[1], tip[1]) - w), int(max(p[0], tip[0]) + w) + 1,
                   int(max(p[1], tip[1]) + w) + 1)
            head = Arrowhead(tip=tip, base=p, length=math.dist(p, tip), width=w, mask_box=box, kind="arrow")
            heads.append(head)
            if k == 0:
                ln.head_start = head
            else:
                ln.head_end = head

    def barb(ln: LinePath) -> bool:
        return ln.length < 2 * REACH_PX and any(
            all(h.mask_box[0] <= x <= h.mask_box[2] and h.mask_box[1] <= y <= h.mask_box[3] for x, y in ln.points)
            for h in heads)

    return [ln for ln in lines if not barb(ln)]


def _node_mask(shapes: list[DetectedShape], shape: tuple[int, int]) -> np.ndarray:
    """The nodes' faces grown over their outlines' pencil."""
    H, W = shape
    m = np.zeros(shape, np.uint8)
    for s in shapes:
        if s.is_group:
            continue
        f = s.face
        x0, y0, x1, y1 = max(0, f.x), max(0, f.y), min(W, f.x + f.w), min(H, f.y + f.h)
        if x1 > x0 and y1 > y0:
            m[y0:y1, x0:x1] |= f.filled[y0 - f.y:y1 - f.y, x0 - f.x:x1 - f.x].astype(np.uint8)
    # a typeset-looking node's face is its inside: its outline lies within its stroke's ring
    ring = int(math.ceil(max((s.stroke_px for s in shapes), default=0.0) + 3))
    return cv2.dilate(m, np.ones((2 * ring + 1, 2 * ring + 1), np.uint8)).astype(bool)


def _end_ink(p: tuple[float, float], ink: np.ndarray, nodes: np.ndarray) -> int:
    """Pencil pixels within HEAD_RADIUS of a line's end, the nodes' own left out."""
    H, W = ink.shape
    r = int(HEAD_RADIUS)
    x, y = int(round(p[0])), int(round(p[1]))
    x0, y0, x1, y1 = max(0, x - r), max(0, y - r), min(W, x + r + 1), min(H, y + r + 1)
    if x1 <= x0 or y1 <= y0:
        return 0
    yy, xx = np.mgrid[y0:y1, x0:x1]
    disk = (xx - x) ** 2 + (yy - y) ** 2 <= r * r
    return int((ink[y0:y1, x0:x1] & ~nodes[y0:y1, x0:x1] & disk).sum())


def _shaft(pts: list[tuple[float, float]], at_start: bool) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """(a point on the line's shaft SHAFT_BACK px from its end, the shaft's direction out of that
    end): a hand-drawn line's last pixels often follow a barb of its head, off the course."""
    seq = pts if at_start else pts[::-1]
    marks: dict[float, tuple[float, float]] = {}
    run = 0.0
    for a, b in zip(seq, seq[1:]):
        step = math.dist(a, b)
        for mark in (SHAFT_BACK, 2 * SHAFT_BACK):
            if mark not in marks and run + step >= mark and step > 0:
                t = (mark - run) / step
                marks[mark] = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
        run += step
    if len(marks) < 2:
        return None
    (ax, ay), (bx, by) = marks[SHAFT_BACK], marks[2 * SHAFT_BACK]
    n = math.hypot(ax - bx, ay - by)
    if n < 1.0:
        return None
    return (ax, ay), ((ax - bx) / n, (ay - by) / n)


def _nearest_node(p: tuple[float, float], shapes: list[DetectedShape], tol: float) -> DetectedShape | None:
    near = [(dist_to_shape(p, s), k) for k, s in enumerate(shapes) if not s.is_group]
    near = [t for t in near if t[0] <= tol]
    return shapes[min(near)[1]] if near else None


def _head_tip(p: tuple[float, float], d: tuple[float, float], node: DetectedShape, ink: np.ndarray,
              width: float) -> tuple[float, float] | None:
    """Where the head on the shaft through ``p`` (leaving along ``d``) touches ``node``, or None."""
    H, W = ink.shape
    out = width / 2 + 2.0  # ink this far beside the course is no longer the line's own

    def spread(t: float) -> float:
        """How far out the ink reaches on the sparser side of the course, ``t`` px on from p."""
        cx, cy = p[0] + d[0] * t, p[1] + d[1] * t
        reach = []
        for side in (1, -1):
            far = 0.0
            for k in range(1, 13):
                x, y = int(round(cx - d[1] * k * side)), int(round(cy + d[0] * k * side))
                if 0 <= x < W and 0 <= y < H and ink[y, x]:
                    far = float(k)
            reach.append(far)
        return min(reach)

    tip = None
    for t in np.arange(0.0, SHAFT_BACK + REACH_PX + 1, 1.0):  # from the shaft on to the node
        if dist_to_shape((p[0] + d[0] * t, p[1] + d[1] * t), node) < 3.0:  # the outline's pencil
            tip = t
            break
    if tip is None:
        return None
    near = max((spread(t) for t in np.arange(tip - 12.0, tip - 2.0, 1.0)), default=0.0)
    if near < out or spread(tip - 24.0) >= out:
        return None
    return p[0] + d[0] * tip, p[1] + d[1] * tip
