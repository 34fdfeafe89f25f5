"""Hand-drawn lines mended once the sketch's nodes are known (:mod:`crafteditor.shapes.sketch`).

A sketched node's face reaches over its wobbling pencil, so a line that ends at it is cut back
farther than at a typeset node, and its arrowhead, touching the outline, goes with the node or
comes apart into loose barbs. Here loose ends are carried on to the node they point at, and the
heads are found again in the pencil between a line's end and its node.
"""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np

from crafteditor.assemble.geometry import OutlineBoxes, dist_to_polyline, dist_to_shape, nearest_on_polyline
from crafteditor.lines.heads import moved_head
from crafteditor.lines.paths import Arrowhead, Ends, LinePath, direction_out
from crafteditor.paint import Paints
from crafteditor.shapes.detect import DetectedShape
from crafteditor.shapes.sketch import sketch_ink
from crafteditor.sketch_arrows import join_sketch_arrows, samples_along

BARB_MAX_WIDTHS, BARB_MAX_PX = 12.0, 24.0  # a head's barb is at most this many stroke widths (+ px) long
BARB_COS = (0.45, 0.97)  # a barb leaves the tip backwards at 15°–63° to the shaft (cosines, along it)
SHAFT_BACK = 20.0  # px back from a line's end where its shaft is surely no barb of a head
HEAD_RADIUS = 16.0  # px about a line's end where its head's pencil is counted
HEAD_CLUTTER = 1.6  # an end with this many times the other's pencil holds the head
REACH_PX = 14  # a sketched line's loose end is carried on this far to the node it points at
HEADED_REACH_WIDTHS = 6.0  # an end with a head: this many stroke widths (+ 8 px), Excalidraw's binding gap past its tip
HEADED_REACH_MAX = 2 * REACH_PX  # ...never farther (an arrow stopping short of a node on purpose stays free)
INKED_REACH_PX = 96.0  # a bare end is carried on at most this far along the pencil under it (a thick head's length)
INKED_SPREAD_PX = 24.0  # how far across the course a head's barbs are looked for (px)
INKED_BARBS_WIDTHS = 2.0  # pencil this many stroke widths (+2 px) out on both sides of the carried stretch: a head
PASS_COS = math.cos(math.radians(10.0))  # a rough stroke's second pass runs parallel to the first (within ~10°)
PENCIL_MIN_PX = 40.0  # a line along a shape's outline: this long at least...
PENCIL_OFFSET_WIDTHS = 12.0  # ...within this many stroke widths (+2 px) of the outline...
PENCIL_OFFSET_MAX = 40.0  # ...and never farther than this (px)...
PENCIL_ALONG = 0.75  # ...for this share of its course, running parallel to it there (within ~15°)
PENCIL_INSIDE = 0.25  # a frame with more than this share of the course inside it: a connector between its boxes


def mend_sketch_lines(lines: list[LinePath], shapes: list[DetectedShape], rgb: np.ndarray,
                      paints: Paints) -> tuple[list[LinePath], list[LinePath]]:
    """(the lines of a sketch, ends carried on to their nodes and heads given back; the shapes'
    own pencil among them (:func:`outline_pencil`), headless, to be drawn as it is and joined to
    nothing). ``rgb``: the pixels as decoded, text erased."""
    lines = barbed_heads(second_strokes_dropped(lines))
    lines = join_sketch_arrows(lines, shapes)
    ink = sketch_ink(rgb, paints)
    reach_nodes(lines, shapes, ink)
    lines = find_lost_heads(lines, shapes, ink)
    pencil = [outline_pencil(ln, shapes) for ln in lines]
    return ([ln for ln, p in zip(lines, pencil) if not p],
            [replace(ln, head_start=None, head_end=None) for ln, p in zip(lines, pencil) if p])


def second_strokes_dropped(lines: list[LinePath]) -> list[LinePath]:
    """The lines less each headless one that runs, all along its course, beside another line at
    least as long, parallel to it: the second pass of a rough stroke drawn twice (roughness 1 and 2
    in Excalidraw), traced apart where the two passes part. A short stroke leaving a line at an
    angle (an open head's barb, every sample of it near the shaft) is no second pass: it stays.

    Kept, such a pass was a second shaft: where a label on the arrow cuts both passes, the gap was
    bridged from one pass to the other's piece, and the arrow reached only one of its nodes."""
    drop: set[int] = set()
    ends = Ends([ln.points for ln in lines])
    for i, ln in enumerate(lines):
        if ln.head_start is not None or ln.head_end is not None or len(ln.points) < 2 or ln.length < 2 * ln.width:
            continue
        near = 2 * ln.width + 4
        pts = samples_along(ln.points, 8)
        for k in ends.lines_near(ln.start, ln.length + near):
            o = lines[k]
            if k == i or k in drop or o.length < ln.length or len(o.points) < 2 or abs(o.width - ln.width) > 2:
                continue
            if max(dist_to_polyline(p, o.points) for p in pts) <= near and _parallel(ln, o.points):
                drop.add(i)
                break
    return [ln for k, ln in enumerate(lines) if k not in drop]


