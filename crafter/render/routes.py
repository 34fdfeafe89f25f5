"""Edge routes as SVG path data: polylines with small rounded corners, or smooth splines.

A route is the list of points the layout stored on the edge (``Edge.route``). Orthogonal
and straight routes are polylines through those points; orthogonal ones get corners
rounded with a radius that never exceeds half of either neighbouring segment, so short
jogs stay crisp. Spline routes are drawn as a smooth curve *through* the points
(Catmull–Rom, converted to cubic Béziers): the layout stores waypoints, not control
points (``crafter.layout.routing.spline_waypoints``).
"""

from __future__ import annotations

import math

from crafter.base.markup import num

Pt = tuple[float, float]


def polyline_d(pts: list[Pt], corner_radius: float = 0.0) -> str:
    """Path data through ``pts``; corners rounded by up to ``corner_radius`` px."""
    if not pts:
        return ""
    out = [f"M{num(pts[0][0])},{num(pts[0][1])}"]
    if corner_radius <= 0 or len(pts) < 3:
        out += [f"L{num(x)},{num(y)}" for x, y in pts[1:]]
        return " ".join(out)
    for i in range(1, len(pts) - 1):
        (ax, ay), (bx, by), (cx, cy) = pts[i - 1], pts[i], pts[i + 1]
        l1 = math.hypot(bx - ax, by - ay)
        l2 = math.hypot(cx - bx, cy - by)
        if l1 < 1e-9 or l2 < 1e-9:
            continue
        # straight-through points need no curve
        cross = (bx - ax) * (cy - by) - (by - ay) * (cx - bx)
        if abs(cross) < 1e-6 * l1 * l2:
            out.append(f"L{num(bx)},{num(by)}")
            continue
        r = min(corner_radius, l1 / 2, l2 / 2)
        p1 = (bx - (bx - ax) / l1 * r, by - (by - ay) / l1 * r)
        p2 = (bx + (cx - bx) / l2 * r, by + (cy - by) / l2 * r)
        out.append(f"L{num(p1[0])},{num(p1[1])} Q{num(bx)},{num(by)} {num(p2[0])},{num(p2[1])}")
    out.append(f"L{num(pts[-1][0])},{num(pts[-1][1])}")
    return " ".join(out)


def spline_d(pts: list[Pt]) -> str:
    """A smooth curve through ``pts`` (uniform Catmull–Rom, as cubic Béziers)."""
    if len(pts) < 3:
        return polyline_d(pts)
    out = [f"M{num(pts[0][0])},{num(pts[0][1])}"]
    ext = [pts[0]] + pts + [pts[-1]]
    for i in range(1, len(ext) - 2):
        p0, p1, p2, p3 = ext[i - 1], ext[i], ext[i + 1], ext[i + 2]
        c1 = (p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6)
        c2 = (p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6)
        out.append(f"C{num(c1[0])},{num(c1[1])} {num(c2[0])},{num(c2[1])} {num(p2[0])},{num(p2[1])}")
    return " ".join(out)
