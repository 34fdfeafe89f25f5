"""CraftEditor keeps what the IR now says of edges: their labels' size, their heads' size, and UML's
hollow triangle. Figures drawn by Crafter itself (at 2x: labels and heads twice the theme's), read back."""

from __future__ import annotations

import pytest

from crafteditor.assemble.head_sizes import MAX_HEAD, head_size
from crafteditor.convert import convert
from crafteditor.lines.paths import Arrowhead, LinePath
from crafter.formats.raster import svg_to_png
from crafter.render.svg import ensure_layout, figure_to_svg
from crafter.spec import parse_dsl

CHAIN = '''figure direction=TB
a node "Client" font_size=13
b node "Service" font_size=13
c node "Store" font_size=13
e1 edge a -> b "calls" font_size=13 head_size=14
e2 edge b -> c "writes" head=diamond font_size=13 head_size=14
'''
UML = '''figure
a node "Base class" font_size=13 box=260,20,110,40 pinned=true
b node "Left child" font_size=13 box=20,20,110,40 pinned=true
c node "Other base" font_size=13 box=260,120,110,40 pinned=true
d node "Right child" font_size=13 box=20,120,110,40 pinned=true
e1 edge b -> a head=triangle_open head_size=14 route=130,40;260,40
e2 edge d -> c head=triangle_open head_size=14 route=130,140;260,140
'''


def _read_back(src: str, scale: float):
    fig = ensure_layout(parse_dsl(src), relayout=True)
    png = svg_to_png(figure_to_svg(fig), width=round(fig.canvas.w * scale))
    out = convert(png).figure
    k = out.canvas.w / fig.canvas.w  # the read figure's units per original unit
    return fig, out, k


def test_edge_labels_and_heads_come_back_at_their_size_from_a_2x_figure() -> None:
    fig, out, k = _read_back(CHAIN, 2.0)
    assert k == pytest.approx(2.0, rel=0.02)
    edges = {(e.label or ""): e for e in out.of_kind("edge")}
    for label, want_head in (("calls", "arrow"), ("writes", "diamond")):
        e = edges.get(label)
        assert e is not None, f"the edge labelled {label!r} did not come back: {sorted(edges)}"
        assert e.head == want_head
        # 13 px labels at 2x: 26 px (the theme's 10.5 would be less than half)
        assert e.font_size == pytest.approx(13 * k, rel=0.2)
        assert e.head_size == pytest.approx(14 * k, rel=0.2)


def test_hollow_triangles_come_back_as_triangle_open() -> None:
    _, out, k = _read_back(UML, 1.0)
    heads = [e.head for e in out.of_kind("edge")]
    assert heads == ["triangle_open"] * 2, [(e.source, e.target, e.head) for e in out.of_kind("edge")]
    for e in out.of_kind("edge"):
        if e.head == "triangle_open":
            assert e.head_size == pytest.approx(14 * k, rel=0.2)


def test_a_head_measured_past_the_irs_bound_is_drawn_at_the_themes_size() -> None:
    # a real figure's "head" 200.1 px long (a misread shape) had failed the Edge's validation and the conversion
    def line(length: float) -> LinePath:
        head = Arrowhead(tip=(10 + length, 0.0), base=(10.0, 0.0), length=length, width=length / 2,
                         mask_box=(10, 0, int(10 + length), 1))
        return LinePath(points=[(0.0, 0.0), (10 + length, 0.0)], width=1.0, color=(0, 0, 0), head_end=head)

    assert head_size(line(40.0), 1.0, 1.0) == 40.0
    assert head_size(line(MAX_HEAD + 0.1), 1.0, 1.0) is None
    assert head_size(line(120.0), 2.0, 1.0) is None  # the bound is on the size drawn, after scaling
