"""Edge geometry: orthogonal routes around obstacles, straight lines, spline waypoints, self-loops.

The layered engines route most edges themselves. This module routes the rest (edges
between panels, to pinned components, to annotations) and turns one route style into
another:

* :func:`route_orthogonal` finds a shortest orthogonal path with few bends on the sparse
  grid of lines through the obstacles' (padded) sides — the "orthogonal visibility
  graph" of libavoid and friends — searched with Dijkstra over (point, heading) states.
* :func:`spline_waypoints` gives the points a smooth curve should pass through; the
  renderer draws a Catmull–Rom spline through them (``crafter.render.routes.spline_d``).
* :func:`straight_route` and :func:`self_loop` are what their names say.

Boxes here are plain ``(x, y, w, h)`` tuples: this is inner-loop code.
"""

from __future__ import annotations

import heapq
import math
from bisect import bisect_left, bisect_right
from typing import Iterable, Sequence

Pt = tuple[float, float]
Rect = tuple[float, float, float, float]  # x, y, w, h

SIDES = ("right", "left", "bottom", "top")
_STEP = {"right": (1, 0), "left": (-1, 0), "bottom": (0, 1), "top": (0, -1)}
# the side a route leaves from / arrives at, by layout direction
FLOW_SIDES = {"LR": ("right", "left"), "RL": ("left", "right"), "TB": ("bottom", "top"), "BT": ("top", "bottom")}


def side_point(r: Rect, side: str, offset: float = 0.0) -> Pt:
    """The middle of a side of ``r``, pushed ``offset`` outwards."""
    x, y, w, h = r
    if side == "right":
        return (x + w + offset, y + h / 2)
    if side == "left":
        return (x - offset, y + h / 2)
    if side == "bottom":
        return (x + w / 2, y + h + offset)
    return (x + w / 2, y - offset)


def simplify(points: Sequence[Pt], eps: float = 1e-6) -> list[Pt]:
    """Drop repeated points and points in the middle of a straight run."""
    out: list[Pt] = []
    for p in points:
        if out and abs(out[-1][0] - p[0]) < eps and abs(out[-1][1] - p[1]) < eps:
            continue
        while len(out) >= 2:
            (ax, ay), (bx, by) = out[-2], out[-1]
            cross = (bx - ax) * (p[1] - by) - (by - ay) * (p[0] - bx)
            dot = (bx - ax) * (p[0] - bx) + (by - ay) * (p[1] - by)
            if abs(cross) < eps * max(1.0, abs(bx - ax) + abs(by - ay)) and dot >= 0:
                out.pop()
            else:
                break
        out.append((float(p[0]), float(p[1])))
    return out


def orthogonalize(points: Sequence[Pt], tolerance: float = 1.0) -> list[Pt]:
    """Snap nearly horizontal or vertical segments (off by float noise) to exactly so.

    Each point takes the other coordinate of its predecessor, so the fix travels along
    the route; the last point moves by at most ``tolerance`` and stays on its node's side.
    """
    out = [tuple(points[0])] if points else []
    for p in points[1:]:
        x, y = p
        px, py = out[-1]
        if x != px and y != py:
            if abs(y - py) <= tolerance and abs(x - px) > abs(y - py):
                y = py
            elif abs(x - px) <= tolerance:
                x = px
        out.append((x, y))
    return simplify(out)  # type: ignore[arg-type]


def _expand(r: Rect, m: float) -> Rect:
    return (r[0] - m, r[1] - m, r[2] + 2 * m, r[3] + 2 * m)


def _intersects(a: Rect, b: Rect) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def segment_hits(p: Pt, q: Pt, r: Rect, shrink: float = 0.5) -> bool:
    """Whether segment p–q passes through the interior of ``r`` (shrunk a little)."""
    x0, y0, x1, y1 = r[0] + shrink, r[1] + shrink, r[0] + r[2] - shrink, r[1] + r[3] - shrink
    if x1 <= x0 or y1 <= y0:
        return False
    # Liang–Barsky clipping
    dx, dy = q[0] - p[0], q[1] - p[1]
    t0, t1 = 0.0, 1.0
    for pv, qv in ((-dx, p[0] - x0), (dx, x1 - p[0]), (-dy, p[1] - y0), (dy, y1 - p[1])):
        if pv == 0:
            if qv <= 0:
                return False
        else:
            t = qv / pv
            if pv < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
            if t0 >= t1:
                return False
    return True


def route_hits(route: Sequence[Pt], obstacles: Iterable[Rect], shrink: float = 0.5) -> bool:
    obs = list(obstacles)
    return any(segment_hits(p, q, r, shrink) for p, q in zip(route, route[1:]) for r in obs)


