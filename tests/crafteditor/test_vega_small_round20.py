"""Vega-Lite looks at scale 1 the chart reader had misread (round 20, drawn from Altair's own examples):
a thin line notched by the grid lines it crosses, its skeleton cut into pieces at every notch, of which
only the longest had been kept per piece of the line (one flank of each half-wave, its troughs lost); and
decimal tick labels in small type read without their point ('02' for 0.2), which had calibrated the axis
wrong."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from crafteditor import convert
from crafteditor.charts.axes import mend_dropped_points
from crafteditor.ocr.runs import TextRun
from crafteditor.realset import score_values


def test_thin_line_across_grid_lines_keeps_its_troughs():
    """Altair's ``simple_line_chart`` (f(x) = sin(x / 5), x 0..99) at 1x: a 1.5 px line over the grid."""
    vlc = pytest.importorskip("vl_convert")
    rows = [(x, math.sin(x / 5)) for x in range(100)]
    spec = {"data": {"values": [{"x": x, "f(x)": y} for x, y in rows]}, "mark": "line",
            "encoding": {"x": {"field": "x", "type": "quantitative"},
                         "y": {"field": "f(x)", "type": "quantitative"}}}
    conv = convert(vlc.vegalite_to_png(json.dumps(spec), scale=1))
    charts = [c for c in conv.figure.components if c.kind == "chart"]
    assert len(charts) == 1
    ys = [float(v["y"]) for v in charts[0].spec["data"]["values"]]
    assert min(ys) <= -0.9 and max(ys) >= 0.9  # both the troughs and the crests are read
    truth = {"values": [["", float(x), y] for x, y in rows], "value_axis": [-1.0, 1.0]}
    assert score_values(conv.figure, truth) >= 0.45


def _run(text: str, cx: float) -> TextRun:
    return TextRun(text=text, x=cx - 6.0, y=250.0, w=12.0, h=8.0, angle=0.0, font_px=8.0, bold=False,
                   color=(0, 0, 0), confidence=1.0, baseline=258.0, glyphs=np.zeros((8, 12), bool))


def test_tick_labels_get_back_the_decimal_point_ocr_lost():
    """'02', '0 5' and '09' among 0.3 … 0.8 at 27 px a step are 0.2, 0.5 and 0.9 (Vega-Lite's 1x ticks)."""
    read = ["0.1", "02", "0.3", "0.4", "0 5", "06", "0.7", "0.8", "09", "1.0"]
    runs = [_run(t, 50.0 + 27.0 * i) for i, t in enumerate(read)]
    mend_dropped_points(runs, list(range(len(runs))), vertical=False)
    assert [r.text for r in runs] == [f"{0.1 * (i + 1):.1f}" for i in range(10)]


def test_whole_numbers_among_decimals_are_kept_as_read():
    """'0 2.5 5 7.5 10': the whole labels are right as they are, and '10' is not '1.0'; labels of no
    straight line (a log axis's) are not mended either."""
    runs = [_run(t, 50.0 + 30.0 * i) for i, t in enumerate(["0", "2.5", "5", "7.5", "10"])]
    mend_dropped_points(runs, list(range(len(runs))), vertical=False)
    assert [r.text for r in runs] == ["0", "2.5", "5", "7.5", "10"]
    logs = [_run(t, 50.0 + 30.0 * i) for i, t in enumerate(["0.1", "0.5", "25", "125.0"])]
    mend_dropped_points(logs, list(range(len(logs))), vertical=False)
    assert logs[2].text == "25"


def test_grouped_horizontal_bars_at_1x_read_their_decimal_ticks():
    """Vega-Lite's ``bar_grouped_horizontal`` at 1x: ticks 0.0 … 1.1, three read without their point."""
    vlc = pytest.importorskip("vl_convert")
    rows = [("A", "x", 0.1), ("A", "y", 0.6), ("A", "z", 0.9), ("B", "x", 0.7), ("B", "y", 0.2), ("B", "z", 1.1),
            ("C", "x", 0.6), ("C", "y", 0.1), ("C", "z", 0.2)]
    spec = {"data": {"values": [{"category": c, "group": g, "value": v} for c, g, v in rows]}, "mark": "bar",
            "encoding": {"y": {"field": "category"}, "x": {"field": "value", "type": "quantitative"},
                         "yOffset": {"field": "group"}, "color": {"field": "group"}}}
    conv = convert(vlc.vegalite_to_png(json.dumps(spec), scale=1))
    truth = {"values": [[g, c, v] for c, g, v in rows], "value_axis": [0.0, 1.1]}
    assert score_values(conv.figure, truth) >= 0.8


def test_two_bar_chart_at_three_quarters_scale_is_a_chart():
    """Vega-Lite's ``stacked_bar_unaggregate`` at 0.75x: its x axis is 34 px long, under the 40 px a chart's
    axis had to be, and the figure had come out as a diagram of rounded shapes."""
    vlc = pytest.importorskip("vl_convert")
    rows = [("A1", 28, "x"), ("A1", 23, "y"), ("A2", 18, "x"), ("A2", 21, "y")]
    spec = {"data": {"values": [{"a": a, "b": b, "c": c} for a, b, c in rows]}, "mark": "bar",
            "encoding": {"x": {"field": "a", "type": "ordinal"},
                         "y": {"field": "b", "type": "quantitative", "stack": "zero"},
                         "color": {"field": "c", "type": "nominal"}}}
    conv = convert(vlc.vegalite_to_png(json.dumps(spec), scale=0.75))
    assert len([c for c in conv.figure.components if c.kind == "chart"]) == 1
    truth = {"values": [[c, a, float(b)] for a, b, c in rows], "value_axis": [0.0, 55.0]}
    assert score_values(conv.figure, truth) >= 0.5
