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

from crafter.base.geometry import polyline_midpoint
from crafter.base.theme import Theme, figure_theme
from crafter.errors import CrafterError
from crafter.layout import measure
from crafter.layout.areas import AreaPlanning
from crafter.layout.finish import Finishing
from crafter.layout.labels import BoxIndex, place_annotation
from crafter.layout.problem import AreaLayout, Pt, Rect
from crafter.layout.state import (
    CONTAINER_KINDS,
    LEAF_KINDS,
    AreaPlan,
    LayoutState,
    rect_union,
    rects_overlap,
    shifted,
)
from crafter.spec.model import (
    Component,
    Edge,
    Figure,
    Group,
    Text,
    parents,
)

log = logging.getLogger(__name__)

ENGINES = ("auto", "elk", "python")


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
    return FigureLayout(fig, engine).run()


class FigureLayout(AreaPlanning, Finishing):
    """One figure being laid out: areas (:mod:`crafter.layout.areas`), what no area holds (here: leftovers, notes,
    pinned containers), then
    edges, labels and the final figure (:mod:`crafter.layout.finish`)."""

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
        st = LayoutState()
        self.compose(plans, st)
        self.leftovers(st)
        return self.finish(st)

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
        bb = rect_union(moving)
        index = BoxIndex(cell=128.0)
        for r in fixed:
            index.add(r, None)
        ideal = (origin[0] + max(pull[0], 0.0), origin[1] + max(pull[1], 0.0))

        def clear(dx: float, dy: float) -> bool:
            return all(index.free(shifted(r, dx, dy), sep) for r in moving)

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

    def adopt(self, p: AreaPlan, st: LayoutState) -> None:
        """Copy an area's results onto the canvas at the area's offset."""
        lay = p.layout
        assert lay is not None
        ox, oy = p.offset
        for cid, r in lay.boxes.items():
            st.boxes[cid] = shifted(r, ox, oy)
        for cid, r in lay.annotation_boxes.items():
            st.boxes[cid] = shifted(r, ox, oy)
        for eid, pts in lay.routes.items():
            st.routes[eid] = [(x + ox, y + oy) for x, y in pts]
            st.engine_edges.add(eid)
        for eid, r in lay.label_boxes.items():
            st.label_boxes[eid] = shifted(r, ox, oy)

    def place_inside(self, p: AreaPlan, st: LayoutState) -> None:
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
    def leftovers(self, st: LayoutState) -> None:
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

    def lift_flow_side_notes(self, st: LayoutState) -> None:
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
                        and not any(rects_overlap(lifted, lb) for lb in st.label_boxes.values()):
                    st.boxes[a.id] = lifted

    def place_loose_text(self, x: Text, st: LayoutState, obstacles: BoxIndex) -> None:
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

    def fit_containers(self, st: LayoutState) -> None:
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
            u = rect_union(rects)
            min_w = self.container_min_width(c)
            if u[2] < min_w:
                u = (u[0], u[1], min_w, u[3])
            st.boxes[c.id] = u
