"""Arrowheads: SVG ``<marker>`` definitions, each written once per (type, end, colour, width).

Geometry is in user units (``markerUnits="userSpaceOnUse"``) so a head's size follows the
line width gently (length 5 + 3·w px: 8 px on a 1 px line, 11 px on a 2 px line)
instead of growing in proportion, which makes thick lines' heads balloon. An edge's
``head_size`` sets that length itself (a figure read back at its original head size);
every kind scales with it alike.

A head's tip lands exactly on the route's end point. For the solid heads the line itself
is shortened by :attr:`MarkerSpec.inset` so its butt end hides under the head instead of
poking through the sharp tip; :func:`trim` does that.

Marker ids contain ``--``, which component ids may not (see ``crafter.spec.model.ID_PATTERN``),
so they can never collide with a component.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from crafter.base.markup import esc_attr, num

HEAD_TYPES = ("arrow", "open", "diamond", "circle", "bar", "triangle_open")


def default_head_size(width: float) -> float:
    """An arrow head's length on a line ``width`` px wide where the edge names no head_size, px."""
    return 5.0 + 3.0 * width


@dataclass(frozen=True)
class MarkerSpec:
    """One marker: which head, at which end, in which colour, for which line width."""

    head: str  # one of HEAD_TYPES
    end: str  # "head" (target end) or "tail" (source end)
    color: str
    width: float  # line width in px
    background: str  # fill of hollow heads (the figure background)
    flush: bool = False  # the line is not shortened (its end segment is too short to trim)
    size: float | None = None  # an arrow head's length, px (the edge's head_size); None: 5 + 3 x width

    @property
    def id(self) -> str:
        colour = re.sub(r"[^A-Za-z0-9]", "", self.color) or "c"
        flush = "-flush" if self.flush and self.inset_wanted else ""
        size = f"-s{num(self.size).replace('.', 'p')}" if self.size else ""
        return f"crafter--{self.head}-{self.end}-{colour}-{num(self.width).replace('.', 'p')}{size}{flush}"

    @property
    def base(self) -> float:
        """An arrow head's length, the unit every kind's size is drawn in, px."""
        return self.size or default_head_size(self.width)

    @property
    def length(self) -> float:
        """Extent of the head along the line, px."""
        base = self.base
        bar = 3.5 * self.width if self.size is None else max(base * 0.45, 3.5 * self.width)
        return {"arrow": base, "open": base, "diamond": base * 1.5, "circle": base * 0.8,
                "bar": bar, "triangle_open": base}[self.head]

    @property
    def half_width(self) -> float:
        base = self.base
        return {"arrow": base * 0.4, "open": base * 0.45, "diamond": base * 0.36,
                "circle": base * 0.4, "bar": base * 0.55, "triangle_open": base * 0.5}[self.head]

    @property
    def inset(self) -> float:
        """How far the line is shortened so it ends under the head, px."""
        return 0.0 if self.flush else self.inset_wanted

    @property
    def inset_wanted(self) -> float:
        if self.head == "arrow":
            return self.length * 0.75
        if self.head == "diamond":
            return self.length * 0.9
        if self.head in ("circle", "triangle_open"):
            return self.length  # the line meets the hollow head's far side
        return 0.0


def _shape(spec: MarkerSpec) -> str:
    """The head drawn pointing along +x with its tip at x = L (head end) or x = 0 (tail end).

    Heads are filled outlines only, never strokes: renderers differ in whether a dashed
    line's dash pattern leaks into its markers (cairosvg's does), and fills have no dashes.
    """
    L, H, w = spec.length, spec.half_width, spec.width
    flip = spec.end == "tail"

    def X(x: float) -> str:
        return num(L - x if flip else x)

    def poly(points: list[tuple[float, float]], fill: str) -> str:
        d = " L".join(f"{X(x)},{num(y)}" for x, y in points)
        return f'<path d="M{d} Z" fill="{esc_attr(fill)}" stroke="none"/>'

    if spec.head == "arrow":
        # a slim triangle with a slight notch at the back reads crisply at print sizes
        return poly([(0, -H), (L, 0), (0, H), (L * 0.18, 0)], spec.color)
    if spec.head == "open":
        return poly(_chevron(L, H, w), spec.color)
    if spec.head == "diamond":
        return poly([(0, 0), (L / 2, -H), (L, 0), (L / 2, H)], spec.color)
    if spec.head == "triangle_open":
        # an outline triangle: the head in the line's colour with its inside, one line width in, in the page's
        outer = [(0.0, -H), (L, 0.0), (0.0, H)]
        return poly(outer, spec.color) + poly(_inset_triangle(outer, w), spec.background)
    if spec.head == "circle":
        r = L / 2
        return (f'<circle cx="{X(r)}" cy="0" r="{num(r)}" fill="{esc_attr(spec.color)}" stroke="none"/>'
                f'<circle cx="{X(r)}" cy="0" r="{num(max(r - w, 0.1))}" fill="{esc_attr(spec.background)}" '
                f'stroke="none"/>')
    # bar: a cross-stroke just inside the end point, clear of the node's outline
    x0, x1 = L - 3.1 * w, L - 1.9 * w
    return poly([(x0, -H), (x1, -H), (x1, H), (x0, H)], spec.color)


