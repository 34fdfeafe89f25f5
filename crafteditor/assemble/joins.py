"""Lines put back together before they become edges: a line cut in two where it crosses a
group's frame or a label drawn over it, and a branch that ends on another line's trunk."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from crafteditor.assemble.geometry import bounds, dist_to_shape, frame_distance, inside_shape, line_boxes, unit
from crafteditor.assemble.grid import PointGrid
from crafteditor.blobs import joined_groups
from crafteditor.config import past
from crafteditor.lines.paths import LinePath
from crafteditor.ocr.runs import TextRun
from crafteditor.paint import color_distance
from crafteditor.shapes.detect import DetectedShape


def bridge_gaps(lines: list[LinePath], groups: list[DetectedShape],
                labels: list[TextRun] = (), deadline: float | None = None,  # type: ignore[assignment]
                page: tuple[float, float, float] | None = None) -> list[LinePath]:
    """Rejoin lines cut in two where they cross a group's frame (erasing the frame's stroke
    cut them) or a label drawn over the line (the label's halo interrupts the stroke:
    training_loop's '∇ loss' had split its edge into two lines ending at the label, each read
    as an edge to a text).

    The first joinable pair (by index, then orientation) is joined and the search goes on,
    as a pairwise scan restarted after every join would; but only line ends that can be
    joined are compared, found through a grid of line ends (a frame's gap is a few pixels; a
    label's gap lies in the label's box). Past ``deadline`` (:func:`~crafteditor.config.budget_clock`) the
    lines are returned as joined so far."""
    if not (groups or labels) or len(lines) < 2:
        return list(lines)
    lines = list(lines)
    alive = [True] * len(lines)
    width = max(ln.width for ln in lines)
    frame_reach = 2 * (max((g.stroke_px for g in groups), default=0) + 3) + width + 8
    labels = label_blocks(labels)
    label_boxes = [(r.x - pad, r.y - pad, r.right + pad, r.bottom + pad)
                   for r in labels for pad in (halo_pad(r, width),)]
    grid = PointGrid(max(frame_reach, 16.0))
    for i, ln in enumerate(lines):
        _index_ends(grid, i, ln)

    boxes = np.array(label_boxes, np.float64).reshape(-1, 4)

    def neighbours(i: int) -> set[int]:
        """Lines with an end that could be joined to one of line i's ends: near it (a frame's
        gap), or in a label box that holds it (the ends in the boxes' common bounds, kept where a
        box holds them: a whiteboard's overlapping labels had each been searched on its own)."""
        out: set[int] = set()
        for p in (lines[i].points[0], lines[i].points[-1]):
            if groups:
                out.update(k[0] for k in grid.near(p, frame_reach))
            hit = boxes[(boxes[:, 0] <= p[0]) & (p[0] <= boxes[:, 2]) & (boxes[:, 1] <= p[1]) & (p[1] <= boxes[:, 3])]
            if len(hit):
                x0, y0 = hit[:, 0].min(), hit[:, 1].min()
                x1, y1 = hit[:, 2].max(), hit[:, 3].max()
                for k in grid.in_box(x0, y0, x1, y1):
                    x, y = grid.point(k)
                    if len(hit) == 1 or ((hit[:, 0] <= x) & (x <= hit[:, 2]) & (hit[:, 1] <= y) & (y <= hit[:, 3])).any():
                        out.add(k[0])
        out.discard(i)
        return {j for j in out if alive[j]}

    # revisit: a line before i that can now be joined to the new line comes first
    return _join_scan(lines, alive, grid, neighbours, lambda a, b: _join_pair(a, b, groups, labels, page),
                      deadline=deadline, revisit=True)


def _join_scan(lines: list[LinePath], alive: list[bool], grid: PointGrid, neighbours: Callable[[int], set[int]],
               pair: Callable[[LinePath, LinePath], LinePath | None], *,
               deadline: float | None = None, revisit: bool = False) -> list[LinePath]:
    """Join line i to the first of its live ``neighbours(i)`` (by index) that ``pair`` joins, in
    place, and go on from i (or, with ``revisit``, from the first earlier line that neighbours the
    joined one); the lines left alive. ``grid`` holds each line's two ends under (i, 0) and (i, 1)."""
    i = 0
    while i < len(lines):
        if past(deadline):
            break
        joined = None
        if alive[i]:
            for j in sorted(neighbours(i)):
                if alive[j]:
                    joined = pair(lines[i], lines[j])
                    if joined is not None:
                        break
        if joined is None:
            i += 1
            continue
        lines[i], alive[j] = joined, False
        grid.remove((j, 0))
        grid.remove((j, 1))
        _index_ends(grid, i, joined)
        if revisit:
            i = min([i, *neighbours(i)])
    return [ln for ln, keep in zip(lines, alive) if keep]


def _index_ends(grid: PointGrid, i: int, ln: LinePath) -> None:
    grid.add((i, 0), ln.points[0])
    grid.add((i, 1), ln.points[-1])


def _join_pair(a: LinePath, b: LinePath, groups: list[DetectedShape], labels: list[TextRun],
               page: tuple[float, float, float] | None = None) -> LinePath | None:
    """a and b as one line (a's end meets b's start, either taken reversed) where the gap
    between them crosses a group's frame or a label drawn over them; None if they do not meet."""
    # each orientation is looked at through its ends; the reversed copies are made only for the
    # join (made up front, they were a third of bridge_gaps' time: ~10^5 pairs on a busy figure)
    alike: bool | None = None  # whether a and b are drawn alike (width and colour): asked once a pair
    for ra in (False, True):
        for rb in (False, True):
            if (a.head_start if ra else a.head_end) is not None or (b.head_end if rb else b.head_start) is not None:
                continue
            p, q = (a.points[0] if ra else a.points[-1]), (b.points[-1] if rb else b.points[0])
            gap = math.dist(p, q)
            if gap < 0.5:
                continue
            # both lines run on into the gap (the cheap test, asked first: the frames' and the
            # labels' tests were 5 of a sequence diagram's 7 profiled CPU-s of joins, 10^5 pairs)
            da = unit(a.points[1] if ra else a.points[-2], p) if len(a.points) >= 2 else None
            db = unit(q, b.points[-2] if rb else b.points[1]) if len(b.points) >= 2 else None
            u = ((q[0] - p[0]) / gap, (q[1] - p[1]) / gap)
            if da is None or db is None or da[0] * u[0] + da[1] * u[1] < 0.9 \
                    or db[0] * u[0] + db[1] * u[1] < 0.9:
                continue
            near = [g for g in groups if frame_distance(p, g) <= g.stroke_px + 6 + a.width
                    and frame_distance(q, g) <= g.stroke_px + 6 + b.width]
            # a line crossing the frame aslant loses a longer stretch of itself to the erased band
            # (band / sin of the crossing angle, up to twice the square crossing's): a Mermaid curve
            # crossing a group's side at 20° left a 19.4 px gap against a 19.3 px reach (dev
            # G_clem_web-architecture: 'Statistics Service' -> 'Project Discovery' had one end only)
            across_frame = bool(near) and gap <= (2 * (near[0].stroke_px + 3) + a.width + 8) / _crossing_sine(p, u, near[0])
            if not across_frame:
                if alike is None:
                    alike = abs(a.width - b.width) <= 1.5 and (_like_colours(a.color, b.color)
                                                               or _same_ink(a.color, b.color, page))
                if not (alike and _label_gap(p, q, a.width, labels)):
                    continue
            return _joined(a.reversed() if ra else a, b.reversed() if rb else b)
    return None


def _crossing_sine(p: tuple[float, float], u: tuple[float, float], g: DetectedShape) -> float:
    """The sine of the angle at which a line going ``u`` crosses the side of ``g``'s frame nearest ``p``
    (the frame is a rectangle: across a horizontal side it is |u_y|), at least 0.5."""
    x, y = p
    to_level = min(abs(y - g.y), abs(y - (g.y + g.h)))
    to_upright = min(abs(x - g.x), abs(x - (g.x + g.w)))
    return max(0.5, abs(u[1]) if to_level <= to_upright else abs(u[0]))


def label_blocks(labels: list[TextRun]) -> list[TextRun]:
    """The labels, and each block of two or more of them stacked one line under another, as one
    more label over the block's box: a draw.io connector's two-line label ('Nodes' over
    'terminated') erases the line under both lines, a gap no one line's box spans (cyclops' state
    machine lost Waiting Termination -> Initialised there). Lines are stacked where they overlap
    across by half the narrower one's width and lie less than a line's height apart."""
    flat = sorted((r for r in labels if r.angle == 0), key=lambda r: r.y)
    stacked: list[tuple[int, int]] = []
    for i, a in enumerate(flat):
        for j in range(i + 1, len(flat)):
            c = flat[j]
            if c.y - a.bottom > min(a.h, c.h):
                if c.y > a.bottom + 2 * a.h:
                    break  # sorted by top: the rest lie lower still
                continue
            if min(a.right, c.right) - max(a.x, c.x) >= 0.5 * min(a.w, c.w) and c.y >= a.y + 0.5 * a.h:
                stacked.append((i, j))
    members: dict[int, list[TextRun]] = {}
    for r, group in zip(flat, joined_groups(len(flat), stacked)):
        members.setdefault(group, []).append(r)
    blocks = []
    for group in members.values():
        if len(group) < 2:
            continue
        x0, y0 = min(r.x for r in group), min(r.y for r in group)
        x1, y1 = max(r.right for r in group), max(r.bottom for r in group)
        blocks.append(replace(group[0], text=" ".join(r.text for r in group), x=x0, y=y0, w=x1 - x0, h=y1 - y0,
                              glyphs=np.zeros((0, 0), bool)))
    return [*labels, *blocks]


def halo_pad(r: TextRun, width: float) -> float:
    """How far a label's erasure halo reaches past its box, for a line ``width`` wide: the gap it cuts
    in a line drawn through it (:func:`bridge_gaps`, :func:`crafteditor.assemble.label_cuts.through_labels`)."""
    return 0.5 * r.h + width + 3


def _label_gap(p: tuple[float, float], q: tuple[float, float], width: float, labels: list[TextRun]) -> bool:
    """A line's gap from p to q runs through a text label drawn over the line (with a halo)."""
    lo_x, hi_x, lo_y, hi_y = min(p[0], q[0]), max(p[0], q[0]), min(p[1], q[1]), max(p[1], q[1])
    for r in labels:
        pad = halo_pad(r, width)
        # both ends in the label's padded box (contains_point's test, written out: this runs
        # for every label and every joinable pair, 4·10^5 times on the dev figures)
        if not (r.x - pad <= lo_x and hi_x <= r.x + r.w + pad and r.y - pad <= lo_y and hi_y <= r.y + r.h + pad):
            continue
        # the gap crosses the label's box (not only skirts it): its middle lies inside
        if r.contains_point((p[0] + q[0]) / 2, (p[1] + q[1]) / 2, margin=width + 1) \
                and math.dist(p, q) <= max(r.w, r.h) + 2 * pad:
            return True
    return False


def join_grazed_corners(lines: list[LinePath], nodes: list[DetectedShape]) -> list[LinePath]:
    """Rejoin a line cut where it grazes a node without ending there: the ring erased round the
    node's outline cuts a line passing its corner (or a note's pointer), and the two pieces had
    read as two edges, into the node and out of it (cluster-api's PlantUML state machine:
    Running -> Deleting came back as Running -> note -> Deleting). The pieces run into the gap
    from both sides, the gap lies on the outline, and neither piece goes into the node."""
    nodes = [s for s in nodes if not s.is_group]
    if not nodes or len(lines) < 2:
        return list(lines)
    lines = list(lines)
    alive = [True] * len(lines)
    reach = 2 * (max(s.stroke_px for s in nodes) + 3) + max(ln.width for ln in lines) + 8
    grid = PointGrid(reach)
    for i, ln in enumerate(lines):
        _index_ends(grid, i, ln)
    boxes = np.array([(s.x, s.y, s.x + s.w, s.y + s.h) for s in nodes], np.float64)

    def near(i: int) -> set[int]:
        return {k[0] for p in (lines[i].points[0], lines[i].points[-1]) for k in grid.near(p, reach)} - {i}

    return _join_scan(lines, alive, grid, near, lambda a, b: _graze_pair(a, b, nodes, boxes, reach))


def _crosses(p: tuple[float, float], d: tuple[float, float], s: DetectedShape, margin: float) -> bool:
    """Whether the line through p along d passes through node s's box, more than ``margin`` in from both
    sides across it: two lines meeting a fork bar or a thin node from opposite sides end there, they
    graze no corner."""
    n = (-d[1], d[0])
    across = [x * n[0] + y * n[1] for x in (s.x, s.x + s.w) for y in (s.y, s.y + s.h)]
    o = p[0] * n[0] + p[1] * n[1]
    return min(across) + margin < o < max(across) - margin


def _graze_pair(a: LinePath, b: LinePath, nodes: list[DetectedShape], boxes: np.ndarray,
                reach: float) -> LinePath | None:
    """a and b as one line where the gap between a's end and b's start (either reversed) lies on
    a node's outline and both pieces run on away from the node; None otherwise."""
    if len(a.points) < 2 or len(b.points) < 2 or abs(a.width - b.width) > 1.5 or not _like_colours(a.color, b.color):
        return None
    for ra in (False, True):
        for rb in (False, True):
            if (a.head_start if ra else a.head_end) is not None or (b.head_end if rb else b.head_start) is not None:
                continue
            pa = a.points[::-1] if ra else a.points
            pb = b.points[::-1] if rb else b.points
            p, q = pa[-1], pb[0]
            gap = math.dist(p, q)
            if not 0.5 <= gap <= reach:
                continue
            # both pieces run one way, and b starts ahead of a's end, on its course (a gap of a
            # few pixels has no direction of its own: the skeleton's ends wobble)
            da, db = unit(pa[-2], p), unit(q, pb[1])
            if da is None or db is None or da[0] * db[0] + da[1] * db[1] < 0.9:
                continue
            v = (q[0] - p[0], q[1] - p[1])
            if v[0] * da[0] + v[1] * da[1] <= 0 or abs(v[0] * da[1] - v[1] * da[0]) > 2 * a.width + 3:
                continue
            mid = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
            hit = np.flatnonzero((boxes[:, 0] - reach <= mid[0]) & (mid[0] <= boxes[:, 2] + reach)
                                 & (boxes[:, 1] - reach <= mid[1]) & (mid[1] <= boxes[:, 3] + reach))
            # on the outline, not deep inside it (a line through a small circle is cut by its
            # whole face: that gap's middle lies a radius in)
            on = [nodes[k] for k in hit for d in (dist_to_shape(mid, nodes[k]),)
                  if d <= nodes[k].stroke_px + 6 + a.width
                  and not (inside_shape(mid, nodes[k]) and d > nodes[k].stroke_px + 2 + a.width)]
            if not on or any(_goes_in(pa[::-1], s, reach) or _goes_in(pb, s, reach)
                             or _crosses(p, da, s, s.stroke_px + a.width + 2) for s in on):
                continue
            return _joined(a.reversed() if ra else a, b.reversed() if rb else b)
    return None


def _joined(aa: LinePath, bb: LinePath) -> LinePath:
    """aa's end run on into bb's start: one line, aa's tail and bb's head, dashed where either is."""
    style = aa.style if aa.style != "solid" else bb.style
    return replace(aa, points=aa.points + bb.points, head_end=bb.head_end, style=style,
                   pieces=aa.pieces + bb.pieces, open_ends=[aa.open_ends[0], bb.open_ends[1]])


def _goes_in(pts: list[tuple[float, float]], s: DetectedShape, reach: float) -> bool:
    """Whether a piece, from its end at the node (``pts[0]``) on, goes into the node: any of its
    points past the erased ring (``reach`` from that end), or its far end, inside the outline."""
    start = pts[0]
    far = [c for c in pts[1:] if math.dist(c, start) > reach] or [pts[-1]]
    return any(inside_shape(c, s) for c in far)


def extend_at_junctions(lines: list[LinePath], shapes: list[DetectedShape],
                        deadline: float | None = None) -> list[LinePath]:
    """Fan-out and fan-in: a branch that ends on another line's trunk shares that trunk.

    Layouts merge edges that leave (or enter) one node into a shared trunk. The branch's
    free end lies on the trunk; its edge really starts at the trunk's source (fan-out: the
    branch ends in a head) or ends at the trunk's target (fan-in: the branch has no head
    and the trunk does). The branch's route is extended along the trunk accordingly.

    A bus is the other way round: the line the branch ends on has no head and joins two
    nodes (a class diagram's subclasses under one bar, whose stem carries the hollow head
    up to the base class), or a head at each end (one source's stem down to a bar that
    fans out to two targets). Its two halves are two edges, each on through the stem.
    """
    out = list(lines)
    # bounding boxes first: a noisy scan has thousands of line pieces, and splitting every
    # other line at every free end was quadratic in lines times points (minutes per sketch)
    box = line_boxes(lines)
    widths = np.array([ln.width for ln in lines], np.float64)
    joined: set[tuple[int, bool]] = set()  # (line, its traced start): ends joined
    buses: set[int] = set()  # the lines a bus split made (each a half with the stem's head)
    for sweep in range(2):  # a branch read before the bus it ends on was split: again, on the halves
        if sweep and not buses:
            break
        only = None if not sweep else np.isin(np.arange(len(lines)), sorted(buses))
        for i, a in enumerate(lines):
            if past(deadline):
                return out
            ends = 0
            for at_start in (True, False):
                if (i, at_start) in joined:
                    continue
                # first time round, a line joined at one end joins at the other only a bus (a
                # stem that took its hollow head from the triangle's outline, then meets the bar)
                how = _join_branch(i, a, at_start, out, box, widths, shapes, only, out if sweep else lines,
                                   bus_only=not sweep and ends > 0)
                if how is not None:
                    joined.add((i, at_start))
                    ends += 1
                    if how[0] == "bus":
                        buses.update(how[1:])
    return out


def _join_branch(i: int, a: LinePath, at_start: bool, out: list[LinePath], box: np.ndarray, widths: np.ndarray,
                 shapes: list[DetectedShape], only: np.ndarray | None, trunks: list[LinePath],
                 bus_only: bool = False) -> tuple[str, int, int] | None:
    """Join line ``i``'s end (``a`` as traced; its start or not) to the trunk or bus it ends on
    (one of ``only``, where given), in ``out`` and ``box`` in place (see
    :func:`extend_at_junctions`; ``trunks``: the lines it may join, as traced or as joined so
    far; ``bus_only``: no trunk): ('bus' or 'trunk', the lines changed), or None."""
    q = a.points[0] if at_start else a.points[-1]
    # out[i] may have been joined at its other end already (and turned round)
    at_start = math.dist(out[i].points[0], q) < math.dist(out[i].points[-1], q)
    a = out[i]
    if (a.head_start if at_start else a.head_end) is not None:
        return None
    tol = 3 * a.width + 6
    if any(dist_to_shape(q, s) <= tol for s in shapes if not s.is_group):
        return None
    best = None
    reach = 2 * np.maximum(a.width, widths) + 3
    # only the lines q is near enough to be on (the test for every line at once)
    on = ~((q[0] < box[:, 0] - reach) | (q[0] > box[:, 2] + reach) | (q[1] < box[:, 1] - reach)
           | (q[1] > box[:, 3] + reach))
    on[i] = False
    if only is not None:
        on &= only
    for j in np.flatnonzero(on).tolist():
        b = trunks[j]
        split = _split_at(b.points, q)
        if split is None:
            continue
        before, after, d = split
        if d > 2 * max(a.width, b.width) + 3:
            continue
        if math.dist(before[-1], b.points[0]) < 3 or math.dist(before[-1], b.points[-1]) < 3:
            continue  # at the trunk's end, not on it
        if best is None or d < best[0]:
            best = (d, j, before, after)
    if best is None:
        return None
    _, j, before, after = best
    b = trunks[j]
    cur = out[i] if not at_start else out[i].reversed()  # now the free end is a's last point
    other_head = cur.head_start is not None  # a head at the branch's far end
    bus = _bus_edges(cur, b, before, after, other_head)
    if bus is not None:
        out[i], out[j] = bus
        box[i], box[j] = bounds(out[i].points), bounds(out[j].points)
        return "bus", i, j
    if bus_only:
        return None
    if other_head and (b.head_end is not None) != (b.head_start is not None):
        # fan-out: route = trunk from its tail to the junction, then the branch to its head
        trunk = before if b.head_end is not None else after[::-1]
        merged = replace(cur.reversed(), points=trunk[:-1] + cur.reversed().points, head_start=None)
    elif not other_head and cur.head_end is None and (b.head_end is not None) != (b.head_start is not None):
        # fan-in: the branch, then the trunk on to its head
        trunk = after if b.head_end is not None else before[::-1]
        merged = replace(cur, points=cur.points[:-1] + trunk, head_end=b.head_end or b.head_start)
    else:
        return None
    out[i] = merged
    box[i] = bounds(merged.points)
    return "trunk", i, j


def _bus_edges(cur: LinePath, b: LinePath, before: list, after: list,
               other_head: bool) -> tuple[LinePath, LinePath] | None:
    """The two edges through a bus ``b`` that the branch ``cur`` (its free end last) ends on
    (see :func:`extend_at_junctions`), or None where ``b`` is no bus: fan-in where the branch
    alone has a head (at its far end) and the bus none; fan-out where the branch has none and
    the bus one at each end."""
    if other_head and cur.head_end is None and b.head_start is None and b.head_end is None:
        stem = cur.reversed()  # from the junction to the branch's head
        return (replace(stem, points=before[:-1] + stem.points, pieces=stem.pieces + b.pieces),
                replace(stem, points=after[::-1][:-1] + stem.points, pieces=stem.pieces + b.pieces))
    if not other_head and cur.head_end is None and b.head_start is not None and b.head_end is not None:
        return (replace(b, points=cur.points[:-1] + after, head_start=None, pieces=cur.pieces + b.pieces),
                replace(b, points=cur.points[:-1] + before[::-1], head_start=None, head_end=b.head_start,
                        pieces=cur.pieces + b.pieces))
    return None


def _split_at(pts, q) -> tuple[list, list, float] | None:
    """Split a polyline at the point nearest q: (points before, points after, distance)."""
    best = None
    for i, (a, b) in enumerate(zip(pts, pts[1:])):
        dx, dy = b[0] - a[0], b[1] - a[1]
        L2 = dx * dx + dy * dy
        t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((q[0] - a[0]) * dx + (q[1] - a[1]) * dy) / L2))
        p = (a[0] + t * dx, a[1] + t * dy)
        d = math.dist(p, q)
        if best is None or d < best[0]:
            best = (d, i, p)
    if best is None:
        return None
    d, i, p = best
    return list(pts[:i + 1]) + [p], [p] + list(pts[i + 1:]), d


