"""Vega-Lite looks the chart reader had read as no chart at all (round 22, a survey of the Vega-Lite
gallery's own specs drawn by vl-convert): a JPEG screenshot whose 1 px axis and gridlines the 3×3 median
had taken to the page (the dark theme's white domain line, 255 -> 52: no axis, no chart), and a
horizontal bar chart whose categories are numbers (ages 0 … 90), read upright as one giant point."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest
from PIL import Image

from crafteditor import convert
from crafteditor.charts.horizontal import bars_off_y_axis
from crafteditor.paint import Paints
from crafteditor.realset import score_values


def _jpeg(png: bytes, quality: int = 75) -> bytes:
    im = Image.open(io.BytesIO(png)).convert("RGBA")
    page = Image.new("RGB", im.size, "white")
    page.paste(im, mask=im.split()[3])
    out = io.BytesIO()
    page.save(out, "JPEG", quality=quality)
    return out.getvalue()


def test_dark_theme_jpeg_bars_are_a_chart():
    """A bar chart in Vega-Lite's ``dark`` theme, saved as a JPEG: its thin white axes survive the denoising."""
    vlc = pytest.importorskip("vl_convert")
    rows = [("A", 28), ("B", 55), ("C", 43), ("D", 91), ("E", 81), ("F", 53)]
    spec = {"data": {"values": [{"a": a, "b": b} for a, b in rows]}, "mark": "bar",
            "encoding": {"x": {"field": "a", "type": "nominal", "axis": {"labelAngle": 0}},
                         "y": {"field": "b", "type": "quantitative"}}}
    conv = convert(_jpeg(vlc.vegalite_to_png(json.dumps(spec), scale=1, theme="dark")))
    charts = [c for c in conv.figure.components if c.kind == "chart"]
    assert len(charts) == 1
    truth = {"values": [["", a, b] for a, b in rows], "value_axis": [0.0, 100.0]}
    assert score_values(conv.figure, truth) >= 0.8


def test_horizontal_bars_on_number_categories_are_bars():
    """Vega-Lite's ``bar_aggregate`` look: ages 0, 5 … 60 down the y axis, a bar for each."""
    vlc = pytest.importorskip("vl_convert")
    rows = [(age, 1000 + 400 * ((age * 7) % 13)) for age in range(0, 65, 5)]
    spec = {"data": {"values": [{"age": a, "people": p} for a, p in rows]}, "mark": "bar",
            "encoding": {"y": {"field": "age", "type": "ordinal"}, "x": {"field": "people", "type": "quantitative"}}}
    conv = convert(vlc.vegalite_to_png(json.dumps(spec), scale=1))
    charts = [c for c in conv.figure.components if c.kind == "chart"]
    assert len(charts) == 1 and charts[0].spec["mark"]["type"] == "bar"
    truth = {"values": [["", float(a), float(p)] for a, p in rows], "value_axis": [0.0, 6000.0]}
    assert score_values(conv.figure, truth) >= 0.8


def _paints(labels: np.ndarray) -> Paints:
    return Paints(colors=np.array([[255, 255, 255], [76, 120, 168], [210, 221, 233]], np.uint8),
                  labels=labels.astype(np.int16), background=0)


def test_bars_off_the_y_axis_are_told_from_an_area_and_from_gridlines():
    """Bands of one paint leaving the axis and ending short of the plot's edge are bars; a stacked area's
    layers (running to the edge) and 1 px gridlines are not."""
    bars = np.zeros((100, 120), np.int16)
    for k, length in enumerate((90, 60, 100, 30, 70)):
        y = 5 + 18 * k
        bars[y:y + 14, 11:11 + length] = 1
        bars[y + 14:y + 16, 11:11 + length] = 2  # the pale gap between two bars
    assert bars_off_y_axis(_paints(bars), ax=8.0, ay=99.0, right=118.0, top=0.0)
    area = np.zeros((100, 120), np.int16)
    area[20:50, 9:119], area[50:99, 9:119] = 1, 2
    area[60:70, 9:119] = 1
    assert not bars_off_y_axis(_paints(area), ax=8.0, ay=99.0, right=118.0, top=0.0)
    grid = np.zeros((100, 120), np.int16)
    grid[10::20, 9:119] = 1
    assert not bars_off_y_axis(_paints(grid), ax=8.0, ay=99.0, right=118.0, top=0.0)
