"""The FigureSpec's two forms are lossless: DSL and JSON round-trip exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from crafter.formats import load_figure
from crafter.spec import Figure, parse_dsl, print_dsl
from crafter.spec.testing import figures

EXAMPLES = sorted(Path(__file__).resolve().parents[2].joinpath("examples").glob("*.dsl"))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(figures())
def test_dsl_round_trip(fig: Figure) -> None:
    text = print_dsl(fig)
    assert parse_dsl(text) == fig
    assert print_dsl(parse_dsl(text)) == text  # the printer is deterministic


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(figures())
def test_json_round_trip(fig: Figure) -> None:
    data = json.loads(fig.to_json())
    assert Figure.from_dict(data) == fig


@settings(max_examples=100, deadline=None)
@given(figures())
def test_json_dsl_json(fig: Figure) -> None:
    assert parse_dsl(print_dsl(Figure.from_dict(fig.to_dict()))).to_dict() == fig.to_dict()


def test_examples_exist() -> None:
    assert len(EXAMPLES) >= 8


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_examples_round_trip(path: Path) -> None:
    fig = load_figure(path)
    assert parse_dsl(print_dsl(fig)) == fig
    assert Figure.from_dict(json.loads(fig.to_json())) == fig


def test_defaults_are_not_printed() -> None:
    fig = parse_dsl('a node "A"\nb node "B"\ne edge a -> b')
    assert print_dsl(fig) == 'a node "A"\nb node "B"\ne edge a -> b\n'
    assert fig.to_dict() == {"components": [
        {"id": "a", "kind": "node", "label": "A"},
        {"id": "b", "kind": "node", "label": "B"},
        {"id": "e", "kind": "edge", "source": "a", "target": "b"},
    ]}


def test_comments_and_colours() -> None:
    fig = parse_dsl('# a comment\na node "A" fill=#ffcc00 # trailing comment\n')
    assert fig.get("a").fill == "#ffcc00"


def test_arrow_forms() -> None:
    fig = parse_dsl('a node\nb node\n e1 edge a -> b\ne2 edge a <- b\ne3 edge a <-> b\ne4 edge a -- b\ne5 edge a->b')
    heads = [(e.tail, e.head) for e in fig.of_kind("edge")]
    assert heads == [("none", "arrow"), ("arrow", "none"), ("arrow", "arrow"), ("none", "none"), ("none", "arrow")]


def test_unicode_and_markup_labels_survive() -> None:
    label = 'x < y & "z" — Ω 🧪 שלום \\ end'
    fig = Figure(components=[{"id": "a", "kind": "node", "label": label}])
    assert parse_dsl(print_dsl(fig)).get("a").label == label


def test_a_trailing_newline_is_quoted_and_never_passes_as_an_id_or_colour():
    # Python's "$" also matches before a final newline: values are checked with fullmatch
    import pytest

    from crafter.spec import Figure, Node, SpecError, parse_dsl, print_dsl
    from crafter.spec.colors import is_color

    fig = Figure(caption="0\n", components=[Node(kind="node", id="a")])
    assert parse_dsl(print_dsl(fig)) == fig
    with pytest.raises((SpecError, ValueError)):
        Node(kind="node", id="a\n")
    assert not is_color("#fff\n")
