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

from dataclasses import dataclass, field

from crafter.layout.problem import Area, AreaLayout, Item, LayoutEdge, Pt, Rect
from crafter.layout.routing import route_orthogonal, self_loop, simplify

SELF_LOOP_SIZE = 14.0
LABEL_SLOT = 8.0  # room for the line beside an edge label in its label vertex
ANNOTATION_GAP = 4.0
JOIN_CLEARANCE = 6.0
DUMMY_BUDGET = 6000  # dummy vertices a level may add beyond a few per vertex (see _Level.insert_dummies)

Frame = tuple[float, float, float, float]  # u, v, extent along u, extent along v


def layout_area_python(area: Area) -> AreaLayout:
    """Lay out an area with the pure-Python layered engine."""
    return _Layered(area).run()


def _horizontal(direction: str) -> bool:
    return direction in ("LR", "RL")


def _frame_pad(pad: tuple[float, float, float, float], direction: str) -> tuple[float, float, float, float]:
    """(top, right, bottom, left) -> (flow start, flow end, cross start, cross end)."""
    top, right, bottom, left = pad
    return {
        "LR": (left, right, top, bottom), "RL": (right, left, top, bottom),
        "TB": (top, bottom, left, right), "BT": (bottom, top, left, right),
    }[direction]


@dataclass
class _LevelEdge:
    """An edge as one level sees it: between two children, or between a child and the level's port."""

    edge: LayoutEdge
    kind: str  # "edge" (both ends here), "out" (leaves this group), "in" (enters it)
    a: str | None  # child holding the source (None for "in")
    b: str | None  # child holding the target (None for "out")
    key: tuple[int, int]  # where this piece goes in the whole route (sorted)
    back: bool = False  # the edge runs against the flow where its ends meet


@dataclass
class _Block:
    """A laid-out item in frame coordinates, with everything inside it."""

    id: str
    fu: float
    fv: float
    core: Frame = (0.0, 0.0, 0.0, 0.0)  # a leaf's own box inside its block (annotations take the rest)
    inner: dict[str, Frame] = field(default_factory=dict)  # every item inside (and a leaf itself)
    annotations: dict[str, Frame] = field(default_factory=dict)
    labels: dict[str, Frame] = field(default_factory=dict)
    pieces: dict[str, list[tuple[tuple[int, int], list[Pt]]]] = field(default_factory=dict)
    ports: dict[str, float] = field(default_factory=dict)  # edge -> cross position on this block's side
    container: bool = False


class _Layered:
    def __init__(self, area: Area) -> None:
        self.area = area
        self.d = area.direction
        self.items: dict[str, Item] = {}
        self.parent: dict[str, str | None] = {}
        for it in area.items:
            self._index(it, None)
        self.self_loops = {e.source for e in area.edges if e.source == e.target}
        self.level_edges: dict[str | None, list[_LevelEdge]] = {}
        lifted = [(e, *self._lift(e)) for e in area.edges if e.source != e.target]
        # which edges run against the flow is decided per level before any level is laid out,
        # so the groups an edge leaves know on which side to put its port
        at_level: dict[str | None, list[tuple[str, str]]] = {}
        for e, lca, cs, ct, k in lifted:
            at_level.setdefault(lca, []).append((cs[k], ct[k]))
        back: dict[str | None, set[tuple[str, str]]] = {}
        for lca, pairs in at_level.items():
            kids = [c.id for c in (self.items[lca].children if lca is not None else area.items)]
            back[lca] = _cycle_edges(kids, pairs)
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
        self.level_edges.setdefault(lca, []).append(_LevelEdge(e, "edge", cs[k], ct[k], (1, 0), back))
        for depth in range(k, len(cs) - 1):  # groups the source is inside, below the common level
            self.level_edges.setdefault(cs[depth], []).append(
                _LevelEdge(e, "out", cs[depth + 1], None, (0, -depth), back))
        for depth in range(k, len(ct) - 1):
            self.level_edges.setdefault(ct[depth], []).append(
                _LevelEdge(e, "in", None, ct[depth + 1], (2, depth), back))

    # -----------------------------------------------------------------------------
    def run(self) -> AreaLayout:
        root = self.layout_level(None, self.area.items)
        return self.to_real(root)

    def size_to_frame(self, w: float, h: float) -> tuple[float, float]:
        return (w, h) if _horizontal(self.d) else (h, w)

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

    def leaf_block(self, it: Item) -> _Block:
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
        flow_side = _horizontal(self.d)
        x = x0
        for a in left:
            x -= ANNOTATION_GAP + a.w
            real[a.id] = (x, y0 if flow_side else y0 + (it.h - a.h) / 2, a.w, a.h)
        x = x0 + it.w
        for a in right:
            real[a.id] = (x + ANNOTATION_GAP, y0 if flow_side else y0 + (it.h - a.h) / 2, a.w, a.h)
            x += ANNOTATION_GAP + a.w
        blk = _Block(it.id, *self.size_to_frame(W, H))
        blk.core = self.rect_to_frame((x0, y0, it.w, it.h), W, H)
        blk.inner[it.id] = blk.core
        for aid, r in real.items():
            blk.annotations[aid] = self.rect_to_frame(r, W, H)
        return blk

    # -- one level and its padding ---------------------------------------------------------
    def layout_level(self, container: str | None, children: list[Item]) -> _Block:
        blocks: dict[str, _Block] = {}
        for it in children:
            blocks[it.id] = self.layout_level(it.id, it.children) if it.container else self.leaf_block(it)
        level = _Level(self, [it.id for it in children], blocks, self.level_edges.get(container, []))
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
        blk = _Block(container or "", fu, fv, container=True)

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
    def to_real(self, root: _Block) -> AreaLayout:
        W, H = (root.fu, root.fv) if _horizontal(self.d) else (root.fv, root.fu)

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


