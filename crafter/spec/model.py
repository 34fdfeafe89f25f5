"""The FigureSpec: the one intermediate representation every part of Crafter shares.

A :class:`Figure` is a title, a theme and an ordered list of components, each with a
stable ``id`` and a ``kind``. Layout results (boxes, edge routes, the canvas size)
live here too, so a laid-out figure re-renders without re-layout and a pinned
position survives re-layout.

Conventions:

* ``None`` means "not set": the theme (or the layout) decides. A field set to its
  default is not written out by the JSON or DSL printers, so both forms are
  lossless: ``Figure.model_validate(fig.to_dict()) == fig``.
* Coordinates are SVG user units (CSS px at 96 dpi), origin top-left.
* Validation errors name the component id and the field (:class:`SpecError`).
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from crafter.errors import SpecError
from crafter.spec.colors import is_color
from crafter.spec.style_layer import StyleLayer

ID_PATTERN = r"^[A-Za-z_](?:[A-Za-z0-9_]|-(?!-))*$"  # no "--": it is the DSL's plain-line arrow
_ID_RE = re.compile(ID_PATTERN)

Shape = Literal[
    "box", "round", "ellipse", "circle", "diamond", "cylinder",
    "parallelogram", "hexagon", "document", "stack",
    # the narrow side up, down, left or right (an encoder narrowing to the right: trapezoid_right)
    "trapezoid", "trapezoid_down", "trapezoid_left", "trapezoid_right",
]
SHAPES: tuple[str, ...] = Shape.__args__  # type: ignore[attr-defined]
DashStyle = Literal["solid", "dashed", "dotted"]
# "arrow": a filled triangle; "open": a V of two strokes; "triangle_open": a hollow triangle (UML
# inheritance/realisation: Mermaid and PlantUML '<|--', draw.io 'block' with endFill=0)
ArrowHead = Literal["none", "arrow", "open", "diamond", "circle", "bar", "triangle_open"]
Direction = Literal["LR", "TB", "RL", "BT"]
Routing = Literal["orthogonal", "spline", "straight"]
Side = Literal["above", "below", "left", "right", "center"]
Theme = Literal["paper", "slides", "mono"]
# a label's font family class, as read from a figure (None: the theme's font)
FontClass = Literal["sans", "serif", "mono"]
THEMES: tuple[str, ...] = Theme.__args__  # type: ignore[attr-defined]
KINDS = ("node", "edge", "group", "text", "panel", "image", "path", "chart")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True, allow_inf_nan=False)


class Point(_Model):
    """A point in SVG user units."""

    x: float
    y: float


class RectGeometry:
    """Centre and far edges of anything with x, y, w, h (the IR's Box, CraftEditor's detections)."""

    x: float
    y: float
    w: float
    h: float

    @property
    def cx(self) -> float:
        return self.x + self.w / 2

    @property
    def cy(self) -> float:
        return self.y + self.h / 2

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    def contains_point(self, px: float, py: float, margin: float = 0.0) -> bool:
        """Whether (px, py) lies in the rectangle grown by ``margin`` on every side."""
        return self.x - margin <= px <= self.right + margin and self.y - margin <= py <= self.bottom + margin


class Box(RectGeometry, _Model):
    """An axis-aligned rectangle: top-left corner plus size."""

    x: float
    y: float
    w: float = Field(ge=0)
    h: float = Field(ge=0)

    def intersects(self, other: "Box", margin: float = 0.0) -> bool:
        return not (
            self.right + margin <= other.x
            or other.right + margin <= self.x
            or self.bottom + margin <= other.y
            or other.bottom + margin <= self.y
        )

    def contains(self, other: "Box", tolerance: float = 0.5) -> bool:
        return (
            other.x >= self.x - tolerance
            and other.y >= self.y - tolerance
            and other.right <= self.right + tolerance
            and other.bottom <= self.bottom + tolerance
        )


class Size(_Model):
    w: float = Field(ge=0)
    h: float = Field(ge=0)


def _check_color(value: str | None) -> str | None:
    if value is not None and not is_color(value):
        raise ValueError(f"'{value}' is not a colour (use #rgb, #rrggbb, a CSS colour name or 'none')")
    return value


class Component(_Model):
    """Fields every component has. ``box`` is the layout result (or the user's pin)."""

    id: str
    box: Box | None = None
    pinned: bool = False  # the layout keeps ``box`` as given

    @field_validator("id")
    @classmethod
    def _valid_id(cls, v: str) -> str:
        if not _ID_RE.fullmatch(v):
            raise ValueError(
                f"'{v}' is not a valid id (start with a letter or '_', then letters, digits, '_' or single '-')"
            )
        return v


class Node(Component):
    """A labelled shape: a box in a pipeline, a layer, a module, a dataset."""

    kind: Literal["node"]
    label: str | None = None  # None: show the id
    shape: Shape = "box"
    fill: str | None = None
    stroke: str | None = None
    text_color: str | None = None
    stroke_width: float | None = Field(default=None, ge=0)
    font_size: float | None = Field(default=None, gt=0)
    font: FontClass | None = None
    bold: bool = False
    italic: bool = False
    # px added after each character of the label (SVG/CSS letter-spacing; negative: closer): a label
    # read from a raster, set as wide as its ink where the drawn face is wider or narrower than the renderer's
    letter_spacing: float | None = Field(default=None, ge=-100, le=100)
    width: float | None = Field(default=None, gt=0)  # requested size; layout grows it to fit text
    height: float | None = Field(default=None, gt=0)

    _colors = field_validator("fill", "stroke", "text_color")(classmethod(lambda cls, v: _check_color(v)))

    @property
    def text(self) -> str:
        return self.id if self.label is None else self.label


class Edge(Component):
    """A connection between two components, drawn as a routed line with arrowheads."""

    kind: Literal["edge"]
    source: str
    target: str
    label: str | None = None
    style: DashStyle = "solid"
    head: ArrowHead = "arrow"  # marker at the target end
    tail: ArrowHead = "none"  # marker at the source end
    color: str | None = None
    stroke_width: float | None = Field(default=None, ge=0)
    routing: Routing | None = None  # None: the figure's routing
    font_size: float | None = Field(default=None, gt=0)  # the label's, px; None: the theme's small_font_size
    # the arrowheads' length along the line, px (both ends; diamonds, circles scale alike); None: 5 + 3 x line width
    head_size: float | None = Field(default=None, gt=0, le=200)
    route: list[Point] | None = None  # layout result: polyline (or spline control points)
    label_box: Box | None = None  # layout result: where the label sits

    _colors = field_validator("color")(classmethod(lambda cls, v: _check_color(v)))


class Group(Component):
    """A frame drawn around member components (groups nest)."""

    kind: Literal["group"]
    label: str | None = None
    members: list[str] = Field(default_factory=list)
    style: DashStyle = "solid"
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float | None = Field(default=None, ge=0)  # the frame's, px; None: the theme's group_stroke_width
    text_color: str | None = None
    font_size: float | None = Field(default=None, gt=0)  # the title's, px; None: the theme's group_font_size
    bold: bool | None = None  # the title's weight; None: the theme's group_label_bold

    _colors = field_validator("fill", "stroke", "text_color")(classmethod(lambda cls, v: _check_color(v)))


class Text(Component):
    """A free annotation, placed near a component or at a point."""

    kind: Literal["text"]
    text: str
    near: str | None = None  # id of the component it annotates
    side: Side = "below"
    at: Point | None = None  # absolute position (text anchor point) when not near anything
    font_size: float | None = Field(default=None, gt=0)
    font: FontClass | None = None
    color: str | None = None
    bold: bool = False
    italic: bool = False
    letter_spacing: float | None = Field(default=None, ge=-100, le=100)  # px after each character, as Node's
    rotate: float = 0.0  # degrees, e.g. -90 for a y-axis title read back by CraftEditor

    _colors = field_validator("color")(classmethod(lambda cls, v: _check_color(v)))


class Panel(Component):
    """A sub-figure, labelled (a), (b)…, laid out side by side with its siblings."""

    kind: Literal["panel"]
    label: str | None = None  # None: numbered automatically (a), (b)…
    title: str | None = None
    members: list[str] = Field(default_factory=list)
    direction: Direction | None = None  # None: the figure's direction


_DATA_URI = re.compile(r"^data:image/(png|jpeg|webp|gif);base64,[A-Za-z0-9+/=\s]*$")
_PATH_DATA = re.compile(r"^[MmLlHhVvCcSsQqTtAaZz0-9eE.,+\-\s]*$")


class Image(Component):
    """An embedded raster patch (what CraftEditor could not make semantic). Data URIs only."""

    kind: Literal["image"]
    href: str
    alt: str | None = None

    @field_validator("href")
    @classmethod
    def _data_uri_only(cls, v: str) -> str:
        if not _DATA_URI.match(v):
            raise ValueError("only base64 data: URIs of PNG/JPEG/WebP/GIF are allowed (no external references)")
        return v


class Path(Component):
    """A vector outline in absolute SVG path data (e.g. a traced icon)."""

    kind: Literal["path"]
    d: str
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float | None = Field(default=None, ge=0)

    _colors = field_validator("fill", "stroke")(classmethod(lambda cls, v: _check_color(v)))

    @field_validator("d")
    @classmethod
    def _path_data(cls, v: str) -> str:
        if not _PATH_DATA.match(v):
            raise ValueError("path data may hold only SVG path commands and numbers")
        return v


class Chart(Component):
    """A data chart: a Vega-Lite-vocabulary spec with inline data (see crafter.charts)."""

    kind: Literal["chart"]
    spec: dict[str, Any] = Field(default_factory=dict)
    title: str | None = None
    width: float | None = Field(default=None, gt=0)  # plot size in px; None: the theme's
    height: float | None = Field(default=None, gt=0)


AnyComponent = Annotated[
    Union[Node, Edge, Group, Text, Panel, Image, Path, Chart],
    Field(discriminator="kind"),
]
COMPONENT_TYPES: dict[str, type[Component]] = {
    "node": Node, "edge": Edge, "group": Group, "text": Text,
    "panel": Panel, "image": Image, "path": Path, "chart": Chart,
}


class Figure(_Model):
    """A whole figure. ``components`` keeps the author's order (it is the drawing order)."""

    version: int = 1
    title: str | None = None
    caption: str | None = None
    theme: Theme = "paper"
    direction: Direction = "LR"
    routing: Routing = "orthogonal"
    width_in: float | None = Field(default=None, gt=0)  # target print width in inches (3.3 single, 7 double column)
    # the page colour, where it is not the theme's (a figure converted from a grey or cream page)
    background: str | None = None
    style: StyleLayer | None = None  # a house style laid over the theme (crafter.style); None: the theme alone
    canvas: Size | None = None  # layout result
    components: list[AnyComponent] = Field(default_factory=list)

    @field_validator("background")
    @classmethod
    def _page_color(cls, v: str | None) -> str | None:
        # not 'none': the contrast checks and the exports need a colour to put text on
        if v is not None and (v == "none" or not is_color(v)):
            raise ValueError(f"'{v}' is not a page colour (use #rgb, #rrggbb or a CSS colour name)")
        return v

    @model_validator(mode="after")
    def _references(self) -> "Figure":
        check_references(self)
        return self

    # -- lookups -------------------------------------------------------------------
    def get(self, component_id: str) -> Component:
        for c in self.components:
            if c.id == component_id:
                return c
        raise KeyError(component_id)

    def by_id(self) -> dict[str, Component]:
        return {c.id: c for c in self.components}

    def of_kind(self, kind: str) -> list[Any]:
        return [c for c in self.components if c.kind == kind]

    # -- serialisation -------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data; fields at their defaults are left out (lossless)."""
        return _dump(self)

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: Any, *, file: str | None = None) -> "Figure":
        """Validate plain data into a Figure; errors become one :class:`SpecError`."""
        return figure_from_data(data, file=file)


