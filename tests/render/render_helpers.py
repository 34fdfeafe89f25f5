"""Helpers for the renderer's tests: figures whose geometry is set by hand.

The renderer must not depend on the layout engine to be tested, so :func:`hand_layout`
places components on a simple grid (nodes sized with the same text metrics the real
layout uses) and routes edges as orthogonal elbows.
"""

from __future__ import annotations

from typing import Any

from crafter.base.text import text_block_size, wrap
from crafter.base.theme import get_theme
from crafter.spec import Box, Edge, Figure, Group, Node, Panel, Point, Size, Text, parse_dsl
from crafter.spec.model import Chart, Image


def hand_layout(fig: Figure, cols: int = 4) -> Figure:
    """A copy of ``fig`` with every box, route, label box and the canvas filled in."""
    t = get_theme(fig.theme)
    data = fig.model_copy(deep=True)
    comps = data.components
    x0, y0 = t.margin + t.group_pad + 20, t.margin + t.group_pad + t.group_label_h + 20
    cell_w, cell_h = t.node_max_text_w + 2 * t.node_pad_x + 80, 110.0
    i = 0
    for c in comps:
        if isinstance(c, (Node, Chart, Image)) and c.box is None:
            if isinstance(c, Node):
                lines = wrap(c.text, c.font_size or t.font_size, t.node_max_text_w, bold=c.bold, italic=c.italic)
                tw, th = text_block_size(lines, c.font_size or t.font_size, t.line_height, bold=c.bold)
                w = max(t.node_min_w, tw + 2 * t.node_pad_x)
                h = max(t.node_min_h, th + 2 * t.node_pad_y)
                if c.shape in ("ellipse", "circle", "diamond"):
                    w, h = w * 1.45, h * 1.45
                if c.shape == "circle":
                    w = h = max(w, h)
            else:
                w, h = 140.0, 90.0
            r, k = divmod(i, cols)
            c.box = Box(x=x0 + k * cell_w, y=y0 + r * cell_h, w=w, h=h)
            i += 1
    by_id = {c.id: c for c in comps}
    for c in comps:
        if isinstance(c, Text) and c.box is None and c.at is None:
            fs = c.font_size or t.small_font_size
            lines = c.text.split("\n")
            tw, th = text_block_size(lines, fs, t.line_height)
            anchor = by_id[c.near].box if c.near else Box(x=x0, y=y0, w=0, h=0)
            c.box = Box(x=anchor.cx - tw / 2, y=anchor.bottom + 4, w=tw, h=th)
    # groups and panels: innermost first (members' boxes must exist)
    containers = [c for c in comps if isinstance(c, (Group, Panel))]
    for _ in range(len(containers)):
        for g in containers:
            boxes = [by_id[m].box for m in g.members if by_id[m].box is not None]
            if not boxes or len(boxes) < len(g.members):
                continue
            pad = t.group_pad
            gx0 = min(b.x for b in boxes) - pad
            gy0 = min(b.y for b in boxes) - pad - t.group_label_h
            gx1 = max(b.right for b in boxes) + pad
            gy1 = max(b.bottom for b in boxes) + pad
            g.box = Box(x=gx0, y=gy0, w=gx1 - gx0, h=gy1 - gy0)
    for c in comps:
        if isinstance(c, Group | Panel) and c.box is None:
            c.box = Box(x=x0, y=y0, w=100, h=60)
    for e in comps:
        if isinstance(e, Edge) and e.route is None:
            a, b = by_id[e.source].box, by_id[e.target].box
            top, bottom = max(a.y, b.y), min(a.bottom, b.bottom)
            if top < bottom:  # side by side: one straight horizontal segment
                y = (top + bottom) / 2
                left, right = (a, b) if a.cx < b.cx else (b, a)
                pts = [(left.right, y), (right.x, y)]
                if left is not a:
                    pts.reverse()
            else:
                sx = a.right if b.cx > a.right else a.cx
                sy = a.cy if b.cx > a.right else (a.bottom if b.cy > a.cy else a.y)
                ty = b.y if b.cy > sy else b.bottom
                pts = [(sx, sy), (b.cx, sy), (b.cx, ty)] if sx != b.cx else [(sx, sy), (b.cx, ty)]
            e.route = [Point(x=x, y=y) for x, y in pts]
    for e in comps:
        if isinstance(e, Edge) and e.label and e.label_box is None:
            a, b = e.route[0], e.route[1]
            fs = t.small_font_size
            lines = wrap(e.label, fs, t.node_max_text_w)
            tw, th = text_block_size(lines, fs, t.line_height)
            mx, my = (a.x + b.x) / 2, (a.y + b.y) / 2
            e.label_box = Box(x=mx - tw / 2 - 3, y=my - th / 2 - 1, w=tw + 6, h=th + 2)
    xs = [c.box.right for c in comps if c.box is not None]
    ys = [c.box.bottom for c in comps if c.box is not None]
    data.canvas = Size(w=max(0.0, max(xs) + t.margin), h=max(0.0, max(ys) + t.margin))
    return Figure.model_validate(data.model_dump())


SHOWCASE_DSL = """\
figure "Shapes & arrowheads" theme=paper
a node "Input tokens" shape=box
b node "Rounded encoder with a long label that wraps" shape=round
c node "Ellipse" shape=ellipse
d node "z" shape=circle
e node "Keep?" shape=diamond
f node "Vector store" shape=cylinder
g node "Parallelogram" shape=parallelogram
h node "Hexagon" shape=hexagon
i node "Report" shape=document
j node "Batches" shape=stack
e1 edge a -> b "arrow"
e2 edge b -> c head=open
e3 edge c -> d head=diamond style=dashed
e4 edge d -> e head=circle style=dotted
e5 edge e -> f head=bar tail=arrow
e6 edge f -> g head=arrow tail=diamond color=#D55E00
e7 edge g -> h head=open tail=circle
e8 edge h -> i head=arrow tail=bar
g1 group "Retrieval" [f, g, h] style=dashed
t1 text "frozen" near=c
"""


def small_figure(**kw: Any) -> Figure:
    fig = parse_dsl('a node "Encoder"\nb node "Decoder"\ne edge a -> b "latent"\n')
    return hand_layout(fig.model_copy(update=kw))
