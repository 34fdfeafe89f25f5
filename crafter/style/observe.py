"""What one figure shows of its style: observations per style field, read from its FigureSpec.

Every value is the one the figure is *drawn* with: a component's own colour or size, else its
theme's (``figure_theme``: the named theme with any house style laid over it). That is exact for
a Crafter SVG (its figure is embedded) and what CraftEditor means for a raster: it leaves a value
unset when it measured the paper theme's. What a reader cannot express at all (a raster's corner
radius, its font, an edge label's size) is observed only when the figure is ``exact``.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from crafter.base.theme import Theme, figure_theme
from crafter.charts.theme import chart_theme, configured_theme
from crafter.spec.model import Chart, Edge, Figure, Group, Node, Text
from crafter.style.color import hex6

MIN_STROKE = 0.25  # px: a thinner measured stroke is a reading artefact, not a style


@dataclass
class Evidence:
    """One figure's observations: field path (``palette.node_fill``) → [(value, weight)]."""

    file: str
    reader: str  # crafter-svg (an embedded figure), svg, crafteditor (pixels), pdf
    exact: bool  # the figure states its theme (a Crafter SVG): theme-only values count too
    components: int = 0
    obs: dict[str, list[tuple[Any, float]]] = field(default_factory=lambda: defaultdict(list))

    def add(self, key: str, v: Any, weight: float = 1.0) -> None:
        if v is not None:
            self.obs[key].append((v, weight))


def observe(fig: Figure, ev: Evidence) -> Evidence:
    """Fill ``ev`` with what ``fig`` shows."""
    t = figure_theme(fig)
    ev.components = len(fig.components)
    nodes = [c for c in fig.components if isinstance(c, Node)]
    _nodes(nodes, t, ev)
    _edges([c for c in fig.components if isinstance(c, Edge)], t, ev)
    _groups([c for c in fig.components if isinstance(c, Group)], t, ev)
    _texts(fig, nodes, t, ev)
    for c in fig.components:
        if isinstance(c, Chart):
            _chart(c, t, ev)
    _layout(fig, nodes, ev)
    ev.add("palette.background", hex6(fig.background or t.background))
    if ev.exact:
        ev.add("shapes.corner_radius", t.corner_radius, 1.0 if any(n.shape == "round" for n in nodes) else 0.5)
        ev.add("font.family", t.font_family)
    return ev


def _nodes(nodes: list[Node], t: Theme, ev: Evidence) -> None:
    for n in nodes:
        # an exact figure says which fills are the plain one (unset) and which mark a role (set);
        # read from pixels every fill is evidence of the plain one, the most used
        if n.fill is None or not ev.exact:
            ev.add("palette.node_fill", hex6(n.fill or t.node_fill))
        if n.fill not in (None, "none"):
            ev.add("palette.fills", hex6(n.fill))
        stroke = n.stroke or t.node_stroke
        if stroke != "none":
            ev.add("palette.node_stroke", hex6(stroke))
            sw = t.stroke_width if n.stroke_width is None else n.stroke_width
            if sw >= MIN_STROKE:
                ev.add("strokes.node", sw)
        if n.text.strip():
            ev.add("sizes.label", n.font_size or t.font_size)
            ev.add("palette.text_color", hex6(n.text_color or t.text_color))


def _edges(edges: list[Edge], t: Theme, ev: Evidence) -> None:
    for e in edges:
        ev.add("palette.edge_color", hex6(e.color or t.edge_color))
        sw = t.edge_width if e.stroke_width is None else e.stroke_width
        if sw >= MIN_STROKE:
            ev.add("strokes.edge", sw)
        for end in (e.head, e.tail):
            if end not in ("none", "triangle_open"):  # UML's hollow triangle says what a link means, not a look
                ev.add("shapes.arrowhead", t.head_kind(end))
        if e.label and ev.exact:
            ev.add("sizes.edge_label", e.font_size or t.small_font_size)
            ev.add("palette.edge_label_color", hex6(t.edge_label_color))


