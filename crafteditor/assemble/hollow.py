"""Hollow triangle heads (UML inheritance, realisation): the tracer reads a hollow triangle as a
line of its own, the two sides and the tip, its open side toward the line it ends; found here it
becomes that line's head, so the line reaches the node the tip touches (a class diagram's
subclasses then join their base class, addressbook's Command tree had read as free lines)."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from crafteditor.assemble.geometry import line_boxes
from crafteditor.lines.paths import Arrowhead, LinePath, direction_out

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
                                 pixels=np.zeros((0, 2)), kind="open", pointing=d)
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
    k = int(np.argmax([a for a, _ in fr]))
    ahead, aside = fr[k]
    if not 0.6 * half <= ahead <= 3.0 * half or abs(aside) > 0.3 * half + width + 1:
        return None  # a tip ahead, on the axis
    if any(a < -slack or abs(s) > half + width + 3 for a, s in fr):
        return None  # nothing behind the back or wider than it
    return (e[0] + ahead * d[0], e[1] + ahead * d[1])  # on the line's axis: the route stays straight


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
    ahead, aside = max(fr)
    if not 0.6 * half <= ahead - float(np.mean(back)) <= 3.0 * half or abs(aside) > 0.3 * half + width + 1:
        return None
    if any(a < -slack or abs(s) > half + width + 3 for a, s in fr):
        return None
    return (e[0] + ahead * d[0], e[1] + ahead * d[1])
