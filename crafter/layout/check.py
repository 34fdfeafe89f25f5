"""The layout's promises, as a function: :func:`layout_problems` lists every broken one.

A laid-out figure must have:

* a box for every node, group, panel, text and chart, and a route for every edge;
* no two leaves (nodes, charts, free texts) overlapping, unless both were pinned so;
* every label inside its shape's outline (the renderer's own wrapping), edge labels
  the size of their text;
* every member inside its group or panel, and sibling groups apart;
* edge labels off every node and off each other;
* orthogonal routes made of horizontal and vertical segments, ending on their nodes;
* every number with at most 2 decimals (pinned boxes excepted: they are the user's).

Tests run this over the examples and over generated figures, for both engines.
"""

from __future__ import annotations

from crafter.base.theme import figure_theme
from crafter.layout import measure
from crafter.layout.labels import BoxIndex
from crafter.layout.routing import segment_hits
from crafter.layout.shapes import RECT_SHAPES, distance_to_polygon, label_fits, outline
from crafter.spec.model import Box, Component, Edge, Figure, Group, Node, Panel, Text, parents

LEAF_KINDS = ("node", "chart", "text")
EPS = 0.51  # rounding to 2 decimals moves a side by at most 0.005 per coordinate


def _r(b: Box) -> tuple[float, float, float, float]:
    return (b.x, b.y, b.w, b.h)


def _two_decimals(v: float) -> bool:
    return abs(v * 100 - round(v * 100)) < 1e-6


def layout_problems(fig: Figure, *, check_routes: bool = True) -> list[str]:
    """Everything about ``fig``'s layout that breaks a promise above (empty when all is well)."""
    theme = figure_theme(fig)
    problems: list[str] = []
    by_id = fig.by_id()
    parent = parents(fig)

    # -- every component placed ------------------------------------------------------
    for c in fig.components:
        if isinstance(c, Edge):
            if not c.route or len(c.route) < 2:
                problems.append(f"edge '{c.id}' has no route")
            if c.label and c.label_box is None:
                problems.append(f"edge '{c.id}' has a label but no label box")
        elif c.kind != "path" and c.box is None:
            problems.append(f"{c.kind} '{c.id}' has no box")
    if fig.canvas is None:
        problems.append("the figure has no canvas size")
    if problems:
        return problems

    # -- leaves apart ------------------------------------------------------------------
    leaves = [c for c in fig.components if c.kind in LEAF_KINDS and c.box is not None]
    index = BoxIndex()
    for c in leaves:
        for other in index.hits(_r(c.box), -EPS):  # type: ignore[arg-type]
            o = by_id[other]
            if (c.pinned and o.pinned) or _on_purpose(c, o) or _on_purpose(o, c):
                continue
            problems.append(f"{o.kind} '{o.id}' overlaps {c.kind} '{c.id}'")
        index.add(_r(c.box), c.id)  # type: ignore[arg-type]

    # -- labels fit --------------------------------------------------------------------
    for n in fig.of_kind("node"):
        if not label_fits(n, n.box, theme, tolerance=0.05):
            problems.append(f"node '{n.id}': label does not fit its {n.shape}")
    for e in fig.of_kind("edge"):
        if e.label and e.label_box is not None:
            w, h = measure.edge_label_size(e, theme)
            if e.label_box.w + 0.02 < w or e.label_box.h + 0.02 < h:
                problems.append(f"edge '{e.id}': label box smaller than its text")
    for t in fig.of_kind("text"):
        w, h = measure.annotation_size(t, theme)
        if not t.pinned and (t.box.w + 0.02 < w or t.box.h + 0.02 < h):  # type: ignore[union-attr]
            problems.append(f"text '{t.id}': box smaller than its text")

    # -- groups hold their members; siblings apart ----------------------------------------
    for c in fig.components:
        if isinstance(c, (Group, Panel)):
            for m in c.members:
                mc = by_id[m]
                if isinstance(mc, Edge):
                    continue
                b = mc.box
                if b is not None and not c.box.contains(b, tolerance=EPS):  # type: ignore[union-attr]
                    problems.append(f"{mc.kind} '{m}' sticks out of {c.kind} '{c.id}'")
    frames = [c for c in fig.components if isinstance(c, (Group, Panel)) and c.box is not None]
    for i, a in enumerate(frames):
        for b in frames[i + 1:]:
            if parent.get(a.id) == parent.get(b.id) and a.box.intersects(b.box, margin=-EPS) \
                    and not (a.pinned and b.pinned):  # type: ignore[union-attr]
                problems.append(f"{a.kind} '{a.id}' overlaps {b.kind} '{b.id}'")

    # -- edge labels off the nodes and off each other ----------------------------------------
    labels = BoxIndex()
    for e in fig.of_kind("edge"):
        if e.label_box is None or (e.pinned and e.label_box is not None):
            continue
        for other in index.hits(_r(e.label_box), -EPS):
            o = by_id[other]
            if o.kind == "node" or o.kind == "chart":
                problems.append(f"label of edge '{e.id}' overlaps {o.kind} '{o.id}'")
        for other in labels.hits(_r(e.label_box), -EPS):
            problems.append(f"label of edge '{e.id}' overlaps the label of edge '{other}'")
        labels.add(_r(e.label_box), e.id)

    # -- routes ----------------------------------------------------------------------------
    if check_routes:
        for e in fig.of_kind("edge"):
            if e.pinned:
                continue
            problems.extend(_route_problems(fig, e, by_id))

    # -- numbers ---------------------------------------------------------------------------
    for c in fig.components:
        if c.pinned:
            continue
        nums: list[float] = []
        if c.box is not None and c.kind != "path":
            nums += list(_r(c.box))
        if isinstance(c, Edge):
            nums += [v for p in c.route or [] for v in (p.x, p.y)]
            if c.label_box is not None:
                nums += list(_r(c.label_box))
        if any(not _two_decimals(v) for v in nums):
            problems.append(f"{c.kind} '{c.id}': coordinates with more than 2 decimals")
    return problems


