"""Long forward edges (a U-Net's skip connections) routed in lanes beside the main flow.

An edge that jumps two layers or more forward, between two leaves the rest of the graph
already connects, is a *lane edge*. Left in the engine it costs the figure its shape:
ELK bends the chain it skips over into a staircase to keep the long edge straight, and
routes it through the groups on the way. Instead the engine lays out the figure without
lane edges, and :func:`route_lanes` draws each one as a trunk: out of the source's
bottom (right side in a top-down figure), along a lane past everything between its
ends, into the target's bottom. Lanes nest, the shortest innermost, so they cross
neither each other nor the main chain; each lane's label sits on it, in its own room.

An edge whose drop from a node to its lane would cut through another node, a label or
a group the node is not in is not lane-routable; :func:`route_lanes` returns it so the
engine can route it itself.
"""

from __future__ import annotations

from crafter.layout.problem import Area, AreaLayout, Item, Pt, Rect

LABEL_GAP = 3.0  # between a lane's label and its line


def flow_layers(area: Area) -> tuple[dict[str, int], set[tuple[str, str]]]:
    """A longest-path layering in the author's order, and the (source, target) pairs it reversed.

    A depth-first search in the author's order: an edge to a node on the stack closes a
    cycle and is left out of the layering.
    """
    succ: dict[str, list[str]] = {}
    order = [it.id for it in area.walk()]
    for e in area.edges:
        if e.source != e.target:
            succ.setdefault(e.source, []).append(e.target)
    state: dict[str, int] = {}
    back: set[tuple[str, str]] = set()
    topo: list[str] = []
    for root in order:
        if root in state:
            continue
        stack = [(root, iter(succ.get(root, ())))]
        state[root] = 1
        while stack:
            v, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                stack.pop()
                state[v] = 2
                topo.append(v)
            elif state.get(nxt) == 1:
                back.add((v, nxt))
            elif nxt not in state:
                state[nxt] = 1
                stack.append((nxt, iter(succ.get(nxt, ()))))
    layer: dict[str, int] = {}
    for v in reversed(topo):
        layer.setdefault(v, 0)
        for w in succ.get(v, ()):
            if (v, w) not in back:
                layer[w] = max(layer.get(w, 0), layer[v] + 1)
    return layer, back


def lane_edges(area: Area, skip: set[str] = frozenset()) -> set[str]:  # type: ignore[assignment]
    """Forward edges between leaves that jump two layers or more and are not needed to connect the graph."""
    layer, back = flow_layers(area)
    leaves = {it.id for it in area.walk() if not it.container}
    long = [e for e in area.edges
            if e.id not in skip and e.source != e.target and e.source in leaves and e.target in leaves
            and (e.source, e.target) not in back and layer.get(e.target, 0) - layer.get(e.source, 0) >= 2]
    if not long:
        return set()
    # the rest of the graph must hold both ends in one piece, or the engine would pull them apart
    parent: dict[str, str] = {}

    def find(v: str) -> str:
        while parent.get(v, v) != v:
            v = parent[v]
        return v

    long_ids = {e.id for e in long}
    for e in area.edges:
        if e.id not in long_ids:
            parent[find(e.source)] = find(e.target)
    return {e.id for e in long if find(e.source) == find(e.target)}


def _swap(r: Rect) -> Rect:
    return (r[1], r[0], r[3], r[2])


def _label_size(size: tuple[float, float], vertical: bool) -> tuple[float, float]:
    return (size[1], size[0]) if vertical else size


