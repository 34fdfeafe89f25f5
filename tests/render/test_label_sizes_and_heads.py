"""Edge labels and group titles carry their own font size; edges their head size and UML's hollow
triangle ('triangle_open'): through the spec, the DSL, JSON, the renderer, the layout and the exporters."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from crafter.base.rules import group_band
from crafter.base.theme import get_theme
from crafter.formats.drawio.reader import drawio_to_figure
from crafter.formats.drawio.writer import figure_to_drawio
from crafter.formats.tikz import figure_to_tikz
from crafter.layout import measure
from crafter.render import draw_svg
from crafter.render.markers import MarkerSpec
from crafter.spec import Figure, SpecError, json_schema, parse_dsl, print_dsl
from crafter.spec.model import Edge, Group

NS = {"svg": "http://www.w3.org/2000/svg"}
HAND = ('a node "A" box=0,40,60,30\nb node "B" box=240,40,60,30\n'
        'e edge a -> b "big label" head=triangle_open head_size=18 font_size=20 route=60,55;240,55 '
        'label_box=100,20,100,28\n'
        'g group "Big title" [a] font_size=22 box=-10,-10,90,100\n')


def test_new_fields_default_to_none_and_old_specs_load_unchanged() -> None:
    old = {"components": [{"kind": "node", "id": "a"}, {"kind": "node", "id": "b"},
                          {"kind": "edge", "id": "e", "source": "a", "target": "b", "head": "open"},
                          {"kind": "group", "id": "g", "label": "G", "members": ["a"]}]}
    fig = Figure.model_validate(old)
    e, g = fig.get("e"), fig.get("g")
    assert isinstance(e, Edge) and isinstance(g, Group)
    assert e.font_size is None and e.head_size is None and g.font_size is None
    assert fig.to_dict() == Figure.model_validate(fig.to_dict()).to_dict()
    assert "font_size" not in str(fig.to_dict()) and "head_size" not in str(fig.to_dict())


@pytest.mark.parametrize("field,value", [("font_size", 0), ("font_size", -3), ("head_size", 0), ("head_size", 500)])
def test_bad_sizes_are_refused_naming_the_field(field: str, value: float) -> None:
    with pytest.raises(SpecError, match=field):
        parse_dsl(f"a node\nb node\ne edge a -> b {field}={value}\n")


def test_round_trip_through_dsl_and_json() -> None:
    fig = parse_dsl(HAND)
    text = print_dsl(fig)
    assert "head=triangle_open" in text and "head_size=18" in text and "font_size=20" in text
    assert "font_size=22" in text
    assert parse_dsl(text) == fig
    assert Figure.model_validate(fig.to_dict()) == fig


def test_json_schema_names_the_new_fields_and_kind() -> None:
    schema = json_schema()
    edge, group = schema["$defs"]["Edge"]["properties"], schema["$defs"]["Group"]["properties"]
    assert "font_size" in edge and "head_size" in edge and "font_size" in group
    assert "triangle_open" in str(schema["$defs"]["Edge"]["properties"]["head"])


def _text_size(svg: str, content: str) -> float:
    root = ET.fromstring(svg.encode("utf-8"))
    for el in root.iter("{http://www.w3.org/2000/svg}text"):
        if "".join(el.itertext()).strip() == content:
            return float(el.get("font-size") or re.search(r"font-size:\s*([\d.]+)", el.get("style", "")).group(1))
    raise AssertionError(f"no text {content!r} in the SVG")


def test_renderer_draws_label_and_title_at_their_sizes() -> None:
    svg = draw_svg(parse_dsl(HAND))
    assert _text_size(svg, "big label") == pytest.approx(20)
    assert _text_size(svg, "Big title") == pytest.approx(22)
    plain = draw_svg(parse_dsl(HAND.replace(" font_size=20", "").replace(" font_size=22", "")))
    t = get_theme("paper")
    assert _text_size(plain, "big label") == pytest.approx(t.small_font_size)
    assert _text_size(plain, "Big title") == pytest.approx(t.group_font_size)


def test_renderer_draws_hollow_triangle_heads_at_their_size() -> None:
    svg = draw_svg(parse_dsl(HAND))
    root = ET.fromstring(svg.encode("utf-8"))
    end = root.find(".//svg:g[@id='e']/svg:path", NS).get("marker-end")
    mid = re.fullmatch(r"url\(#(.+)\)", end).group(1)
    assert "triangle_open" in mid
    marker = next(m for m in root.findall("svg:defs/svg:marker", NS) if m.get("id") == mid)
    paths = marker.findall("svg:path", NS)
    assert len(paths) == 2  # the outline in the line's colour, its inside in the page's
    assert paths[1].get("fill").upper() == get_theme("paper").background.upper()
    xs = [float(v) for v in re.findall(r"[ML](-?[\d.]+),", paths[0].get("d"))]
    assert max(xs) - min(xs) == pytest.approx(18, abs=0.01)  # head_size: the head's length along the line
    # the line stops at the triangle's back, not through its hollow inside
    assert float(marker.get("refX")) == pytest.approx(0, abs=0.01)


def test_head_size_scales_every_kind_and_the_default_is_unchanged() -> None:
    for kind in ("arrow", "open", "diamond", "circle", "triangle_open"):
        small, big = MarkerSpec(kind, "head", "#000", 1.0, "#fff"), MarkerSpec(kind, "head", "#000", 1.0, "#fff", size=24)
        assert big.length == pytest.approx(small.length * 3)  # 24 against 5 + 3 x 1
        assert big.id != small.id
    assert MarkerSpec("arrow", "head", "#000", 1.0, "#fff").id == "crafter--arrow-head-000-1"


def test_layout_measures_labels_and_titles_at_their_sizes() -> None:
    t = get_theme("paper")
    fig = parse_dsl('a node\nb node\ne edge a -> b "a label" font_size=21\ng group "Title" [a] font_size=22\n')
    e, g = fig.get("e"), fig.get("g")
    w, h = measure.edge_label_size(e, t)
    w0, h0 = measure.edge_label_size(e.model_copy(update={"font_size": None}), t)
    assert w > 1.8 * w0 and h > 1.6 * h0
    assert measure.group_label_width(g, t) > measure.group_label_width(g.model_copy(update={"font_size": None}), t)
    assert measure.group_padding(g, t)[0] == pytest.approx(group_band(g, t) + t.group_pad * 0.5)
    assert group_band(g, t) == pytest.approx(t.group_label_h * 2)


def test_layout_reserves_room_for_a_big_edge_label() -> None:
    from crafter.render.svg import ensure_layout

    fig = ensure_layout(parse_dsl('a node "A"\nb node "B"\ne edge a -> b "a long edge label" font_size=20\n'),
                        relayout=True)
    e = fig.get("e")
    assert e.label_box is not None
    assert e.label_box.h >= 20 * get_theme("paper").line_height


def test_drawio_carries_sizes_and_hollow_triangles_both_ways() -> None:
    fig = parse_dsl(HAND)
    xml = figure_to_drawio(fig)
    assert "endArrow=block" in xml and "endFill=0" in xml and "endSize=18" in xml
    assert "fontSize=20" in xml and "fontSize=22" in xml
    assert drawio_to_figure(xml) == fig
    # a diagram drawn in draw.io itself (no Crafter spec inside): the words draw.io uses
    foreign = ('<mxfile><diagram><mxGraphModel><root><mxCell id="0"/><mxCell id="1" parent="0"/>'
               '<mxCell id="a" value="A" style="rounded=0;" vertex="1" parent="1"><mxGeometry x="0" y="0" width="60" '
               'height="30" as="geometry"/></mxCell><mxCell id="b" value="B" style="rounded=0;" vertex="1" parent="1">'
               '<mxGeometry x="200" y="0" width="60" height="30" as="geometry"/></mxCell>'
               '<mxCell id="e" value="is a" style="endArrow=block;endFill=0;endSize=16;fontSize=18;" edge="1" '
               'parent="1" source="a" target="b"><mxGeometry relative="1" as="geometry"/></mxCell>'
               '</root></mxGraphModel></diagram></mxfile>')
    e = drawio_to_figure(foreign).get("e")
    assert (e.head, e.head_size, e.font_size) == ("triangle_open", 16, 18)


def test_tikz_writes_sizes_and_a_hollow_triangle() -> None:
    tex = figure_to_tikz(parse_dsl(HAND))
    assert re.search(r"Triangle\[length=[\d.]+pt, width=[\d.]+pt, open, fill=", tex)
    assert r"\fontsize{15}" in tex  # 20 px edge label = 15 pt
    assert r"\fontsize{16.5}" in tex  # 22 px group title


def test_pptx_writes_big_heads_large() -> None:
    pytest.importorskip("pptx")
    import io

    from pptx import Presentation

    from crafter.formats.pptx.write import figure_to_pptx

    data = figure_to_pptx(parse_dsl(HAND.replace("head_size=18", "head_size=30")))
    xml = "".join(sh.element.xml for sh in Presentation(io.BytesIO(data)).slides[0].shapes)
    assert 'type="triangle" w="lg" len="lg"' in xml