@dataclass
class _Vertex:
    key: str
    kind: str  # "block", "dummy", "label", "port"
    fu: float = 0.0
    fv: float = 0.0
    layer: int = 0
    pos: float = 0.0  # centre across the flow
    order: int = 0


class _Level:
    def __init__(self, eng: _Layered, ids: list[str], blocks: dict[str, _Block], edges: list[_LevelEdge]) -> None:
        self.eng = eng
        self.ids = ids
        self.blocks = blocks
        self.edges = edges
        a = eng.area
        self.node_sep = a.node_sep
        self.rank_sep = a.rank_sep
        self.edge_sep = a.edge_sep
        self.horizontal = _horizontal(eng.d)
        self.pos: dict[str, Pt] = {}  # block id -> frame top-left
        self.labels: dict[str, Frame] = {}
        self.pieces: list[tuple[_LevelEdge, list[Pt]]] = []
        self.width = self.height = 0.0

    # -----------------------------------------------------------------------------
    def solve(self) -> None:
        V: dict[str, _Vertex] = {}
        for cid in self.ids:
            b = self.blocks[cid]
            V[cid] = _Vertex(cid, "block", b.fu, b.fv)
        self.V = V
        back = _cycle_edges(self.ids, [(le.a, le.b) for le in self.edges if le.kind == "edge"])  # type: ignore[misc]
        # each piece as a chain of vertices in the drawing's direction (dummies come later)
        self.chains: dict[int, list[str]] = {}
        self.reversed: set[int] = set()
        dag: list[tuple[str, str]] = []
        outs: list[tuple[int, str]] = []
        ins: list[tuple[int, str]] = []
        for i, le in enumerate(self.edges):
            eid = le.edge.id
            if le.kind in ("out", "in"):
                key = f"\0{le.kind}:{eid}"
                V[key] = _Vertex(key, "port")
                inner = le.a if le.kind == "out" else le.b
                # forward: out-ports after the last layer, in-ports before the first; backward: swapped
                late = (le.kind == "out") != le.back
                self.chains[i] = [inner, key] if late else [key, inner]  # type: ignore[list-item]
                (outs if late else ins).append((i, key))
                if le.back:  # the chain was built along the flow: the route runs against it
                    self.reversed.add(i)
                continue
            a, b = le.a, le.b
            assert a is not None and b is not None
            rev = (a, b) in back
            u, w = (b, a) if rev else (a, b)
            if rev:
                self.reversed.add(i)
            # in a vertical flow a label sits beside its line, placed after layout (as with ELK):
            # a label vertex there would cost a whole layer of height
            if le.edge.label is not None and self.horizontal:
                lw, lh = le.edge.label
                lu, lv = (lw, lh) if self.horizontal else (lh, lw)
                key = f"\0label:{eid}"
                V[key] = _Vertex(key, "label", lu, lv + LABEL_SLOT)
                dag += [(u, key), (key, w)]
                self.chains[i] = [u, key, w]
            else:
                dag.append((u, w))
                self.chains[i] = [u, w]
        self.layering(dag, outs, ins)
        self.insert_dummies()
        self.order_layers()
        self.place_across()
        self.route()

    # -- 2. layers ------------------------------------------------------------------
    def layering(self, dag: list[tuple[str, str]], outs: list[tuple[int, str]], ins: list[tuple[int, str]]) -> None:
        V = self.V
        inner = [k for k, v in V.items() if v.kind != "port"]
        succ: dict[str, list[str]] = {k: [] for k in inner}
        pred: dict[str, list[str]] = {k: [] for k in inner}
        for a, b in dag:
            succ[a].append(b)
            pred[b].append(a)
        indeg = {k: len(pred[k]) for k in inner}
        queue = [k for k in inner if indeg[k] == 0]
        topo: list[str] = []
        i = 0
        while i < len(queue):
            v = queue[i]
            i += 1
            topo.append(v)
            for w in succ[v]:
                indeg[w] -= 1
                if indeg[w] == 0:
                    queue.append(w)
        layer = {k: 0 for k in inner}
        for v in topo:
            for w in succ[v]:
                layer[w] = max(layer[w], layer[v] + 1)
        # sources sit just before their nearest successor, not all in the first layer
        for v in reversed(topo):
            if not pred[v] and succ[v]:
                layer[v] = min(layer[w] for w in succ[v]) - 1
        first = 1 if ins else 0
        last = max(layer.values(), default=0) + first
        for k in inner:
            V[k].layer = layer[k] + first
        for _, key in ins:  # ports into this group: a layer before everything
            V[key].layer = 0
        for _, key in outs:  # ports out of it: a layer after everything
            V[key].layer = last + 1
        self.port_layers = {0} if ins else set()
        if outs:
            self.port_layers.add(last + 1)

    def insert_dummies(self) -> None:
        V = self.V
        # A dummy per layer crossed keeps long edges off the nodes. On huge levels (a group
        # holding hundreds of chained nodes, each with an edge out of it) that is quadratic;
        # there long edges go without, and may cross nodes: a 5,000-node figure still lays
        # out in seconds.
        excess = sum(max(V[b].layer - V[a].layer - 1, 0) for chain in self.chains.values()
                     for a, b in zip(chain, chain[1:]))
        self.with_dummies = excess <= DUMMY_BUDGET + (4 if len(V) <= 1000 else 1) * len(V)
        for i, chain in self.chains.items():
            if not self.with_dummies:
                break
            eid = self.edges[i].edge.id
            full = [chain[0]]
            for a, b in zip(chain, chain[1:]):
                for k in range(V[a].layer + 1, V[b].layer):
                    key = f"\0dummy:{self.edges[i].kind}:{eid}:{k}"
                    V[key] = _Vertex(key, "dummy", 0.0, 0.0, k)
                    full.append(key)
                full.append(b)
            self.chains[i] = full
        self.up: dict[str, list[str]] = {k: [] for k in V}
        self.down: dict[str, list[str]] = {k: [] for k in V}
        # (neighbour, this end's attach offset, the other end's, weight) per neighbour
        self.up_adj: dict[str, list[tuple[str, float, float, float]]] = {k: [] for k in V}
        self.down_adj: dict[str, list[tuple[str, float, float, float]]] = {k: [] for k in V}
        for i, chain in self.chains.items():
            for a, b in zip(chain, chain[1:]):
                oa, ob = self.attach_offset(i, a), self.attach_offset(i, b)
                w = _weight(V[a].kind, V[b].kind)
                self.down[a].append(b)
                self.down_adj[a].append((b, oa, ob, w))
                self.up[b].append(a)
                self.up_adj[b].append((a, ob, oa, w))
        n_layers = max((v.layer for v in V.values()), default=0) + 1
        self.layers: list[list[str]] = [[] for _ in range(n_layers)]
        # first order: depth-first discovery from the author's order keeps components together
        seen: set[str] = set()
        for s in list(self.ids) + list(V):
            if s in seen:
                continue
            stack = [s]
            while stack:
                v = stack.pop()
                if v in seen:
                    continue
                seen.add(v)
                self.layers[V[v].layer].append(v)
                stack.extend(reversed(self.down[v] + self.up[v]))

    # -- 3. crossing reduction -------------------------------------------------------------
    def order_layers(self) -> None:
        layers = self.layers
        V = self.V
        sweeps = 8 if len(V) <= 300 else (4 if len(V) <= 3000 else 2)

        def set_orders() -> None:
            for L in layers:
                for j, k in enumerate(L):
                    V[k].order = j

        set_orders()
        best = [list(L) for L in layers]
        best_c = self.crossings()
        if len(layers) < 2:
            return
        # on a tie, long edges and ports go after (below, or right of) the nodes: then an edge
        # leaving one group and entering another keeps to the same side of both
        thin = {k: 1 if v.kind in ("dummy", "port") else 0 for k, v in V.items()}
        for s in range(max(sweeps, 2)):
            if s % 2 == 0:
                rng, nbr = range(1, len(layers)), self.up
            else:
                rng, nbr = range(len(layers) - 2, -1, -1), self.down
            for i in rng:
                L = layers[i]
                bary = {}
                for k in L:
                    ns = nbr[k]
                    bary[k] = sum(V[n].order for n in ns) / len(ns) if ns else V[k].order
                L.sort(key=lambda k: (bary[k], thin[k], V[k].order))
                for j, k in enumerate(L):
                    V[k].order = j
            c = self.crossings()
            if c <= best_c:
                best_c, best = c, [list(L) for L in layers]
                if c == 0 and s >= 1:
                    break
        self.layers = layers = best
        set_orders()

    def crossings(self) -> int:
        """Edge crossings between consecutive layers (an inversion count)."""
        V = self.V
        total = 0
        for L in self.layers[:-1]:
            pairs = sorted((V[a].order, V[b].order) for a in L for b in self.down[a])
            total += _inversions([p[1] for p in pairs])
        return total

    # -- 4. coordinates ----------------------------------------------------------------------
    def sep(self, a: _Vertex, b: _Vertex) -> float:
        thin_a, thin_b = a.kind in ("dummy", "port"), b.kind in ("dummy", "port")
        if thin_a and thin_b:
            return self.edge_sep
        if thin_a or thin_b:
            return self.edge_sep + 2
        return self.node_sep

    def place_across(self) -> None:
        V = self.V
        layers = self.layers
        gaps = []
        for L in layers:
            g = [0.0]
            for a, b in zip(L, L[1:]):
                va, vb = V[a], V[b]
                g.append(g[-1] + (va.fv + vb.fv) / 2 + self.sep(va, vb))
            gaps.append(g)
            for k, off in zip(L, g):
                V[k].pos = off - g[-1] / 2  # every layer starts centred on one line

        def sweep(order: range, adjs: list[dict[str, list[tuple[str, float, float, float]]]]) -> None:
            for i in order:
                L = layers[i]
                desired, weights = [], []
                for k in L:
                    num = den = 0.0
                    for adj in adjs:
                        for n, mine, theirs, w in adj[k]:
                            num += w * (V[n].pos + theirs - mine)  # line up the edge's two ends
                            den += w
                    desired.append(num / den if den else V[k].pos)
                    weights.append(den if den else 0.5)
                for k, x in zip(L, _isotonic_with_gaps(desired, weights, gaps[i])):
                    V[k].pos = x

        n = len(layers)
        for _ in range(6 if len(V) <= 2000 else (3 if len(V) <= 20000 else 2)):
            sweep(range(1, n), [self.up_adj])
            sweep(range(n - 2, -1, -1), [self.down_adj])
        sweep(range(n), [self.up_adj, self.down_adj])

    # -- 5. routes ---------------------------------------------------------------------------
    def route(self) -> None:
        V = self.V
        layers = self.layers
        ports = self.spread_ports()
        n = len(layers)
        extent = [max((V[k].fu for k in L), default=0.0) for L in layers]
        # the runs across the flow in each gap, each on a track of its own
        segs: list[list[tuple[float, float, int, tuple]]] = [[] for _ in range(max(n - 1, 0))]
        hops: dict[tuple[int, int], tuple[float, float]] = {}
        for i, chain in self.chains.items():
            for j, (a, b) in enumerate(zip(chain, chain[1:])):
                p, q = ports[(i, a, "out")], ports[(i, b, "in")]
                hops[(i, j)] = (p, q)
                if abs(p - q) > 0.5:
                    # runs leaving one port (or reaching one) may share a track: they draw a tree
                    share = ("from", a, round(p, 3)) if V[a].kind == "block" else ("to", b, round(q, 3))
                    segs[V[a].layer].append((p, q, i, share))
        tracks: dict[tuple[int, int], int] = {}
        counts: list[int] = []
        gap_size: list[float] = []
        for g, S in enumerate(segs):
            placed = self.assign_tracks(S, g, tracks)
            count = max(placed, default=-1) + 1
            counts.append(count)
            base = self.rank_sep if not ({g, g + 1} & self.port_layers) else self.edge_sep * 1.5
            gap_size.append(max(base, (count + 1) * self.edge_sep))
        start = [0.0] * n
        for g in range(1, n):
            start[g] = start[g - 1] + extent[g - 1] + gap_size[g - 1]
        total_u = start[-1] + extent[-1] if n else 0.0

        def u_of(k: str) -> float:  # flow-start coordinate: layers are aligned at their start, as ELK does
            v = V[k]
            if v.kind == "label":  # labels sit in the middle of their band, over their line
                return start[v.layer] + (extent[v.layer] - v.fu) / 2
            return start[v.layer]

        def u_exit(k: str) -> float:
            v = V[k]
            if v.kind != "block":
                return start[v.layer] + extent[v.layer]
            b = self.blocks[k]
            return u_of(k) + (b.fu if b.container else b.core[0] + b.core[2])

        def u_entry(k: str) -> float:
            v = V[k]
            if v.kind != "block":
                return start[v.layer]
            b = self.blocks[k]
            return u_of(k) + (0.0 if b.container else b.core[0])

        vmin = min((V[k].pos - V[k].fv / 2 for L in layers for k in L), default=0.0)
        vmax = max((V[k].pos + V[k].fv / 2 for L in layers for k in L), default=0.0)
        for k, v in V.items():
            if v.kind == "block":
                self.pos[k] = (u_of(k), v.pos - v.fv / 2 - vmin)
        for le in self.edges:
            if le.kind == "edge" and le.edge.label is not None and f"\0label:{le.edge.id}" in V:
                key = f"\0label:{le.edge.id}"
                v = V[key]
                top = v.pos - v.fv / 2 - vmin
                # beside its line: above it in a horizontal flow, right of it in a vertical one
                self.labels[le.edge.id] = (u_of(key), top if self.horizontal else top + LABEL_SLOT,
                                           v.fu, v.fv - LABEL_SLOT)
        for i, chain in self.chains.items():
            pts: list[Pt] = []
            for j, (x, y) in enumerate(zip(chain, chain[1:])):
                p, q = hops[(i, j)]
                g = V[x].layer
                pts.append((u_exit(x), p - vmin))
                if abs(p - q) > 0.5:
                    gu = start[g] + extent[g] + (tracks[(i, g)] + 1) * gap_size[g] / (counts[g] + 1)
                    pts += [(gu, p - vmin), (gu, q - vmin)]
                pts.append((u_entry(y), q - vmin))
            pts = simplify(pts)
            if i in self.reversed:
                pts = pts[::-1]
            self.pieces.append((self.edges[i], pts))
        self.width = total_u
        self.height = vmax - vmin

    def assign_tracks(self, S: list[tuple[float, float, int, tuple]], g: int,
                      tracks: dict[tuple[int, int], int]) -> list[int]:
        """Give each run across gap ``g`` a track; runs that overlap get different ones.

        Downward runs are ordered so the one starting higher turns later, upward ones the
        mirror image: then runs do not cross needlessly. Runs leaving (or reaching) the same
        port share a track. Crowded gaps use plain interval colouring (linear-logarithmic).
        """
        pad = self.edge_sep / 2
        by_share: dict[tuple, int] = {}
        out: list[int] = []
        if len(S) <= 200:
            placed: list[tuple[float, float, int]] = []
            for p, q, i, share in sorted(S, key=lambda s: (-s[0] if s[1] > s[0] else s[0], s[2])):
                lo, hi = min(p, q), max(p, q)
                t = by_share.get(share)
                if t is None:  # after every overlapping run placed before it
                    t = max((pt + 1 for plo, phi, pt in placed if plo <= hi + pad and lo <= phi + pad), default=0)
                    by_share[share] = t
                placed.append((lo, hi, t))
                tracks[(i, g)] = t
                out.append(t)
            return out
        import heapq

        free: list[int] = []
        busy: list[tuple[float, int]] = []  # (end, track)
        n_tracks = 0
        for p, q, i, share in sorted(S, key=lambda s: (min(s[0], s[1]), max(s[0], s[1]), s[2])):
            lo, hi = min(p, q), max(p, q)
            t = by_share.get(share)
            if t is None:
                while busy and busy[0][0] < lo - pad:
                    heapq.heappush(free, heapq.heappop(busy)[1])
                if free:
                    t = heapq.heappop(free)
                else:
                    t, n_tracks = n_tracks, n_tracks + 1
                by_share[share] = t
                heapq.heappush(busy, (hi, t))
            tracks[(i, g)] = t
            out.append(t)
        return out

    def spread_ports(self) -> dict[tuple[int, str, str], float]:
        """Where each piece meets each vertex across the flow: (piece, vertex, "out"/"in") -> position.

        A block's own edges all meet the middle of its side and fan out in the gap (as ELK's
        merged edges do): ports spread along a side would shift each node of a chain a
        little further than the last. An edge to something inside a group meets the group's
        side at that group's port.
        """
        V = self.V
        ports: dict[tuple[int, str, str], float] = {}
        for i, chain in self.chains.items():
            for (a, side_a), (b, side_b) in zip(((k, "out") for k in chain), ((k, "in") for k in chain[1:])):
                ports[(i, a, side_a)] = V[a].pos + self.attach_offset(i, a)
                ports[(i, b, side_b)] = V[b].pos + self.attach_offset(i, b)
        return ports

    def attach_offset(self, i: int, key: str) -> float:
        """Where piece ``i`` meets vertex ``key`` across the flow, relative to the vertex's centre."""
        v = self.V[key]
        if v.kind in ("dummy", "port"):
            return 0.0
        if v.kind == "label":  # the line runs beside the label, in the slot left for it
            return (v.fv / 2 - LABEL_SLOT / 2) if self.horizontal else (LABEL_SLOT / 2 - v.fv / 2)
        blk = self.blocks[key]
        eid = self.edges[i].edge.id
        if eid in blk.ports:
            return blk.ports[eid] - blk.fv / 2
        if not blk.container:
            return blk.core[1] + blk.core[3] / 2 - blk.fv / 2
        return 0.0


