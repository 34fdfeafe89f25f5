"""Horizontal dot plots (Vega-Lite's points on a nominal y axis, a quantitative x axis: ranked
points, argmin/argmax, points with error bars): the turned reading found the markers but only a
bar chart was turned back, so the whole chart was read as nothing."""

from __future__ import annotations

import json

import pytest

from crafteditor import convert
from crafteditor.realset import score_values
from crafter.spec.model import Chart

_RANK = {"raiden": 2.0, "liukang": 1.0, "johnnycage": 4.0, "kitana": 3.0}


def _spec(filled: bool) -> dict:
    return {
        "data": {"values": [{"name": k, "rank": v} for k, v in _RANK.items()]},
        "mark": {"type": "point", "filled": filled},
        "encoding": {"x": {"field": "rank", "type": "quantitative", "title": "Min of Place Rank",
                           "scale": {"domain": [0, 5]}},
                     "y": {"field": "name", "type": "nominal", "title": "Fighter Name"}},
    }


@pytest.mark.parametrize("filled", [True, False])
@pytest.mark.parametrize("theme", [None, "quartz"])
def test_vega_lite_horizontal_dot_plot_reads_one_value_a_category(filled, theme):
    vlc = pytest.importorskip("vl_convert")
    conv = convert(vlc.vegalite_to_png(json.dumps(_spec(filled)), scale=2, theme=theme))
    charts = [c for c in conv.figure.components if isinstance(c, Chart)]
    assert len(charts) == 1
    rows = charts[0].spec["data"]["values"]
    assert sorted(r["y"] for r in rows) == sorted(_RANK)  # one point a category, none repeated
    values = [["", k, v] for k, v in _RANK.items()]
    assert score_values(conv.figure, {"values": values, "value_axis": [0, 5]}) == 1.0


def test_vega_lite_horizontal_boxplot_is_not_read_as_dots():
    """A horizontal boxplot's boxes, read in the turned reading as markers far larger than a dot
    plot's, are not turned back as one point a category (its medians drawn as giant dots)."""
    vlc = pytest.importorskip("vl_convert")
    rows = [{"g": g, "v": v} for g, base in (("Adelie", 3700), ("Chinstrap", 3750), ("Gentoo", 5000))
            for v in (base - 600, base - 300, base - 100, base, base + 100, base + 300, base + 600)]
    spec = {"data": {"values": rows}, "mark": {"type": "boxplot", "extent": "min-max"},
            "encoding": {"x": {"field": "v", "type": "quantitative", "scale": {"zero": False}},
                         "y": {"field": "g", "type": "nominal"}}}
    conv = convert(vlc.vegalite_to_png(json.dumps(spec), scale=2))
    for c in conv.figure.components:
        if isinstance(c, Chart):
            mark = c.spec.get("mark")
            assert (mark.get("type") if isinstance(mark, dict) else mark) != "point"