def route_orthogonal(
    a: Rect,
    b: Rect,
    obstacles: Sequence[Rect],
    *,
    clearance: float = 8.0,
    bend_cost: float = 24.0,
    prefer: tuple[str, str] | None = None,
    side_penalty: float = 40.0,
    margin: float = 60.0,
    give_up: bool = False,
    avoid: Sequence[Sequence[Pt]] = (),
) -> list[Pt] | None:
    """A short orthogonal route from box ``a`` to box ``b`` that keeps ``clearance`` from obstacles.

    ``prefer`` = (side of ``a`` to leave from, side of ``b`` to arrive at); other sides cost
    ``side_penalty`` more. Obstacles far outside the two boxes' neighbourhood are ignored
    first; if no route exists there, the search widens to all of them. Falls back to a
    straight segment between the facing sides when the boxes are walled in (or returns
    None with ``give_up=True``). Running along a route in ``avoid`` (other edges) costs
    extra, so edges do not draw over each other where they need not; crossing them is free.
    """
    obstacles = [o for o in obstacles if o[2] > 0 and o[3] > 0]
    wx0 = min(a[0], b[0]) - margin
    wy0 = min(a[1], b[1]) - margin
    wx1 = max(a[0] + a[2], b[0] + b[2]) + margin
    wy1 = max(a[1] + a[3], b[1] + b[3]) + margin
    for attempt in range(3):
        window = (wx0, wy0, wx1 - wx0, wy1 - wy0)
        near = [o for o in obstacles if _intersects(o, window)]
        path = _grid_route(a, b, near, window, clearance, bend_cost, prefer, side_penalty, _runs(avoid))
        if path is not None:
            return path
        if attempt == 0 and obstacles:  # widen to every obstacle, with room to go around them all
            wx0 = min(wx0, min(o[0] for o in obstacles) - margin)
            wy0 = min(wy0, min(o[1] for o in obstacles) - margin)
            wx1 = max(wx1, max(o[0] + o[2] for o in obstacles) + margin)
            wy1 = max(wy1, max(o[1] + o[3] for o in obstacles) + margin)
        else:
            clearance *= 0.5
    return None if give_up else straight_route(a, b)


OVERLAP_COST = 3.0  # extra cost per px of running along another edge


def _runs(routes: Sequence[Sequence[Pt]]) -> tuple[dict[float, list[tuple[float, float]]],
                                                   dict[float, list[tuple[float, float]]]]:
    """Horizontal runs by y and vertical runs by x (keys rounded to 0.1 px)."""
    hor: dict[float, list[tuple[float, float]]] = {}
    ver: dict[float, list[tuple[float, float]]] = {}
    for route in routes:
        for (x0, y0), (x1, y1) in zip(route, route[1:]):
            if abs(y0 - y1) < 1e-6:
                hor.setdefault(round(y0, 1), []).append((min(x0, x1), max(x0, x1)))
            elif abs(x0 - x1) < 1e-6:
                ver.setdefault(round(x0, 1), []).append((min(y0, y1), max(y0, y1)))
    return hor, ver


def _shared(runs: list[tuple[float, float]] | None, lo: float, hi: float) -> float:
    """Length of [lo, hi] covered by the runs on one line."""
    if not runs:
        return 0.0
    return sum(max(0.0, min(hi, r1) - max(lo, r0)) for r0, r1 in runs)


def _stub_overlap(r: Rect, side: str, stub: Pt, hor: dict, ver: dict) -> float:
    """Extra cost of the short stub from the middle of ``side`` to ``stub`` running along another edge."""
    x0, y0 = side_point(r, side)
    if side in ("left", "right"):
        return OVERLAP_COST * _shared(hor.get(round(y0, 1)), min(x0, stub[0]), max(x0, stub[0]))
    return OVERLAP_COST * _shared(ver.get(round(x0, 1)), min(y0, stub[1]), max(y0, stub[1]))