def _weight(ka: str, kb: str) -> float:
    """How much an edge between vertices of these kinds pulls them into line.

    Edges between real vertices (nodes, groups, labels) matter most: chains stay on one
    line and long edges (dummies) give way to them; long edges are then kept straight.
    """
    thin_a, thin_b = ka in ("dummy", "port"), kb in ("dummy", "port")
    if thin_a and thin_b:
        return 4.0
    if thin_a or thin_b:
        return 1.0
    return 10.0


def _cycle_edges(ids: list[str], pairs: list[tuple[str, str]]) -> set[tuple[str, str]]:
    """Edges that close a cycle, found by depth-first search in the author's order."""
    succ: dict[str, list[str]] = {cid: [] for cid in ids}
    for a, b in pairs:
        succ[a].append(b)
    state: dict[str, int] = {}
    back: set[tuple[str, str]] = set()
    for r in ids:
        if r in state:
            continue
        state[r] = 1
        stack = [(r, iter(succ[r]))]
        while stack:
            v, it = stack[-1]
            w = next(it, None)
            if w is None:
                state[v] = 2
                stack.pop()
            elif state.get(w) == 1:
                back.add((v, w))
            elif w not in state:
                state[w] = 1
                stack.append((w, iter(succ[w])))
    return back


def _inversions(seq: list[int]) -> int:
    """Number of pairs i < j with seq[i] > seq[j] (a Fenwick tree)."""
    if len(seq) < 2:
        return 0
    tree = [0] * (max(seq) + 2)
    inv = 0
    for n, x in enumerate(seq):
        i = x + 1
        at_most = 0
        while i > 0:
            at_most += tree[i]
            i -= i & -i
        inv += n - at_most
        i = x + 1
        while i < len(tree):
            tree[i] += 1
            i += i & -i
    return inv


def _isotonic_with_gaps(desired: list[float], weights: list[float], offsets: list[float]) -> list[float]:
    """Positions closest (weighted least squares) to ``desired`` keeping x[i] - x[0] >= offsets[i] apart.

    ``offsets`` are the cumulative minimum distances from the first element, so with
    y = x - offset the constraint is "y non-decreasing": pool-adjacent-violators.
    """
    blocks: list[list[float]] = []  # [mean, weight, count]
    for d, o, w in zip(desired, offsets, weights):
        blocks.append([d - o, w, 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            m2, w2, c2 = blocks.pop()
            m1, w1, c1 = blocks.pop()
            blocks.append([(m1 * w1 + m2 * w2) / (w1 + w2), w1 + w2, c1 + c2])
    ys: list[float] = []
    for m, _, c in blocks:
        ys.extend([m] * int(c))
    return [y + o for y, o in zip(ys, offsets)]
