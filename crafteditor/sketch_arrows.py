"""Hand-drawn arrows put back together once the sketch's nodes are known.

An Excalidraw-style arrow is drawn twice, a little apart, with an open 'V' head: traced, its
shaft comes apart where the two strokes part and meet again (a false filled head is read at the
meeting), where its head begins (the shaft runs on into one barb; the other barb and the tip
are a piece of their own), and where it crosses a group's frame (the frame's pencil is the
frame's). No piece joins two nodes, and the edge is lost (every arrow of the dev set's
Excalidraw figures read as free strokes, edge F1 0.00 on six of them).

Here the pieces are gathered end to end (a loose end and the nearest end of another piece,
within a few stroke widths), each gathering's loose ends carried on along their course to the
node they point at, and a gathering whose ends touch exactly two nodes becomes one line from
the one to the other, with a head where a piece had one by that node (a head read far from
both nodes is the strokes' meeting, no head). Gatherings touching one node or three and more
are left as they were: a tree of connectors, or arrows converging on a node each joined to it.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from crafteditor.assemble.geometry import dist_to_polyline, dist_to_shape, line_boxes
from crafteditor.lines.paths import Arrowhead, Ends, LinePath
from crafteditor.shapes.detect import DetectedShape

GAP_WIDTHS = 8.0  # a loose end and another piece's end this many stroke widths (+ GAP_PX) apart are one arrow
GAP_PX = 6.0
GAP_MAX = 40.0  # ...and never farther apart than this (px)
STRAIGHT_GAPS = 2.5  # ...or this many gaps apart where they continue each other straight
STRAIGHT_COS = 0.95  # within 18°
BACK_PX = 40.0  # a loose end's course: from this far back along its piece
AHEAD_COS = 0.5  # a node lies ahead of a loose end within 60° of its course
MIN_PIECE = 6.0  # pieces shorter than this (px) are specks, not part of an arrow
HEAD_PIECE = 3.0  # a piece at most this many head lengths long, with a head at its end, is a loose 'V'
HOOK_PX = 30.0  # a piece's last this many px (of its course) may be a barb it runs on into...
HOOK_BACK = 4.0  # ...where they come back at least this far (px, or two stroke widths) against the shaft
TRUNK_COS = 0.5  # two branches meeting on a trunk both run on along it the same way, each within 60° of it...
TRUNK_END_PX = 20.0  # ...where it passes this far at least from its own ends (px)


def join_sketch_arrows(lines: list[LinePath], shapes: list[DetectedShape]) -> list[LinePath]:
    """The lines with every gathering of pieces that joins two nodes made one line (see the module)."""
    nodes = [s for s in shapes if not s.is_group]
    if len(nodes) < 2 or len(lines) < 1:
        return lines
    lines = [_unhooked(ln, nodes) for ln in lines]
    pieces = [k for k, ln in enumerate(lines) if len(ln.points) >= 2 and ln.length >= MIN_PIECE]
    att: dict[tuple[int, int], tuple[int, tuple[float, float]] | None] = {}
    for k in pieces:
        for e in (0, 1):
            att[(k, e)] = _end_node(lines[k], e, nodes)
    parent = {k: k for k in pieces}

    def find(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    # a loose end is joined to the nearest loose end of another piece: an end at a node is where
    # an arrow ends (arrows converging on a node end there side by side, each its own)
    index = Ends([lines[k].points for k in pieces])
    boxes = line_boxes([lines[k] for k in pieces])  # each piece's box, for _branches_on_trunk
    for k in pieces:
        ln = lines[k]
        gap = _gap(ln)
        for e in (0, 1):
            if att[(k, e)] is not None:
                continue
            p = _end(ln, e)
            near = []
            for n in index.near(p, STRAIGHT_GAPS * gap):
                j, f = pieces[index.owner[n]], index.at[n]
                d = math.dist(p, index.pts[n])
                # farther than a gap: only where the two pieces continue each other straight
                # (where a rough stroke's two passes cross, the tracer drops a stretch)
                if j != k and att[(j, f)] is None and (d <= gap or _continues(ln, e, lines[j], f)) \
                        and not _branches_on_trunk(ln, e, lines[j], f, lines, pieces, boxes):
                    near.append((d, j))
            if near:
                parent[find(k)] = find(min(near)[1])
    groups: dict[int, list[int]] = {}
    for k in pieces:
        groups.setdefault(find(k), []).append(k)
    made: list[tuple[LinePath, tuple[int, int]]] = []
    taken: set[int] = set()
    for members in groups.values():
        one = _one_arrow(lines, members, att, nodes)
        if one is not None:
            made.append(one)
            taken.update(members)
    # a rough stroke drawn twice is two arrows' worth of pieces along one course: one edge
    direct = [(ln, (att[(k, 0)][0], att[(k, 1)][0])) for k, ln in enumerate(lines) if (k, 0) in att and k not in taken
              and att[(k, 0)] is not None and att[(k, 1)] is not None and att[(k, 0)][0] != att[(k, 1)][0]]
    out: list[tuple[LinePath, tuple[int, int]]] = []
    for ln, pair in sorted(made, key=lambda t: (-_heads(t[0]), -t[0].length)):
        if not any(_alongside(ln, other) for other, p in (*out, *direct) if sorted(p) == sorted(pair)):
            out.append((ln, pair))
    barbs = _give_heads(lines, [k for k in pieces if k not in taken], att, out)
    kept = [ln for k, ln in enumerate(lines) if k not in taken and k not in barbs] + [ln for ln, _ in out]
    _turn_fan_tails(kept, nodes)
    return kept


def _unhooked(ln: LinePath, nodes: list[DetectedShape]) -> LinePath:
    """``ln`` without the barb its shaft runs on into at a loose end, where the shaft then points at a node.

    An open 'V' head drawn in one stroke with its shaft is traced as the shaft turning back along
    one barb (the other barb and the tip a piece of their own): the piece's end is the barb's
    end, beside the shaft and short of the node, and its course from there points back down the
    shaft, at no node (a dev Excalidraw arrow's 'actions -> state' had been lost so). The shaft's
    end is the point of its last stretch farthest along its course; past it the piece comes back."""
    if len(ln.points) < 3 or ln.length < 2 * HOOK_PX:
        return ln
    for e in (0, 1):
        if (ln.head_start if e == 0 else ln.head_end) is not None or _end_node(ln, e, nodes) is not None:
            continue
        seq = ln.points if e == 1 else ln.points[::-1]  # running to the end e
        a, b = _back(seq, HOOK_PX + BACK_PX), _back(seq, HOOK_PX)
        u = (b[0] - a[0], b[1] - a[1])
        nu = math.hypot(*u)
        if nu < 1.0:
            continue
        run, tail = 0.0, [len(seq) - 1]  # the vertices of the last HOOK_PX, from the end back
        for i in range(len(seq) - 1, 0, -1):
            run += math.dist(seq[i], seq[i - 1])
            if run > HOOK_PX:
                break
            tail.append(i - 1)
        along = {i: ((seq[i][0] - b[0]) * u[0] + (seq[i][1] - b[1]) * u[1]) / nu for i in tail}
        apex = max(tail, key=lambda i: along[i])
        if apex == len(seq) - 1 or along[apex] - along[len(seq) - 1] < max(HOOK_BACK, 2 * ln.width):
            continue
        cut = replace(ln, points=list(seq[:apex + 1]) if e == 1 else list(seq[:apex + 1])[::-1])
        if _end_node(cut, e, nodes) is not None:
            ln = cut
    return ln


def _turn_fan_tails(lines: list[LinePath], nodes: list[DetectedShape]) -> None:
    """Turn round (in place) each line between two nodes whose only head was read where other
    lines leave the same node headless: arrows fanning out of one point of a node make a 'V' there
    that reads as an open head (a dev figure's curved arrow came back from its target to its
    source). Its head goes to its other end, drawn as the head it had."""
    ends: list[tuple[tuple[float, float], int, int | None]] = []  # headless ends: point, line, node
    for k, ln in enumerate(lines):
        for e, h in ((0, ln.head_start), (1, ln.head_end)):
            if h is None and len(ln.points) >= 2:
                at = _end_node(ln, e, nodes)
                ends.append((_end(ln, e), k, None if at is None else at[0]))
    for k, ln in enumerate(lines):
        heads = [(e, h) for e, h in ((0, ln.head_start), (1, ln.head_end)) if h is not None]
        if len(heads) != 1 or len(ln.points) < 2 or ln.length < 4 * heads[0][1].length:
            continue
        e, h = heads[0]
        here, there = _end_node(ln, e, nodes), _end_node(ln, 1 - e, nodes)
        if here is None or there is None or here[0] == there[0]:
            continue
        reach = max(h.length, 3 * ln.width + 6)
        if not any(j != k and node == here[0] and math.dist(p, _end(ln, e)) <= reach for p, j, node in ends):
            continue
        tip = _end(ln, 1 - e)
        base = _back(ln.points if e == 0 else ln.points[::-1], h.length)
        turned = Arrowhead(tip=tip, base=base, length=h.length, width=h.width, kind=h.kind,
                           mask_box=(int(min(tip[0], base[0])), int(min(tip[1], base[1])),
                                     int(max(tip[0], base[0])) + 1, int(max(tip[1], base[1])) + 1))
        ln.head_start, ln.head_end = (None, turned) if e == 0 else (turned, None)


def _continues(a: LinePath, e: int, b: LinePath, f: int) -> bool:
    """Whether piece ``b`` (from its end ``f``) carries on straight where ``a`` leaves off (end ``e``)."""
    p, q = _end(a, e), _end(b, f)
    pb = _back(a.points if e == 1 else a.points[::-1], BACK_PX)
    qb = _back(b.points if f == 1 else b.points[::-1], BACK_PX)
    u, v, w = (p[0] - pb[0], p[1] - pb[1]), (q[0] - qb[0], q[1] - qb[1]), (q[0] - p[0], q[1] - p[1])
    nu, nv, nw = math.hypot(*u), math.hypot(*v), math.hypot(*w)
    if min(nu, nv, nw) < 1.0:
        return False
    return (u[0] * w[0] + u[1] * w[1]) >= STRAIGHT_COS * nu * nw and -(v[0] * w[0] + v[1] * w[1]) >= STRAIGHT_COS * nv * nw


def _branches_on_trunk(a: LinePath, e: int, b: LinePath, f: int, lines: list[LinePath], pieces: list[int],
                       boxes: np.ndarray) -> bool:
    """Whether pieces ``a`` (its end ``e``) and ``b`` (its end ``f``) are two branches merging into a third
    line's trunk where they meet: another piece passes through the meeting, away from its own ends, and
    both run on along it there the same way (a cusp, not one course going on across it). Arrows drawn into
    one node from two sides merge, each curving onto the arrow between them (drawn excalidraw-real:
    'E2E tests' and 'lock-local' into 'End'); joined at the merge, the two became one headless line
    from the one to the other, and neither reached 'End'. Left apart, each branch shares the trunk
    (:func:`crafteditor.assemble.joins.extend_at_junctions`). ``boxes``: the pieces' boxes (:func:`line_boxes`)."""
    p, q = _end(a, e), _end(b, f)
    u = _way_out(a, e)
    v = _way_out(b, f)
    if u is None or v is None:
        return False
    m = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
    reach = 2 * max(a.width, b.width) + 4
    near = np.flatnonzero((boxes[:, 0] - reach <= m[0]) & (m[0] <= boxes[:, 2] + reach)
                          & (boxes[:, 1] - reach <= m[1]) & (m[1] <= boxes[:, 3] + reach))
    for i in near:
        c = lines[pieces[i]]
        if c is a or c is b or c.length < 2 * BACK_PX:
            continue
        if dist_to_polyline(m, c.points) > reach or min(math.dist(m, c.start), math.dist(m, c.end)) < TRUNK_END_PX:
            continue
        w = (c.end[0] - c.start[0], c.end[1] - c.start[1])
        nw = math.hypot(*w)
        if nw <= 0:
            continue
        cu, cv = (w[0] * u[0] + w[1] * u[1]) / nw, (w[0] * v[0] + w[1] * v[1]) / nw
        if min(abs(cu), abs(cv)) >= TRUNK_COS and cu * cv > 0:  # both on along the trunk, the same way
            return True
    return False


def _way_out(ln: LinePath, e: int) -> tuple[float, float] | None:
    """The unit direction a piece runs in out through its end ``e`` (from BACK_PX back)."""
    p = _end(ln, e)
    back = _back(ln.points if e == 1 else ln.points[::-1], BACK_PX)
    u = (p[0] - back[0], p[1] - back[1])
    n = math.hypot(*u)
    return None if n < 1.0 else (u[0] / n, u[1] / n)


def _give_heads(lines: list[LinePath], left: list[int], att: dict, made: list[tuple[LinePath, tuple[int, int]]]) -> set[int]:
    """The head pieces (a 'V' read on a short piece of its own, its tip by a node, its barb loose)
    whose head went to the line made up to that node beside it (given in place): the piece is
    that line's head, not an edge of its own."""
    gone: set[int] = set()
    for k in left:
        ln = lines[k]
        hs = [(e, h) for e, h in ((0, ln.head_start), (1, ln.head_end)) if h is not None]
        if len(hs) != 1 or ln.length > HEAD_PIECE * hs[0][1].length:
            continue
        e, h = hs[0]
        if att[(k, e)] is None or att[(k, 1 - e)] is not None:
            continue
        node = att[(k, e)][0]
        reach = _gap(ln) + h.length
        best = None
        for m, (other, pair) in enumerate(made):
            for j, q in ((0, other.start), (1, other.end)):
                if pair[j] == node and math.dist(q, h.tip) <= reach and (best is None or math.dist(q, h.tip) < best[0]):
                    best = (math.dist(q, h.tip), m, j)
        if best is None:
            continue
        other = made[best[1]][0]
        if best[2] == 0 and other.head_start is None:
            other.head_start = h
        elif best[2] == 1 and other.head_end is None:
            other.head_end = h
        gone.add(k)
    return gone


def _heads(ln: LinePath) -> int:
    return (ln.head_start is not None) + (ln.head_end is not None)


def _alongside(a: LinePath, b: LinePath) -> bool:
    """Whether line ``a`` runs along ``b`` (the other stroke of a rough line drawn twice)."""
    near = 3 * max(a.width, b.width) + 4
    return float(np.mean([dist_to_polyline(p, b.points) for p in samples_along(a.points)])) <= near


def samples_along(pts: list[tuple[float, float]], n: int = 12) -> list[tuple[float, float]]:
    """``n`` points spread evenly along a polyline, its ends among them."""
    steps = [math.dist(a, b) for a, b in zip(pts, pts[1:])]
    total = sum(steps)
    if total <= 0:
        return [pts[0]]
    out, run, k = [], 0.0, 0
    for t in np.linspace(0.0, total, n):
        while k < len(steps) - 1 and run + steps[k] < t:
            run += steps[k]
            k += 1
        f = 0.0 if steps[k] == 0 else min(1.0, (t - run) / steps[k])
        a, b = pts[k], pts[k + 1]
        out.append((a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f))
    return out


def _one_arrow(lines: list[LinePath], members: list[int], att: dict,
               nodes: list[DetectedShape]) -> tuple[LinePath, tuple[int, int]] | None:
    """The gathering ``members`` as one line between the two nodes its ends touch, or None where
    it touches fewer or more, or one of its pieces already joins them (nothing to mend)."""
    touching: dict[int, list[tuple[int, int, tuple[float, float]]]] = {}
    for k in members:
        for e in (0, 1):
            a = att[(k, e)]
            if a is not None:
                touching.setdefault(a[0], []).append((k, e, a[1]))
    if len(touching) != 2:
        return None
    for k in members:
        a0, a1 = att[(k, 0)], att[(k, 1)]
        if a0 is not None and a1 is not None and a0[0] != a1[0] and a0[1] == lines[k].start and a1[1] == lines[k].end:
            return None  # a piece that already runs from node to node: the edge stage reads it
    ia, ib = sorted(touching)
    pts = _walk(lines, members, touching[ia], touching[ib])
    heads = [_head_at(lines, members, nodes[i], pts[0] if i == ia else pts[-1]) for i in (ia, ib)]
    # two lines leaving a node from one point look like a 'V' head: no head
    heads = [None if h is not None and _fan(lines, members, h, nodes[i]) else h for h, i in zip(heads, (ia, ib))]
    main = max(members, key=lambda k: lines[k].length)
    ln = lines[main]
    return LinePath(points=pts, width=ln.width, color=ln.color, style=ln.style, head_start=heads[0],
                    head_end=heads[1], pieces=sum(lines[k].pieces for k in members),
                    ink=sum(lines[k].ink for k in members)), (ia, ib)


def _walk(lines: list[LinePath], members: list[int], at_a: list, at_b: list) -> list[tuple[float, float]]:
    """The course from node a to node b through the pieces: from the piece end at a, along that
    piece, on to the nearest end of a piece not yet walked, until a piece end at b is reached."""
    k, e, p = min(at_a, key=lambda t: -lines[t[0]].length)
    course = [p]
    left = set(members)
    ends_b = {(t[0], t[1]) for t in at_b}
    while True:
        left.discard(k)
        seq = lines[k].points if e == 0 else lines[k].points[::-1]
        course.extend(seq)
        if (k, 1 - e) in ends_b:
            hit = next(t[2] for t in at_b if (t[0], t[1]) == (k, 1 - e))
            if hit != course[-1]:
                course.append(hit)
            return course
        here = course[-1]
        cands = [(math.dist(here, lines[j].points[0 if f == 0 else -1]), j, f) for j in left for f in (0, 1)]
        if not cands:
            break
        _, k, e = min(cands)
    # no walk reached b: straight on to where the gathering touches it
    q = min(at_b, key=lambda t: math.dist(course[-1], t[2]))[2]
    course.append(q)
    return course


def _head_at(lines: list[LinePath], members: list[int], node: DetectedShape,
             p: tuple[float, float]) -> Arrowhead | None:
    """A head read on one of the pieces with its tip by ``node`` (at the end ``p``), else None."""
    best = None
    for k in members:
        for h in (lines[k].head_start, lines[k].head_end):
            if h is None:
                continue
            reach = 2 * h.length + 3 * lines[k].width + 6
            d = dist_to_shape(h.tip, node)
            if d <= reach and math.dist(h.tip, p) <= 4 * reach and (best is None or d < best[0]):
                best = (d, h)
    return None if best is None else best[1]


def _fan(lines: list[LinePath], members: list[int], h: Arrowhead, node: DetectedShape) -> bool:
    """Whether ``h`` is two lines leaving ``node`` from one point (a 'V' to the head reader): a
    long line not among ``members`` starts by its tip, on the node's outline, headless there
    (arrows converging on a node end short of it, or in heads of their own)."""
    for k, ln in enumerate(lines):
        if k in members or ln.length < 4 * h.length or len(ln.points) < 2:
            continue
        for e, q in ((0, ln.start), (1, ln.end)):
            if (math.dist(q, h.tip) <= h.length and (ln.head_start if e == 0 else ln.head_end) is None
                    and dist_to_shape(q, node) <= 3 * ln.width + 6):
                return True
    return False


def _gap(ln: LinePath) -> float:
    """How far a loose end of ``ln`` reaches for another piece (px)."""
    return min(GAP_MAX, GAP_WIDTHS * ln.width + GAP_PX)


def _end(ln: LinePath, e: int) -> tuple[float, float]:
    return ln.points[0] if e == 0 else ln.points[-1]


def _end_node(ln: LinePath, e: int, nodes: list[DetectedShape]) -> tuple[int, tuple[float, float]] | None:
    """(the node the line's end ``e`` touches, the point there): within the edge stage's reach of
    its outline, or ahead of the end on its course within a gap's length (an Excalidraw arrow
    bound to a box stops short of it; its last pixels may hook back along a barb, so the course
    is taken from a point BACK_PX back, or along its head's axis where the end holds one)."""
    p = _end(ln, e)
    tol = 3 * ln.width + 6
    dist = [(dist_to_shape(p, s), i) for i, s in enumerate(nodes)]
    d, i = min(dist)
    if d <= tol:
        return i, p
    reach = _gap(ln) + tol
    head = ln.head_start if e == 0 else ln.head_end
    if head is not None and math.dist(head.tip, head.base) >= 1.0:
        p, back = head.tip, head.base
    else:
        back = _back(ln.points if e == 1 else ln.points[::-1], BACK_PX)
    u = (p[0] - back[0], p[1] - back[1])
    nu = math.hypot(*u)
    if nu < 1.0:
        return None
    best = None
    for d, i in dist:
        s = nodes[i]
        c = (min(max(p[0], s.x), s.x + s.w), min(max(p[1], s.y), s.y + s.h))  # nearest point of its box
        v = (c[0] - p[0], c[1] - p[1])
        nv = math.hypot(*v)
        if d <= reach and nv <= reach and (u[0] * v[0] + u[1] * v[1]) >= AHEAD_COS * nu * nv and (
                best is None or d < best[0]):
            best = (d, i, c)
    if best is None:
        return None
    # carried on along the course until within half the reach of its outline (as far as
    # sketch_lines.reach_nodes would: a head is looked for 20 px back from there)
    d, i, c = best
    for step in range(2, int(reach) + 3, 2):
        q = (p[0] + u[0] / nu * step, p[1] + u[1] / nu * step)
        if dist_to_shape(q, nodes[i]) <= 0.5 * tol:
            return i, q
    return i, c


def _back(seq: list[tuple[float, float]], dist: float) -> tuple[float, float]:
    """The point ``dist`` back along the polyline ``seq`` from its last point (its first, if shorter)."""
    run = 0.0
    for a, b in zip(seq[::-1], seq[-2::-1]):
        step = math.dist(a, b)
        if run + step >= dist and step > 0:
            t = (dist - run) / step
            return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
        run += step
    return seq[0]