def _routing_grid(walls: list[Rect], stubs: list[Pt], window: Rect
                  ) -> tuple[list[float], list[float], bytearray, bytearray, bytearray]:
    """The grid routes run on (every wall's and stub's x and y inside the window) and what blocks it:
    grid points strictly inside a wall, and horizontal and vertical grid segments through a wall."""
    xs_set = {window[0], window[0] + window[2]}
    ys_set = {window[1], window[1] + window[3]}
    for px, py in stubs:
        xs_set.add(px)
        ys_set.add(py)
    for x, y, w, h in walls:
        xs_set.update((x, x + w))
        ys_set.update((y, y + h))
    xs = sorted(v for v in xs_set if window[0] <= v <= window[0] + window[2])
    ys = sorted(v for v in ys_set if window[1] <= v <= window[1] + window[3])
    nx, ny = len(xs), len(ys)
    blocked_pt = bytearray(nx * ny)
    blocked_h = bytearray(nx * ny)  # segment (i, j) -> (i + 1, j)
    blocked_v = bytearray(nx * ny)  # segment (i, j) -> (i, j + 1)
    for x, y, w, h in walls:
        i0, i1 = bisect_right(xs, x), bisect_left(xs, x + w)  # strictly inside in x: [i0, i1)
        j0, j1 = bisect_right(ys, y), bisect_left(ys, y + h)
        ie0, ie1 = bisect_left(xs, x), bisect_right(xs, x + w)  # inside or on the boundary
        je0, je1 = bisect_left(ys, y), bisect_right(ys, y + h)
        for j in range(j0, j1):
            row = j * nx
            for i in range(i0, i1):
                blocked_pt[row + i] = 1
            for i in range(ie0, ie1 - 1):  # horizontal runs through the interior
                blocked_h[row + i] = 1
        for i in range(i0, i1):
            for j in range(je0, je1 - 1):
                blocked_v[j * nx + i] = 1
    return xs, ys, blocked_pt, blocked_h, blocked_v


