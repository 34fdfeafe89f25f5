"""Laying out a whole figure: sizes, areas, engines, panels, pins, leftovers, canvas.

:func:`layout_figure` is the one entry point. Its steps, in order:

1. **Measure** every leaf (nodes by shape, charts, free texts) and sort components into
   *fixed* ones (pinned boxes, images and paths that carry their geometry, texts ``at`` a
   point) and ones the engine places. ``text near=ID`` beside a leaf becomes an
   annotation the engine keeps room for.
2. **Areas**: each top-level panel, the figure's free components, and the inside of each
   pinned group or panel are laid out separately, by ELK (``crafter.layout.elk``) or the
   Python layered engine (``crafter.layout.layered``), in their own direction.
3. **Compose**: panels side by side, tops aligned, equal heights; the free area after
   them. The whole block is shifted (as one piece) to the nearest spot where it overlaps
   no pinned component; a pinned group's contents go inside it.
4. **Leftovers**: edges the engine did not see (between panels, to pinned components, to
   annotations, from a group to its own member) get obstacle-avoiding orthogonal routes;
   annotations of groups, edges or pinned things are put beside them; group boxes grow to
   cover members placed outside the engine; edge labels that ended up on a node move.
5. **Finish**: spline and straight routing, edge ends cut at the drawn outlines, the
   canvas (margin and title band included), every number rounded to 2 decimals.

Pinned boxes are kept exactly (not even rounded). Output is deterministic: the same
figure gives the same bytes.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from crafter.base.geometry import polyline_midpoint
from crafter.base.text import text_width, wrap
from crafter.base.theme import TITLE_MAX_W, Theme, figure_theme
from crafter.errors import CrafterError
from crafter.layout import measure
from crafter.layout.compact import close_gaps, hug_groups
from crafter.layout.elk import elk_available, layout_area_elk
from crafter.layout.labels import BoxIndex, place_annotation, place_edge_label
from crafter.layout.layered import layout_area_python
from crafter.layout.problem import Annotation, Area, AreaLayout, EngineError, Item, LayoutEdge, Pt, Rect
from crafter.layout.routing import (
    FLOW_SIDES,
    orthogonalize,
    route_orthogonal,
    self_loop,
    simplify,
    spline_waypoints,
    straight_route,
)
from crafter.layout.shapes import RECT_SHAPES, clip_to_outline, node_size
from crafter.spec.model import (
    Box,
    Chart,
    Component,
    Edge,
    Figure,
    Group,
    Image,
    Node,
    Panel,
    Path,
    Point,
    Size,
    Text,
    parents,
)

log = logging.getLogger(__name__)

ENGINES = ("auto", "elk", "python")
# Above this many leaves in one area, "auto" uses the Python engine: ELK's compound-graph
# layout grows steeply with size (measured on 2 busy cores with two groups: 0.7 s at 100
# nodes, 3 s at 200, >20 s at 400, and a stack overflow on a 600-node chain), while the
# Python engine takes 0.3 s at 200 nodes and a few seconds at 5,000.
ELK_MAX_LEAVES = 300
LEAF_KINDS = ("node", "chart", "image", "path", "text")
CONTAINER_KINDS = ("group", "panel")
ROUTE_CLEARANCE = 8.0
SELF_LOOP_SIZE = 14.0


class LayoutError(CrafterError):
    """The figure cannot be laid out as asked (e.g. an unknown engine name)."""


def layout_figure(fig: Figure, *, engine: str = "auto") -> Figure:
    """A new figure with every box, route, label box and the canvas filled in.

    ``engine``: ``"auto"`` (ELK when Node and elkjs are installed and the figure is not
    huge, else Python), ``"elk"`` or ``"python"``. An ELK failure falls back to the
    Python engine with a logged warning; it never raises.
    """
    if engine not in ENGINES:
        raise LayoutError(f"unknown layout engine '{engine}'; expected one of {', '.join(ENGINES)}")
    return _FigureLayout(fig, engine).run()


def r2(v: float) -> float:
    """Round to 2 decimals (and never print -0.0)."""
    return round(v, 2) + 0.0


def _union(rects: list[Rect]) -> Rect:
    x0 = min(r[0] for r in rects)
    y0 = min(r[1] for r in rects)
    x1 = max(r[0] + r[2] for r in rects)
    y1 = max(r[1] + r[3] for r in rects)
    return (x0, y0, x1 - x0, y1 - y0)


def _overlap(a: Rect, b: Rect, margin: float = 0.0) -> bool:
    return (a[0] < b[0] + b[2] + margin and b[0] < a[0] + a[2] + margin
            and a[1] < b[1] + b[3] + margin and b[1] < a[1] + a[3] + margin)


def _shift(r: Rect, dx: float, dy: float) -> Rect:
    return (r[0] + dx, r[1] + dy, r[2], r[3])


def _rect(b: Box) -> Rect:
    return (b.x, b.y, b.w, b.h)


@dataclass
class _AreaPlan:
    root: str | None  # None: the figure's free components; else a panel or pinned container id
    area: Area
    layout: AreaLayout | None = None
    offset: Pt = (0.0, 0.0)  # where the area's (0, 0) lands on the canvas


@dataclass
class _State:
    boxes: dict[str, Rect] = field(default_factory=dict)  # every placed component (edges aside)
    routes: dict[str, list[Pt]] = field(default_factory=dict)
    label_boxes: dict[str, Rect] = field(default_factory=dict)
    engine_edges: set[str] = field(default_factory=set)  # routed by an engine (labels placed by it)
    final: dict[str, list[Pt]] = field(default_factory=dict)  # routes in their drawn style, ends on outlines


class _FigureLayout:
    def __init__(self, fig: Figure, engine: str) -> None:
        self.fig = fig
        self.engine = engine
        self.theme: Theme = figure_theme(fig)
        self.by_id: dict[str, Component] = fig.by_id()
        self.parent: dict[str, str] = parents(fig)
        self.engines_used: set[str] = set()

    # -----------------------------------------------------------------------------
    def run(self) -> Figure:
        self.classify()
        plans = self.plan_areas()
        for plan in plans:
            plan.layout = self.solve(plan.area) if plan.area.items else AreaLayout()
        st = _State()
        self.compose(plans, st)
        self.leftovers(st)
        return self.finish(st)

    # -- 1. measure and classify ----------------------------------------------------
    def classify(self) -> None:
        t = self.theme
        self.fixed: dict[str, Rect] = {}  # boxes kept as given (or derived from a point / path data)
        self.sizes: dict[str, tuple[float, float]] = {}  # engine-placed leaves
        self.annotations: dict[str, list[Annotation]] = {}  # leaf id -> annotations the engine places
        self.loose_texts: list[Text] = []  # texts near something the engine does not place as a leaf
        self.fixed_containers: list[str] = []
        for c in self.fig.components:
            pinned = c.pinned and c.box is not None
            if isinstance(c, Node):
                if pinned:
                    self.fixed[c.id] = _rect(c.box)
                else:
                    self.sizes[c.id] = node_size(c, t)
            elif isinstance(c, Chart):
                if pinned:
                    self.fixed[c.id] = _rect(c.box)
                else:
                    self.sizes[c.id] = measure.chart_size(c, t)
            elif isinstance(c, Image):
                if c.box is not None:  # images come with their place (CraftEditor pins them)
                    self.fixed[c.id] = _rect(c.box)
                else:
                    self.sizes[c.id] = measure.DEFAULT_IMAGE_SIZE
            elif isinstance(c, Path):
                if c.box is not None:
                    self.fixed[c.id] = _rect(c.box)
                else:  # path data is absolute: its box is where it is drawn
                    self.fixed[c.id] = measure.path_bounds(c.d) or (0.0, 0.0, 0.0, 0.0)
            elif isinstance(c, Text):
                w, h = measure.annotation_size(c, t)
                if pinned:
                    self.fixed[c.id] = _rect(c.box)
                elif c.at is not None:  # 'at' is the centre of the text block
                    self.fixed[c.id] = (c.at.x - w / 2, c.at.y - h / 2, w, h)
                elif c.near is not None:
                    self.loose_texts.append(c)
                else:
                    self.sizes[c.id] = (w, h)
            elif isinstance(c, (Group, Panel)) and pinned:
                self.fixed[c.id] = _rect(c.box)
                self.fixed_containers.append(c.id)
        # annotations of engine-placed leaves travel with them through the engine
        keep = []
        for x in self.loose_texts:
            target = self.by_id[x.near]  # type: ignore[index]
            if target.id in self.sizes and x.side != "center" and target.kind != "text":
                w, h = measure.annotation_size(x, t)
                self.annotations.setdefault(target.id, []).append(Annotation(x.id, x.side, w, h))
            else:
                keep.append(x)
        self.loose_texts = keep
        self.annotated = {a.id for anns in self.annotations.values() for a in anns}
        self.edge_ends = {end for e in self.fig.of_kind("edge") for end in (e.source, e.target)}

    def members(self, cid: str) -> list[str]:
        c = self.by_id[cid]
        return [m for m in getattr(c, "members", []) if self.by_id[m].kind != "edge"]

    # -- 2. areas --------------------------------------------------------------------
    def area_root(self, cid: str) -> str | None:
        """The area a component is laid out in: its nearest pinned container, else its top-level panel."""
        node = cid
        while node in self.parent:
            node = self.parent[node]
            if node in self.fixed_containers:
                return node
        if node != cid and self.by_id[node].kind == "panel":
            return node
        return None

    def plan_areas(self) -> list[_AreaPlan]:
        t = self.theme
        top_level = [c.id for c in self.fig.components if c.id not in self.parent and c.kind != "edge"]
        roots: list[str | None] = []
        for cid in top_level:
            if self.by_id[cid].kind == "panel" and cid not in self.fixed_containers:
                roots.append(cid)
        roots.append(None)
        roots.extend(self.fixed_containers)
        self.item_area: dict[str, str | None] = {}
        self.items: dict[str, Item] = {}
        plans = []
        for root in roots:
            if root is None:
                ids = [cid for cid in top_level if not (self.by_id[cid].kind == "panel"
                                                        and cid not in self.fixed_containers)]
                direction = self.fig.direction
            else:
                ids = self.members(root)
                rc = self.by_id[root]
                direction = getattr(rc, "direction", None) or self.fig.direction
            # a group takes the place of its first-written member: groups are usually declared
            # after their nodes, and ELK breaks cycles and ties by this order
            ids = sorted(ids, key=lambda cid: (self.first_written(cid), cid))
            items = [it for it in (self.build_item(cid, root) for cid in ids) if it is not None]
            plans.append(_AreaPlan(root, Area(items=items, edges=[], direction=direction,
                                              node_sep=t.node_sep, rank_sep=t.rank_sep)))
        # edges an engine can route: both ends placed by the same engine run, neither inside the other
        by_root = {p.root: p for p in plans}
        for e in self.fig.of_kind("edge"):
            if e.pinned and e.route:
                continue
            s, g = e.source, e.target
            if s not in self.item_area or g not in self.item_area or self.item_area[s] != self.item_area[g]:
                continue
            if s == g and self.items[s].container:
                continue
            if s != g and (self.is_ancestor(s, g) or self.is_ancestor(g, s)):
                continue
            label = measure.edge_label_size(e, t) if e.label else None
            by_root[self.item_area[s]].area.edges.append(LayoutEdge(e.id, s, g, label))
        # an empty panel still takes its place in the row (its heading shows)
        return [p for p in plans if p.area.items or (p.root is not None and p.root not in self.fixed_containers)]

    def first_written(self, cid: str) -> int:
        """The position in the figure's text of a component, or of its first-written member."""
        if not hasattr(self, "_order"):
            self._order = {c.id: k for k, c in enumerate(self.fig.components)}
        best = self._order[cid]
        for m in self.members(cid) if self.by_id[cid].kind in CONTAINER_KINDS else ():
            best = min(best, self.first_written(m))
        return best

    def build_item(self, cid: str, root: str | None) -> Item | None:
        c = self.by_id[cid]
        t = self.theme
        if c.kind in LEAF_KINDS:
            if cid not in self.sizes:
                return None
            w, h = self.sizes[cid]
            it = Item(cid, w, h, shape=getattr(c, "shape", "box"), annotations=self.annotations.get(cid, []))
        elif c.kind in CONTAINER_KINDS:
            if cid in self.fixed_containers:
                return None
            children = [x for x in (self.build_item(m, root) for m in self.members(cid)) if x is not None]
            pad = measure.group_padding(c, t) if isinstance(c, Group) else measure.panel_padding(c, t)
            min_w = self.container_min_width(c)
            if not children:
                if self.members(cid):
                    return None  # all members are pinned: the box follows from theirs
                # an empty group still shows its frame and heading
                w = max(min_w, t.node_min_w)
                it = Item(cid, w, pad[0] + pad[2] + t.node_min_h * 0.5)
            else:
                it = Item(cid, min_w, pad[0] + pad[2], children=children, container=True, padding=pad)
        else:
            return None
        self.items[cid] = it
        self.item_area[cid] = root
        return it

    def container_min_width(self, c: Component) -> float:
        if isinstance(c, Group):
            return measure.group_label_width(c, self.theme)
        if isinstance(c, Panel):
            return measure.panel_heading_width(c, self.panel_index(c.id), self.theme)
        return 0.0

    def panel_index(self, pid: str) -> int:
        return [c.id for c in self.fig.components if c.kind == "panel"].index(pid)

    def is_ancestor(self, a: str, b: str) -> bool:
        node = b
        while node in self.parent:
            node = self.parent[node]
            if node == a:
                return True
        return False

    # -- engines ----------------------------------------------------------------------
    def solve(self, area: Area) -> AreaLayout:
        lay = self.solve_with_engine(area)
        hug_groups(area, lay, self.edge_ends, area.edge_sep)
        across, along = area.node_sep, area.rank_sep
        vertical = area.direction in ("TB", "BT")
        close_gaps(lay, along_y=along if vertical else across, along_x=across if vertical else along,
                   edge_sep=area.edge_sep)
        return lay

    def solve_with_engine(self, area: Area) -> AreaLayout:
        want = self.engine
        if want == "auto":
            want = "elk" if area.leaf_count() <= ELK_MAX_LEAVES and elk_available() else "python"
        if want == "elk":
            try:
                result = layout_area_elk(area)
                problem = _first_overlap(area, result)
                if problem is None:
                    self.engines_used.add("elk")
                    return result
                log.warning("ELK layout overlaps %s; using the Python engine", problem)
            except EngineError as e:
                log.warning("ELK layout failed (%s); using the Python engine", e)

        self.engines_used.add("python")
        return layout_area_python(area)

    # -- 3. compose -------------------------------------------------------------------
    def compose(self, plans: list[_AreaPlan], st: _State) -> None:
        t = self.theme
        main = [p for p in plans if p.root is None or p.root not in self.fixed_containers]
        inner = [p for p in plans if p.root is not None and p.root in self.fixed_containers]
        # panels in a row, each a frame around its area; the free area after them
        panels = [p for p in main if p.root is not None]
        free = [p for p in main if p.root is None]
        block: dict[str, Rect] = {}
        frames: list[tuple[_AreaPlan, Rect, tuple[float, float, float, float]]] = []
        for p in panels:
            lay = p.layout
            assert lay is not None
            pad = measure.panel_padding(self.by_id[p.root], t)  # type: ignore[index]
            w = max(lay.width + pad[1] + pad[3], self.container_min_width(self.by_id[p.root]))  # type: ignore[index]
            frames.append((p, (0.0, 0.0, w, lay.height + pad[0] + pad[2]), pad))
        height = max((f[1][3] for f in frames), default=0.0)
        x = 0.0
        for p, (_, _, w, h), pad in frames:
            lay = p.layout
            assert lay is not None
            block[p.root] = (x, 0.0, w, height)  # type: ignore[index]
            # content centred in the frame's width, right below the heading: panels side by side
            # start their drawings on one line, with the same spacing inside
            p.offset = (x + pad[3] + (w - pad[1] - pad[3] - lay.width) / 2, pad[0])
            x += w + t.panel_sep
        for p in free:
            assert p.layout is not None
            p.offset = (x, 0.0)
            x += p.layout.width + t.panel_sep
        contents: list[Rect] = list(block.values())
        for p in free:
            assert p.layout is not None
            contents.append((p.offset[0], p.offset[1], p.layout.width, p.layout.height))

        # the block's place on the canvas: below the title, clear of pinned components
        title_band = self.title_band(max((r[0] + r[2] for r in contents), default=0.0))
        origin = (t.margin, t.margin + title_band)
        fixed_rects = [r for r in self.fixed.values() if r[2] > 0 or r[3] > 0]
        rects_in_block = list(block.values())
        for p in main:
            assert p.layout is not None
            rects_in_block += self.area_rects(p.layout, p.offset)
        dx, dy = self.clear_spot(rects_in_block, fixed_rects, origin, self.pull_toward_fixed(main))
        for pid, r in block.items():
            st.boxes[pid] = _shift(r, dx, dy)
        for p in main:
            p.offset = (p.offset[0] + dx, p.offset[1] + dy)
            self.adopt(p, st)
        for cid, r in self.fixed.items():
            st.boxes[cid] = r
        # the inside of pinned groups and panels, innermost first so outer ones see their members
        for p in sorted(inner, key=lambda q: -self.depth(q.root)):  # type: ignore[arg-type]
            self.place_inside(p, st)

    def depth(self, cid: str | None) -> int:
        d, node = 0, cid
        while node in self.parent:
            node = self.parent[node]
            d += 1
        return d

    @staticmethod
    def area_rects(lay: AreaLayout, offset: Pt) -> list[Rect]:
        out = [_shift(r, *offset) for r in lay.boxes.values()]
        out += [_shift(r, *offset) for r in lay.label_boxes.values()]
        out += [_shift(r, *offset) for r in lay.annotation_boxes.values()]
        return out

    def title_band(self, content_w: float) -> float:
        t = self.theme
        if not self.fig.title:
            return 0.0
        # the renderer's rule (crafter.render.svg title): a title up to TITLE_MAX_W wide stays on one line
        fs = t.title_font_size
        one_line = text_width(self.fig.title, fs, bold=True)
        lines = wrap(self.fig.title, fs, max(content_w, min(one_line, TITLE_MAX_W), fs * 4) + 0.01, bold=True)
        return t.title_font_size * 1.8 + (len(lines) - 1) * t.title_font_size * t.line_height

    def pull_toward_fixed(self, main: list[_AreaPlan]) -> Pt:
        """Offset that puts engine-placed ends of edges to pinned components next to them."""
        pulls = []
        direction = self.fig.direction
        for e in self.fig.of_kind("edge"):
            a, b = e.source, e.target
            if a in self.fixed and b in self.items:
                fixed, moving, forward = self.fixed[a], b, True
            elif b in self.fixed and a in self.items:
                fixed, moving, forward = self.fixed[b], a, False
            else:
                continue
            plan = next((p for p in main if p.layout and moving in p.layout.boxes), None)
            if plan is None or plan.layout is None:
                continue
            r = _shift(plan.layout.boxes[moving], *plan.offset)
            gap = self.theme.rank_sep
            tx, ty = fixed[0] + fixed[2] / 2 - r[2] / 2, fixed[1] + fixed[3] / 2 - r[3] / 2
            if direction == "LR":
                tx = fixed[0] + fixed[2] + gap if forward else fixed[0] - gap - r[2]
            elif direction == "RL":
                tx = fixed[0] - gap - r[2] if forward else fixed[0] + fixed[2] + gap
            elif direction == "TB":
                ty = fixed[1] + fixed[3] + gap if forward else fixed[1] - gap - r[3]
            else:
                ty = fixed[1] - gap - r[3] if forward else fixed[1] + fixed[3] + gap
            pulls.append((tx - r[0], ty - r[1]))
        if not pulls:
            return (0.0, 0.0)
        return (sum(p[0] for p in pulls) / len(pulls), sum(p[1] for p in pulls) / len(pulls))

    def clear_spot(self, moving: list[Rect], fixed: list[Rect], origin: Pt, pull: Pt,
                   region: Rect | None = None) -> Pt:
        """The shift for a rigid block of ``moving`` rects: near ``origin + pull``, overlapping no ``fixed``.

        The block never goes left of or above ``origin``; ``region`` (if given) is where it should fit.
        """
        if not moving:
            return origin
        sep = self.theme.node_sep / 2
        if not fixed:
            return origin
        bb = _union(moving)
        index = BoxIndex(cell=128.0)
        for r in fixed:
            index.add(r, None)
        ideal = (origin[0] + max(pull[0], 0.0), origin[1] + max(pull[1], 0.0))

        def clear(dx: float, dy: float) -> bool:
            return all(index.free(_shift(r, dx, dy), sep) for r in moving)

        near = sorted(fixed, key=lambda f: abs(f[0] - ideal[0]) + abs(f[1] - ideal[1]))[:40]
        xs = {ideal[0], origin[0]}
        ys = {ideal[1], origin[1]}
        for f in near:
            xs.add(f[0] + f[2] + sep - bb[0])  # block just right of f
            xs.add(f[0] - sep - (bb[0] + bb[2]))  # just left of f
            ys.add(f[1] + f[3] + sep - bb[1])
            ys.add(f[1] - sep - (bb[1] + bb[3]))
        cands = sorted(
            ((abs(cx - ideal[0]) + abs(cy - ideal[1]), cx, cy)
             for cx in xs for cy in ys if cx >= origin[0] - 1e-9 and cy >= origin[1] - 1e-9),
        )
        for _, cx, cy in cands[:400]:
            if clear(cx, cy):
                return (cx, cy)
        # right of everything pinned always works
        right = max(f[0] + f[2] for f in fixed) + sep - bb[0]
        return (max(right, origin[0]), origin[1])

    def adopt(self, p: _AreaPlan, st: _State) -> None:
        """Copy an area's results onto the canvas at the area's offset."""
        lay = p.layout
        assert lay is not None
        ox, oy = p.offset
        for cid, r in lay.boxes.items():
            st.boxes[cid] = _shift(r, ox, oy)
        for cid, r in lay.annotation_boxes.items():
            st.boxes[cid] = _shift(r, ox, oy)
        for eid, pts in lay.routes.items():
            st.routes[eid] = [(x + ox, y + oy) for x, y in pts]
            st.engine_edges.add(eid)
        for eid, r in lay.label_boxes.items():
            st.label_boxes[eid] = _shift(r, ox, oy)

    def place_inside(self, p: _AreaPlan, st: _State) -> None:
        """Put a pinned container's laid-out contents inside its box (growing it only if they cannot fit)."""
        lay = p.layout
        assert lay is not None and p.root is not None
        c = self.by_id[p.root]
        box = self.fixed[p.root]
        pad = measure.group_padding(c, self.theme) if isinstance(c, Group) else measure.panel_padding(c, self.theme)
        origin = (box[0] + pad[3], box[1] + pad[0])
        inside_fixed = [st.boxes[m] for m in self.members(p.root) if m in self.fixed]
        moving = self.area_rects(lay, (0.0, 0.0))
        dx, dy = self.clear_spot(moving, inside_fixed, origin, (0.0, 0.0))
        p.offset = (dx, dy)
        self.adopt(p, st)
        need_r = dx + lay.width + pad[1]
        need_b = dy + lay.height + pad[2]
        if need_r > box[0] + box[2] + 0.5 or need_b > box[1] + box[3] + 0.5:
            log.warning("pinned %s '%s' is too small for its members; it grows to hold them", c.kind, c.id)
            grown = (box[0], box[1], max(box[2], need_r - box[0]), max(box[3], need_b - box[1]))
            self.fixed[p.root] = grown
            st.boxes[p.root] = grown

    # -- 4. leftovers -----------------------------------------------------------------
    def leftovers(self, st: _State) -> None:
        self.lift_flow_side_notes(st)
        obstacles = BoxIndex()
        for cid, r in st.boxes.items():
            if self.by_id[cid].kind in LEAF_KINDS:
                obstacles.add(r, cid)
        # annotations beside pinned leaves first (groups must cover them), then groups grow
        later = []
        for x in self.loose_texts:
            target = self.by_id[x.near]  # type: ignore[index]
            if target.kind in LEAF_KINDS and x.near in st.boxes:
                self.place_loose_text(x, st, obstacles)
            else:
                later.append(x)
        self.fit_containers(st)
        for x in later:
            if x.near in st.boxes or self.by_id[x.near].kind == "edge":  # type: ignore[index]
                self.route_leftover_edges(st, obstacles, only_edge=x.near)
            self.place_loose_text(x, st, obstacles)
        if later:
            self.fit_containers(st)
        self.route_leftover_edges(st, obstacles)
        self.place_edge_labels(st, obstacles)

    def lift_flow_side_notes(self, st: _State) -> None:
        """A note left or right of a node in a left-right figure sits where edges enter or leave
        (the middle of the side): lift it so it ends just above that line, when that spot is free."""
        index = BoxIndex()
        for cid, r in st.boxes.items():
            if self.by_id[cid].kind in LEAF_KINDS:
                index.add(r, cid)
        for target, anns in self.annotations.items():
            if self.direction_of(target) not in ("LR", "RL") or target not in st.boxes:
                continue
            t = st.boxes[target]
            for a in anns:
                r = st.boxes.get(a.id)
                if a.side not in ("left", "right") or r is None:
                    continue
                lifted = (r[0], min(r[1], t[1] + t[3] / 2 - 3.0 - r[3]), r[2], r[3])
                if lifted != r and index.free(lifted, 1.0, ignore=[a.id, target]) \
                        and not any(_overlap(lifted, lb) for lb in st.label_boxes.values()):
                    st.boxes[a.id] = lifted

    def place_loose_text(self, x: Text, st: _State, obstacles: BoxIndex) -> None:
        size = measure.annotation_size(x, self.theme)
        target = self.by_id[x.near]  # type: ignore[index]
        if isinstance(target, Edge):
            pts = st.routes.get(target.id)
            if not pts:
                st.boxes[x.id] = (0.0, 0.0, *size)
                return

            (mx, my), _ = polyline_midpoint(pts)
            anchor = (mx - 1, my - 1, 2.0, 2.0)
        else:
            anchor = st.boxes.get(target.id, (0.0, 0.0, 0.0, 0.0))
        ignore = [target.id] + self.ancestors(target.id)
        r = place_annotation(anchor, size, x.side, obstacles, gap=measure.ANNOTATION_GAP, ignore=ignore)
        st.boxes[x.id] = r
        obstacles.add(r, x.id)

    def ancestors(self, cid: str) -> list[str]:
        out, node = [], cid
        while node in self.parent:
            node = self.parent[node]
            out.append(node)
        return out

    def fit_containers(self, st: _State) -> None:
        """Grow every unpinned group/panel to cover its members, innermost first."""
        t = self.theme
        containers = [c for c in self.fig.components if c.kind in CONTAINER_KINDS]
        for c in sorted(containers, key=lambda c: -self.depth(c.id)):
            if c.id in self.fixed_containers:
                continue
            pad = measure.group_padding(c, t) if isinstance(c, Group) else measure.panel_padding(c, t)
            rects = []
            for m in self.members(c.id):
                r = st.boxes.get(m)
                if r is not None:
                    rects.append((r[0] - pad[3], r[1] - pad[0], r[2] + pad[1] + pad[3], r[3] + pad[0] + pad[2]))
            own = st.boxes.get(c.id)  # the engine's frame (already hugging its members: compact.py)
            if own is not None:
                rects.append(own)
            if not rects:
                continue
            u = _union(rects)
            min_w = self.container_min_width(c)
            if u[2] < min_w:
                u = (u[0], u[1], min_w, u[3])
            st.boxes[c.id] = u

    def route_leftover_edges(self, st: _State, obstacles: BoxIndex, only_edge: str | None = None) -> None:
        for e in self.fig.of_kind("edge"):
            if only_edge is not None and e.id != only_edge:
                continue
            if e.id in st.routes:
                continue
            if e.pinned and e.route:
                st.routes[e.id] = [(p.x, p.y) for p in e.route]
                if e.label_box is not None:
                    st.label_boxes[e.id] = _rect(e.label_box)
                continue
            a, b = st.boxes.get(e.source), st.boxes.get(e.target)
            if a is None or b is None:
                continue
            st.routes[e.id] = self.route_one(e, a, b, obstacles, st)

    def route_one(self, e: Edge, a: Rect, b: Rect, obstacles: BoxIndex, st: _State) -> list[Pt]:
        direction = self.direction_of(e.source)
        if e.source == e.target:
            return self_loop(a, direction, SELF_LOOP_SIZE)
        if self.is_ancestor(e.source, e.target):
            return self.to_enclosing(b, a, reverse=True)
        if self.is_ancestor(e.target, e.source):
            return self.to_enclosing(a, b, reverse=False)
        ignore = {e.source, e.target, *self.ancestors(e.source), *self.ancestors(e.target)}
        near = [r for r, k in obstacles.query(_union([a, b]), 240.0) if k not in ignore]
        # containers are not obstacles, but a route must not run through a leaf inside an endpoint
        src_out, dst_in = FLOW_SIDES[direction]
        forward = {
            "LR": b[0] >= a[0] + a[2], "RL": b[0] + b[2] <= a[0],
            "TB": b[1] >= a[1] + a[3], "BT": b[1] + b[3] <= a[1],
        }[direction]
        prefer = (src_out, dst_in) if forward else None
        window = _union([a, b])
        others = [pts for pts in st.routes.values()
                  if pts and _overlap(_union([(p[0], p[1], 0.0, 0.0) for p in pts]), window, 240.0)]
        return route_orthogonal(a, b, near, clearance=ROUTE_CLEARANCE, prefer=prefer, avoid=others)

    @staticmethod
    def to_enclosing(inner: Rect, outer: Rect, *, reverse: bool) -> list[Pt]:
        """A short straight line from a member to the nearest side of the group that holds it."""
        ix, iy, iw, ih = inner
        ox, oy, ow, oh = outer
        gaps = {"left": ix - ox, "right": ox + ow - (ix + iw), "top": iy - oy, "bottom": oy + oh - (iy + ih)}
        side = min(gaps, key=lambda s: (gaps[s], s))
        cx, cy = ix + iw / 2, iy + ih / 2
        p, q = {
            "left": ((ix, cy), (ox, cy)), "right": ((ix + iw, cy), (ox + ow, cy)),
            "top": ((cx, iy), (cx, oy)), "bottom": ((cx, iy + ih), (cx, oy + oh)),
        }[side]
        return [q, p] if reverse else [p, q]

    def direction_of(self, cid: str) -> str:
        root = self.area_root(cid)
        if root is not None:
            d = getattr(self.by_id[root], "direction", None)
            if d:
                return d
        return self.fig.direction

    def place_edge_labels(self, st: _State, obstacles: BoxIndex) -> None:
        """Keep the engine's label boxes where they are clear; place the others beside their routes."""
        index = BoxIndex()
        for r, k in zip(obstacles.rects, obstacles.keys):
            index.add(r, k)
        # a label on a group's frame line, or on another edge's line, reads as part of it: both are obstacles
        for c in self.fig.components:
            r = st.boxes.get(c.id)
            if c.kind == "group" and r is not None:
                for side in ((r[0], r[1], r[2], 0.0), (r[0], r[1] + r[3], r[2], 0.0),
                             (r[0], r[1], 0.0, r[3]), (r[0] + r[2], r[1], 0.0, r[3])):
                    index.add(side, ("frame", c.id))
        edges = [e for e in self.fig.of_kind("edge") if e.label and e.id in st.routes]
        routes = st.final = self.final_routes(st)
        for eid, pts in routes.items():
            for p, q in zip(pts, pts[1:]):
                index.add((min(p[0], q[0]), min(p[1], q[1]), abs(q[0] - p[0]), abs(q[1] - p[1])), ("route", eid))
        for e in edges:
            r = st.label_boxes.get(e.id)
            routing = e.routing or self.fig.routing
            if e.pinned and e.route and e.label_box is not None:
                keep = True  # the user's
            else:
                keep = (r is not None and e.id in st.engine_edges and routing != "straight"
                        and index.free(r, 0.5, ignore=[("route", e.id)]))
            if not keep:
                size = measure.edge_label_size(e, self.theme)
                pts = routes[e.id]
                if routing == "spline":
                    pts = st.routes[e.id]
                r = place_edge_label(pts, size, index, ignore=[("route", e.id)])
            st.label_boxes[e.id] = r
            index.add(r, ("label", e.id))

    # -- 5. finish ----------------------------------------------------------------------
    def final_routes(self, st: _State) -> dict[str, list[Pt]]:
        """Routes in their final style, ends cut at the drawn outlines."""
        out: dict[str, list[Pt]] = {}
        for e in self.fig.of_kind("edge"):
            pts = st.routes.get(e.id)
            if not pts:
                continue
            if e.pinned and e.route:
                out[e.id] = pts
                continue
            routing = e.routing or self.fig.routing
            a, b = st.boxes.get(e.source), st.boxes.get(e.target)
            if routing == "straight" and a is not None and b is not None and e.source != e.target \
                    and not self.is_ancestor(e.source, e.target) and not self.is_ancestor(e.target, e.source):
                pts = straight_route(a, b)
            pts = orthogonalize(pts) if routing != "straight" else simplify(pts)
            if len(pts) < 2:
                pts = list(st.routes[e.id])
            pts = self.clip_ends(e, pts, st)
            if routing == "spline":
                pts = spline_waypoints(pts)
            out[e.id] = pts
        return out

    def clip_ends(self, e: Edge, pts: list[Pt], st: _State) -> list[Pt]:
        pts = list(pts)
        for end, nxt, cid in ((0, 1, e.source), (-1, -2, e.target)):
            c = self.by_id[cid]
            if isinstance(c, Node) and c.shape not in RECT_SHAPES and cid in st.boxes and len(pts) >= 2:
                r = st.boxes[cid]
                box = Box(x=r[0], y=r[1], w=r[2], h=r[3])
                outer = pts[nxt]
                if abs(outer[0] - pts[end][0]) + abs(outer[1] - pts[end][1]) < 1e-6:
                    continue
                pts[end] = clip_to_outline(c.shape, box, pts[end], outer)
        return pts

    def finish(self, st: _State) -> Figure:
        t = self.theme
        routes = st.final or self.final_routes(st)
        comps = []
        xs1 = [0.0]
        ys1 = [0.0]

        def grow(r: Rect) -> None:
            xs1.append(r[0] + r[2])
            ys1.append(r[1] + r[3])

        for c in self.fig.components:
            upd: dict = {}
            if isinstance(c, Edge):
                pts = routes.get(c.id)
                if pts:
                    rounded = simplify([(r2(x), r2(y)) for x, y in pts])
                    if len(rounded) < 2:
                        rounded = [(r2(x), r2(y)) for x, y in (pts[0], pts[-1])]
                    upd["route"] = [Point(x=x, y=y) for x, y in rounded]
                    for x, y in rounded:
                        xs1.append(x)
                        ys1.append(y)
                lb = st.label_boxes.get(c.id) if c.label else None
                if lb is not None and not (c.pinned and c.label_box is not None and _rect(c.label_box) == lb):
                    upd["label_box"] = _box(lb)
                    grow(lb)
                elif lb is None:
                    upd["label_box"] = None
                else:
                    grow(lb)
            else:
                r = st.boxes.get(c.id)
                if r is not None:
                    grow(r)
                    if c.pinned and c.box is not None and _rect(c.box) == r:
                        pass  # pinned: kept exactly
                    elif c.id in self.fixed and c.box is not None and _rect(c.box) == r:
                        pass
                    elif isinstance(c, Path) and c.box is None:
                        pass  # path data carries its own geometry
                    else:
                        upd["box"] = _box(r)
            comps.append(c.model_copy(update=upd) if upd else c)
        if self.fig.title:  # a figure with nothing below its title still has room for it
            ys1.append(t.margin + self.title_band(max(xs1) - t.margin))
        canvas = Size(w=r2(max(xs1) + t.margin), h=r2(max(ys1) + t.margin))
        return self.fig.model_copy(update={"components": comps, "canvas": canvas})


def _box(r: Rect) -> Box:
    # sizes were measured to 2 decimals already: rounding keeps them, so labels still fit
    return Box(x=r2(r[0]), y=r2(r[1]), w=max(r2(r[2]), 0.0), h=max(r2(r[3]), 0.0))


def _first_overlap(area: Area, lay: AreaLayout) -> str | None:
    """The first pair of leaves an engine placed on top of each other (a sweep over x)."""
    leaves = sorted(((lay.boxes[it.id], it.id) for it in area.walk() if not it.container and it.id in lay.boxes),
                    key=lambda p: (p[0][0], p[1]))
    active: list[tuple[Rect, str]] = []
    for r, cid in leaves:
        active = [(a, aid) for a, aid in active if a[0] + a[2] > r[0] + 0.5]
        for a, aid in active:
            if _overlap(a, r, -0.5):
                return f"'{aid}' and '{cid}'"
        active.append((r, cid))
    return None