def _inset_triangle(tri: list[tuple[float, float]], d: float) -> list[tuple[float, float]]:
    """The triangle ``tri`` with every side moved ``d`` inward (shrunk about its incentre)."""
    (ax, ay), (bx, by), (cx, cy) = tri
    a, b, c = math.hypot(bx - cx, by - cy), math.hypot(ax - cx, ay - cy), math.hypot(ax - bx, ay - by)
    per = a + b + c
    ix, iy = (a * ax + b * bx + c * cx) / per, (a * ay + b * by + c * cy) / per
    area = abs((bx - ax) * (cy - ay) - (cx - ax) * (by - ay)) / 2
    r = 2 * area / per
    k = max(r - d, 0.05 * r) / r
    return [(ix + (x - ix) * k, iy + (y - iy) * k) for x, y in tri]


def _chevron(L: float, H: float, w: float) -> list[tuple[float, float]]:
    """An open 'V' head of line width ``w`` as a filled outline, its outer tip at (L, 0)."""
    a = H * 1.9  # arm length along the axis
    arm = math.hypot(a, H)
    ux, uy = -a / arm, -H / arm  # unit vector along the upper arm, from the tip
    nx, ny = -uy, ux  # its normal, pointing away from the axis
    half = w / 2
    miter = half * arm / H  # tip offset along the axis for a mitred join: half / sin(half-angle)
    tip_out, tip_in = L, L - 2 * miter
    cx = L - miter  # the centre line's tip
    end = (cx + ux * arm, uy * arm)
    up_out = (end[0] + nx * half, end[1] + ny * half)
    up_in = (end[0] - nx * half, end[1] - ny * half)
    return [(tip_out, 0), up_out, up_in, (tip_in, 0), (up_in[0], -up_in[1]), (up_out[0], -up_out[1])]


def marker_def(spec: MarkerSpec) -> str:
    """The ``<marker>`` element for ``spec`` (to go in ``<defs>``)."""
    L, H = spec.length, spec.half_width
    pad = spec.width * 2  # room for strokes so nothing is clipped by viewers that clip markers
    tip = L if spec.end == "head" else 0.0
    ref = tip - spec.inset if spec.end == "head" else tip + spec.inset
    vb_x, vb_y, vb_w, vb_h = -pad, -H - pad, L + 2 * pad, 2 * (H + pad)
    return (
        f'<marker id="{spec.id}" markerUnits="userSpaceOnUse" orient="auto" overflow="visible" '
        f'viewBox="{num(vb_x)} {num(vb_y)} {num(vb_w)} {num(vb_h)}" '
        f'markerWidth="{num(vb_w)}" markerHeight="{num(vb_h)}" refX="{num(ref)}" refY="0">'
        f"{_shape(spec)}</marker>"
    )


def can_trim(points: list[tuple[float, float]], at_start: bool, inset: float) -> bool:
    """Whether the end segment is long enough to lose ``inset`` px and keep its direction."""
    if len(points) < 2 or inset <= 0:
        return True
    a, b = (points[0], points[1]) if at_start else (points[-1], points[-2])
    return math.hypot(b[0] - a[0], b[1] - a[1]) >= inset * 1.5


def trim(points: list[tuple[float, float]], start: float, end: float) -> list[tuple[float, float]]:
    """The route with its first point moved ``start`` px and its last ``end`` px inward.

    Only the end segments move (callers check :func:`can_trim` first), so the direction a
    marker takes from the end segment is unchanged.
    """
    pts = list(points)
    if len(pts) < 2:
        return pts
    if start > 0:
        pts[0] = _move_toward(pts[0], pts[1], start)
    if end > 0:
        pts[-1] = _move_toward(pts[-1], pts[-2], end)
    return pts


def _move_toward(a: tuple[float, float], b: tuple[float, float], dist: float) -> tuple[float, float]:
    dx, dy = b[0] - a[0], b[1] - a[1]
    seg = math.hypot(dx, dy)
    if seg <= 1e-9:
        return a
    t = min(dist, seg * 0.8) / seg  # keep a stub of the segment so its direction survives
    return (a[0] + dx * t, a[1] + dy * t)