def _grid_route(a: Rect, b: Rect, obstacles: list[Rect], window: Rect, clearance: float, bend_cost: float,
                prefer: tuple[str, str] | None, side_penalty: float,
                runs: tuple[dict, dict] = ({}, {})) -> list[Pt] | None:
    walls = [_expand(o, clearance) for o in obstacles] + [_expand(a, clearance), _expand(b, clearance)]
    # the stubs sit exactly on the padded outline of their own box: not strictly inside it
    starts = [(side_point(a, s, clearance), s) for s in SIDES]
    goals = [(side_point(b, s, clearance), s) for s in SIDES]
    xs, ys, blocked_pt, blocked_h, blocked_v = _routing_grid(walls, [p for p, _ in starts + goals], window)
    nx, ny = len(xs), len(ys)

    def index(p: Pt) -> int | None:
        i = bisect_left(xs, p[0])
        j = bisect_left(ys, p[1])
        if i < nx and j < ny and xs[i] == p[0] and ys[j] == p[1]:
            return j * nx + i
        return None

    hor, ver = runs
    # state = node * 4 + heading; headings: 0 +x, 1 -x, 2 +y, 3 -y
    heading_of = {"right": 0, "left": 1, "bottom": 2, "top": 3}
    INF = math.inf
    dist: dict[int, float] = {}
    prev: dict[int, int] = {}
    heap: list[tuple[float, int]] = []
    for p, side in starts:
        k = index(p)
        if k is None or blocked_pt[k]:
            continue
        cost = (0.0 if prefer is None or side == prefer[0] else side_penalty) + _stub_overlap(a, side, p, hor, ver)
        s = k * 4 + heading_of[side]
        if cost < dist.get(s, INF):
            dist[s] = cost
            heapq.heappush(heap, (cost, s))
    goal_cost: dict[int, float] = {}
    for p, side in goals:
        k = index(p)
        if k is None or blocked_pt[k]:
            continue
        inward = heading_of[{"right": "left", "left": "right", "bottom": "top", "top": "bottom"}[side]]
        cost = (0.0 if prefer is None or side == prefer[1] else side_penalty) + _stub_overlap(b, side, p, hor, ver)
        goal_cost[k * 4 + inward] = cost
    if not goal_cost:
        return None
    goal_nodes = {s // 4 for s in goal_cost}
    best_goal, best = None, INF
    while heap:
        d, s = heapq.heappop(heap)
        if d > dist.get(s, INF) or d >= best:
            continue
        node, hd = divmod(s, 4)
        if node in goal_nodes:
            for g_hd in range(4):
                g = node * 4 + g_hd
                if g in goal_cost:
                    total = d + goal_cost[g] + (0.0 if g_hd == hd else bend_cost)
                    if total < best:
                        best, best_goal = total, s
        j, i = divmod(node, nx)
        for nhd, (di, dj) in enumerate(((1, 0), (-1, 0), (0, 1), (0, -1))):
            if nhd ^ 1 == hd:  # no U-turn on the spot
                continue
            ni, nj = i + di, j + dj
            if not (0 <= ni < nx and 0 <= nj < ny):
                continue
            nk = nj * nx + ni
            if blocked_pt[nk]:
                continue
            if di:
                if blocked_h[j * nx + min(i, ni)]:
                    continue
                step = abs(xs[ni] - xs[i])
                if hor:
                    step += OVERLAP_COST * _shared(hor.get(round(ys[j], 1)), min(xs[i], xs[ni]), max(xs[i], xs[ni]))
            else:
                if blocked_v[min(j, nj) * nx + i]:
                    continue
                step = abs(ys[nj] - ys[j])
                if ver:
                    step += OVERLAP_COST * _shared(ver.get(round(xs[i], 1)), min(ys[j], ys[nj]), max(ys[j], ys[nj]))
            nd = d + step + (0.0 if nhd == hd else bend_cost)
            ns = nk * 4 + nhd
            if nd < dist.get(ns, INF):
                dist[ns] = nd
                prev[ns] = s
                heapq.heappush(heap, (nd, ns))
    if best_goal is None:
        return None
    states = [best_goal]
    while states[-1] in prev:
        states.append(prev[states[-1]])
    states.reverse()
    pts = [(xs[(s // 4) % nx], ys[(s // 4) // nx]) for s in states]
    first, last = pts[0], pts[-1]
    a_side = next(side for p, side in starts if p == first)
    b_side = min((side for p, side in goals if p == last), key=lambda sd: 0 if prefer and sd == prefer[1] else 1)
    return simplify([side_point(a, a_side)] + pts + [side_point(b, b_side)])


def straight_route(a: Rect, b: Rect) -> list[Pt]:
    """Centre to centre, cut at both boxes' sides (the outline clip happens later)."""
    ca = (a[0] + a[2] / 2, a[1] + a[3] / 2)
    cb = (b[0] + b[2] / 2, b[1] + b[3] / 2)
    return [clip_to_rect(a, cb), clip_to_rect(b, ca)]


def clip_to_rect(r: Rect, toward: Pt) -> Pt:
    """Where the ray from the centre of ``r`` towards ``toward`` leaves ``r``."""
    cx, cy = r[0] + r[2] / 2, r[1] + r[3] / 2
    dx, dy = toward[0] - cx, toward[1] - cy
    if dx == 0 and dy == 0:
        return (cx, cy)
    sx = (r[2] / 2) / abs(dx) if dx else math.inf
    sy = (r[3] / 2) / abs(dy) if dy else math.inf
    s = min(sx, sy)
    return (cx + dx * s, cy + dy * s)


def self_loop(r: Rect, direction: str, size: float) -> list[Pt]:
    """A loop leaving the box's flow-end side and coming back on its top (or right) side."""
    x, y, w, h = r
    if direction in ("LR", "RL"):
        # out of the right (or left) side near the top, over the top corner, back into the top
        sx = x + w if direction == "LR" else x
        out = 1 if direction == "LR" else -1
        y1 = y + min(h * 0.3, h / 2)
        x2 = sx - out * min(w * 0.3, w / 2)
        return [(sx, y1), (sx + out * size, y1), (sx + out * size, y - size), (x2, y - size), (x2, y)]
    sy = y + h if direction == "TB" else y
    out = 1 if direction == "TB" else -1
    x1 = x + w - min(w * 0.3, w / 2)
    y2 = sy - out * min(h * 0.3, h / 2)
    return [(x1, sy), (x1, sy + out * size), (x + w + size, sy + out * size), (x + w + size, y2), (x + w, y2)]


def spline_waypoints(route: Sequence[Pt], stub: float = 10.0) -> list[Pt]:
    """Points a smooth curve through which follows an orthogonal route without its corners.

    Keeps the two ends and a short straight stub at each (so arrowheads point into the
    node), and replaces each inner corner run by the middles of its segments.
    """
    pts = simplify(route)
    if len(pts) <= 2:
        return pts
    (ax, ay), (bx, by) = pts[0], pts[1]
    la = math.hypot(bx - ax, by - ay)
    (cx, cy), (dx, dy) = pts[-1], pts[-2]
    lb = math.hypot(dx - cx, dy - cy)
    out = [pts[0]]
    if la > 2 * stub:
        out.append((ax + (bx - ax) / la * stub, ay + (by - ay) / la * stub))
    for p, q in zip(pts[1:-2], pts[2:-1]):
        out.append(((p[0] + q[0]) / 2, (p[1] + q[1]) / 2))
    if lb > 2 * stub:
        out.append((cx + (dx - cx) / lb * stub, cy + (dy - cy) / lb * stub))
    out.append(pts[-1])
    return simplify(out) if len(out) > 2 else out