def _dump(model: BaseModel) -> dict[str, Any]:
    data = model.model_dump(mode="json", exclude_defaults=True)
    if isinstance(model, Figure):
        data["components"] = [_dump_component(c) for c in model.components]
    return data


def _dump_component(c: Component) -> dict[str, Any]:
    data = c.model_dump(mode="json", exclude_defaults=True)
    # id and kind first: the reading order people expect in JSON.
    return {"id": c.id, "kind": c.kind, **{k: v for k, v in data.items() if k not in ("id", "kind")}}


def check_references(fig: Figure) -> None:
    """Figure-wide rules: unique ids, edges and members that exist, no group cycles."""
    seen: dict[str, Component] = {}
    for c in fig.components:
        if c.id in seen:
            raise SpecError(f"duplicate id (already used by a {seen[c.id].kind})", component=c.id, field="id")
        seen[c.id] = c
    for c in fig.components:
        if isinstance(c, Edge):
            for field in ("source", "target"):
                ref = getattr(c, field)
                if ref not in seen:
                    raise SpecError(f"no component with id '{ref}'", component=c.id, field=field)
                if seen[ref].kind == "edge":
                    raise SpecError(f"'{ref}' is an edge; edges join nodes, groups or panels", component=c.id,
                                    field=field)
        elif isinstance(c, (Group, Panel)):
            for m in c.members:
                if m not in seen:
                    raise SpecError(f"member '{m}' does not exist", component=c.id, field="members")
                if m == c.id:
                    raise SpecError("a group cannot contain itself", component=c.id, field="members")
            if len(set(c.members)) != len(c.members):
                dup = next(m for m in c.members if c.members.count(m) > 1)
                raise SpecError(f"member '{dup}' is listed twice", component=c.id, field="members")
        elif isinstance(c, Text) and c.near is not None and c.near not in seen:
            raise SpecError(f"no component with id '{c.near}'", component=c.id, field="near")
    _check_containment(fig, seen)


