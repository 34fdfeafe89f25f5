"""The layout problem an engine solves, and the answer it gives back.

An :class:`Area` is one independently laid-out drawing: the figure's free components or
one panel. It holds a tree of :class:`Item` (leaves with a fixed size; containers, i.e.
groups, that wrap their children with padding) and the :class:`LayoutEdge` between
items of the tree. Engines (``crafter.layout.elk``, ``crafter.layout.layered``) turn an
Area into an :class:`AreaLayout`: a box for every item, a route for every edge, a box
for every edge label and annotation, all relative to the area's top-left corner.

Keeping engines behind these plain dataclasses means both engines answer exactly the
same question, and the figure-level work (panels, pins, titles, rounding) is written once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator

Pt = tuple[float, float]
Rect = tuple[float, float, float, float]  # x, y, w, h


@dataclass
class Annotation:
    """A text placed beside a leaf (``text near=ID side=...``); the engine keeps room for it."""

    id: str
    side: str  # above, below, left, right
    w: float
    h: float


@dataclass
class Item:
    """A leaf (fixed size) or a container (its size follows from its children)."""

    id: str
    w: float = 0.0  # leaves: the size; containers: the minimum size (e.g. for the heading)
    h: float = 0.0
    shape: str = "box"
    children: list["Item"] = field(default_factory=list)
    container: bool = False
    padding: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)  # top, right, bottom, left
    annotations: list[Annotation] = field(default_factory=list)

    def walk(self) -> Iterator["Item"]:
        yield self
        for c in self.children:
            yield from c.walk()


@dataclass
class LayoutEdge:
    id: str
    source: str
    target: str
    label: tuple[float, float] | None = None  # label box size, when labelled


@dataclass
class Area:
    items: list[Item]
    edges: list[LayoutEdge]
    direction: str  # LR, TB, RL, BT
    node_sep: float
    rank_sep: float
    edge_sep: float = 10.0

    def walk(self) -> Iterator[Item]:
        for it in self.items:
            yield from it.walk()

    def leaf_count(self) -> int:
        return sum(1 for it in self.walk() if not it.container)


@dataclass
class AreaLayout:
    boxes: dict[str, Rect] = field(default_factory=dict)  # every item, leaves and containers
    routes: dict[str, list[Pt]] = field(default_factory=dict)  # every edge
    label_boxes: dict[str, Rect] = field(default_factory=dict)  # labelled edges
    annotation_boxes: dict[str, Rect] = field(default_factory=dict)
    width: float = 0.0
    height: float = 0.0
    engine: str = ""

    def translate(self, dx: float, dy: float) -> None:
        def mv(r: Rect) -> Rect:
            return (r[0] + dx, r[1] + dy, r[2], r[3])

        self.boxes = {k: mv(r) for k, r in self.boxes.items()}
        self.label_boxes = {k: mv(r) for k, r in self.label_boxes.items()}
        self.annotation_boxes = {k: mv(r) for k, r in self.annotation_boxes.items()}
        self.routes = {k: [(x + dx, y + dy) for x, y in pts] for k, pts in self.routes.items()}

    def normalise(self) -> None:
        """Move the drawing so its top-left corner is (0, 0); set width and height."""
        rects = list(self.boxes.values()) + list(self.label_boxes.values()) + list(self.annotation_boxes.values())
        xs0 = [r[0] for r in rects] + [p[0] for pts in self.routes.values() for p in pts]
        ys0 = [r[1] for r in rects] + [p[1] for pts in self.routes.values() for p in pts]
        xs1 = [r[0] + r[2] for r in rects] + [p[0] for pts in self.routes.values() for p in pts]
        ys1 = [r[1] + r[3] for r in rects] + [p[1] for pts in self.routes.values() for p in pts]
        if not xs0:
            self.width = self.height = 0.0
            return
        x0, y0 = min(xs0), min(ys0)
        self.translate(-x0, -y0)
        self.width, self.height = max(xs1) - x0, max(ys1) - y0


class EngineError(RuntimeError):
    """An engine could not lay out an area (the caller falls back to another engine)."""
