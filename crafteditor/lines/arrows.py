"""Arrows: each arrowhead given to the path end it sits on, aligned to that line, and its kind told;
heads no line claimed made arrows of their own.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from crafteditor.lines.heads import head_kind, pixel_disc, pixel_gap
from crafteditor.lines.paths import Arrowhead, Ends, LinePath, Pt, direction_out, snapped_to_axis
from crafteditor.lines.routes import drop_backtrack, merge_collinear, orthogonalize


def attach_heads(paths: list[LinePath], heads: list[Arrowhead], lw: float, residual: np.ndarray) -> None:
    """Give each head to the path end nearest it (a head never sits mid-line), aligned to that line,
    and tell its kind (filled triangle, open 'V' or diamond) from the ink across its axis."""
    claims = []
    ends = Ends([p.points for p in paths])
    for hi, h in enumerate(heads):
        if not len(h.pixels):
            continue
        centre, radius = pixel_disc(h.pixels)
        for k in ends.near(centre, radius + 4 * lw + 5):  # only ends nearby
            pi, end = ends.owner[k], ends.at[k]
            p = paths[pi]
            d = pixel_gap(h.pixels, ends.pts[k])  # from the line end to the head's pixels
            # a dashed line may stop a whole dash gap short of its head
            if d <= (4 * lw + 5 if p.style != "solid" else 2 * lw + 3):
                # a piece shorter than the head by it is likelier a sliver of the head's own rim
                # than its line: it claims the head only where no longer line does (a Mermaid
                # curve into a 19 px head had lost it to an 8 px sliver 0.5 px nearer, and its
                # edge came back a free curve short of its state)
                sliver = 2 * lw + 3 if p.length < h.length else 0.0
                claims.append((d + sliver, hi, pi, end))
    # a dashed line crossing a group's frame stops at the frame, a dash or two short of its head
    # on the node inside (the frame's stroke took the dash in between): a head no end is near
    # goes to a free end it lies straight ahead of, within reach (ranked after the near claims)
    near_heads = {hi for _, hi, _, _ in claims}
    reach = 16 * lw + 10
    for hi, h in enumerate(heads):
        if hi in near_heads or not len(h.pixels):
            continue
        centre, radius = pixel_disc(h.pixels)
        for pi, p in enumerate(paths):
            if p.style == "solid":
                continue
            for end in (0, 1):
                pts = p.points if end == 1 else p.points[::-1]
                d = _end_direction(pts, 3 * lw + 6)
                if d is None:
                    continue
                b = pts[-1]
                v = (centre[0] - b[0], centre[1] - b[1])
                along = v[0] * d[0] + v[1] * d[1]
                if 0 < along - radius <= reach and abs(v[0] * d[1] - v[1] * d[0]) <= 2 * lw + 2:
                    claims.append((1e6 + along, hi, pi, end))
    taken_heads: set[int] = set()
    taken_ends: set[tuple[int, int]] = set()
    for d, hi, pi, end in sorted(claims):
        if hi in taken_heads or (pi, end) in taken_ends:
            continue
        p = paths[pi]
        h = heads[hi]
        pts = p.points if end == 1 else p.points[::-1]
        whole = pts
        # the line's direction into the head, from its last stretch outside the head
        # the line's points on or next to the head are skeleton wobble: anchor on the last one clear of it
        while len(pts) > 2 and _in_head(pts[-1], h, lw):
            pts = pts[:-1]
        b = pts[-1]
        fallback = _end_direction(pts, 3 * lw + 6)
        if fallback is None:
            continue
        # a route that turned just before its head (its last leg was on the head, and dropped)
        # arrives across its own direction: where the dropped leg turned and the head lies well
        # off the line's way on, the way to the head is the better guess at its axis (a
        # matplotlib 'bar' loop's up-pointing head, as wide as long, had been joined sideways)
        hc, _ = pixel_disc(h.pixels)
        v = (hc[0] - b[0], hc[1] - b[1])
        nv = math.hypot(*v)
        last = _end_direction(whole, 3 * lw + 6) if len(whole) > len(pts) else None
        turned = last is not None and abs(last[0] * fallback[0] + last[1] * fallback[1]) < 0.7
        if turned and nv > 1e-6 and abs(v[0] * fallback[1] - v[1] * fallback[0]) > max(2 * lw + 2, 0.5 * nv):
            u = (v[0] / nv, v[1] / nv)
            fallback = (math.copysign(1.0, u[0]), 0.0) if abs(u[0]) >= abs(u[1]) else (0.0, math.copysign(1.0, u[1]))
        taken_heads.add(hi)
        taken_ends.add((pi, end))
        direction, centre = h.axis(b, fallback)
        h.orient(centre, direction)
        if h.kind == "arrow":
            h.kind = head_kind(h, direction, residual, lw, trusted=h.axis_from_shape)
        pts = _join_head(pts, centre, direction) + [h.tip]
        if end == 1:
            p.head_end = h
            p.points = pts
        else:
            p.head_start = h
            p.points = pts[::-1]
    for p in paths:
        p.points = orthogonalize(merge_collinear(drop_backtrack(p.points), lw), 10 * lw + 2)


def orphan_heads(paths: list[LinePath], heads: list[Arrowhead], lw: float, residual: np.ndarray) -> list[LinePath]:
    """Arrows too short for their line to outlast the nodes' rings: a filled head no line end
    claimed, with what is left of its line behind it, is a path of its own (``pieces=0``: the
    assembly keeps it only between two shapes). A matplotlib block diagram's 25 px arrows
    between boxes had left a 3 px stub and a head, and came back as traced paths.

    The head's axis is its pixels' long direction; it points from its wide end to its narrow one.
    """
    taken = {id(p.head_start) for p in paths} | {id(p.head_end) for p in paths}
    out: list[LinePath] = []
    H, W = residual.shape
    for h in heads:
        if id(h) in taken or len(h.pixels) < 6 or h.kind != "arrow" or h.pointing is not None:
            continue
        c, evals, evecs = h.principal()
        if evals[0] <= 1e-9 or evals[1] / evals[0] < 1.4:
            continue
        d = evecs[:, int(np.argmax(evals))]
        rel = h.pixels - c
        solid = h.weights >= 0.35
        proj, perp = (rel @ d)[solid], (rel @ np.array([-d[1], d[0]]))[solid]
        if proj.size < 6:
            continue
        # the width along the axis: widest at the base, narrowing to the tip over the head's
        # length (what is left of the line behind the base is shorter than that)
        bins = np.round(proj - proj.min()).astype(int)
        width = np.array([np.ptp(perp[bins == b]) if (bins == b).any() else 0.0 for b in range(bins.max() + 1)])
        widest = np.flatnonzero(width >= 0.9 * width.max())
        at = float(widest.mean())
        ahead, behind = len(width) - 1 - at, at
        if ahead > 1.3 * behind and width[-1] <= 0.5 * width.max():
            pass  # it points along d
        elif behind > 1.3 * ahead and width[0] <= 0.5 * width.max():
            d = -d
        else:
            continue
        d = snapped_to_axis(d)
        h.orient((float(c[0]), float(c[1])), (float(d[0]), float(d[1])))
        # the stub behind the base, as far as the ink goes
        start = np.asarray(h.base, dtype=np.float64)
        for _ in range(int(4 * h.length) + 1):
            q = start - d
            xi, yi = int(round(q[0])), int(round(q[1]))
            if not (0 <= xi < W and 0 <= yi < H and residual[yi, xi]):
                break
            start = q
        out.append(LinePath(points=[(float(start[0]), float(start[1])), h.tip], width=lw, color=(0, 0, 0),
                            head_end=h, pieces=0))
    return out


def merged_legs(paths: list[LinePath], heads: list[Arrowhead], lw: float, residual: np.ndarray) -> list[LinePath]:
    """The paths, with two edges an orthogonal router merged into one leg by a node parted.

    One edge comes in and turns into the node along the leg, ending in its head; the other leaves
    the node along the same leg (java-design-patterns' state flowchart: 'Execute Behavior B' comes
    down and turns into 'Transition Condition?', whose 'No' runs out right along that stretch; the
    trace read 'Execute Behavior B' -> 'Remain in Current State'). Traced, it is one of two things:

    - a head no line end claimed sits on a path's corner: the path is split there; the leg that
      turns ends in the head, the leg that runs straight on from the head starts at its tip
      (:func:`_split_at_head`). A turning leg whose far end has a head of its own is left as it
      was: two heads on one branch are no merged pair;
    - the turning leg claimed the head, and another path's headless end lies on the head's back,
      running on along its axis to a head at its far end: that end is carried to the head's tip.
      (Without a far head the two are a fan-in, whose trunk
      :func:`crafteditor.assemble.joins.extend_at_junctions` shares.)"""
    near = 2 * lw + 3  # how close a corner or an end must come to the head's pixels (as an end claiming it)
    reach = 3 * lw + 6  # a leg's direction, measured this far along it
    taken = {id(p.head_start) for p in paths} | {id(p.head_end) for p in paths}
    out = list(paths)
    for h in heads:
        if len(h.pixels) < 6:
            continue
        if id(h) not in taken:
            for pi, p in enumerate(out):
                parts = _split_at_head(p, h, lw, residual, near, reach)
                if parts is not None:
                    out[pi:pi + 1] = parts
                    break
            continue
        owner = next((p for p in out if h is p.head_end or h is p.head_start), None)
        if owner is None or len(owner.points) < 3:
            continue
        into = (h.tip[0] - h.base[0], h.tip[1] - h.base[1])  # the head's axis, to its tip
        n = math.hypot(*into)
        # the owner's course before its last point (the tip): across the axis where it turned into the head
        arrival = direction_out((owner.points if h is owner.head_start else owner.points[::-1])[1:], True, reach)
        if n < 1e-6 or arrival is None:
            continue
        into = (into[0] / n, into[1] / n)
        if abs(arrival[0] * into[0] + arrival[1] * into[1]) > 0.5 or not _points_along(h, into, lw):
            continue  # the owner runs straight into its head (no turn, no merged leg), or the 'head' is a dot
        for pi, q in enumerate(out):
            if q is owner:
                continue
            for at_start in (True, False):
                end, own, far = (q.head_start, q.start, q.head_end) if at_start else (q.head_end, q.end, q.head_start)
                if end is not None or far is None or pixel_gap(h.pixels, own) > near:
                    continue
                d = direction_out(q.points, at_start, reach)
                if d is None or d[0] * into[0] + d[1] * into[1] < 0.9:
                    continue
                pts = [h.tip, *q.points] if at_start else [*q.points, h.tip]
                out[pi] = replace(q, points=pts)
                break
    return out


def _split_at_head(p: LinePath, h: Arrowhead, lw: float, residual: np.ndarray, near: float,
                   reach: float) -> list[LinePath] | None:
    """(the turning leg ending in ``h``, the straight leg from ``h``'s tip) where ``h`` sits on a corner
    of ``p`` past which one leg runs straight away from it and the other turns across; None otherwise."""
    centre, radius = pixel_disc(h.pixels)
    pts = p.points
    for k in range(1, len(pts) - 1):
        q = pts[k]
        dist_c = math.dist(q, centre)
        if dist_c > radius + near or dist_c < 1e-6 or pixel_gap(h.pixels, q) > near:
            continue
        u = ((centre[0] - q[0]) / dist_c, (centre[1] - q[1]) / dist_c)  # corner -> head
        if not _points_along(h, u, lw):
            return None
        # each leg's direction out of the corner (direction_out points out of the leg, into the corner)
        first, second = direction_out(pts[k::-1], True, reach), direction_out(pts[k:], True, reach)
        if first is None or second is None:
            continue
        for straight, turning, first_straight in ((first, second, True), (second, first, False)):
            # the straight leg, run on through the corner, points at the head; the turning one across it
            if straight[0] * u[0] + straight[1] * u[1] > 0.9 and abs(turning[0] * u[0] + turning[1] * u[1]) < 0.5:
                break
        else:
            continue
        # the turning leg, from its far end to the corner, and its far head; the straight leg from the corner on
        turn_pts, turn_head = (pts[k:][::-1], p.head_end) if first_straight else (pts[:k + 1], p.head_start)
        straight_pts, straight_head = (pts[:k + 1][::-1], p.head_start) if first_straight else (pts[k:], p.head_end)
        if turn_head is not None:
            return None
        d = snapped_to_axis(np.asarray(u))
        direction, hc = h.axis(q, (float(d[0]), float(d[1])))
        h.orient(hc, direction)
        if h.kind == "arrow":
            h.kind = head_kind(h, direction, residual, lw, trusted=h.axis_from_shape)
        branch = replace(p, points=[*_join_head(turn_pts, hc, direction), h.tip], head_start=None, head_end=h,
                         open_ends=[True, True])
        trunk = replace(p, points=[h.tip, *straight_pts], head_start=None, head_end=straight_head,
                        open_ends=[True, True])
        return [branch, trunk]
    return None


def _points_along(h: Arrowhead, u: tuple[float, float], lw: float) -> bool:
    """Whether ``h`` narrows to a tip along ``u`` as a head does: from its widest slice (past the line's
    stub behind it) the width falls to under 0.4 of it at the front and is under 0.7 of it half-way there.
    A switch's contact dot on a corner keeps its width to the end (janosh's GAN diagram: the dot where the
    dashed arc meets the 'x_fake' wire had been taken for a head)."""
    c, _, _ = h.principal()
    d = np.asarray(u, dtype=np.float64)
    rel = h.pixels - c
    solid = h.weights >= 0.35
    proj, perp = (rel @ d)[solid], (rel @ np.array([-d[1], d[0]]))[solid]
    if proj.size < 6:
        return False
    bins = np.round(proj - proj.min()).astype(int)
    width = np.array([np.ptp(perp[bins == b]) if (bins == b).any() else 0.0 for b in range(bins.max() + 1)])
    stub = 1.5 * lw + 1  # the line behind the head is no wider than this
    back = next((k for k, w in enumerate(width) if w > stub), len(width))
    width = width[back:]
    if len(width) < 4:
        return False
    k = int(np.argmax(width))
    front = width[k:]
    if len(front) < 3:
        return False
    return bool(front[-1] <= 0.4 * front[0] and front[(len(front) - 1) // 2] <= 0.7 * front[0])


def _join_head(pts: list[Pt], centre: Pt, d: tuple[float, float]) -> list[Pt]:
    """Bring the line's end onto the head's axis: a corner when the line arrives across it
    (an orthogonal route turning just before its head), a projection when it runs along it."""
    b = pts[-1]
    a = pts[-2] if len(pts) >= 2 else b
    seg = (b[0] - a[0], b[1] - a[1])
    L = math.hypot(*seg)
    if L > 1e-6 and abs((seg[0] * d[0] + seg[1] * d[1]) / L) < 0.4:
        # perpendicular arrival: meet the axis line where the last segment's line crosses it
        den = seg[0] * d[1] - seg[1] * d[0]
        if abs(den) > 1e-9:
            t = ((centre[0] - a[0]) * d[1] - (centre[1] - a[1]) * d[0]) / den
            corner = (a[0] + seg[0] * t, a[1] + seg[1] * t)
            return pts[:-1] + [corner]
    t = (b[0] - centre[0]) * d[0] + (b[1] - centre[1]) * d[1]
    return pts[:-1] + [(centre[0] + d[0] * t, centre[1] + d[1] * t)]


def _end_direction(pts: list[Pt], reach: float) -> tuple[float, float] | None:
    """Unit direction of the line arriving at its last point, measured over ``reach`` px
    (short skeleton wiggles near a head must not tilt it); snapped to an axis within 4°. A line of one point has
    no direction (None), as a line of two equal points."""
    if len(pts) < 2:
        return None
    b = pts[-1]
    a = pts[-2]
    for q in reversed(pts[:-1]):
        a = q
        if math.dist(q, b) >= reach:
            break
    L = math.dist(a, b)
    if L < 1e-6:
        return None
    dx, dy = (b[0] - a[0]) / L, (b[1] - a[1]) / L
    if abs(dy) < 0.07:
        return (1.0 if dx > 0 else -1.0, 0.0)
    if abs(dx) < 0.07:
        return (0.0, 1.0 if dy > 0 else -1.0)
    return (dx, dy)


def _in_head(q: Pt, h: Arrowhead, lw: float) -> bool:
    """Whether a line point lies on (or hugs) the head: the skeleton wobbles where the line meets it."""
    return pixel_gap(h.pixels, q) <= lw + 1.0