def _like_colours(a, b) -> bool:
    """``color_distance(a, b) <= 40``: for whole-number colours, on the squared distance in
    integers (the same answer; numpy's norm was 13 of a whiteboard's 190 profiled seconds)."""
    if all(isinstance(v, (int, np.integer)) for v in (*a, *b)):
        return sum((int(u) - int(v)) ** 2 for u, v in zip(a, b)) <= 1600
    return color_distance(a, b) <= 40


def _same_ink(a, b, page) -> bool:
    """Two measured line colours that are one ink blended with ``page`` in different shares: a thin or dotted
    stroke's colour is read off antialiased pixels, and a short piece takes more page in than a long one (the
    two halves of Mermaid's dotted link either side of its label, #888 and #666 on white, 59 apart). Their
    offsets from the page point the same way (cos >= 0.97) and neither is over 2.5 times the other."""
    if page is None:
        return False
    u = np.asarray(a, np.float64) - np.asarray(page, np.float64)
    v = np.asarray(b, np.float64) - np.asarray(page, np.float64)
    nu, nv = float(np.linalg.norm(u)), float(np.linalg.norm(v))
    if min(nu, nv) < 40 or max(nu, nv) > 2.5 * min(nu, nv):
        return False  # a piece hardly off the page has no colour to compare
    return float(u @ v) / (nu * nv) >= 0.97


