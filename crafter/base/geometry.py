"""Node shape geometry every stage shares: the proportions of each shape and its outline.

Layout sizes nodes and ends edges with these numbers, the SVG renderer and every export
draw with them (``tests/layout/test_shapes.py`` holds the renderer's SVG against them).
Proportions are tuned for nodes of 30–60 px height with 9 pt labels: small rims and
offsets that read at print size.
"""

from __future__ import annotations

import math
from typing import Sequence

from crafter.spec.model import Box

Pt = tuple[float, float]


# -- proportions ----------------------------------------------------------------------

def parallelogram_skew(w: float, h: float) -> float:
    return min(h * 0.35, w * 0.2)


def trapezoid_inset(shape: str, w: float, h: float) -> float:
    """How far each end of a trapezoid's narrow side sits in from the wide side's ends."""
    if shape in ("trapezoid_left", "trapezoid_right"):
        return min(h * 0.25, w * 0.6)
    return min(w * 0.25, h * 0.6)


TRAPEZOIDS = ("trapezoid", "trapezoid_down", "trapezoid_left", "trapezoid_right")


def hexagon_inset(w: float, h: float) -> float:
    return min(h * 0.3, w * 0.2)


def cylinder_rim(w: float, h: float) -> float:
    """Vertical radius of the cylinder's elliptical top and bottom."""
    return min(h * 0.12, w * 0.25, 7.0)


def document_wave(h: float) -> float:
    """Amplitude of the document's wavy bottom edge."""
    return min(h * 0.1, 5.0)


def stack_offset(w: float, h: float) -> float:
    """Offset between the sheets of a stack."""
    return min(4.0, h * 0.1, w * 0.05)


# -- where an edge meets the outline -------------------------------------------------

_RECT_LIKE = frozenset({"box", "round", "stack", "document", "cylinder"})


def outline_polygon(shape: str, b: Box) -> list[tuple[float, float]] | None:
    """The outline of a polygonal shape (None for rectangles and curved shapes)."""
    x, y, w, h = b.x, b.y, b.w, b.h
    if shape == "diamond":
        return [(b.cx, y), (x + w, b.cy), (b.cx, y + h), (x, b.cy)]
    if shape == "parallelogram":
        s = parallelogram_skew(w, h)
        return [(x + s, y), (x + w, y), (x + w - s, y + h), (x, y + h)]
    if shape == "hexagon":
        s = hexagon_inset(w, h)
        return [(x + s, y), (x + w - s, y), (x + w, b.cy), (x + w - s, y + h), (x + s, y + h), (x, b.cy)]
    if shape in TRAPEZOIDS:
        s = trapezoid_inset(shape, w, h)
        return {"trapezoid": [(x + s, y), (x + w - s, y), (x + w, y + h), (x, y + h)],
                "trapezoid_down": [(x, y), (x + w, y), (x + w - s, y + h), (x + s, y + h)],
                "trapezoid_left": [(x, y + s), (x + w, y), (x + w, y + h), (x, y + h - s)],
                "trapezoid_right": [(x, y), (x + w, y + s), (x + w, y + h - s), (x, y + h)]}[shape]
    return None


def meet_outline(shape: str, b: Box, outside: tuple[float, float], end: tuple[float, float]) -> tuple[float, float]:
    """Where the segment ``outside → end`` (extended past ``end``) first meets the shape's outline.

    Layout engines route to the bounding box; for an ellipse, circle or diamond that leaves
    a gap between the arrowhead and the drawn outline. Returns ``end`` unchanged for
    rectangular shapes, or when the line misses the shape.
    """
    if shape in _RECT_LIKE:
        return end
    ox, oy = outside
    dx, dy = end[0] - ox, end[1] - oy
    if dx == 0 and dy == 0:
        return end
    t_hit: float | None = None
    if shape in ("ellipse", "circle"):
        if shape == "circle":
            rx = ry = min(b.w, b.h) / 2
        else:
            rx, ry = b.w / 2, b.h / 2
        if rx <= 0 or ry <= 0:
            return end
        # solve |((o + t d) - c) / r|^2 = 1 for the smaller root
        px, py = (ox - b.cx) / rx, (oy - b.cy) / ry
        qx, qy = dx / rx, dy / ry
        a = qx * qx + qy * qy
        bb = 2 * (px * qx + py * qy)
        c = px * px + py * py - 1
        disc = bb * bb - 4 * a * c
        if disc >= 0:
            t = (-bb - disc ** 0.5) / (2 * a)
            t_hit = t if t >= 0 else None
    else:
        poly = outline_polygon(shape, b)
        if poly is None:
            return end
        for (ax, ay), (cx, cy) in zip(poly, poly[1:] + poly[:1]):
            ex, ey = cx - ax, cy - ay
            den = dx * ey - dy * ex
            if abs(den) < 1e-12:
                continue
            t = ((ax - ox) * ey - (ay - oy) * ex) / den
            u = ((ax - ox) * dy - (ay - oy) * dx) / den
            if t >= 0 and -1e-9 <= u <= 1 + 1e-9 and (t_hit is None or t < t_hit):
                t_hit = t
    if t_hit is None:
        return end
    return (ox + dx * t_hit, oy + dy * t_hit)


# -- polylines ----------------------------------------------------------------------------

def _half_way(route: Sequence[Pt]) -> tuple[Pt, int | None]:
    """The point halfway along a polyline and its segment's index (None: past the end, by rounding)."""
    lengths = [math.hypot(q[0] - p[0], q[1] - p[1]) for p, q in zip(route, route[1:])]
    half = sum(lengths) / 2
    for k, seg in enumerate(lengths):
        if half <= seg and seg > 0:
            t = half / seg
            p, q = route[k], route[k + 1]
            return (p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t), k
        half -= seg
    return route[-1], None


def polyline_midpoint(route: Sequence[Pt]) -> tuple[Pt, int]:
    """The point halfway along a polyline and the index of the segment it lies on."""
    pt, k = _half_way(route)
    return pt, max(len(route) - 2, 0) if k is None else k


def point_at_half_length(pts: Sequence[Pt]) -> tuple[Pt, bool]:
    """The point halfway along the polyline, and whether the segment there is horizontal."""
    if len(pts) == 1:
        return pts[0], True
    pt, k = _half_way(pts)
    if k is None:
        return pt, True
    a, b = pts[k], pts[k + 1]
    return pt, abs(b[0] - a[0]) >= abs(b[1] - a[1])
