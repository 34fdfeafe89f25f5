"""The critic: each check finds its fault, names the components, and stays quiet on clean figures."""

from __future__ import annotations

from pathlib import Path

import pytest

from crafter.agents.critique import check_dangling, critique
from crafter.agents.issues import FIGURE
from crafter.formats import load_figure
from crafter.spec import parse_dsl

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def codes(issues, code):
    return [i for i in issues if i["code"] == code]


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.dsl")), ids=lambda p: p.stem)
def test_laid_out_examples_are_clean(path) -> None:
    from crafter.layout import layout_figure

    issues = critique(layout_figure(load_figure(path)))
    assert issues == [], [i["message"] for i in issues]


def test_overlap_names_both_and_targets_the_unpinned() -> None:
    fig = parse_dsl("figure canvas=400,200\n"
                    "a node \"A\" box=10,10,100,40 pinned=true\n"
                    "b node \"B\" box=60,20,100,40\n"
                    "c node \"C\" box=250,10,100,40\n")
    [issue] = codes(critique(fig), "overlap")
    assert set(issue["component_ids"]) == {"a", "b"} and issue["target"] == "b"
    assert issue["severity"] == "error"


def test_text_overflow() -> None:
    fig = parse_dsl('figure canvas=400,200\nn node "A very long label that cannot fit" box=10,10,60,20 width=60 height=20\n')
    [issue] = codes(critique(fig), "text_overflow")
    assert issue["component_ids"] == ["n"]


def test_edge_through_a_node_that_is_not_its_end() -> None:
    fig = parse_dsl("figure canvas=500,100\n"
                    "a node \"A\" box=10,30,60,30\nm node \"M\" box=200,30,60,30\nb node \"B\" box=400,30,60,30\n"
                    "e edge a -> b route=70,45;400,45\n"
                    "ok edge a -> m route=70,45;200,45\n")
    [issue] = codes(critique(fig), "edge_crosses_node")
    assert issue["target"] == "e" and "m" in issue["component_ids"]


def test_edge_label_on_a_node() -> None:
    fig = parse_dsl("figure canvas=500,100\n"
                    "a node \"A\" box=10,30,60,30\nb node \"B\" box=400,30,60,30\n"
                    "e edge a -> b \"label\" route=70,45;400,45 label_box=20,35,40,14\n")
    [issue] = codes(critique(fig), "label_overlap")
    assert issue["target"] == "e"


def test_off_canvas() -> None:
    fig = parse_dsl("figure canvas=200,100\na node \"A\" box=180,10,60,30\nb node \"B\" box=10,10,60,30\n")
    [issue] = codes(critique(fig), "off_canvas")
    assert issue["component_ids"] == ["a"]


def test_low_contrast_only_for_explicit_colours() -> None:
    fig = parse_dsl("figure canvas=400,100\n"
                    "bad node \"Grey on white\" box=10,10,120,30 fill=#ffffff text_color=#cccccc\n"
                    "dark node \"Auto on navy\" box=200,10,120,30 fill=navy\n"
                    "t text \"faint note\" at=50,80 color=#eeeeee\n")
    ids = [i["target"] for i in codes(critique(fig), "low_contrast")]
    assert ids == ["bad", "t"]  # the renderer picks white text on navy by itself


def test_tiny_font_at_print_width() -> None:
    dsl = "figure width_in=1 canvas=2000,100\na node \"A\" box=10,10,100,40\nb node \"B\" box=1800,10,100,40\n"
    [issue] = codes(critique(parse_dsl(dsl)), "tiny_font")
    assert issue["target"] == FIGURE and set(issue["component_ids"]) == {"a", "b"}
    ok = parse_dsl(dsl.replace("width_in=1", "width_in=7").replace("2000", "600").replace("1800", "400"))
    assert codes(critique(ok), "tiny_font") == []


def test_missing_entity_from_the_brief(laid_out) -> None:
    fig = laid_out('enc node "Encoder"\ndec node "Decoder"\ne edge enc -> dec\n')
    brief = 'The "Encoder" feeds the "Decoder", which feeds a "Classifier".'
    [issue] = codes(critique(fig, brief=brief), "missing_entity")
    assert issue["entity"] == "Classifier" and issue["target"] == "classifier" and issue["fix"] == "model"


def test_dangling_ids_in_raw_components() -> None:
    comps = [{"id": "a", "kind": "node"}, {"id": "e", "kind": "edge", "source": "a", "target": "ghost"},
             {"id": "g", "kind": "group", "members": ["a", "nobody"]}]
    issues = check_dangling(comps)
    assert [(i["component_ids"], i["ref"]) for i in issues] == [(["e"], "ghost"), (["g"], "nobody")]


def test_chart_axis_without_title() -> None:
    fig = parse_dsl('figure canvas=400,300\nc chart "Acc" box=10,10,300,200 spec={"mark":"bar","encoding":'
                    '{"x":{"field":"m","type":"nominal"},"y":{"field":"acc","type":"quantitative","title":""}},'
                    '"data":{"values":[{"m":"a","acc":1}]}}\n')
    [issue] = codes(critique(fig), "chart_axis_title")
    assert issue["target"] == "c"
