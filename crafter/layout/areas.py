"""Laying out a figure, part 1: which components form which area, each area solved by an engine, the
areas composed onto the canvas with the title above."""

from __future__ import annotations

import logging

from crafter.base.text import text_width, wrap
from crafter.base.theme import TITLE_MAX_W
from crafter.layout import measure
from crafter.layout.compact import close_gaps, hug_groups
from crafter.layout.elk import elk_available, layout_area_elk
from crafter.layout.layered import layout_area_python
from crafter.layout.problem import Annotation, Area, AreaLayout, EngineError, Item, LayoutEdge, Pt, Rect
from crafter.layout.shapes import node_size
from crafter.layout.state import (
    CONTAINER_KINDS,
    ELK_MAX_LEAVES,
    LEAF_KINDS,
    AreaPlan,
    LayoutState,
    first_overlap,
    rect_of,
    shifted,
)
from crafter.spec.model import (
    Chart,
    Component,
    Group,
    Image,
    Node,
    Panel,
    Path,
    Text,
)

log = logging.getLogger(__name__)


class AreaPlanning:
    """The figure as areas (free components, panels, pinned containers), each solved by an engine and
    composed onto the canvas. A part of :class:`crafter.layout.figure.FigureLayout` (its state: ``fig``,
    ``engine``, ``theme``, ``by_id``, ``parent``)."""

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
                    self.fixed[c.id] = rect_of(c.box)
                else:
                    self.sizes[c.id] = node_size(c, t)
            elif isinstance(c, Chart):
                if pinned:
                    self.fixed[c.id] = rect_of(c.box)
                else:
                    self.sizes[c.id] = measure.chart_size(c, t)
            elif isinstance(c, Image):
                if c.box is not None:  # images come with their place (CraftEditor pins them)
                    self.fixed[c.id] = rect_of(c.box)
                else:
                    self.sizes[c.id] = measure.DEFAULT_IMAGE_SIZE
            elif isinstance(c, Path):
                if c.box is not None:
                    self.fixed[c.id] = rect_of(c.box)
                else:  # path data is absolute: its box is where it is drawn
                    self.fixed[c.id] = measure.path_bounds(c.d) or (0.0, 0.0, 0.0, 0.0)
            elif isinstance(c, Text):
                w, h = measure.annotation_size(c, t)
                if pinned:
                    self.fixed[c.id] = rect_of(c.box)
                elif c.at is not None:  # 'at' is the centre of the text block
                    self.fixed[c.id] = (c.at.x - w / 2, c.at.y - h / 2, w, h)
                elif c.near is not None:
                    self.loose_texts.append(c)
                else:
                    self.sizes[c.id] = (w, h)
            elif isinstance(c, (Group, Panel)) and pinned:
                self.fixed[c.id] = rect_of(c.box)
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

    def plan_areas(self) -> list[AreaPlan]:
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
            plans.append(AreaPlan(root, Area(items=items, edges=[], direction=direction,
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
                problem = first_overlap(area, result)
                if problem is None:
                    self.engines_used.add("elk")
                    return result
                log.warning("ELK layout overlaps %s; using the Python engine", problem)
            except EngineError as e:
                log.warning("ELK layout failed (%s); using the Python engine", e)

        self.engines_used.add("python")
        return layout_area_python(area)

    # -- 3. compose -------------------------------------------------------------------
    def compose(self, plans: list[AreaPlan], st: LayoutState) -> None:
        t = self.theme
        main = [p for p in plans if p.root is None or p.root not in self.fixed_containers]
        inner = [p for p in plans if p.root is not None and p.root in self.fixed_containers]
        # panels in a row, each a frame around its area; the free area after them
        panels = [p for p in main if p.root is not None]
        free = [p for p in main if p.root is None]
        block: dict[str, Rect] = {}
        frames: list[tuple[AreaPlan, Rect, tuple[float, float, float, float]]] = []
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
            st.boxes[pid] = shifted(r, dx, dy)
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
        out = [shifted(r, *offset) for r in lay.boxes.values()]
        out += [shifted(r, *offset) for r in lay.label_boxes.values()]
        out += [shifted(r, *offset) for r in lay.annotation_boxes.values()]
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

    def pull_toward_fixed(self, main: list[AreaPlan]) -> Pt:
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
            r = shifted(plan.layout.boxes[moving], *plan.offset)
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