def route_lanes(area: Area, lay: AreaLayout, edge_ids: set[str]) -> set[str]:
    """Route ``edge_ids`` (laid out without them) in lanes below the flow; returns those that did not fit.

    Top-down figures get their lanes on the right: the work is done with x and y swapped.
    """
    vertical = area.direction in ("TB", "BT")
    tr = _swap if vertical else (lambda r: r)
    boxes = {k: tr(r) for k, r in lay.boxes.items()}
    labels = {k: tr(r) for k, r in lay.label_boxes.items()}
    notes = {k: tr(r) for k, r in lay.annotation_boxes.items()}
    routes = {k: [(p[1], p[0]) if vertical else p for p in pts] for k, pts in lay.routes.items()}
    ancestors: dict[str, set[str]] = {}

    def visit(it: Item, above: set[str]) -> None:
        ancestors[it.id] = above
        for c in it.children:
            visit(c, above | {it.id} if it.container else above)

    for it in area.items:
        visit(it, set())
    containers = {it.id for it in area.walk() if it.container}
    edges = {e.id: e for e in area.edges if e.id in edge_ids}

    def bottom(r: Rect) -> float:
        return r[1] + r[3]

    # what a lane must pass under: every box, label and route of the engine's drawing
    floor_rects = list(boxes.values()) + list(labels.values()) + list(notes.values())
    floor_points = [p for pts in routes.values() for p in pts]

    def floor(lo: float, hi: float) -> float:
        ys = [bottom(r) for r in floor_rects if r[0] < hi and r[0] + r[2] > lo]
        ys += [p[1] for p in floor_points if lo <= p[0] <= hi]
        return max(ys, default=0.0)

    def cx(v: str) -> float:
        return boxes[v][0] + boxes[v][2] / 2

    order = sorted(edges.values(), key=lambda e: (abs(cx(e.target) - cx(e.source)), e.id))
    sep = area.edge_sep
    lanes: dict[str, float] = {}
    spans: list[tuple[float, float, float]] = []  # placed lanes: (lo, hi, y)
    for e in order:
        lo, hi = sorted((cx(e.source), cx(e.target)))
        lo, hi = lo - sep, hi + sep
        base = max([floor(lo, hi)] + [y for a, b, y in spans if a < hi and b > lo])
        room = (_label_size(e.label, vertical)[1] + 2 * LABEL_GAP) if e.label is not None else 0.0
        y = base + max(sep * 1.5, room)
        lanes[e.id] = y
        spans.append((lo, hi, y))
    # ports along each node's bottom: left-going lanes on the left, the outer ones further out
    ends: dict[str, list[tuple[int, float, str]]] = {}
    for e in order:
        for me, other in ((e.source, e.target), (e.target, e.source)):
            going = 1 if cx(other) > cx(me) else -1
            ends.setdefault(me, []).append((going, lanes[e.id], e.id))
    port: dict[tuple[str, str], float] = {}
    for v, lst in ends.items():
        lst.sort(key=lambda t: (t[0], t[1] * t[0]))  # left-going inner first, right-going outer first
        r = boxes[v]
        step = min(sep, r[2] * 0.6 / max(len(lst) - 1, 1))
        for k, (_, _, eid) in enumerate(lst):
            port[(v, eid)] = cx(v) + (k - (len(lst) - 1) / 2) * step
    # a drop from a node to its lane must not cut through anything but the node's own groups
    blockers = [(k, r) for k, r in boxes.items() if k not in containers]
    blockers += list(labels.items()) + list(notes.items())
    failed: set[str] = set()
    for e in order:
        y = lanes[e.id]
        for v in (e.source, e.target):
            x, top = port[(v, e.id)], bottom(boxes[v])
            for k, r in blockers + [(c, boxes[c]) for c in containers if c not in ancestors.get(v, set())]:
                if k == v:
                    continue
                if r[0] - 1 < x < r[0] + r[2] + 1 and r[1] < y + 1 and bottom(r) > top - 1:
                    failed.add(e.id)
    out = {}
    for e in order:
        if e.id in failed:
            continue
        y = lanes[e.id]
        xs, xt = port[(e.source, e.id)], port[(e.target, e.id)]
        pts: list[Pt] = [(xs, bottom(boxes[e.source])), (xs, y), (xt, y), (xt, bottom(boxes[e.target]))]
        out[e.id] = [(p[1], p[0]) for p in pts] if vertical else pts
        if e.label is not None:
            w, h = _label_size(e.label, vertical)
            lx = (xs + xt) / 2 - w / 2
            box = (lx, y - LABEL_GAP - h, w, h)
            lay.label_boxes[e.id] = _swap(box) if vertical else box
    lay.routes.update(out)
    return failed