def _parallel(ln: LinePath, pts: list[tuple[float, float]]) -> bool:
    """Whether ``ln`` runs along ``pts``: its course and that of the stretch of ``pts`` beside it
    (between the points nearest its ends) within ~10° of one another."""
    a, b = nearest_on_polyline(ln.start, pts)[0], nearest_on_polyline(ln.end, pts)[0]
    u = (ln.end[0] - ln.start[0], ln.end[1] - ln.start[1])
    v = (b[0] - a[0], b[1] - a[1])
    nu, nv = math.hypot(*u), math.hypot(*v)
    return nu > 0 and nv > 0 and abs(u[0] * v[0] + u[1] * v[1]) >= PASS_COS * nu * nv


def barbed_heads(lines: list[LinePath]) -> list[LinePath]:
    """The lines with each open 'V' head whose two barbs were traced apart from the shaft given to
    the shaft's end, and the barbs dropped.

    Excalidraw's arrow head is two pencil strokes from the tip backwards; traced, the shaft runs
    into the apex and each barb becomes a short line of its own (the shaft's end at the apex or
    just past it), so the arrow arrived headless, pointing nowhere, and its barbs were drawn as
    loose strokes (a state machine's arrows lost every head, and most their end). A barb here: a
    line no longer than a head's arm, one end near the shaft's end, its other end back along the
    shaft and off it; two of them, one on each side, make the head. Where the shaft's end has a head
    already, such barbs are its own pencil, traced twice: they go. A line given a head here is a
    shaft, never another shaft's barb."""
    ends = Ends([ln.points for ln in lines])
    used: set[int] = set()
    out = list(lines)
    for i, ln in enumerate(lines):
        if i in used or len(ln.points) < 2 or ln.length < 2 * REACH_PX:
            continue
        arm = BARB_MAX_WIDTHS * ln.width + BARB_MAX_PX
        for at_start in (True, False):
            had = (ln.head_start if at_start else ln.head_end) is not None
            tip = ln.start if at_start else ln.end
            d = direction_out(ln.points, at_start, 3 * ln.width + 6)
            if d is None:
                continue
            sides: dict[int, tuple[int, float]] = {}
            for k in ends.lines_near(tip, 3 * ln.width + 8):
                b = out[k]
                if k == i or k in used or b.length > arm or b.length < 2 * ln.width or b.head_start or b.head_end:
                    continue
                near, far = sorted((b.start, b.end), key=lambda q: math.dist(q, tip))
                if math.dist(near, tip) > 3 * ln.width + 8:
                    continue
                v = (far[0] - tip[0], far[1] - tip[1])
                n = math.hypot(*v)
                if n < 2 * ln.width:
                    continue
                back = -(v[0] * d[0] + v[1] * d[1]) / n  # cosine between the barb and the way back along the shaft
                if not BARB_COS[0] <= back <= BARB_COS[1]:
                    continue
                side = 1 if v[0] * d[1] - v[1] * d[0] > 0 else -1
                if side not in sides or n > sides[side][1]:
                    sides[side] = (k, n)
            if len(sides) < 2:
                continue
            used.update(k for k, _ in sides.values())
            if had:  # a head read already: its loose barbs go (kept, they read as lines fanning out of the node)
                continue
            pair = [lines[k] for k, _ in sides.values()]
            pts = [q for b in pair for q in b.points] + [tip]
            xs, ys = [q[0] for q in pts], [q[1] for q in pts]
            far_pts = [max((b.start, b.end), key=lambda q: math.dist(q, tip)) for b in pair]
            base = ((far_pts[0][0] + far_pts[1][0]) / 2, (far_pts[0][1] + far_pts[1][1]) / 2)
            head = Arrowhead(tip=tip, base=base, length=math.dist(tip, base), width=math.dist(*far_pts),
                             mask_box=(int(min(xs)) - 2, int(min(ys)) - 2, int(max(xs)) + 3, int(max(ys)) + 3),
                             kind="open", pointing=d)
            out[i] = ln = replace(ln, head_start=head) if at_start else replace(ln, head_end=head)
    return [ln for k, ln in enumerate(out) if k not in used]


