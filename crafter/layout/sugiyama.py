"""One level of the layered (Sugiyama) engine: the children of one group (or of the area) and the
edges between them, laid out in the steps :mod:`crafter.layout.layered` describes — cycle
breaking, layering with dummy and label vertices, crossing reduction, coordinates by isotonic
regression, orthogonal routing on tracks between layers — in a frame where the flow runs
along ``u`` and layers stack along ``v``.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from typing import Protocol

from crafter.layout.problem import Area, LayoutEdge, Pt
from crafter.layout.routing import simplify

SELF_LOOP_SIZE = 14.0
LABEL_SLOT = 8.0  # room for the line beside an edge label in its label vertex
ANNOTATION_GAP = 4.0
JOIN_CLEARANCE = 6.0
DUMMY_BUDGET = 6000  # dummy vertices a level may add beyond a few per vertex (see Level.insert_dummies)

Frame = tuple[float, float, float, float]  # u, v, extent along u, extent along v


def is_horizontal(direction: str) -> bool:
    return direction in ("LR", "RL")


@dataclass
class LevelEdge:
    """An edge as one level sees it: between two children, or between a child and the level's port."""

    edge: LayoutEdge
    kind: str  # "edge" (both ends here), "out" (leaves this group), "in" (enters it)
    a: str | None  # child holding the source (None for "in")
    b: str | None  # child holding the target (None for "out")
    key: tuple[int, int]  # where this piece goes in the whole route (sorted)
    back: bool = False  # the edge runs against the flow where its ends meet


@dataclass
class Block:
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


@dataclass
class Vertex:
    key: str
    kind: str  # "block", "dummy", "label", "port"
    fu: float = 0.0
    fv: float = 0.0
    layer: int = 0
    pos: float = 0.0  # centre across the flow
    order: int = 0


class LevelOwner(Protocol):
    """What a level needs of the area being laid out (:class:`crafter.layout.layered.Layered`)."""

    area: Area
    d: str  # the flow direction: LR, RL, TB, BT


class Level:
    def __init__(self, eng: LevelOwner, ids: list[str], blocks: dict[str, Block], edges: list[LevelEdge]) -> None:
        self.eng = eng
        self.ids = ids
        self.blocks = blocks
        self.edges = edges
        a = eng.area
        self.node_sep = a.node_sep
        self.rank_sep = a.rank_sep
        self.edge_sep = a.edge_sep
        self.horizontal = is_horizontal(eng.d)
        self.pos: dict[str, Pt] = {}  # block id -> frame top-left
        self.labels: dict[str, Frame] = {}
        self.pieces: list[tuple[LevelEdge, list[Pt]]] = []
        self.width = self.height = 0.0

    # -----------------------------------------------------------------------------
    def solve(self) -> None:
        V: dict[str, Vertex] = {}
        for cid in self.ids:
            b = self.blocks[cid]
            V[cid] = Vertex(cid, "block", b.fu, b.fv)
        self.V = V
        back = cycle_edges(self.ids, [(le.a, le.b) for le in self.edges if le.kind == "edge"])  # type: ignore[misc]
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
                V[key] = Vertex(key, "port")
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
                V[key] = Vertex(key, "label", lu, lv + LABEL_SLOT)
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
                    V[key] = Vertex(key, "dummy", 0.0, 0.0, k)
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
    def sep(self, a: Vertex, b: Vertex) -> float:
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


def cycle_edges(ids: list[str], pairs: list[tuple[str, str]]) -> set[tuple[str, str]]:
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
