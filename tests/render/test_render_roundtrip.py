"""A Crafter SVG restores its exact FigureSpec; anything else is refused with a clear message."""

from __future__ import annotations

from pathlib import Path
from unittest.mock import patch

import pytest
from hypothesis import HealthCheck, given, settings
from render_helpers import hand_layout

from crafter.errors import InputError, SpecError
from crafter.formats import load_figure, load_svg
from crafter.formats.svg import parse_svg, read_embedded_figure
from crafter.render import figure_to_svg
from crafter.spec import Figure, parse_dsl
from crafter.spec.testing import figures

EXAMPLES = sorted(Path(__file__).resolve().parents[2].joinpath("examples").glob("*.dsl"))


def _chart_stand_in(chart, box, theme):  # noqa: ANN001, ANN202
    return f'<rect x="{box.x}" y="{box.y}" width="{box.w}" height="{box.h}" fill="none"/>'


def test_hand_made_round_trip(showcase: Figure) -> None:
    assert load_svg(figure_to_svg(showcase)) == showcase


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(figures())
def test_generated_figures_round_trip(fig: Figure) -> None:
    laid_out = hand_layout(fig)
    # generated chart specs are random data, not drawable charts: draw a stand-in for each
    with patch("crafter.render.svg.chart_svg_fragment", _chart_stand_in):
        svg = figure_to_svg(laid_out)
    assert load_svg(svg) == laid_out
    assert load_svg(svg.encode("utf-8")) == laid_out


def test_round_trip_through_a_file(tmp_path: Path, showcase: Figure) -> None:
    path = tmp_path / "fig.svg"
    path.write_text(figure_to_svg(showcase), encoding="utf-8")
    assert load_svg(path) == showcase
    assert load_svg(str(path)) == showcase
    assert load_figure(path) == showcase  # crafter.formats.files delegates .svg here


def test_rendering_the_loaded_figure_gives_the_same_svg(showcase: Figure) -> None:
    svg = figure_to_svg(showcase)
    assert figure_to_svg(load_svg(svg)) == svg


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_examples_round_trip_after_layout(path: Path) -> None:
    if not hasattr(pytest.importorskip("crafter.layout"), "layout_figure"):
        pytest.skip("crafter.layout.layout_figure is not there yet")
    fig = load_figure(path)
    svg = figure_to_svg(fig)
    restored = load_svg(svg)
    assert figure_to_svg(restored) == svg
    assert [c.id for c in restored.components] == [c.id for c in fig.components]


def test_foreign_svg_is_refused() -> None:
    foreign = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="5" height="5"/></svg>'
    with pytest.raises(InputError, match="carries no Crafter figure"):
        load_svg(foreign)
    root, _ = parse_svg(foreign)
    assert read_embedded_figure(root) is None


def test_not_svg_and_not_xml(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not an SVG"):
        load_svg("<html><body/></html>")
    bad = tmp_path / "broken.svg"
    bad.write_text("<svg><g></svg>", encoding="utf-8")
    with pytest.raises(InputError, match="broken.svg"):
        load_svg(bad)
    with pytest.raises(InputError, match="no such file"):
        load_svg(tmp_path / "missing.svg")


def test_entities_are_refused() -> None:
    evil = ('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
            '<svg xmlns="http://www.w3.org/2000/svg">&x;</svg>')
    with pytest.raises(InputError, match="unsafe"):
        load_svg(evil)


def test_damaged_embedded_figure_names_the_problem(showcase: Figure) -> None:
    svg = figure_to_svg(showcase).replace('"kind":"node"', '"kind":"blob"', 1)
    with pytest.raises(SpecError, match="unknown kind"):
        load_svg(svg)
    svg = figure_to_svg(showcase).replace('{"title"', '{"title"::', 1)
    with pytest.raises(SpecError, match="not valid JSON"):
        load_svg(svg)


def test_metadata_survives_an_editor_moving_it(showcase: Figure) -> None:
    svg = figure_to_svg(showcase)
    start, end = svg.index("<metadata"), svg.index("</metadata>") + len("</metadata>")
    meta = svg[start:end]
    moved = svg[:start] + svg[end:].replace("</svg>", f"<g id='layer1'>{meta}</g></svg>")
    assert load_svg(moved) == showcase


def test_figure_without_layout_round_trips_its_laid_out_form() -> None:
    fig = parse_dsl('a node "A" box=0,0,80,30\nb node "B" box=120,0,80,30\ne edge a -> b route=80,15;120,15\n')
    assert load_svg(figure_to_svg(fig)) == fig


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(figures(max_nodes=6))
def test_generated_figures_round_trip_after_real_layout(fig: Figure) -> None:
    layout = pytest.importorskip("crafter.layout")
    if not hasattr(layout, "layout_figure"):
        pytest.skip("crafter.layout.layout_figure is not there yet")
    laid_out = layout.layout_figure(fig, engine="python")
    with patch("crafter.render.svg.chart_svg_fragment", _chart_stand_in):
        svg = figure_to_svg(laid_out)
    assert load_svg(svg) == laid_out
