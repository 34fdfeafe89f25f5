"""draw.io export: mxGraph XML diagrams.net opens, whose cells match the FigureSpec, and that comes back."""

from __future__ import annotations

from xml.etree import ElementTree as ET

from hypothesis import HealthCheck, given, settings

from crafter.formats import drawio_to_figure, figure_to_drawio
from crafter.formats.drawio.style import parse_style, shape_from_style
from crafter.spec import Edge, Figure, parents
from crafter.spec.testing import figures

EXPECTED_SHAPE_KEYS = {"box": "rounded", "round": "rounded", "ellipse": "ellipse", "circle": "ellipse",
                       "diamond": "rhombus", "cylinder": "shape", "parallelogram": "shape", "hexagon": "shape",
                       "document": "shape", "stack": "shape"}


def cells(xml: str) -> dict[str, tuple[ET.Element, ET.Element]]:
    """cell id → (the <object> wrapper, its <mxCell>), plus the plain cells 0 and 1."""
    root = ET.fromstring(xml)
    assert root.tag == "mxfile" and root.get("compressed") == "false"
    model = root.find("diagram/mxGraphModel")
    assert model is not None
    out = {}
    for el in model.find("root"):
        cell = el if el.tag == "mxCell" else el.find("mxCell")
        out[el.get("id")] = (el, cell)
    return out


def test_examples_have_one_cell_per_component_with_matching_structure(example: Figure) -> None:
    xml = figure_to_drawio(example)
    found = cells(xml)
    assert "0" in found and found["1"][1].get("parent") == "0"
    parent_of = parents(example)
    for c in example.components:
        wrapper, cell = found[c.id]
        assert wrapper.tag == "object" and wrapper.get("crafterKind") == c.kind
        if isinstance(c, Edge):
            assert cell.get("edge") == "1"
            assert (cell.get("source"), cell.get("target")) == (c.source, c.target)
            style = parse_style(cell.get("style"))
            assert style["endArrow"] == {"arrow": "block", "none": "none"}[c.head]
            assert style.get("dashed") == ("1" if c.style != "solid" else None)
            continue
        assert cell.get("vertex") == "1"
        assert cell.get("parent") == parent_of.get(c.id, "1")
        geo = cell.find("mxGeometry")
        x, y = float(geo.get("x")), float(geo.get("y"))
        if c.id in parent_of:  # relative to the container
            pb = example.get(parent_of[c.id]).box
            x, y = x + pb.x, y + pb.y
        assert abs(x - c.box.x) < 0.01 and abs(y - c.box.y) < 0.01
        assert abs(float(geo.get("width")) - c.box.w) < 0.01
        style = parse_style(cell.get("style"))
        if c.kind == "node":
            assert EXPECTED_SHAPE_KEYS[c.shape] in style
            assert shape_from_style(style) == c.shape
            assert wrapper.get("label").replace("\n", " ").split() == c.text.replace("\n", " ").split()
            if c.fill:
                assert style["fillColor"] == c.fill.upper()
        elif c.kind in ("group", "panel"):
            assert style["container"] == "1"


def test_examples_round_trip_exactly(example: Figure) -> None:
    assert drawio_to_figure(figure_to_drawio(example)) == example


def test_charts_paths_images_and_text_round_trip(chart_figure: Figure) -> None:
    import sys

    sys.path.insert(0, __file__.rsplit("/", 1)[0])
    from test_tikz_export import every_shape_figure

    for fig in (chart_figure, every_shape_figure()):
        xml = figure_to_drawio(fig)
        assert drawio_to_figure(xml) == fig
    chart_cell = cells(figure_to_drawio(chart_figure))["acc"][1]
    assert parse_style(chart_cell.get("style"))["image"].startswith("data:image/svg+xml,PD94")  # base64 '<?x'


def test_labels_are_plain_text_lines_not_html() -> None:
    from crafter.spec import Box, Node

    fig = Figure(components=[Node(kind="node", id="a", label="<b>bold?</b> & \"quotes\"\nsecond line", width=300,
                                  box=Box(x=0, y=0, w=300, h=60))])
    xml = figure_to_drawio(fig)
    wrapper, cell = cells(xml)["a"]
    assert wrapper.get("label") == "<b>bold?</b> & \"quotes\"\nsecond line"
    assert parse_style(cell.get("style"))["html"] == "0"
    assert "&lt;b&gt;" in xml and "&#10;" in xml


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(figures())
def test_generated_figures_round_trip(fig: Figure) -> None:
    from export_helpers import grid_layout

    laid = grid_layout(fig)
    assert drawio_to_figure(figure_to_drawio(laid)) == laid
