"""Vega-Lite looks the reader had lost (round 19, drawn from Vega-Lite's own examples with vl-convert): a
narrow chart under the dark theme whose tick labels the detector found none of on the mosaic of their places,
so no word was read; and a y axis's last category 'I', a 2 px grey bar at 1x, too pale for the colour gate
and read '1' where it was kept, so the last bar was named 'H' or '1'."""

from __future__ import annotations

import json

import pytest

from crafteditor import convert
from crafteditor.realset import score_values

_POINTS = [("C", 2), ("C", 7), ("C", 4), ("D", 1), ("D", 2), ("D", 6), ("E", 8), ("E", 4), ("E", 7)]
_BARS = [("A", -28), ("B", 55), ("C", -33), ("D", 91), ("E", 81), ("F", 53), ("G", -19), ("H", 87), ("I", 52)]


def test_dark_theme_narrow_scatter_reads_its_tick_labels_and_values():
    """``point_2d_array`` under vl-convert's dark theme at 2x: light labels on #333."""
    vlc = pytest.importorskip("vl_convert")
    spec = {"data": {"values": [{"a": a, "b": b} for a, b in _POINTS]}, "mark": "point",
            "encoding": {"x": {"field": "a", "type": "nominal"}, "y": {"field": "b", "type": "quantitative"}}}
    conv = convert(vlc.vegalite_to_png(json.dumps(spec), scale=2, theme="dark"))
    truth = {"values": [["", a, float(b)] for a, b in _POINTS], "value_axis": [0.0, 8.0]}
    assert score_values(conv.figure, truth) >= 0.75


def test_lone_capital_i_on_a_y_axis_names_its_bar():
    """``bar_negative_horizontal_label`` at 1x: the labels 'A'..'I' flush right down the y axis."""
    vlc = pytest.importorskip("vl_convert")
    spec = {"data": {"values": [{"a": a, "b": b} for a, b in _BARS]},
            "encoding": {"y": {"field": "a", "type": "nominal",
                               "axis": {"domain": False, "ticks": False, "labelAngle": 0, "labelPadding": 4}},
                         "x": {"field": "b", "type": "quantitative", "scale": {"padding": 20}}},
            "mark": "bar"}
    conv = convert(vlc.vegalite_to_png(json.dumps(spec), scale=1))
    truth = {"values": [["", a, float(b)] for a, b in _BARS], "value_axis": [-40.0, 100.0]}
    assert score_values(conv.figure, truth) == 1.0


def test_turned_capital_i_under_an_x_axis_names_its_bar():
    """``simple_bar_chart`` at 2x: x labels turned -90 degrees, the last one 'I' a flat bar under its tick."""
    vlc = pytest.importorskip("vl_convert")
    rows = [("A", 28), ("B", 55), ("C", 43), ("D", 91), ("E", 81), ("F", 53), ("G", 19), ("H", 87), ("I", 52)]
    spec = {"data": {"values": [{"a": a, "b": b} for a, b in rows]}, "mark": "bar",
            "encoding": {"x": {"field": "a", "type": "nominal"}, "y": {"field": "b", "type": "quantitative"}}}
    conv = convert(vlc.vegalite_to_png(json.dumps(spec), scale=2))
    truth = {"values": [["", a, float(b)] for a, b in rows], "value_axis": [0.0, 100.0]}
    assert score_values(conv.figure, truth) == 1.0