def _check_containment(fig: Figure, seen: dict[str, Component]) -> None:
    """Each component has at most one direct container, and containers form a tree."""
    parent: dict[str, str] = {}
    for c in fig.components:
        if isinstance(c, (Group, Panel)):
            for m in c.members:
                if m in parent and parent[m] != c.id:
                    raise SpecError(
                        f"member '{m}' is already in '{parent[m]}'; nest one group inside the other instead",
                        component=c.id, field="members",
                    )
                parent[m] = c.id
    for start in parent:
        path = [start]
        node = start
        while node in parent:
            node = parent[node]
            if node in path:
                cycle = " -> ".join(path[path.index(node):] + [node])
                raise SpecError(f"groups contain each other in a cycle: {cycle}", component=node, field="members")
            path.append(node)


def parents(fig: Figure) -> dict[str, str]:
    """Map each contained component id to the id of its direct group or panel."""
    out: dict[str, str] = {}
    for c in fig.components:
        if isinstance(c, (Group, Panel)):
            for m in c.members:
                out[m] = c.id
    return out


def figure_from_data(data: Any, *, file: str | None = None) -> Figure:
    """Validate plain data (from JSON) into a :class:`Figure`, with errors that name the component."""
    if not isinstance(data, dict):
        raise SpecError(f"a figure must be a JSON object, not {type(data).__name__}", file=file)
    comps = data.get("components", [])
    if isinstance(comps, list):
        for i, c in enumerate(comps):
            if not isinstance(c, dict):
                raise SpecError(f"component #{i + 1} must be an object", file=file)
            kind = c.get("kind")
            if kind not in COMPONENT_TYPES:
                where = c.get("id", f"#{i + 1}")
                raise SpecError(
                    f"unknown kind {kind!r}; expected one of {', '.join(KINDS)}",
                    component=str(where), field="kind", file=file,
                )
    try:
        return Figure.model_validate(data)
    except SpecError as e:
        raise e.located(file=file) from None
    except ValidationError as e:
        raise spec_error_from_validation(e, data, file=file) from None