def outline_pencil(ln: LinePath, shapes: list[DetectedShape]) -> bool:
    """Whether ``ln`` is a shape's own pencil: it runs along the shape's outline, a little off it,
    for most of its course (a rough outline's second pass, the sheets drawn behind a card to show
    a stack of them, a tag's outline whose face was not found), and does not join two other nodes.

    Traced, such pencil became lines from a card to the node inside it, or between the boxes of
    a column of tags (a dev Excalidraw figure's two three-sheet stacks: 17 edges from a card to
    its own title, none in its truth). A connector is kept: it crosses the gap between outlines
    (its distance to them changes along it), or is short, or ends at two nodes of its own."""
    if ln.length < PENCIL_MIN_PX or len(ln.points) < 2:
        return False
    band = min(PENCIL_OFFSET_MAX, PENCIL_OFFSET_WIDTHS * ln.width + 2)
    pts = samples_along(ln.points, 24)
    step = ln.length / (len(pts) - 1)
    for s in shapes:
        # a frame's side: connectors between the boxes inside run along it; outside it, the sheets
        # drawn behind a card that holds boxes (a stack of cards, each read as a frame) do
        if s.is_group and sum(s.contains_point(*p) for p in pts) > PENCIL_INSIDE * len(pts):
            continue
        if not (s.x - band <= ln.start[0] <= s.x + s.w + band and s.y - band <= ln.start[1] <= s.y + s.h + band):
            continue
        d = [dist_to_shape(p, s) for p in pts]
        near = sum(x <= band for x in d)
        along = sum(a <= band and b <= band and abs(a - b) <= 0.25 * step + 1.0 for a, b in zip(d, d[1:]))
        if near < PENCIL_ALONG * len(d) or along < PENCIL_ALONG * (len(d) - 1):
            continue
        ends = [_nearest_node(p, shapes, 3 * ln.width + 6) for p in (ln.start, ln.end)]
        if all(e is not None and e is not s and not _nested(e, s) for e in ends) and ends[0] is not ends[1]:
            return False  # a connector between two other nodes that runs along this one
        return True
    return False


def _nested(a: DetectedShape, b: DetectedShape) -> bool:
    """Whether one of the two shapes' boxes holds the other's."""
    def holds(o: DetectedShape, i: DetectedShape) -> bool:
        return o.x <= i.x + 2 and o.y <= i.y + 2 and i.x + i.w <= o.x + o.w + 2 and i.y + i.h <= o.y + o.h + 2
    return holds(a, b) or holds(b, a)


def reach_nodes(lines: list[LinePath], shapes: list[DetectedShape], ink: np.ndarray | None = None) -> None:
    """Carry a sketched line's loose end on to the node it points at (in place).

    A hand-drawn arrow stops short of a box or overshoots into its wobble, and the box's
    wobbling pencil is taken with the node: the line's end lies up to ~10 px farther from the
    node's clean outline than a typeset line's, past the edge stage's reach. An end that no
    shape is near is extended straight on, up to ``REACH_PX``, until it is; or, given the
    sketch's ``ink``, on along the pencil its course runs through (:func:`_inked_reach`)."""
    boxes = OutlineBoxes(shapes)
    for ln in lines:
        if len(ln.points) < 2:
            continue
        tol = 3 * ln.width + 6
        for at_start in (True, False):
            p = ln.start if at_start else ln.end
            if any(dist_to_shape(p, s) <= tol for s in shapes):
                continue
            head = ln.head_start if at_start else ln.head_end
            # a head's tip stops Excalidraw's binding gap short of its node, farther at a 2x export
            reach = REACH_PX if head is None else min(HEADED_REACH_MAX,
                                                      max(REACH_PX, HEADED_REACH_WIDTHS * ln.width + 8))
            q = _reached(p, ln.points, at_start, shapes, boxes, 0.5 * tol, reach)
            if q is None and head is None and ink is not None:
                q, head = _inked_reach(p, ln, at_start, shapes, boxes, 0.5 * tol, ink)
                # only a stub from one node on to another (an icon's pencil over a node's corner, carried on
                # along the icon's shading into the node, had made it a link to itself)
                src = _nearest_node(ln.end if at_start else ln.start, shapes, tol)
                dst = None if q is None else _nearest_node(q, shapes, 0.5 * tol + 1.0)
                if src is None or dst is None or dst is src:
                    q, head = None, None
                if q is not None and head is not None:
                    if at_start:
                        ln.points.insert(0, q)
                        ln.head_start = head
                    else:
                        ln.points.append(q)
                        ln.head_end = head
                    continue
            if q is None:
                continue
            if at_start:
                ln.points.insert(0, q)
            else:
                ln.points.append(q)
            if head is not None and head.kind == "open":  # the 'V' goes with its tip: base, box, pixels and all
                moved = moved_head(replace(head), round(q[0] - p[0]), round(q[1] - p[1]))
                moved.tip, moved.base = q, (head.base[0] + q[0] - p[0], head.base[1] + q[1] - p[1])
                if at_start:
                    ln.head_start = moved
                else:
                    ln.head_end = moved


