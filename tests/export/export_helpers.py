"""Helpers for the export tests: example figures and a small stand-in layout.

The examples are laid out with ``crafter.layout.layout_figure`` when the layout engine
is installed; until then with :func:`grid_layout`, a small stand-in that gives every
component the geometry an exporter reads (boxes, straight routes, label boxes, canvas).
"""

from __future__ import annotations

from pathlib import Path

from crafter.spec import Box, Figure, Point, Size, parents

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.dsl"))


def grid_layout(fig: Figure) -> Figure:
    """Layered placement by longest path from the sources; enough geometry for exporters."""
    from crafter.base.text import text_block_size, wrap
    from crafter.base.theme import get_theme

    t = get_theme(fig.theme)
    comps = {c.id: c.model_copy(deep=True) for c in fig.components}
    nodes = [c for c in comps.values() if c.kind == "node"]
    edges = [c for c in comps.values() if c.kind == "edge"]
    rank = _ranks([n.id for n in nodes], [(e.source, e.target) for e in edges if e.source in comps
                                           and comps[e.source].kind == "node" and comps[e.target].kind == "node"])
    slot: dict[int, int] = {}
    for n in nodes:
        lines = wrap(n.text, n.font_size or t.font_size, t.node_max_text_w)
        tw, th = text_block_size(lines, n.font_size or t.font_size, t.line_height)
        w, h = max(tw + 2 * t.node_pad_x, t.node_min_w), max(th + 2 * t.node_pad_y, t.node_min_h)
        r, k = rank[n.id], slot.get(rank[n.id], 0)
        slot[r] = k + 1
        along, across = 40 + r * 190, 40 + k * 110
        x, y = (along, across) if fig.direction in ("LR", "RL") else (across, along)
        if n.box is None:
            n.box = Box(x=x, y=y, w=w, h=h)
    parent = parents(fig)

    def depth(cid: str) -> int:
        return 0 if cid not in parent else 1 + depth(parent[cid])

    for g in sorted((c for c in comps.values() if c.kind in ("group", "panel")), key=lambda c: -depth(c.id)):
        boxes = [comps[m].box for m in g.members if comps[m].box is not None]
        if g.box is None and boxes:
            x0 = min(b.x for b in boxes) - t.group_pad
            y0 = min(b.y for b in boxes) - t.group_pad - t.group_label_h
            x1 = max(b.right for b in boxes) + t.group_pad
            y1 = max(b.bottom for b in boxes) + t.group_pad
            g.box = Box(x=x0, y=y0, w=x1 - x0, h=y1 - y0)
    for e in edges:
        a, b = comps[e.source].box, comps[e.target].box
        if e.route is None:
            e.route = [Point(x=a.cx, y=a.bottom if b.cy > a.bottom else a.cy),
                       Point(x=b.cx, y=b.y if b.cy > a.bottom else b.cy)]
        if e.label and e.label_box is None:
            mx, my = (e.route[0].x + e.route[-1].x) / 2, (e.route[0].y + e.route[-1].y) / 2
            w = len(e.label) * 6 + 6
            e.label_box = Box(x=mx - w / 2, y=my - 8, w=w, h=16)
    for c in comps.values():
        if c.kind == "text" and c.box is None and c.at is None:
            near = comps[c.near].box if c.near else Box(x=0, y=0, w=100, h=20)
            c.box = Box(x=near.x, y=near.bottom + 6, w=max(near.w, 200), h=16)
        if c.kind == "chart" and c.box is None:
            c.box = Box(x=40, y=40, w=c.width or 320, h=c.height or 220)
    boxes = [c.box for c in comps.values() if c.box is not None]
    canvas = Size(w=max(0.0, max(b.right for b in boxes) + 40), h=max(0.0, max(b.bottom for b in boxes) + 40))
    return fig.model_copy(update={"components": [comps[c.id] for c in fig.components], "canvas": canvas})


def _ranks(ids: list[str], arcs: list[tuple[str, str]]) -> dict[str, int]:
    """Longest-path layers after dropping the arcs that close a cycle (found by depth-first search)."""
    out: dict[str, list[str]] = {i: [] for i in ids}
    for a, b in arcs:
        out[a].append(b)
    state: dict[str, int] = {}
    order: list[str] = []
    dag: list[tuple[str, str]] = []

    def visit(v: str) -> None:
        state[v] = 1
        for w in out[v]:
            if state.get(w) == 1:
                continue  # a back arc: it would close a cycle
            dag.append((v, w))
            if w not in state:
                visit(w)
        state[v] = 2
        order.append(v)

    for i in ids:
        if i not in state:
            visit(i)
    rank = {i: 0 for i in ids}
    for v in reversed(order):  # topological order of the DAG
        for a, b in dag:
            if a == v:
                rank[b] = max(rank[b], rank[v] + 1)
    return rank


def laid_out(fig: Figure) -> Figure:
    from crafter.layout import layout_figure

    return layout_figure(fig)


