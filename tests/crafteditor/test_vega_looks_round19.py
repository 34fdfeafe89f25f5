"""Vega-Lite looks the chart reader had misread (round 19, drawn from Vega-Lite's own examples): open
circles offset per group in a category, read as box plots of a marker's height; and the ggplot2 theme,
which draws no axis line, no gridline and no panel, its plot framed by its tick labels alone, cut short
where one x label was lost."""

from __future__ import annotations

import json

import pytest

from crafteditor import convert
from crafteditor.realset import score_values

_GROUPED = [("A", "x", 0.1), ("A", "y", 0.6), ("A", "z", 0.9), ("B", "x", 0.7), ("B", "y", 0.2), ("B", "z", 1.1),
            ("C", "x", 0.6), ("C", "y", 0.1), ("C", "z", 0.2)]


def _charts(conv):
    return [c for c in conv.figure.components if c.kind == "chart"]


def test_open_circles_offset_per_group_are_points_not_box_plots():
    """Vega-Lite's ``point_grouped`` example: hollow circles, three groups side by side in each category, at 2x."""
    vlc = pytest.importorskip("vl_convert")
    spec = {"data": {"values": [{"category": c, "group": g, "value": v} for c, g, v in _GROUPED]},
            "mark": "point",
            "encoding": {"x": {"field": "category"}, "y": {"field": "value", "type": "quantitative"},
                         "xOffset": {"field": "group"}, "color": {"field": "group"}}}
    conv = convert(vlc.vegalite_to_png(json.dumps(spec), scale=2))
    charts = _charts(conv)
    assert len(charts) == 1
    marks = [charts[0].spec.get("mark")] + [ly.get("mark") for ly in charts[0].spec.get("layer", [])]
    assert not any(isinstance(m, dict) and m.get("type") == "boxplot" for m in marks)
    truth = {"values": [[g, c, v] for c, g, v in _GROUPED], "value_axis": [0.0, 1.1]}
    assert score_values(conv.figure, truth) >= 0.5


def test_ggplot2_theme_line_chart_is_read_across_its_whole_x_axis():
    """Vega-Lite's ``line_impute_method`` example under vl-convert's ggplot2 theme at 1x: no axis lines, the
    x labels' first one flush with the axis's end, '2.5' lost to OCR (read with the axis title under it)."""
    vlc = pytest.importorskip("vl_convert")
    rows = [(0, 28, 0), (0, 91, 1), (1, 43, 0), (1, 55, 1), (2, 81, 0), (2, 53, 1), (3, 19, 0)]
    spec = {"data": {"values": [{"a": a, "b": b, "c": c} for a, b, c in rows]},
            "mark": "line",
            "encoding": {"x": {"field": "a", "type": "quantitative", "scale": {"nice": 1}},
                         "y": {"field": "b", "type": "quantitative", "impute": {"method": "mean"}},
                         "color": {"field": "c", "type": "nominal"}}}
    conv = convert(vlc.vegalite_to_png(json.dumps(spec), scale=1, theme="ggplot2"))
    truth = {"values": [[str(c), float(a), float(b)] for a, b, c in rows] + [["1", 3.0, 66.333333]],
             "value_axis": [0.0, 100.0]}
    assert score_values(conv.figure, truth) >= 0.75
