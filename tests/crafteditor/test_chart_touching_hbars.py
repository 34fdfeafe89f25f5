"""Horizontal bars that touch or nearly touch (1-2 px apart at 1x): the longest bars reach nearly
across the plot, and a block of uniform rows that long had been taken for one soft gridline, its
middle dropped, what was left of the bars read as a line series (every value lost)."""

from __future__ import annotations

import json

import matplotlib
import pytest
from mpl_helpers import mpl_png

from crafteditor import convert
from crafteditor.realset import score_values

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

_SHARE = {"Sleeping": 33.35, "Eating": 8.32, "TV": 16.67, "Work": 33.35, "Exercise": 8.32}


def test_vega_lite_horizontal_bars_one_pixel_apart_read_their_values():
    """Vega-Lite's percent-of-total example at scale 1, default theme: bars 10 px high, 2 px apart."""
    vlc = pytest.importorskip("vl_convert")
    spec = {
        "data": {"values": [{"Activity": k, "Share": v} for k, v in _SHARE.items()]},
        "height": {"step": 12},
        "mark": "bar",
        "encoding": {"x": {"field": "Share", "type": "quantitative", "title": "% of total Time"},
                     "y": {"field": "Activity", "type": "nominal"}},
    }
    conv = convert(vlc.vegalite_to_png(json.dumps(spec), scale=1))
    values = [["", k, v] for k, v in _SHARE.items()]
    assert score_values(conv.figure, {"values": values, "value_axis": [0, 35]}) == 1.0


def test_matplotlib_barh_touching_bars_read_their_values():
    """``barh(height=1.0)`` with a dozen categories: the bars share their edges, each some 10 px
    high, the longest nearly as long as the axis."""
    vals = {f"c{i}": v for i, v in enumerate([9.3, 6.4, 9.2, 3.2, 5.5, 7.7, 2.4, 9.1, 4.6, 8.0, 6.9, 1.8])}
    fig, ax = plt.subplots(figsize=(4, 2.0), dpi=100)
    ax.barh(list(vals), list(vals.values()), height=1.0, color="#4C72B0")
    ax.set_xlim(0, 9.5)
    ax.tick_params(labelsize=6)
    ax.set_xlabel("score", fontsize=7)
    conv = convert(mpl_png(fig))
    values = [["", k, v] for k, v in vals.items()]
    assert score_values(conv.figure, {"values": values, "value_axis": [0, 9.5]}) >= 0.9
