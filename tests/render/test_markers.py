"""Arrowheads are <marker>s, defined once per (type, end, colour, width), for every head type."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from crafter.render import draw_svg
from crafter.render.markers import HEAD_TYPES
from crafter.spec import parse_dsl

NS = {"svg": "http://www.w3.org/2000/svg"}


def two_nodes(edges: str) -> str:
    return draw_svg(parse_dsl('a node "A" box=0,0,60,30\nb node "B" box=200,0,60,30\n' + edges))


def markers(svg: str) -> dict[str, ET.Element]:
    root = ET.fromstring(svg.encode("utf-8"))
    return {m.get("id"): m for m in root.findall("svg:defs/svg:marker", NS)}


def edge_path(svg: str, eid: str) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8")).find(f".//svg:g[@id='{eid}']/svg:path", NS)


@pytest.mark.parametrize("head", HEAD_TYPES)
def test_every_head_type_at_either_end(head: str) -> None:
    svg = two_nodes(f"e edge a -> b head={head} tail={head} route=60,15;200,15\n")
    defs = markers(svg)
    path = edge_path(svg, "e")
    end_id = re.fullmatch(r"url\(#(.+)\)", path.get("marker-end")).group(1)
    start_id = re.fullmatch(r"url\(#(.+)\)", path.get("marker-start")).group(1)
    assert end_id in defs and start_id in defs and end_id != start_id
    assert head in end_id and head in start_id
    for mid in (end_id, start_id):
        m = defs[mid]
        assert m.get("orient") == "auto" and len(list(m)) >= 1


def test_no_marker_for_none() -> None:
    svg = two_nodes("e edge a -- b route=60,15;200,15\n")
    assert not markers(svg)
    path = edge_path(svg, "e")
    assert path.get("marker-end") is None and path.get("marker-start") is None


def test_markers_are_shared_and_coloured() -> None:
    svg = two_nodes(
        "e1 edge a -> b route=60,10;200,10\n"
        "e2 edge a -> b route=60,20;200,20\n"
        "e3 edge a -> b color=#D55E00 route=60,25;200,25\n"
    )
    defs = markers(svg)
    assert len(defs) == 2  # one for the theme colour, one for orange
    assert edge_path(svg, "e1").get("marker-end") == edge_path(svg, "e2").get("marker-end")
    orange = next(m for m in defs.values() if "D55E00" in m.get("id"))
    assert orange.find("svg:path", NS).get("fill") == "#D55E00"


def test_marker_ids_cannot_collide_with_components() -> None:
    svg = two_nodes("crafter-arrow edge a -> b route=60,15;200,15\n")
    assert all("--" in mid for mid in markers(svg))


def test_line_stops_under_the_arrowhead_and_the_tip_touches_the_node() -> None:
    svg = two_nodes("e edge a -> b route=60,15;200,15\n")
    d = edge_path(svg, "e").get("d")
    end_x = float(d.split("L")[-1].split(",")[0])
    assert 190 < end_x < 200  # shortened so the butt end hides under the head
    m = next(iter(markers(svg).values()))
    shape = m.find("svg:path", NS).get("d")
    tip_x = max(float(p.split(",")[0]) for p in re.findall(r"[-\d.]+,[-\d.]+", shape))
    assert end_x + tip_x - float(m.get("refX")) == pytest.approx(200, abs=0.02)


def test_short_end_segment_keeps_its_direction() -> None:
    # a 3 px final stub cannot lose the arrowhead's inset: the line stays whole, the head is placed flush
    svg = two_nodes("e edge a -> b route=60,15;150,15;150,40;197,40;197,43;200,43\n")
    path = edge_path(svg, "e")
    assert "flush" in path.get("marker-end")
    assert path.get("d").endswith("L200,43")
    m = markers(svg)[re.fullmatch(r"url\(#(.+)\)", path.get("marker-end")).group(1)]
    assert float(m.get("refX")) == pytest.approx(8.0)  # the tip itself sits on the end point