def _groups(groups: list[Group], t: Theme, ev: Evidence) -> None:
    for g in groups:
        fill = g.fill or t.group_fill
        if fill != "none":
            ev.add("palette.group_fill", hex6(fill))
        stroke = g.stroke or t.group_stroke
        if stroke != "none":
            ev.add("palette.group_stroke", hex6(stroke))
            if ev.exact:
                ev.add("strokes.group", t.group_stroke_width)
        ev.add("group_frame.dash", t.frame_dash(g.style))
        if g.label and ev.exact:
            ev.add("sizes.group_label", g.font_size or t.group_font_size)


def _texts(fig: Figure, nodes: list[Node], t: Theme, ev: Evidence) -> None:
    """Title, edge-label and group-label sizes: stated by an exact figure; for a read one, from its
    free texts (the largest near the top is the title; a small text by a line is an edge label)."""
    if ev.exact:
        if fig.title:
            ev.add("sizes.title", t.title_font_size)
        return
    texts = [c for c in fig.components if isinstance(c, Text) and c.text.strip() and c.at is not None]
    if not texts:
        return
    height = fig.canvas.h if fig.canvas else max(c.at.y for c in texts) + 20
    sized = [(c.font_size or t.small_font_size, c) for c in texts]
    top = [(fs, c) for fs, c in sized if c.at.y <= max(0.15 * height, 40)]
    label = statistics.median([n.font_size or t.font_size for n in nodes]) if nodes else t.font_size
    title = max(top, key=lambda p: p[0], default=None)
    if title is not None and title[0] > 1.05 * label:
        ev.add("sizes.title", title[0])
    routes = [e.route for e in fig.components if isinstance(e, Edge) and e.route]
    groups = [g.box for g in fig.components if isinstance(g, Group) and g.box is not None]
    for fs, c in sized:
        if title is not None and c is title[1]:
            continue
        x, y = c.at.x, c.at.y
        if c.bold and any(abs(y - b.y) <= 2.2 * fs and b.x - 4 <= x <= b.right for b in groups):
            ev.add("sizes.group_label", fs)
        elif fs < 0.98 * label and any(_near_route(x, y, r, 2.5 * fs) for r in routes):
            ev.add("sizes.edge_label", fs)
            if c.color:
                ev.add("palette.edge_label_color", hex6(c.color))


def _near_route(x: float, y: float, route: list[Any], tol: float) -> bool:
    for a, b in zip(route, route[1:]):
        lo_x, hi_x = sorted((a.x, b.x))
        lo_y, hi_y = sorted((a.y, b.y))
        if lo_x - tol <= x <= hi_x + tol and lo_y - tol <= y <= hi_y + tol:
            return True
    return False


def _chart(c: Chart, t: Theme, ev: Evidence) -> None:
    spec = c.spec if isinstance(c.spec, dict) else {}
    try:
        ct = configured_theme(chart_theme(t), spec.get("config"), c.id)
    except Exception:  # a config Crafter cannot draw says nothing of a style
        ct = chart_theme(t)
    ev.add("chart.grid", True if ct.grid is None else ct.grid)
    ev.add("chart.frame", ct.view_stroke is not None)
    ev.add("chart.domain", ct.domain)
    ev.add("chart.ticks", ct.ticks)
    if ev.exact:  # a reader of pixels sees outward ticks only, and says nothing of inward ones
        ev.add("chart.tick_direction", ct.tick_direction)
    ev.add("chart.grid_color", hex6(ct.grid_color))
    ev.add("chart.axis_color", hex6(ct.axis_color))
    ev.add("chart.axis_width", ct.axis_width)
    ev.add("chart.plot_background", hex6(ct.view_fill or ct.background))
    enc = spec.get("encoding") if isinstance(spec.get("encoding"), dict) else {}
    color = enc.get("color") if isinstance(enc.get("color"), dict) else None
    legend = color.get("legend") if color else None
    if color and "field" in color:
        orient = legend.get("orient") if isinstance(legend, dict) else ("none" if "legend" in color else None)
        if orient == "none" and isinstance(legend, dict) and "legendX" in legend:
            orient = _corner(c, legend)  # placed inside the plot (how CraftEditor keeps an inside legend)
        # a read figure whose legend was not found says nothing of its place
        ev.add("chart.legend_orient", orient or (ct.legend_orient if ev.exact else None))
    series = _series(spec, color, ct.palette)
    if series:
        ev.add("palette.series", tuple(series), float(len(series)))


