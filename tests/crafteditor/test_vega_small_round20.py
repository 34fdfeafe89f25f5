"""Vega-Lite looks at scale 1 the chart reader had misread (round 20, drawn from Altair's own examples):
a thin line notched by the grid lines it crosses, its skeleton cut into pieces at every notch, of which
only the longest had been kept per piece of the line (one flank of each half-wave, its troughs lost)."""

from __future__ import annotations

import json
import math

import pytest

from crafteditor import convert
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