def spec_error_from_validation(e: ValidationError, data: Any, *, file: str | None = None) -> SpecError:
    """Turn pydantic's error list into one SpecError naming component id and field."""
    err = e.errors()[0]
    loc = list(err.get("loc", ()))
    component = None
    field = None
    if loc[:1] == ["components"] and len(loc) >= 2 and isinstance(loc[1], int):
        idx = loc[1]
        try:
            component = str(data["components"][idx].get("id", f"#{idx + 1}"))
        except (KeyError, IndexError, TypeError, AttributeError):
            component = f"#{idx + 1}"
        rest = [str(p) for p in loc[2:] if not isinstance(p, int)]
        # the discriminated-union tag ('node', 'edge'...) is not a field name
        if rest and rest[0] in COMPONENT_TYPES:
            rest = rest[1:]
        field = ".".join(rest) or None
    elif loc:
        field = ".".join(str(p) for p in loc)
    msg = err.get("msg", "invalid value")
    if err.get("type") == "extra_forbidden":
        msg = "unknown attribute"
    elif msg.startswith("Value error, "):
        msg = msg[len("Value error, "):]
    return SpecError(msg, component=component, field=field, file=file)


def json_schema() -> dict[str, Any]:
    """The published JSON Schema of the FigureSpec."""
    schema = Figure.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "Crafter FigureSpec"
    return schema
