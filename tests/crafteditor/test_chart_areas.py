"""Filled areas (issue 31 round 23, charts23): Vega-Lite's and Altair's ``mark_area`` (densities, cumulative
counts, stacked areas), matplotlib's ``fill_between`` and ``stackplot``, plotnine's ``geom_area`` were neither bars
nor a line, and the whole chart was lost (a survey of 21 such figures from seaborn-data: 18 read no value). Each
area is now read column by column: its top's value, or its thickness where it stands on another area."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest
from mpl_helpers import mpl_png, plt
from PIL import Image

from crafteditor import convert
from crafteditor.charts.areas import area_series
from crafteditor.charts.axes import Axis
from crafteditor.realset import score_values

_X = np.arange(1949, 1961, dtype=float)
_JAN = np.array([112, 115, 145, 171, 196, 204, 242, 284, 315, 340, 360, 417], dtype=float)
_APR = np.array([129, 135, 163, 181, 235, 227, 269, 313, 348, 348, 396, 461], dtype=float)
_JUL = np.array([148, 170, 199, 230, 264, 302, 364, 413, 465, 491, 548, 622], dtype=float)


def _areas(conv):
    return [c for c in conv.figure.of_kind("chart") if (c.spec.get("mark") or {}).get("type") == "area"]


def test_a_single_filled_area_reads_its_curve():
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.fill_between(_X, 0, _JUL)
    ax.set_ylim(0, 700)
    ax.set_ylabel("Passengers (July)")
    conv = convert(mpl_png(fig))
    assert len(_areas(conv)) == 1
    truth = {"values": [["", float(x), float(y)] for x, y in zip(_X[1:-1], _JUL[1:-1])], "value_axis": [0, 700]}
    assert score_values(conv.figure, truth) >= 0.9


def test_a_stackplot_reads_each_layer_as_its_thickness():
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.stackplot(_X, _JAN, _APR, _JUL, labels=["January", "April", "July"])
    ax.legend(loc="upper left")
    ax.set_ylim(0, 1600)
    conv = convert(mpl_png(fig))
    charts = _areas(conv)
    assert len(charts) == 1
    assert charts[0].spec["encoding"]["y"]["stack"] == "zero"
    truth = {"values": [[name, float(x), float(y)] for name, ys in (("January", _JAN), ("April", _APR), ("July", _JUL))
                        for x, y in zip(_X[1:-1], ys[1:-1])], "value_axis": [0, 1600]}
    assert score_values(conv.figure, truth) >= 0.9


def test_touching_histogram_bins_stay_bars():
    """A staircase top (bins drawn without gaps, flat from edge to edge) is bars, not an area."""
    rng = np.random.default_rng(3)
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.hist(rng.normal(200, 12, 400), bins=15, histtype="stepfilled")
    conv = convert(mpl_png(fig))
    marks = [(c.spec.get("mark") or {}).get("type") for c in conv.figure.of_kind("chart")]
    assert marks and "area" not in marks


def test_area_series_takes_a_thick_solid_fill_and_not_a_stroke():
    yaxis = Axis(a=100.0, b=-1.0)  # row 100 is 0, row 0 is 100
    xaxis = Axis(a=0.0, b=0.1)
    plot = (0, 0, 199, 100)
    fill = np.zeros((101, 200), bool)
    tops = (40 + 20 * np.sin(np.arange(200) / 30)).astype(int)
    for c, t in enumerate(tops):
        fill[t:100, c] = True
    s = area_series(fill, (0, 0, 255), yaxis, xaxis, plot, base=100.0)
    assert s is not None and s.kind == "area" and not s.stacked
    x, y = s.points[0]
    assert abs(y - (100 - tops[0])) <= 1
    stroke = np.zeros_like(fill)
    for c, t in enumerate(tops):
        stroke[t:t + 2, c] = True
    assert area_series(stroke, (0, 0, 255), yaxis, xaxis, plot, base=100.0) is None


def test_a_vega_lite_area_reads_as_an_area():
    vlc = pytest.importorskip("vl_convert")
    rows = [{"x": float(x), "y": float(y)} for x, y in zip(_X, _JUL)]
    spec = {"width": 300, "height": 200, "data": {"values": rows}, "mark": "area",
            "encoding": {"x": {"field": "x", "type": "quantitative", "scale": {"zero": False}},
                         "y": {"field": "y", "type": "quantitative"}}}
    png = vlc.vegalite_to_png(json.dumps(spec), scale=1)
    conv = convert(np.asarray(Image.open(io.BytesIO(png)).convert("RGB")))
    assert len(_areas(conv)) == 1
    truth = {"values": [["", r["x"], r["y"]] for r in rows[1:-1]], "value_axis": [0, 700]}
    assert score_values(conv.figure, truth) >= 0.9
