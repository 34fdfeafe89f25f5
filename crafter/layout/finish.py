"""Laying out a figure, part 3: the edges no engine routed, edge labels, final routes and the
laid-out figure (boxes, routes, label boxes, canvas rounded to 0.01 px)."""

from __future__ import annotations

from crafter.base.rules import group_band
from crafter.layout import measure
from crafter.layout.labels import BoxIndex, place_edge_label
from crafter.layout.problem import Pt, Rect
from crafter.layout.routing import (
    FLOW_SIDES,
    orthogonalize,
    route_orthogonal,
    self_loop,
    simplify,
    spline_waypoints,
    straight_route,
)
from crafter.layout.shapes import RECT_SHAPES, clip_to_outline
from crafter.layout.state import (
    ROUTE_CLEARANCE,
    SELF_LOOP_SIZE,
    LayoutState,
    box_of,
    r2,
    rect_of,
    rect_union,
    rects_overlap,
)
from crafter.layout.titles import clear_titles
from crafter.spec.model import (
    Box,
    Chart,
    Edge,
    Figure,
    Node,
    Path,
    Point,
    Size,
    Text,
)


class Finishing:
    """Routes for edges no engine routed, edge labels, routes in their drawn style with ends on the
    outlines, and the laid-out figure. A part of :class:`crafter.layout.figure.FigureLayout`."""

    def route_leftover_edges(self, st: LayoutState, obstacles: BoxIndex, only_edge: str | None = None) -> None:
        for e in self.fig.of_kind("edge"):
            if only_edge is not None and e.id != only_edge:
                continue
            if e.id in st.routes:
                continue
            if e.pinned and e.route:
                st.routes[e.id] = [(p.x, p.y) for p in e.route]
                if e.label_box is not None:
                    st.label_boxes[e.id] = rect_of(e.label_box)
                continue
            a, b = st.boxes.get(e.source), st.boxes.get(e.target)
            if a is None or b is None:
                continue
            st.routes[e.id] = self.route_one(e, a, b, obstacles, st)

    def route_one(self, e: Edge, a: Rect, b: Rect, obstacles: BoxIndex, st: LayoutState) -> list[Pt]:
        direction = self.direction_of(e.source)
        if e.source == e.target:
            return self_loop(a, direction, SELF_LOOP_SIZE)
        if self.is_ancestor(e.source, e.target):
            return self.to_enclosing(b, a, reverse=True)
        if self.is_ancestor(e.target, e.source):
            return self.to_enclosing(a, b, reverse=False)
        ignore = {e.source, e.target, *self.ancestors(e.source), *self.ancestors(e.target)}
        near = [r for r, k in obstacles.query(rect_union([a, b]), 240.0) if k not in ignore]
        # containers are not obstacles, but a route must not run through a leaf inside an endpoint
        src_out, dst_in = FLOW_SIDES[direction]
        forward = {
            "LR": b[0] >= a[0] + a[2], "RL": b[0] + b[2] <= a[0],
            "TB": b[1] >= a[1] + a[3], "BT": b[1] + b[3] <= a[1],
        }[direction]
        prefer = (src_out, dst_in) if forward else None
        window = rect_union([a, b])
        others = [pts for pts in st.routes.values()
                  if pts and rects_overlap(rect_union([(p[0], p[1], 0.0, 0.0) for p in pts]), window, 240.0)]
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

    def place_edge_labels(self, st: LayoutState, obstacles: BoxIndex) -> None:
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
    def final_routes(self, st: LayoutState) -> dict[str, list[Pt]]:
        """Routes in their final style, ends cut at the drawn outlines."""
        out: dict[str, list[Pt]] = {}
        titles = self.title_rects(st)
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
            if routing != "straight" and titles:
                blocks = [r for cid, r in st.boxes.items() if cid not in (e.source, e.target)
                          and isinstance(self.by_id.get(cid), (Node, Chart, Text))]
                pts = clear_titles(pts, titles, blocks, (a, b))
            pts = self.clip_ends(e, pts, st)
            if routing == "spline":
                pts = spline_waypoints(pts)
            out[e.id] = pts
        return out

    def title_rects(self, st: LayoutState) -> list[Rect]:
        """Where each titled group's title sits: the heading's width across the top band of its frame."""
        out = []
        for g in self.fig.of_kind("group"):
            r = st.boxes.get(g.id)
            if g.label and r is not None:
                out.append((r[0], r[1], min(measure.group_label_width(g, self.theme), r[2]),
                            min(group_band(g, self.theme), r[3])))
        return out

    def clip_ends(self, e: Edge, pts: list[Pt], st: LayoutState) -> list[Pt]:
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

    def finish(self, st: LayoutState) -> Figure:
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
                if lb is not None and not (c.pinned and c.label_box is not None and rect_of(c.label_box) == lb):
                    upd["label_box"] = box_of(lb)
                    grow(lb)
                elif lb is None:
                    upd["label_box"] = None
                else:
                    grow(lb)
            else:
                r = st.boxes.get(c.id)
                if r is not None:
                    grow(r)
                    if c.pinned and c.box is not None and rect_of(c.box) == r:
                        pass  # pinned: kept exactly
                    elif c.id in self.fixed and c.box is not None and rect_of(c.box) == r:
                        pass
                    elif isinstance(c, Path) and c.box is None:
                        pass  # path data carries its own geometry
                    else:
                        upd["box"] = box_of(r)
            comps.append(c.model_copy(update=upd) if upd else c)
        if self.fig.title:  # a figure with nothing below its title still has room for it
            ys1.append(t.margin + self.title_band(max(xs1) - t.margin))
        canvas = Size(w=r2(max(xs1) + t.margin), h=r2(max(ys1) + t.margin))
        return self.fig.model_copy(update={"components": comps, "canvas": canvas})
