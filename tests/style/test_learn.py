"""Figures drawn in a known look → `style learn` → the look's values come back: colours within ΔE 5,
sizes within 1 pt, the same font class and arrowheads; from SVG and from PNG (through CraftEditor)."""

from __future__ import annotations

import pytest

from crafter.benchmarks.style import COLOURS, distances, learned, truth
from crafter.style import learn_from_files, validate_style
from crafter.style.learn import settle
from crafter.style.observe import Evidence

SIZES = ("label", "title", "edge_label", "node_width", "edge_width", "corner_radius")


def _check(look: str, style: dict, *, font: bool = True, unmeasured: tuple[str, ...] = ()) -> None:
    d = distances(learned(style), truth(look))
    for c in COLOURS:
        assert d[c] is not None and d[c] < 5.0, f"{look} {c}: ΔE {d[c]}"
    for s in SIZES:
        if s in unmeasured and d[s] is None:
            continue
        assert d[s] is not None and d[s] <= 1.0, f"{look} {s}: {d[s]} pt off"
    assert d["arrowhead"] is True, f"{look}: arrowhead {learned(style)['arrowhead']} vs {truth(look)['arrowhead']}"
    if font:
        assert d["font_class"] is True, f"{look}: font class {learned(style)['font_class']}"


@pytest.mark.parametrize("look", ["paper", "mono", "lab"])
def test_svg_figures_give_back_their_look(svg_sets, look) -> None:
    style = learn_from_files(svg_sets[look], look)
    validate_style(style)
    _check(look, style)
    assert len(style["learned_from"]) == len(svg_sets[look])
    assert all(src["reader"] == "crafter-svg" for src in style["learned_from"])


def test_a_foreign_svg_is_read_from_what_it_draws(svg_sets, vectorizer, tmp_path) -> None:
    """Without the embedded figure an SVG is drawn and read like a raster; its font-family names the class."""
    src = svg_sets["lab"][0].read_text(encoding="utf-8")
    start, end = src.index("<metadata"), src.index("</metadata>") + len("</metadata>")
    foreign = tmp_path / "foreign.svg"
    foreign.write_text(src[:start] + src[end:], encoding="utf-8")
    style = learn_from_files([foreign], "foreign", vectorizer=vectorizer)
    assert style["learned_from"][0]["reader"] == "svg"
    assert style["font"]["class"]["value"] == "serif"
    assert style["shapes"]["arrowhead"]["value"] == "open"


@pytest.mark.parametrize("look", ["paper", "lab"])
def test_png_figures_give_back_their_look(png_sets, vectorizer, look) -> None:
    style = learn_from_files(png_sets[look], look, vectorizer=vectorizer)
    assert all(src["reader"] == "crafteditor" for src in style["learned_from"])
    # pixels name no font and CraftEditor keeps no edge-label size: both come from the letters
    _check(look, style)


def test_learned_values_say_how_sure(svg_sets) -> None:
    style = learn_from_files(svg_sets["paper"], "paper")
    entry = style["palette"]["node_stroke"]
    assert entry["confidence"] == 1.0 and entry["count"] > 10 and entry["figures"] == len(svg_sets["paper"])


def test_a_read_chart_says_only_what_its_reader_saw() -> None:
    """An inside legend is placed in its corner; tick direction and a legend not found are not guessed."""
    from crafter.spec import Figure
    from crafter.style import Evidence, observe

    spec = {"mark": "bar", "data": {"values": [{"a": 1, "b": 2, "s": "x"}, {"a": 2, "b": 3, "s": "y"}]},
            "encoding": {"x": {"field": "a"}, "y": {"field": "b"}, "color": {"field": "s"}},
            "config": {"axis": {"grid": False}, "view": {"stroke": "#000000"}}}
    inside = {**spec, "encoding": {**spec["encoding"], "color": {"field": "s", "legend": {
        "orient": "none", "legendX": 250, "legendY": 10}}}}
    for s, orient in ((spec, None), (inside, "top-right")):
        fig = Figure.from_dict({"components": [{"id": "c", "kind": "chart", "width": 300, "height": 200, "spec": s}]})
        ev = observe(fig, Evidence(file="x", reader="crafteditor", exact=False))
        assert [v for v, _ in ev.obs.get("chart.legend_orient", [])] == ([orient] if orient else [])
        assert "chart.tick_direction" not in ev.obs
        assert ev.obs["chart.grid"] == [(False, 1.0)] and ev.obs["chart.frame"] == [(True, 1.0)]


def test_an_outline_width_seen_in_one_figure_of_three_is_not_sure() -> None:
    evidence = []
    for i in range(3):
        ev = Evidence(file=f"f{i}.png", reader="crafteditor", exact=False)
        ev.add("palette.node_stroke", "#4A5568")
        if i == 0:
            ev.add("strokes.node", 0.3)  # a sliver the reader measured on one figure only
        evidence.append(ev)
    entry = settle("strokes.node", evidence, [])
    assert entry["value"] == 0.3 and entry["confidence"] < 0.5
