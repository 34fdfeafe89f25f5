"""Hollow triangle heads (UML inheritance, realisation): the tracer reads a hollow triangle as a
line of its own, the two sides and the tip, its open side toward the line it ends; found here it
becomes that line's head, so the line reaches the node the tip touches (a class diagram's
subclasses then join their base class, addressbook's Command tree had read as free lines)."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Callable

import numpy as np

from crafteditor.assemble.geometry import line_boxes
from crafteditor.lines.paths import Arrowhead, LinePath, direction_out

Pt = tuple[float, float]

MAX_HALF = 40.0  # px: half the widest triangle's back


def hollow_heads(lines: list[LinePath]) -> list[LinePath]:
    """The lines, each free end that a hollow triangle's outline wraps given it as a head (the
    outline's own line dropped)."""
    out = list(lines)
    used: set[int] = set()
    # only outlines whose box comes near an end can wrap it (a noisy scan has thousands of pieces)
    box = line_boxes(lines)
    reach = 3 * MAX_HALF + 10
    for i, ln in enumerate(lines):
        for at_start in (True, False):
            if i in used or (ln.head_start if at_start else ln.head_end) is not None:
                continue
            cur = out[i]
            e = cur.points[0] if at_start else cur.points[-1]
            d = direction_out(cur.points, at_start)
            if d is None:
                continue
            near = ~((e[0] < box[:, 0] - reach) | (e[0] > box[:, 2] + reach) | (e[1] < box[:, 1] - reach)
                     | (e[1] > box[:, 3] + reach))
            for j in np.flatnonzero(near).tolist():
                t = lines[j]
                if j == i or j in used or t.head_start is not None or t.head_end is not None:
                    continue
                apex = _triangle_apex(t.points, e, d, cur.width)
                if apex is None:
                    continue
                half = max(abs((p[0] - e[0]) * -d[1] + (p[1] - e[1]) * d[0]) for p in t.points)
                x0, y0, x1, y1 = box[j].tolist()
                head = Arrowhead(tip=apex, base=e, length=math.dist(apex, e), width=2 * half,
                                 mask_box=(int(x0), int(y0), int(x1) + 1, int(y1) + 1),
                                 pixels=np.zeros((0, 2)), kind="triangle_open", pointing=d)
                if at_start:
                    out[i] = replace(cur, points=[apex, *cur.points], head_start=head, pieces=cur.pieces + t.pieces)
                else:
                    out[i] = replace(cur, points=[*cur.points, apex], head_end=head, pieces=cur.pieces + t.pieces)
                used.add(j)
                break
    return [ln for k, ln in enumerate(out) if k not in used]


def _triangle_apex(pts: list[tuple[float, float]], e: tuple[float, float], d: tuple[float, float],
                   width: float) -> tuple[float, float] | None:
    """The tip of a hollow triangle outline ``pts`` around the line end ``e`` (pointing ``d``):
    its two ends the back's corners, either side of the line and level with its end, its
    farthest point ahead the tip, on the line's axis; else None."""
    if len(pts) < 3:
        return None

    def frame(p: tuple[float, float]) -> tuple[float, float]:  # (ahead of e, aside of the axis)
        dx, dy = p[0] - e[0], p[1] - e[1]
        return dx * d[0] + dy * d[1], -dx * d[1] + dy * d[0]

    if math.dist(pts[0], pts[-1]) <= 2 * width + 4:
        return _closed_apex([frame(p) for p in pts], e, d, width)
    (a0, s0), (a1, s1) = frame(pts[0]), frame(pts[-1])
    half = (abs(s0) + abs(s1)) / 2
    if s0 * s1 >= 0 or not 2 * width + 2 <= half <= MAX_HALF or abs(abs(s0) - abs(s1)) > 0.4 * half + 2:
        return None  # corners on both sides, about as far off the axis
    slack = 0.35 * half + 2 * width + 2
    if abs(a0) > slack or abs(a1) > slack:
        return None  # the back is level with the line's end
    fr = [frame(p) for p in pts]
    return _tip_ahead(fr, fr[int(np.argmax([a for a, _ in fr]))], 0.0, e, d, half, width, slack)


def _tip_ahead(fr: list[tuple[float, float]], tip: tuple[float, float], back: float, e: tuple[float, float],
               d: tuple[float, float], half: float, width: float, slack: float) -> tuple[float, float] | None:
    """A triangle outline's tip, ``tip`` = (ahead, aside) in the line end's frame, on the image: 0.6 to 3
    halves ahead of its back (``back`` ahead of the end), on the axis, with nothing of the outline
    ``fr`` behind the back or wider than it; else None. The tip is put on the line's axis (the
    route stays straight)."""
    ahead, aside = tip
    if not 0.6 * half <= ahead - back <= 3.0 * half or abs(aside) > 0.3 * half + width + 1:
        return None
    if any(a < -slack or abs(s) > half + width + 3 for a, s in fr):
        return None
    return (e[0] + ahead * d[0], e[1] + ahead * d[1])


NodeAhead = Callable[[Pt, Pt], "tuple[int, Pt] | None"]


