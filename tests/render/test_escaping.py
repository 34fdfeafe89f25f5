"""User text is text: markup characters, quotes, emoji and right-to-left scripts render as typed."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from render_helpers import hand_layout

from crafter.base.markup import base_direction, visual_order
from crafter.formats import load_svg
from crafter.render import draw_svg, figure_to_svg
from crafter.spec import Box, Figure, Node, parse_dsl

NS = {"svg": "http://www.w3.org/2000/svg"}


def node_text(svg: str, node_id: str) -> ET.Element:
    root = ET.fromstring(svg.encode("utf-8"))
    return root.find(f".//svg:g[@id='{node_id}']/svg:text", NS)


def one_node(label: str, **kw) -> Figure:  # noqa: ANN003
    return Figure(components=[Node(kind="node", id="n", label=label, width=400, box=Box(x=0, y=0, w=400, h=40), **kw)])


@pytest.mark.parametrize("label", [
    "a < b && c > d",
    'say "hi" & \'bye\'',
    "</text><script>alert(1)</script>",
    "]]> <![CDATA[ x",
    "&amp; is not an entity here",
    "loss 📉 then 🎉 done",
    "x\u0301 combining",
])
def test_markup_and_symbols_stay_text(label: str) -> None:
    svg = figure_to_svg(one_node(label))
    text = node_text(svg, "n")
    assert "".join(text.itertext()) == label
    assert "<script>" not in svg
    assert load_svg(svg).get("n").label == label


def test_attribute_values_are_escaped() -> None:
    fig = parse_dsl('a node "A" box=0,0,60,30 fill=#D55E00\nt text "x" at=5,5\n')
    fig = fig.model_copy(update={"title": 'T"itle<'})
    svg = figure_to_svg(fig)
    root = ET.fromstring(svg.encode("utf-8"))  # parses: nothing broke out of an attribute
    assert root.find("svg:title", NS).text == 'T"itle<'


def test_control_characters_do_not_break_the_xml() -> None:
    label = "bell\x07 and nul-free \x1b[0m escape"
    svg = figure_to_svg(one_node(label))
    text = node_text(svg, "n")  # well-formed
    assert "\ufffd" in "".join(text.itertext())  # shown as a replacement character...
    assert load_svg(svg).get("n").label == label  # ...but the figure keeps the exact text


def test_rtl_labels_get_a_right_to_left_base_direction() -> None:
    fig = Figure(components=[
        Node(kind="node", id="he", label="שלום עולם", box=Box(x=0, y=0, w=200, h=40)),
        Node(kind="node", id="ar", label="مرحبا بالعالم", box=Box(x=0, y=50, w=200, h=40)),
        Node(kind="node", id="mixed", label="Step 2: שלום", box=Box(x=0, y=100, w=200, h=40)),
        Node(kind="node", id="en", label="plain", box=Box(x=0, y=150, w=200, h=40)),
    ])
    svg = figure_to_svg(fig)
    for nid in ("he", "ar"):
        t = node_text(svg, nid)
        assert t.get("direction") == "rtl" and t.get("unicode-bidi") == "embed"
    for nid in ("mixed", "en"):
        assert node_text(svg, nid).get("direction") is None  # only where needed
    # the SVG keeps logical order: viewers run the bidi algorithm themselves
    assert "".join(node_text(svg, "he").itertext()) == "שלום עולם"


def test_rtl_is_pre_ordered_for_cairo() -> None:
    pytest.importorskip("bidi")
    pytest.importorskip("arabic_reshaper")
    assert base_direction("שלום world") == "rtl"
    assert base_direction("Step 2: שלום") == "ltr"
    assert visual_order("שלום", "rtl") == "םולש"
    assert visual_order("plain text", "ltr") == "plain text"
    fig = one_node("שלום")
    text = node_text(draw_svg(fig, text_order="visual"), "n")
    assert "".join(text.itertext()) == "םולש" and text.get("direction") is None


def test_spaces_are_preserved_where_they_matter() -> None:
    svg = figure_to_svg(one_node("a  b"))
    t = node_text(svg, "n")
    assert t.get("{http://www.w3.org/XML/1998/namespace}space") == "preserve"
    assert node_text(figure_to_svg(one_node("a b")), "n").get("{http://www.w3.org/XML/1998/namespace}space") is None


def test_labels_on_dark_fills_turn_white() -> None:
    svg = figure_to_svg(one_node("dark", fill="#1F3B5C"))
    assert node_text(svg, "n").get("fill") == "#FFFFFF"
    svg = figure_to_svg(one_node("light", fill="#FBEBCB"))
    assert node_text(svg, "n").get("fill") != "#FFFFFF"


def test_multiline_labels_keep_explicit_newlines() -> None:
    fig = hand_layout(parse_dsl('a node "line one\\nline two"\n'))
    spans = [s.text for s in node_text(figure_to_svg(fig), "a").findall("svg:tspan", NS)]
    assert spans == ["line one", "line two"]
