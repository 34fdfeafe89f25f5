"""Pinned positions survive layout; panels sit side by side; texts go where they are told."""

from __future__ import annotations

import logging

from layout_cases import case_figure

from crafter.base.theme import get_theme
from crafter.layout import layout_figure, layout_problems
from crafter.spec import parse_dsl
from crafter.spec.model import Box


def test_pinned_node_keeps_its_box_exactly(engine: str) -> None:
    fig = parse_dsl("""
a node "Fixed" box=200.125,80.5,90,40 pinned=true
b node "One"
c node "Two"
e1 edge a -> b
e2 edge b -> c
e3 edge c -> a
""")
    laid = layout_figure(fig, engine=engine)
    assert laid.get("a").box == Box(x=200.125, y=80.5, w=90, h=40)
    for cid in "bc":
        assert not laid.get(cid).box.intersects(laid.get("a").box)
    assert layout_problems(laid) == []


def test_relayout_keeps_pins_and_is_stable(engine: str) -> None:
    once = layout_figure(case_figure("pinned_node"), engine=engine)
    twice = layout_figure(once, engine=engine)
    assert twice.get("a").box == once.get("a").box
    assert twice.to_json() == once.to_json()


def test_pinned_group_holds_its_members(engine: str) -> None:
    laid = layout_figure(case_figure("empty_and_pinned_groups"), engine=engine)
    frame = laid.get("frame")
    assert frame.box == Box(x=400, y=40, w=240, h=160)
    assert frame.box.contains(laid.get("b").box)
    assert laid.get("onlypinned").box.contains(laid.get("a").box)
    assert laid.get("a").box == Box(x=40, y=200, w=90, h=40)
    assert layout_problems(laid) == []


def test_pinned_group_too_small_grows(engine: str, caplog) -> None:
    fig = parse_dsl("""
a node "First member with a long label"
b node "Second member"
e edge a -> b
g group "Tiny" [a, b] box=10,10,40,30 pinned=true
""")
    with caplog.at_level(logging.WARNING, logger="crafter.layout.figure"):
        laid = layout_figure(fig, engine=engine)
    g = laid.get("g").box
    assert (g.x, g.y) == (10, 10)
    assert g.contains(laid.get("a").box) and g.contains(laid.get("b").box)
    assert "too small" in caplog.text


def test_pinned_edge_keeps_its_route(engine: str) -> None:
    fig = parse_dsl("""
a node "A"
b node "B"
e edge a -> b "kept" route=0,0;50,0;50,40 label_box=5,5,20,10 pinned=true
""")
    laid = layout_figure(fig, engine=engine)
    e = laid.get("e")
    assert [(p.x, p.y) for p in e.route] == [(0, 0), (50, 0), (50, 40)]
    assert e.label_box == Box(x=5, y=5, w=20, h=10)


def test_panels_side_by_side(engine: str) -> None:
    laid = layout_figure(case_figure("panels"), engine=engine)
    t = get_theme("paper")
    pa, pb = laid.get("pa").box, laid.get("pb").box
    assert pa.y == pb.y and pa.h == pb.h  # tops aligned, equal heights
    assert pb.x >= pa.right + t.panel_sep - 0.01
    free = laid.get("free").box
    assert free.x >= pb.right + t.panel_sep - 0.01  # the free area comes after the panels
    # panel (a) runs top to bottom, panel (b) left to right
    a, b, c = (laid.get(i).box for i in "abc")
    assert a.cy < b.cy < c.cy
    d, e = laid.get("d").box, laid.get("e").box
    assert d.cx < e.cx
    assert layout_problems(laid) == []


def test_text_at_a_point_is_centred_there(engine: str) -> None:
    laid = layout_figure(case_figure("annotations"), engine=engine)
    t8 = laid.get("t8").box
    assert abs(t8.cx - 60) < 0.02 and abs(t8.cy - 300) < 0.02


def test_annotations_sit_on_their_side(engine: str) -> None:
    laid = layout_figure(case_figure("annotations"), engine=engine)
    a, b = laid.get("a").box, laid.get("b").box
    assert laid.get("t1").box.bottom <= a.y
    assert laid.get("t2").box.y >= a.bottom
    assert laid.get("t3").box.right <= b.x
    assert laid.get("t4").box.x >= b.right
    assert laid.get("t6").box.bottom <= laid.get("g").box.y
    assert laid.get("g").box.contains(a)


def test_input_figure_is_not_changed(engine: str) -> None:
    fig = case_figure("nested_groups")
    before = fig.to_json()
    laid = layout_figure(fig, engine=engine)
    assert fig.to_json() == before
    assert laid is not fig and laid.canvas is not None


def test_empty_figure_empty_panel_and_lone_title(engine: str) -> None:
    from crafter.spec import Figure

    assert layout_figure(Figure(), engine=engine).canvas is not None
    titled = layout_figure(Figure(title="Only a title"), engine=engine)
    assert titled.canvas.h >= 14 * 1.8  # the title band of the paper theme
    laid = layout_figure(parse_dsl('p panel "(a)"\nq panel [x]\nx node "X"\ne edge p -> q'), engine=engine)
    assert laid.get("p").box is not None and laid.get("q").box.x > laid.get("p").box.right
    assert layout_problems(laid) == []
