"""Trapezoid nodes (an encoder narrowing to the right, a decoder widening): one outline the SVG,
layout, TikZ, PowerPoint and draw.io all draw with the narrow side where the shape says."""

from __future__ import annotations

import io

import pytest
from pptx import Presentation
from pptx.oxml.ns import qn

from crafter.base.geometry import TRAPEZOIDS, outline_polygon
from crafter.formats import drawio_to_figure, figure_to_drawio, figure_to_tikz
from crafter.formats.pptx.write import figure_to_pptx
from crafter.layout.figure import layout_figure
from crafter.render import figure_to_svg
from crafter.spec import Box, parse_dsl

FIG = """figure direction=LR
x node "Image" shape=box
enc node "Image Encoder" shape=trapezoid_right
dec node "Text Decoder" shape=trapezoid_left
up node "Pool" shape=trapezoid
down node "Funnel" shape=trapezoid_down
a edge x -> enc
b edge enc -> dec
c edge dec -> up
d edge up -> down
"""


def _narrow_side(pts: list[tuple[float, float]], b: Box) -> str:
    """Which side of the box the outline does not reach along its whole length."""
    def span(sel):
        return len([p for p in pts if sel(p)])
    sides = {"top": span(lambda p: abs(p[1] - b.y) < 1e-6), "bottom": span(lambda p: abs(p[1] - b.y - b.h) < 1e-6),
             "left": span(lambda p: abs(p[0] - b.x) < 1e-6), "right": span(lambda p: abs(p[0] - b.x - b.w) < 1e-6)}
    full = {k for k, v in sides.items() if v == 2}
    lengths = {}
    for k in full:
        on = [p for p in pts if (abs(p[1] - b.y) < 1e-6 if k == "top" else abs(p[1] - b.y - b.h) < 1e-6 if k == "bottom"
                                 else abs(p[0] - b.x) < 1e-6 if k == "left" else abs(p[0] - b.x - b.w) < 1e-6)]
        lengths[k] = abs(on[0][0] - on[1][0]) + abs(on[0][1] - on[1][1])
    return min(lengths, key=lengths.__getitem__)


@pytest.mark.parametrize("shape, narrow", [("trapezoid", "top"), ("trapezoid_down", "bottom"),
                                           ("trapezoid_left", "left"), ("trapezoid_right", "right")])
def test_the_outline_is_narrow_where_the_shape_says(shape, narrow):
    b = Box(x=10, y=20, w=120, h=60)
    pts = outline_polygon(shape, b)
    assert pts is not None and len(pts) == 4
    assert min(p[0] for p in pts) == b.x and max(p[0] for p in pts) == b.x + b.w
    assert min(p[1] for p in pts) == b.y and max(p[1] for p in pts) == b.y + b.h
    assert _narrow_side(pts, b) == narrow


def test_trapezoids_render_as_polygons_that_hold_their_labels():
    fig = layout_figure(parse_dsl(FIG))
    svg = figure_to_svg(fig)
    assert svg.count("<polygon") >= 4
    for word in ("Image Encoder", "Text Decoder", "Pool", "Funnel"):
        assert word in svg
    for n in fig.components:
        if n.kind == "node" and n.shape in TRAPEZOIDS:
            assert n.box.w > 20 and n.box.h > 20


def test_trapezoids_in_tikz_drawio_and_powerpoint():
    fig = layout_figure(parse_dsl(FIG))
    tikz = figure_to_tikz(fig)
    assert tikz.count("-- cycle") >= 4
    back = {c.id: c.shape for c in drawio_to_figure(figure_to_drawio(fig)).components if c.kind == "node"}
    assert back["enc"] == "trapezoid_right" and back["dec"] == "trapezoid_left"
    assert back["up"] == "trapezoid" and back["down"] == "trapezoid_down"
    prs = Presentation(io.BytesIO(figure_to_pptx(fig)))
    found = {}
    for s in prs.slides[0].shapes:
        geom = s.element.spPr.find(qn("a:prstGeom")) if s.element.tag == qn("p:sp") else None
        if geom is not None and s.name in ("enc", "dec", "up", "down"):
            found[s.name] = (geom.get("prst"), s.rotation)
    assert found == {"enc": ("trapezoid", 90.0), "dec": ("trapezoid", 270.0), "up": ("trapezoid", 0.0),
                     "down": ("flowChartManualOperation", 0.0)}