def _corner(c: Chart, legend: dict[str, Any]) -> str | None:
    """The plot corner an inside legend at (legendX, legendY) sits in."""
    w, h = c.width or c.spec.get("width"), c.height or c.spec.get("height")
    x, y = legend.get("legendX"), legend.get("legendY")
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (w, h, x, y)):
        return None
    return ("top" if y < h / 2 else "bottom") + "-" + ("left" if x < w / 2 else "right")


def _series(spec: dict[str, Any], color: dict[str, Any] | None, palette: tuple[str, ...]) -> list[str]:
    """The chart's series colours in order: a colour scale's range, the palette over the series, or
    the one colour of its marks."""
    if color and isinstance(color.get("scale"), dict) and isinstance(color["scale"].get("range"), list):
        rng = [hex6(v) for v in color["scale"]["range"] if isinstance(v, str) and v.startswith("#")]
        return [v for v in rng if v]
    if color and "field" in color:
        values = (spec.get("data") or {}).get("values") if isinstance(spec.get("data"), dict) else None
        seen: list[Any] = []
        for row in values or []:
            v = row.get(color["field"]) if isinstance(row, dict) else None
            if v is not None and v not in seen:
                seen.append(v)
        return [hex6(c) for c in palette[:len(seen)]] if seen else []
    mark = spec.get("mark")
    fixed = (mark.get("color") if isinstance(mark, dict) else None) or (color or {}).get("value")
    if isinstance(fixed, str) and fixed.startswith("#"):
        return [hex6(fixed)]
    return [hex6(palette[0])] if mark is not None else []


def _layout(fig: Figure, nodes: list[Node], ev: Evidence) -> None:
    """Direction from where edges go; spacing from the gaps between laid-out boxes."""
    boxes = {n.id: n.box for n in nodes if n.box is not None}
    along: list[float] = []
    votes: dict[str, float] = defaultdict(float)
    for e in fig.components:
        if not isinstance(e, Edge) or e.source not in boxes or e.target not in boxes:
            continue
        a, b = boxes[e.source], boxes[e.target]
        dx, dy = b.cx - a.cx, b.cy - a.cy
        if abs(dx) >= abs(dy):
            votes["LR" if dx > 0 else "RL"] += 1
        else:
            votes["TB" if dy > 0 else "BT"] += 1
    if not votes:
        return
    direction = max(votes, key=lambda k: votes[k])
    for d, n in votes.items():
        ev.add("layout.direction", d, n)
    horizontal = direction in ("LR", "RL")
    for e in fig.components:
        if isinstance(e, Edge) and e.source in boxes and e.target in boxes:
            a, b = boxes[e.source], boxes[e.target]
            lo, hi = (a, b) if (a.cx < b.cx if horizontal else a.cy < b.cy) else (b, a)
            gap = hi.x - lo.right if horizontal else hi.y - lo.bottom
            if gap > 1:
                along.append(gap)
    if along:
        ev.add("layout.rank_sep", round(min(along), 2))
    across = _cross_gaps(list(boxes.values()), horizontal)
    if across:
        ev.add("layout.node_sep", round(min(across), 2))


def _cross_gaps(boxes: list[Any], horizontal: bool) -> list[float]:
    """Gaps between neighbours of one rank (boxes side by side across the flow)."""
    gaps = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if horizontal:
                overlap = min(a.right, b.right) - max(a.x, b.x)
                gap = max(a.y, b.y) - min(a.bottom, b.bottom)
                size = min(a.w, b.w)
            else:
                overlap = min(a.bottom, b.bottom) - max(a.y, b.y)
                gap = max(a.x, b.x) - min(a.right, b.right)
                size = min(a.h, b.h)
            if overlap > 0.5 * size and gap > 1:
                gaps.append(gap)
    return gaps