def split_bus_crossings(lines: list[LinePath], shapes: list[DetectedShape]) -> list[LinePath]:
    """A bus crossed by the stem it feeds: a headless bracket '[' between two nodes (its two end
    legs leave the bar the same way, into the nodes) that a headed line crosses on its bar,
    heading away from the bracket's nodes (a class diagram's Hadoop and S3 subclasses on one bar
    that Gcs's inheritance line runs through on its way to the base class). The bracket is two
    edges, each from its node along half the bar, then along the stem to its head."""
    out: list[LinePath] = []
    nodes = [s for s in shapes if not s.is_group]
    headed = [ln for ln in lines if (ln.head_start is None) != (ln.head_end is None)]
    for b in lines:
        split = None
        if b.head_start is None and b.head_end is None and len(b.points) >= 4:
            split = _bracket_split(b, headed, nodes)
        out.extend(split or [b])
    return out


def _bracket_split(b: LinePath, headed: list[LinePath], nodes: list[DetectedShape]) -> list[LinePath] | None:
    pts = b.points
    tol = 3 * b.width + 6
    if not all(any(dist_to_shape(p, s) <= tol for s in nodes) for p in (pts[0], pts[-1])):
        return None
    u0, u1 = unit(pts[1], pts[0]), unit(pts[-2], pts[-1])  # the legs, from the bar to the nodes
    if u0 is None or u1 is None or u0[0] * u1[0] + u0[1] * u1[1] < 0.95:
        return None
    for a in headed:
        stem = a.points if a.head_end is not None else a.points[::-1]
        hit = _crossing_on(pts[1:-1], stem)
        if hit is None:
            continue
        at, k = hit
        way = unit(at, stem[-1])  # from the crossing on to the head, away from the bracket's nodes
        if way is None or way[0] * u0[0] + way[1] * u0[1] > -0.7:
            continue
        before = list(pts[:k + 2]) + [at]  # pts[1:-1]'s segment k is pts' segment k + 1
        after = list(pts[k + 2:])[::-1] + [at]
        on = _split_at(stem, at)
        if on is None:
            continue
        rest = on[1]
        head = a.head_end if a.head_end is not None else a.head_start
        return [replace(b, points=before[:-1] + rest, head_end=head),
                replace(b, points=after[:-1] + rest, head_end=head)]
    return None


def _crossing_on(bar: list, stem: list) -> tuple[tuple[float, float], int] | None:
    """Where the polyline ``stem`` crosses ``bar`` (away from the bar's ends): (the point, the bar's segment)."""
    for k, (p, q) in enumerate(zip(bar, bar[1:])):
        for r, t in zip(stem, stem[1:]):
            d = (q[0] - p[0]) * (t[1] - r[1]) - (q[1] - p[1]) * (t[0] - r[0])
            if abs(d) < 1e-9:
                continue
            s1 = ((r[0] - p[0]) * (t[1] - r[1]) - (r[1] - p[1]) * (t[0] - r[0])) / d
            s2 = ((r[0] - p[0]) * (q[1] - p[1]) - (r[1] - p[1]) * (q[0] - p[0])) / d
            if 0.05 < s1 < 0.95 and 0 <= s2 <= 1:
                return (p[0] + s1 * (q[0] - p[0]), p[1] + s1 * (q[1] - p[1])), k
    return None