def _on_purpose(a: Component, b: Component) -> bool:
    """A text centred on what it annotates, or placed at a point by its author, may overlap it."""
    return isinstance(a, Text) and ((a.near == b.id and a.side == "center") or a.at is not None)


def _route_problems(fig: Figure, e: Edge, by_id: dict[str, Component]) -> list[str]:
    out = []
    pts = [(p.x, p.y) for p in e.route or []]
    routing = e.routing or fig.routing
    if routing == "orthogonal":
        for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
            if abs(x0 - x1) > 0.02 and abs(y0 - y1) > 0.02:
                out.append(f"edge '{e.id}': a diagonal segment in an orthogonal route")
                break
    for end, cid in ((pts[0], e.source), (pts[-1], e.target)):
        c = by_id[cid]
        if c.box is None:
            continue
        d = _distance_to_outline(c, end)
        if d > 1.5:
            out.append(f"edge '{e.id}': its end is {d:.1f} px off the outline of '{cid}'")
    return out


def _distance_to_outline(c: Component, p: tuple[float, float]) -> float:
    b = c.box
    assert b is not None
    if isinstance(c, Node) and c.shape not in RECT_SHAPES:
        return distance_to_polygon(p[0], p[1], outline(c.shape, b, segments=96))
    return distance_to_polygon(p[0], p[1], outline("box", b))


def route_crossings(fig: Figure) -> list[str]:
    """Edges that pass through a node that is not one of their ends (or a group that holds one)."""
    by_id = fig.by_id()
    parent = parents(fig)
    index = BoxIndex()
    for c in fig.components:
        if c.kind in ("node", "chart") and c.box is not None:
            index.add(_r(c.box), c.id)
    out = []

    for e in fig.of_kind("edge"):
        if (e.routing or fig.routing) == "straight" or not e.route:
            continue
        ends = {e.source, e.target}
        pts = [(p.x, p.y) for p in e.route]
        for p, q in zip(pts, pts[1:]):
            seg = (min(p[0], q[0]), min(p[1], q[1]), abs(p[0] - q[0]), abs(p[1] - q[1]))
            for k in index.hits(seg, 0.0):
                if k in ends or _holds(parent, k, ends):
                    continue
                if segment_hits(p, q, _r(by_id[k].box), shrink=1.0):  # type: ignore[arg-type]
                    out.append(f"edge '{e.id}' crosses {by_id[k].kind} '{k}'")
    return sorted(set(out))


def _holds(parent: dict[str, str], k: str, ends: set[str]) -> bool:
    node = k
    while node in parent:
        node = parent[node]
        if node in ends:
            return True
    return False