def _reached(p: tuple[float, float], pts: list[tuple[float, float]], at_start: bool, shapes: list[DetectedShape],
             boxes: OutlineBoxes, near: float, reach: float = REACH_PX) -> tuple[float, float] | None:
    """The first point within ``near`` of a node straight on from the end ``p`` (along the line's
    course, or its last short piece: a dashed line's last dash turns a corner), or None."""
    for span in (8.0, 3.0):
        d = direction_out(pts, at_start, span)
        if d is None:
            continue
        for step in range(2, int(reach) + 1, 2):
            q = (p[0] + d[0] * step, p[1] + d[1] * step)
            if any(not shapes[k].is_group and dist_to_shape(q, shapes[k]) <= near for k in boxes.within(q, near)):
                return q
    return None


def _spread(ink: np.ndarray, q: tuple[float, float], d: tuple[float, float], n: int) -> float:
    """How far out (px, up to ``n``) the ink reaches on the sparser side of a course running the unit way ``d``
    through ``q``: a head's barbs spread on both sides, a line's own ink on neither."""
    H, W = ink.shape
    reach = []
    for side in (1, -1):
        far = 0.0
        for k in range(1, n + 1):
            x, y = int(round(q[0] - d[1] * k * side)), int(round(q[1] + d[0] * k * side))
            if 0 <= x < W and 0 <= y < H and ink[y, x]:
                far = float(k)
        reach.append(far)
    return min(reach)


def _inked_reach(p: tuple[float, float], ln: LinePath, at_start: bool, shapes: list[DetectedShape],
                 boxes: OutlineBoxes, near: float, ink: np.ndarray) -> tuple[tuple[float, float] | None,
                                                                         Arrowhead | None]:
    """(the point by a node that the bare end ``p`` reaches along the pencil straight on from it, and the
    open head drawn there, or None), or (None, None).

    Excalidraw draws a thick arrow's open 'V' over the last stretch of its shaft (the shaft runs on to the
    tip under both barbs); traced, that stretch, thick with the barbs' pencil, went with them as filled
    blots, and the shaft stopped a head's length and more short of its node, a stub joined to one node
    (drawn excalidraw-real: 'k/apiserver -> k/api', 80 px of pencil between the stub and the box). The end
    is carried on while the pencil goes on under it, at most ``INKED_REACH_PX``, then over the binding
    gap (``REACH_PX``) to a node. Where the pencil spreads out on both sides of the course along the way
    (a head's barbs), the end has that head, its tip at the node."""
    d = direction_out(ln.points, at_start, 8.0)
    if d is None:
        return None, None
    H, W = ink.shape
    side = ln.width / 2 + 2.0  # ink this far off the course is still the line's own

    def inked(q: tuple[float, float]) -> bool:
        for k in np.arange(-side, side + 0.5, 1.0):
            x, y = int(round(q[0] - d[1] * k)), int(round(q[1] + d[0] * k))
            if 0 <= x < W and 0 <= y < H and ink[y, x]:
                return True
        return False

    last, spreads = 0.0, []
    for step in range(2, int(INKED_REACH_PX) + 1, 2):
        q = (p[0] + d[0] * step, p[1] + d[1] * step)
        if not inked(q):
            break
        last = float(step)
        spreads.append((_spread(ink, q, d, int(INKED_SPREAD_PX)), q))
    if last < 2 * REACH_PX:  # less than _reached tries: nothing lost here
        return None, None
    for step in range(int(last) + 2, int(last + REACH_PX) + 1, 2):
        q = (p[0] + d[0] * step, p[1] + d[1] * step)
        if any(not shapes[k].is_group and dist_to_shape(q, shapes[k]) <= near for k in boxes.within(q, near)):
            break
    else:
        return None, None
    wide, base = max(spreads)
    if wide < INKED_BARBS_WIDTHS * ln.width + 2:
        return q, None
    w = 2 * wide
    box = (int(min(base[0], q[0]) - w), int(min(base[1], q[1]) - w), int(max(base[0], q[0]) + w) + 1,
           int(max(base[1], q[1]) + w) + 1)
    return q, Arrowhead(tip=q, base=base, length=math.dist(base, q), width=w, mask_box=box, kind="open", pointing=d)


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
    out = width / 2 + 2.0  # ink this far beside the course is no longer the line's own

    def spread(t: float) -> float:
        """How far out the ink reaches on the sparser side of the course, ``t`` px on from p."""
        return _spread(ink, (p[0] + d[0] * t, p[1] + d[1] * t), d, 12)

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
