"""The pure-Python layered (Sugiyama) engine: the fallback when Node or elkjs is missing.

Groups are laid out bottom-up as blocks: a group's members are laid out first, then the
group is one box among its siblings, so members always sit inside their group and
sibling groups never overlap. An edge that leaves a group gets a *port* on the group's
side: inside the group it runs to a port vertex in an extra last (or first) layer, and
the level above picks it up at that point — the hierarchical ports of ELK's compound
layout, so routes find their own way out of groups. At each level:

1. **Cycle breaking** — depth-first search in the author's order; edges that close a
   cycle are reversed (drawn backwards, around the flow).
2. **Layering** — longest path from the sources, then sources pulled next to their
   first successor. In a left-right flow a labelled edge gets a *label vertex* in a layer
   of its own, so its label has reserved room (as ELK does); in a vertical flow the label
   goes beside its line after layout. Long edges get one dummy vertex per layer.
3. **Crossing reduction** — barycentre sweeps down and up, keeping the best order.
4. **Coordinates** — across the flow, each layer is placed by weighted isotonic
   regression (pool-adjacent-violators) towards where its edges attach on the
   neighbouring layers, a few sweeps: chains come out straight, long edges stay
   straight, nothing overlaps. Along the flow, layers are the theme's rank gap apart,
   or more where many edges turn.
5. **Routing** — orthogonal: each edge leaves its node's flow-end side, runs through its
   dummies' slots and turns on a track of its own in the gaps between layers.

Everything is computed in a frame where the flow runs along ``u`` and layers stack
along ``v``; the four directions are mirrors or transposes of that frame.
"""

from __future__ import annotations

from crafter.layout.problem import Area, AreaLayout, Item, LayoutEdge, Pt, Rect
from crafter.layout.routing import route_orthogonal, self_loop, simplify
from crafter.layout.sugiyama import (
    ANNOTATION_GAP,
    JOIN_CLEARANCE,
    SELF_LOOP_SIZE,
    Block,
    Frame,
    Level,
    LevelEdge,
    cycle_edges,
    is_horizontal,
)


def layout_area_python(area: Area) -> AreaLayout:
    """Lay out an area with the pure-Python layered engine."""
    return Layered(area).run()


def _frame_pad(pad: tuple[float, float, float, float], direction: str) -> tuple[float, float, float, float]:
    """(top, right, bottom, left) -> (flow start, flow end, cross start, cross end)."""
    top, right, bottom, left = pad
    return {
        "LR": (left, right, top, bottom), "RL": (right, left, top, bottom),
        "TB": (top, bottom, left, right), "BT": (bottom, top, left, right),
    }[direction]


