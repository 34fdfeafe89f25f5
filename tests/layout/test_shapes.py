"""Node sizes hold their labels inside the drawn outline, and our outlines are the renderer's."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crafter.base.theme import THEMES
from crafter.layout.shapes import clip_to_outline, label_area, label_fits, node_size, outline
from crafter.render.shapes import Paint, shape_svg
from crafter.spec.model import SHAPES, Box, Node

WORDS = st.sampled_from(["a", "Encoder", "of", "attention", "x", "Retrieval-augmented", "generation", "模型",
                         "🚀", "Supercalifragilisticexpialidocious", "(rank 8)", "ΔW", "k≥0.7?"])
LABELS = st.lists(WORDS, min_size=1, max_size=14).map(" ".join)


@settings(max_examples=150, deadline=None)
@given(label=LABELS, shape=st.sampled_from(SHAPES), theme=st.sampled_from(sorted(THEMES)),
       width=st.sampled_from([None, 40.0, 200.0]), bold=st.booleans())
def test_label_fits_inside_outline(label: str, shape: str, theme: str, width: float | None, bold: bool) -> None:
    node = Node(kind="node", id="n", label=label, shape=shape, width=width, bold=bold)
    t = THEMES[theme]
    w, h = node_size(node, t)
    assert w >= t.node_min_w - 1e-9 or shape == "circle"
    assert h >= t.node_min_h - 1e-9
    assert label_fits(node, Box(x=3.25, y=7.5, w=w, h=h), t)
    assert w == round(w, 2) and h == round(h, 2)


def test_requested_size_is_a_minimum() -> None:
    t = THEMES["paper"]
    small = Node(kind="node", id="n", label="A long label that wraps over lines", width=30, height=10)
    big = Node(kind="node", id="m", label="Hi", width=300, height=90)
    assert node_size(small, t)[0] > 30
    assert node_size(big, t) == (300.0, 90.0)


def test_curved_shapes_need_more_room() -> None:
    t = THEMES["paper"]
    text = "Is the sample valid?"
    box_w, box_h = node_size(Node(kind="node", id="n", label=text), t)
    for shape in ("diamond", "ellipse", "circle"):
        w, h = node_size(Node(kind="node", id="n", label=text, shape=shape), t)
        assert w * h > box_w * box_h


def test_words_are_not_cut_to_make_a_shape_rounder() -> None:
    t = THEMES["paper"]
    from crafter.layout.shapes import node_label_lines

    for shape in ("circle", "ellipse", "diamond"):
        node = Node(kind="node", id="n", label="Discard", shape=shape)
        w, _ = node_size(node, t)
        assert node_label_lines(node, w, t) == ["Discard"]


def _points(svg: str) -> list[tuple[float, float]]:
    m = re.search(r'points="([^"]+)"', svg)
    assert m, svg
    return [tuple(float(v) for v in p.split(",")) for p in m.group(1).split()]  # type: ignore[misc]


@pytest.mark.parametrize("shape", ["diamond", "parallelogram", "hexagon"])
@pytest.mark.parametrize("size", [(100.0, 50.0), (64.0, 32.0), (220.0, 90.0)])
def test_polygons_match_the_renderer(shape: str, size: tuple[float, float]) -> None:
    b = Box(x=10, y=20, w=size[0], h=size[1])
    svg, _ = shape_svg(shape, b, Paint("#fff", "#000", 1.0), 6.0)
    ours = outline(shape, b)
    assert [(round(x, 2), round(y, 2)) for x, y in ours] == [(round(x, 2), round(y, 2)) for x, y in _points(svg)]


@pytest.mark.parametrize("shape", SHAPES)
def test_label_areas_match_the_renderer(shape: str) -> None:
    b = Box(x=10, y=20, w=120, h=54)
    _, area = shape_svg(shape, b, Paint("#fff", "#000", 1.0), 6.0)
    assert label_area(shape, b) == area


def test_edges_end_on_the_drawn_outline() -> None:
    b = Box(x=0, y=0, w=100, h=60)
    # a horizontal route reaching the diamond's box side at mid-height ends on the left tip
    assert clip_to_outline("diamond", b, (0.0, 30.0), (-40.0, 30.0)) == pytest.approx((0.0, 30.0))
    # higher up, the diamond's edge is further in
    x, y = clip_to_outline("diamond", b, (0.0, 15.0), (-40.0, 15.0))
    assert y == 15.0 and x == pytest.approx(25.0)
    # a circle is entered on its rim, not on its square box
    x, y = clip_to_outline("circle", b, (20.0, 0.0), (20.0, -30.0))
    assert x == 20.0 and (x - 50) ** 2 + (y - 30) ** 2 == pytest.approx(30 ** 2, rel=0.01)