def hollow_tips(ln: LinePath, rgb: np.ndarray, background: np.ndarray, node_ahead: NodeAhead,
                attached: Callable[[Pt], bool]) -> LinePath:
    """The line, each free end that stops at the back of a hollow triangle whose tip touches a node
    given that triangle as its head (kind 'triangle_open', reaching the node). For the outlines the
    tracer did not make a line of their own: a small head's outline folded into the line's end as a
    loop (dropped here), or taken as a glyph or a leftover. ``node_ahead(p, q)``: the node the course
    from q through p meets, and where; ``attached(p)``: whether an end already touches a shape."""
    for at_start in (True, False):
        if (ln.head_start if at_start else ln.head_end) is not None:
            continue
        pts = _without_end_loop(ln.points, at_start)
        p = pts[0] if at_start else pts[-1]
        if attached(p) or len(pts) < 2:
            continue
        body = pts[1:] if at_start else pts[-2::-1]
        q = next((b for b in body if math.dist(b, p) >= 12), body[-1])
        if math.dist(p, q) < 4:
            continue
        hit = node_ahead(p, q)
        if hit is None:
            continue
        tip = hit[1]
        half = _hollow_triangle(rgb, background, p, tip, ln.width)
        if half is None:
            continue
        L = math.dist(p, tip)
        d = ((tip[0] - p[0]) / L, (tip[1] - p[1]) / L)
        xs, ys = (p[0], tip[0]), (p[1], tip[1])
        head = Arrowhead(tip=tip, base=p, length=L, width=2 * half, pixels=np.zeros((0, 2)), kind="triangle_open",
                         mask_box=(int(min(xs) - half), int(min(ys) - half), int(max(xs) + half) + 1,
                                   int(max(ys) + half) + 1), pointing=d)
        if at_start:
            ln = replace(ln, points=[tip, *pts], head_start=head)
        else:
            ln = replace(ln, points=[*pts, tip], head_end=head)
    return ln


def _without_end_loop(pts: list[Pt], at_start: bool) -> list[Pt]:
    """The points less a small loop at one end (a hollow head's outline traced into the line's end):
    the first few points all lie ahead of where the line comes back to them, within a head's size."""
    seq = pts if at_start else pts[::-1]
    for k in range(3, min(len(seq) - 1, 10)):
        a, b = seq[k], seq[k + 1]
        n = math.dist(a, b)
        if n < 12:  # the line's body goes on from where the loop closes
            continue
        u = ((a[0] - b[0]) / n, (a[1] - b[1]) / n)  # out of the line's body at point k
        rel = [((x - a[0]) * u[0] + (y - a[1]) * u[1], -(x - a[0]) * u[1] + (y - a[1]) * u[0]) for x, y in seq[:k]]
        if all(-2.5 <= f <= 2 * MAX_HALF and abs(s) <= MAX_HALF for f, s in rel) and max(f for f, _ in rel) >= 4 \
                and max(s for _, s in rel) > 2 and min(s for _, s in rel) < -2:
            kept = seq[k:]
            return kept if at_start else kept[::-1]
    return pts


def _hollow_triangle(rgb: np.ndarray, background: np.ndarray, p: Pt, tip: Pt, width: float) -> float | None:
    """Half the back's width of a hollow triangle drawn from its back at p to its tip, or None: in the
    image, a slice at the back is ink straight across, the slices half-way are ink either side of
    a clear middle, and nothing is wider than the back."""
    L = math.dist(p, tip)
    if not 2 * width + 4 <= L <= 3 * MAX_HALF:
        return None
    ux, uy = (tip[0] - p[0]) / L, (tip[1] - p[1]) / L
    H, W = rgb.shape[:2]
    reach = int(min(MAX_HALF, L)) + 3

    def ink(t: float, s: float) -> bool:
        x, y = int(round(p[0] + ux * t - uy * s)), int(round(p[1] + uy * t + ux * s))
        return 0 <= x < W and 0 <= y < H and float(np.linalg.norm(rgb[y, x].astype(np.float32) - background)) >= 60

    # the traced end may sit a pixel or two off the line's middle: centre the axis on the line behind the back
    at = [s for s in np.arange(-3.0, 3.01, 0.5) if ink(-4.0, s)]
    if at:
        off = (min(at) + max(at)) / 2
        p = (p[0] - uy * off, p[1] + ux * off)

    def span(t: float) -> float:  # the run of ink through the axis, across
        run = [0, 0]
        for i, side in enumerate((1, -1)):
            for k in range(0, reach + 1):
                if not ink(t, k * side):
                    break
                run[i] += 1
        return min(run) - 0.5  # the back reaches out as far on either side

    half = max(span(t) for t in np.arange(-2.0, 4.01, 0.5))
    if half < width + 2.5:
        return None
    hollow = 0
    for frac in (0.35, 0.45, 0.55):
        t = frac * L
        out = half * (1 - frac)  # where the sides cross this slice
        clear = max(1.0, width / 2 + 0.5)
        if any(ink(t, s) for s in np.arange(-clear, clear + 0.01, 0.5)) or out - clear < 1.5:
            continue
        sides = [any(ink(t, side * s) for s in np.arange(clear + 0.5, out + width + 2.5, 0.5)) for side in (1, -1)]
        hollow += all(sides)
    return half if hollow >= 2 else None


def _closed_apex(fr: list[tuple[float, float]], e: tuple[float, float], d: tuple[float, float],
                 width: float) -> tuple[float, float] | None:
    """The tip of a hollow triangle the tracer closed on itself (Mermaid's: cut at the tip, not at
    the back): in the line end's frame (ahead, aside), back corners either side level with the end,
    the farthest point ahead on the axis."""
    left = max((-s for a, s in fr), default=0.0)
    right = max((s for a, s in fr), default=0.0)
    half = (left + right) / 2
    if left <= 0 or right <= 0 or not 2 * width + 2 <= half <= MAX_HALF or abs(left - right) > 0.4 * half + 2:
        return None
    slack = 0.35 * half + 2 * width + 2
    back = [a for a, s in fr if abs(s) >= 0.7 * half]
    # the back's corners level with the line's end, or a dash's gap ahead of it (a dotted realisation)
    if not back or min(back) < -slack or max(back) > slack + 3 * width + 6:
        return None
    return _tip_ahead(fr, max(fr), float(np.mean(back)), e, d, half, width, slack)
