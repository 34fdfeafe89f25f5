"""A recovered chart looks like its original: the plot pinned where it was drawn, matplotlib's frame
and type sizes carried over, no gridlines the original lacked (golden matplotlib bar chart)."""

import re

import numpy as np
import pytest

from crafteditor import Config, convert


@pytest.fixture(scope="module")
def bar(golden):
    png, _ = golden["chart_bar_150"]
    return convert(png, Config.preset("chart"))


def test_plot_lands_where_the_original_drew_it(bar):
    chart = bar.figure.of_kind("chart")[0]
    m = re.search(r'data-crafter-plot="([-\d.]+) ([-\d.]+) ([\d.]+) ([\d.]+)"', bar.svg)
    x, y, w, h = (float(v) for v in m.groups())
    assert (w, h) == (pytest.approx(chart.width, abs=0.01), pytest.approx(chart.height, abs=0.01))
    # the original's frame: the first long dark column (y axis) and row (top spine)
    image = bar.vectorized.image
    dark = image.rgb.mean(axis=2) < 100
    col = int(np.argmax(dark.mean(axis=0) > 0.5))
    row = int(np.argmax(dark.mean(axis=1) > 0.5))
    s = image.scale
    assert x == pytest.approx((col + 0.5) * s, abs=1.5) and y == pytest.approx((row + 0.5) * s, abs=1.5)


def test_matplotlib_look_is_carried_over(bar):
    spec = bar.figure.of_kind("chart")[0].spec
    cfg = spec["config"]
    assert cfg["axis"]["grid"] is False  # matplotlib draws none by default
    assert cfg["view"]["stroke"]  # ...but a frame of four spines
    assert cfg["title"]["fontWeight"] == "normal"
    assert cfg["axis"]["labelFontSize"] > 10  # 10 pt tick labels, larger than Crafter's 8 pt
    assert 0 in spec["encoding"]["y"]["axis"]["values"]  # the ticks the original labelled
    assert bar.report["ssim"] >= 0.85


def test_titles_sit_where_the_original_drew_them(bar):
    from crafteditor.quality import render_aligned

    image = bar.vectorized.image
    again = render_aligned(bar.figure, image.dpi, (image.height, image.width), bar.svg)
    # the chart title: the lowest ink row above the top spine, in the original and re-rendered
    dark = image.rgb.mean(axis=2) < 128
    top = int(np.argmax(dark.mean(axis=1) > 0.5))

    def title_bottom(rgb):
        rows = np.nonzero((rgb[:top - 2].mean(axis=2) < 128).any(axis=1))[0]
        return int(rows.max())

    assert abs(title_bottom(again) - title_bottom(image.rgb)) <= 1
    spec = bar.figure.of_kind("chart")[0].spec
    assert spec["config"]["title"]["offset"] > 0
    assert "titlePadding" in spec["encoding"]["y"]["axis"]  # the y axis title's place, measured


def test_plot_spans_the_original_frame(bar):
    """The re-rendered frame's strokes lie on the original's (centre to centre), all four sides."""
    m = re.search(r'data-crafter-plot="([-\d.]+) ([-\d.]+) ([\d.]+) ([\d.]+)"', bar.svg)
    x, y, w, h = (float(v) for v in m.groups())
    image = bar.vectorized.image
    dark = image.rgb.mean(axis=2) < 100

    def centres(profile):  # the centres of the first and last runs of spine pixels, pixel-edge coordinates
        idx = np.nonzero(profile > 0.5)[0]
        runs = np.split(idx, np.nonzero(np.diff(idx) > 1)[0] + 1)
        return (runs[0][0] + runs[0][-1] + 1) / 2, (runs[-1][0] + runs[-1][-1] + 1) / 2

    (left, right), (top, bottom) = centres(dark.mean(axis=0)), centres(dark.mean(axis=1))
    s = image.scale
    assert x == pytest.approx(left * s, abs=0.5) and x + w == pytest.approx(right * s, abs=0.5)
    assert y == pytest.approx(top * s, abs=0.5) and y + h == pytest.approx(bottom * s, abs=0.5)


def test_axis_stroke_is_the_drawn_paint_and_width(bar):
    """matplotlib's 0.8 pt black spines at 150 dpi cover no pixel fully (two pixels of grey 42):
    the spec still says black, 0.8 pt (1.07 px), not a heavier grey."""
    axis = bar.figure.of_kind("chart")[0].spec["config"]["axis"]
    assert axis["domainColor"] == "#000000"
    assert axis["domainWidth"] == pytest.approx(0.8 * 96 / 72, abs=0.08)


def test_tick_labels_ocr_missed_are_put_back_in_their_progression():
    """matplotlib labels every step of an even progression across the axis: a label not read
    (a lone '0' just under the confidence a lone glyph needs) is put back; an uneven set is
    left as read."""
    from crafteditor.charts.style import _complete_ticks

    assert _complete_ticks([1.0, 2.0, 3.0, 4.0, 5.0], (0.0224, 5.63)) == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    assert _complete_ticks([0.0, 0.2, 0.6, 0.8], (0.0, 0.87)) == [0.0, 0.2, 0.4, 0.6, 0.8]
    assert _complete_ticks([20.0, 40.0, 60.0], (0.0, 70.0)) == [0.0, 20.0, 40.0, 60.0]
    assert _complete_ticks([1.0, 2.0, 5.0, 10.0], (0.5, 11.0)) == [1.0, 2.0, 5.0, 10.0]  # not a progression
    assert _complete_ticks([0.0, 20.0, 40.0, 60.0, 80.0, 100.0], (0.0, 114.75))[-1] == 100.0  # 120 is off the axis