class Layered:
    def __init__(self, area: Area) -> None:
        self.area = area
        self.d = area.direction
        self.items: dict[str, Item] = {}
        self.parent: dict[str, str | None] = {}
        for it in area.items:
            self._index(it, None)
        self.self_loops = {e.source for e in area.edges if e.source == e.target}
        self.level_edges: dict[str | None, list[LevelEdge]] = {}
        lifted = [(e, *self._lift(e)) for e in area.edges if e.source != e.target]
        # which edges run against the flow is decided per level before any level is laid out,
        # so the groups an edge leaves know on which side to put its port
        at_level: dict[str | None, list[tuple[str, str]]] = {}
        for e, lca, cs, ct, k in lifted:
            at_level.setdefault(lca, []).append((cs[k], ct[k]))
        back: dict[str | None, set[tuple[str, str]]] = {}
        for lca, pairs in at_level.items():
            kids = [c.id for c in (self.items[lca].children if lca is not None else area.items)]
            back[lca] = cycle_edges(kids, pairs)
        for e, lca, cs, ct, k in lifted:
            self._assign(e, lca, cs, ct, k, (cs[k], ct[k]) in back[lca])

    def _index(self, it: Item, parent: str | None) -> None:
        self.items[it.id] = it
        self.parent[it.id] = parent
        for c in it.children:
            self._index(c, it.id)

    def chain(self, cid: str) -> list[str]:
        """``cid`` and its containers, outermost first."""
        out = [cid]
        while self.parent[out[-1]] is not None:
            out.append(self.parent[out[-1]])  # type: ignore[arg-type]
        return out[::-1]

    def _lift(self, e: LayoutEdge) -> tuple[str | None, list[str], list[str], int]:
        cs, ct = self.chain(e.source), self.chain(e.target)
        k = 0
        while k < min(len(cs), len(ct)) and cs[k] == ct[k]:
            k += 1
        return (cs[k - 1] if k > 0 else None), cs, ct, k

    def _assign(self, e: LayoutEdge, lca: str | None, cs: list[str], ct: list[str], k: int, back: bool) -> None:
        """Split an edge into the pieces each level routes: out of the source's groups, the stretch
        at the lowest common level, into the target's groups. A backward edge leaves its groups by
        their flow-start side and enters by the flow-end side."""
        self.level_edges.setdefault(lca, []).append(LevelEdge(e, "edge", cs[k], ct[k], (1, 0), back))
        for depth in range(k, len(cs) - 1):  # groups the source is inside, below the common level
            self.level_edges.setdefault(cs[depth], []).append(
                LevelEdge(e, "out", cs[depth + 1], None, (0, -depth), back))
        for depth in range(k, len(ct) - 1):
            self.level_edges.setdefault(ct[depth], []).append(
                LevelEdge(e, "in", None, ct[depth + 1], (2, depth), back))

    # -----------------------------------------------------------------------------
    def run(self) -> AreaLayout:
        root = self.layout_level(None, self.area.items)
        return self.to_real(root)

    def size_to_frame(self, w: float, h: float) -> tuple[float, float]:
        return (w, h) if is_horizontal(self.d) else (h, w)

    def rect_to_frame(self, r: Rect, W: float, H: float) -> Frame:
        """A real rect inside a W x H real box -> the same rect in that box's frame."""
        x, y, w, h = r
        if self.d == "LR":
            return (x, y, w, h)
        if self.d == "RL":
            return (W - x - w, y, w, h)
        if self.d == "TB":
            return (y, x, h, w)
        return (H - y - h, x, h, w)

    def leaf_block(self, it: Item) -> Block:
        """A leaf with room for its annotations (and self-loop) around it."""
        above = [a for a in it.annotations if a.side == "above"]
        below = [a for a in it.annotations if a.side == "below"]
        left = [a for a in it.annotations if a.side == "left"]
        right = [a for a in it.annotations if a.side == "right"]
        mt = sum(a.h + ANNOTATION_GAP for a in above)
        mb = sum(a.h + ANNOTATION_GAP for a in below)
        ml = sum(a.w + ANNOTATION_GAP for a in left)
        mr = sum(a.w + ANNOTATION_GAP for a in right)
        core_w = max([it.w] + [a.w for a in above + below])
        core_h = max([it.h] + [a.h for a in left + right])
        if it.id in self.self_loops:  # the loop goes over the top-right corner (see routing.self_loop)
            loop = SELF_LOOP_SIZE + 4
            if self.d == "LR":
                mr, mt = mr + loop, mt + loop
            elif self.d == "RL":
                ml, mt = ml + loop, mt + loop
            elif self.d == "TB":
                mr, mb = mr + loop, mb + loop
            else:
                mr, mt = mr + loop, mt + loop
        W, H = ml + core_w + mr, mt + core_h + mb
        x0, y0 = ml + (core_w - it.w) / 2, mt + (core_h - it.h) / 2
        real: dict[str, Rect] = {}
        y = y0
        for a in above:
            y -= ANNOTATION_GAP + a.h
            real[a.id] = (x0 + (it.w - a.w) / 2, y, a.w, a.h)
        y = y0 + it.h
        for a in below:
            real[a.id] = (x0 + (it.w - a.w) / 2, y + ANNOTATION_GAP, a.w, a.h)
            y += ANNOTATION_GAP + a.h
        # beside the side edges enter or leave by, a note goes up to the top corner, off the edges
        flow_side = is_horizontal(self.d)
        x = x0
        for a in left:
            x -= ANNOTATION_GAP + a.w
            real[a.id] = (x, y0 if flow_side else y0 + (it.h - a.h) / 2, a.w, a.h)
        x = x0 + it.w
        for a in right:
            real[a.id] = (x + ANNOTATION_GAP, y0 if flow_side else y0 + (it.h - a.h) / 2, a.w, a.h)
            x += ANNOTATION_GAP + a.w
        blk = Block(it.id, *self.size_to_frame(W, H))
        blk.core = self.rect_to_frame((x0, y0, it.w, it.h), W, H)
        blk.inner[it.id] = blk.core
        for aid, r in real.items():
            blk.annotations[aid] = self.rect_to_frame(r, W, H)
        return blk

    # -- one level and its padding ---------------------------------------------------------
    def layout_level(self, container: str | None, children: list[Item]) -> Block:
        blocks: dict[str, Block] = {}
        for it in children:
            blocks[it.id] = self.layout_level(it.id, it.children) if it.container else self.leaf_block(it)
        level = Level(self, [it.id for it in children], blocks, self.level_edges.get(container, []))
        level.solve()
        if container is None:
            pad = (0.0, 0.0, 0.0, 0.0)
            min_u = min_v = 0.0
        else:
            it = self.items[container]
            pad = _frame_pad(it.padding, self.d)
            min_u, min_v = self.size_to_frame(it.w, it.h)
        fu = max(level.width + pad[0] + pad[1], min_u)
        fv = max(level.height + pad[2] + pad[3], min_v)
        du = pad[0] + (fu - pad[0] - pad[1] - level.width) / 2
        dv = pad[2]
        blk = Block(container or "", fu, fv, container=True)

        def mv(r: Frame, u: float, v: float) -> Frame:
            return (r[0] + u, r[1] + v, r[2], r[3])

        for cid, b in blocks.items():
            u, v = level.pos[cid]
            u, v = u + du, v + dv
            blk.inner[cid] = (u, v, b.fu, b.fv) if b.container else mv(b.core, u, v)
            for k, r in b.inner.items():
                if k != cid:
                    blk.inner[k] = mv(r, u, v)
            for k, r in b.annotations.items():
                blk.annotations[k] = mv(r, u, v)
            for k, r in b.labels.items():
                blk.labels[k] = mv(r, u, v)
            for k, pieces in b.pieces.items():
                blk.pieces.setdefault(k, []).extend((key, [(p[0] + u, p[1] + v) for p in pts]) for key, pts in pieces)
        for k, r in level.labels.items():
            blk.labels[k] = mv(r, du, dv)
        for le, pts in level.pieces:
            pts = [(p[0] + du, p[1] + dv) for p in pts]
            # carry port pieces across the padding to the group's side (flow end, or start if backward)
            if le.kind == "out":
                pts.append((0.0 if le.back else fu, pts[-1][1]))
                blk.ports[le.edge.id] = pts[-1][1]
            elif le.kind == "in":
                pts.insert(0, (fu if le.back else 0.0, pts[0][1]))
                blk.ports[le.edge.id] = pts[0][1]
            blk.pieces.setdefault(le.edge.id, []).append((le.key, pts))
        return blk

    # -- back to real coordinates -----------------------------------------------------------
    def to_real(self, root: Block) -> AreaLayout:
        W, H = (root.fu, root.fv) if is_horizontal(self.d) else (root.fv, root.fu)

        def pt(p: Pt) -> Pt:
            u, v = p
            if self.d == "LR":
                return (u, v)
            if self.d == "RL":
                return (W - u, v)
            if self.d == "TB":
                return (v, u)
            return (v, H - u)

        def rect(r: Frame) -> Rect:
            u, v, fu, fv = r
            if self.d == "LR":
                return (u, v, fu, fv)
            if self.d == "RL":
                return (W - u - fu, v, fu, fv)
            if self.d == "TB":
                return (v, u, fv, fu)
            return (v, H - u - fu, fv, fu)

        out = AreaLayout(engine="python")
        for cid, r in root.inner.items():
            out.boxes[cid] = rect(r)
        for cid, r in root.annotations.items():
            out.annotation_boxes[cid] = rect(r)
        for eid, r in root.labels.items():
            out.label_boxes[eid] = rect(r)
        for e in self.area.edges:
            if e.source == e.target:
                out.routes[e.id] = self_loop(out.boxes[e.source], self.d, SELF_LOOP_SIZE)
                continue
            pieces = [[pt(p) for p in pts] for _, pts in sorted(root.pieces[e.id], key=lambda kp: kp[0])]
            route = pieces[0]
            for piece in pieces[1:]:
                gap = abs(route[-1][0] - piece[0][0]) + abs(route[-1][1] - piece[0][1])
                if gap > 0.5:  # a backward edge leaves its group on the other side: go around
                    route = route + self.join(route[-1], piece[0], out.boxes, e) + piece
                else:
                    route = route + piece
            out.routes[e.id] = simplify(route)
        out.normalise()
        return out

    def join(self, p: Pt, q: Pt, boxes: dict[str, Rect], e: LayoutEdge) -> list[Pt]:
        """An orthogonal detour from ``p`` to ``q`` around the leaves and the groups in between."""
        a = (p[0] - 0.5, p[1] - 0.5, 1.0, 1.0)
        b = (q[0] - 0.5, q[1] - 0.5, 1.0, 1.0)
        holders = set(self.chain(e.source)) | set(self.chain(e.target))
        obstacles = []
        for cid, r in boxes.items():
            it = self.items[cid]
            if cid in (e.source, e.target):
                continue
            if it.container and cid in holders:
                # the group the edge leaves is in the way too, but its side is where p and q lie
                obstacles.append((r[0] + 1, r[1] + 1, max(r[2] - 2, 0.0), max(r[3] - 2, 0.0)))
            else:
                obstacles.append(r)
        path = route_orthogonal(a, b, obstacles, clearance=JOIN_CLEARANCE, give_up=True)
        if path is None:
            return []
        return path


# ---------------------------------------------------------------------------------
# One level: layered layout of sibling blocks
# ---------------------------------------------------------------------------------
