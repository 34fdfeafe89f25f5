"""What laying out a whole figure keeps while it works: the areas, the placed boxes and routes.

Also the rectangle arithmetic every step of :mod:`crafter.layout.figure` uses (rectangles
are ``(x, y, w, h)`` tuples, :data:`crafter.layout.problem.Rect`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from crafter.layout.problem import Area, AreaLayout, Pt, Rect
from crafter.spec.model import Box

# Above this many leaves in one area, "auto" uses the Python engine: ELK's compound-graph
# layout grows steeply with size (measured on 2 busy cores with two groups: 0.7 s at 100
# nodes, 3 s at 200, >20 s at 400, and a stack overflow on a 600-node chain), while the
# Python engine takes 0.3 s at 200 nodes and a few seconds at 5,000.
ELK_MAX_LEAVES = 300
LEAF_KINDS = ("node", "chart", "image", "path", "text")
CONTAINER_KINDS = ("group", "panel")
ROUTE_CLEARANCE = 8.0
SELF_LOOP_SIZE = 14.0


def r2(v: float) -> float:
    """Round to 2 decimals (and never print -0.0)."""
    return round(v, 2) + 0.0


def rect_union(rects: list[Rect]) -> Rect:
    x0 = min(r[0] for r in rects)
    y0 = min(r[1] for r in rects)
    x1 = max(r[0] + r[2] for r in rects)
    y1 = max(r[1] + r[3] for r in rects)
    return (x0, y0, x1 - x0, y1 - y0)


def rects_overlap(a: Rect, b: Rect, margin: float = 0.0) -> bool:
    return (a[0] < b[0] + b[2] + margin and b[0] < a[0] + a[2] + margin
            and a[1] < b[1] + b[3] + margin and b[1] < a[1] + a[3] + margin)


def shifted(r: Rect, dx: float, dy: float) -> Rect:
    return (r[0] + dx, r[1] + dy, r[2], r[3])


def rect_of(b: Box) -> Rect:
    return (b.x, b.y, b.w, b.h)


@dataclass
class AreaPlan:
    root: str | None  # None: the figure's free components; else a panel or pinned container id
    area: Area
    layout: AreaLayout | None = None
    offset: Pt = (0.0, 0.0)  # where the area's (0, 0) lands on the canvas


@dataclass
class LayoutState:
    boxes: dict[str, Rect] = field(default_factory=dict)  # every placed component (edges aside)
    routes: dict[str, list[Pt]] = field(default_factory=dict)
    label_boxes: dict[str, Rect] = field(default_factory=dict)
    engine_edges: set[str] = field(default_factory=set)  # routed by an engine (labels placed by it)
    final: dict[str, list[Pt]] = field(default_factory=dict)  # routes in their drawn style, ends on outlines


def box_of(r: Rect) -> Box:
    # sizes were measured to 2 decimals already: rounding keeps them, so labels still fit
    return Box(x=r2(r[0]), y=r2(r[1]), w=max(r2(r[2]), 0.0), h=max(r2(r[3]), 0.0))


def first_overlap(area: Area, lay: AreaLayout) -> str | None:
    """The first pair of leaves an engine placed on top of each other (a sweep over x)."""
    leaves = sorted(((lay.boxes[it.id], it.id) for it in area.walk() if not it.container and it.id in lay.boxes),
                    key=lambda p: (p[0][0], p[1]))
    active: list[tuple[Rect, str]] = []
    for r, cid in leaves:
        active = [(a, aid) for a, aid in active if a[0] + a[2] > r[0] + 0.5]
        for a, aid in active:
            if rects_overlap(a, r, -0.5):
                return f"'{aid}' and '{cid}'"
        active.append((r, cid))
    return None
