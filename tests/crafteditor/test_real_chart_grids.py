"""Horizontal bar charts framed by vertical gridlines alone (issue 31): ggplot's theme_minimal
with only x gridlines, MultiQC, Vega and uv's benchmarks draw no axis line, so no plot was found
and the bars were left as shapes. Drawn here with matplotlib in those styles."""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from conftest import dev_figure  # noqa: E402
from mpl_helpers import mpl_png as _png  # noqa: E402
from PIL import Image, ImageFilter  # noqa: E402

from crafteditor import convert  # noqa: E402
from crafteditor.charts.axes import robust_fit  # noqa: E402
from crafteditor.charts.panels import grid_frames  # noqa: E402
from crafteditor.charts.style import tick_format  # noqa: E402
from crafteditor.realset import score_values  # noqa: E402
from crafter.spec import Figure  # noqa: E402

TOOLS = {"uv": 0.8, "poetry": 2.1, "pdm": 2.5, "pip-sync": 4.6}
CARS = {"suv": 124000, "compact": 94000, "midsize": 82000, "subcompact": 70000, "pickup": 66000,
        "minivan": 22000, "2seater": 10000}


def _hbars(values: dict[str, float], ticks, xlim, value_labels: bool, commas: bool = False) -> bytes:
    """Horizontal bars, the first on top, with no spines and no ticks: only the vertical
    gridlines at the value ticks frame the plot (the longest bar may pass the last one)."""
    fig, ax = plt.subplots(figsize=(6, 3.2))
    names = list(values)[::-1]
    bars = ax.barh(names, [values[n] for n in names], height=0.6, color="#6340AC", zorder=2)
    if value_labels:
        ax.bar_label(bars, fmt="%g", padding=4, fontsize=9)
    ax.set_xticks(ticks)
    if commas:
        ax.xaxis.set_major_formatter(matplotlib.ticker.StrMethodFormatter("{x:,.0f}"))
    ax.set_xlim(*xlim)
    ax.grid(axis="x", color="#cccccc", linewidth=1, zorder=0)
    ax.tick_params(length=0)
    for side in ax.spines.values():
        side.set_visible(False)
    ax.set_xlabel("Time (s)")
    return _png(fig)


@pytest.mark.parametrize("value_labels", [False, True])
def test_horizontal_bars_framed_by_vertical_gridlines_are_read(value_labels):
    conv = convert(_hbars(TOOLS, [0, 1, 2, 3, 4], (0, 5), value_labels))
    assert conv.report["components"].get("chart") == 1
    spec = conv.figure.of_kind("chart")[0].spec
    assert spec["encoding"]["y"]["type"] == "nominal"
    truth = {"text": "", "value_axis": [0, 5], "values": [["Time", k, v] for k, v in TOOLS.items()]}
    assert score_values(conv.figure, truth) == 1.0


def test_gridline_framed_bars_with_thousands_ticks():
    """hrbrthemes' column chart turned: seven bars, ticks every 50,000, value labels beside."""
    png = _hbars(CARS, [0, 50000, 100000, 150000], (0, 160000), True, commas=True)
    conv = convert(png)
    truth = {"text": "", "value_axis": [0, 150000], "values": [["value", k, v] for k, v in CARS.items()]}
    assert score_values(conv.figure, truth) >= 6 / 7
    # the ticks drawn back as written, not '50k'
    assert "50,000" in conv.svg and "100,000" in conv.svg and "50k" not in conv.svg


def test_the_frame_ends_at_the_longest_bar_and_a_crossed_grid_is_no_bar_frame():
    H, W = 200, 400
    ink = np.zeros((H, W), bool)
    xs = [50, 130, 210, 290]
    vlines = [(x - 1, 20, x + 1, 180) for x in xs]
    for x in xs:
        ink[20:181, x - 1:x + 2] = True
    ink[40:60, 50:330] = True  # the longest bar runs past the last gridline (290)
    ink[100:120, 50:120] = True
    page = np.array([255.0, 255.0, 255.0])
    (frame,) = grid_frames([], vlines, H, W, page, ink)
    assert (frame.x0, frame.y0, frame.y1) == (50, 20, 180)
    assert frame.bars_only  # read only as horizontal bars: panels' spines space evenly too
    assert 328 <= frame.x1 <= 332
    # a horizontal gridline across them makes a grid: read by its crossing lines, not as bars
    hline = (50, 99, 290, 101)
    assert all(f.x1 <= 292 for f in grid_frames([hline], vlines, H, W, page, ink))
    # two vertical lines, or unevenly spaced ones, are no grid
    assert grid_frames([], vlines[:2], H, W, page, ink) == []
    assert grid_frames([], [vlines[0], vlines[1], (379, 20, 381, 180)], H, W, page, ink) == []


@pytest.mark.parametrize("name", ["B_uv_install-cold", "B_hrbrthemes_hbar-labels"])
def test_real_gridline_framed_bars(real_set, name):
    """The dev figures this class came from (skips without the real set)."""
    fig = dev_figure(real_set, name)
    conv = convert(fig.path)
    assert score_values(conv.figure, fig.truth) == 1.0


def test_a_true_total_on_stacked_bars_is_the_stacks_sum():
    """MultiQC's and Altair's stacked bars: the truth gives a stack's 'total' beside its parts."""
    rows = [{"y": "s1", "x": 12460.0, "series": "Homo sapiens"}, {"y": "s1", "x": 37130.0, "series": "Bacillus"},
            {"y": "s2", "x": 14070.0, "series": "Homo sapiens"}]
    enc = {"y": {"field": "y", "type": "nominal"}, "x": {"field": "x", "type": "quantitative"},
           "color": {"field": "series", "type": "nominal"}}
    stacked = {"data": {"values": rows}, "mark": "bar", "encoding": enc}
    grouped = {**stacked, "encoding": {**enc, "yOffset": {"field": "series"}}}
    truth = {"text": "", "value_axis": [0, 50000],
             "values": [["Homo sapiens", "s1", 12460], ["total", "s1", 49590], ["total", "s2", 14070]]}
    for spec, want in ((stacked, 1.0), (grouped, 1 / 3)):
        fig = Figure.model_validate({"components": [{"id": "c", "kind": "chart", "spec": spec}]})
        assert score_values(fig, truth) == pytest.approx(want)


def test_two_misread_ticks_of_fifteen_are_dropped_from_the_axis_fit():
    """MultiQC's 0 … 140M: OCR read '120M' and '140M' as '20M' and '40M'; one dropped reading
    left the other to bend the axis (every bar read 25 % short)."""
    px = [124 + 96.2 * k for k in range(15)]
    vals = [10e6 * k for k in range(15)]
    vals[12], vals[14] = 20e6, 40e6
    a, b, err = robust_fit(px, vals)
    assert a + b * px[8] == pytest.approx(80e6, rel=0.005) and err < 0.01
    # of fewer than eight, two misread only where most of the rest agree on one line (60 %, round 10's
    # consensus: four of six is a line, three and three is none)
    a, b, err = robust_fit(px[:6], [0, 10, 20, 30, 4, 5])
    assert err < 0.01 and a + b * px[4] == pytest.approx(40, abs=0.2)
    assert robust_fit(px[:6], [0, 10, 20, 13, 14, 15])[2] > 0.01


def test_a_category_matches_whatever_spaces_ocr_put_in_it():
    spec = {"data": {"values": [{"y": "GM 1 2878_R1", "x": 80.4}, {"y": "H1 _R1", "x": 105.7}]}, "mark": "bar",
            "encoding": {"y": {"field": "y", "type": "nominal"}, "x": {"field": "x", "type": "quantitative"}}}
    fig = Figure.model_validate({"components": [{"id": "c", "kind": "chart", "spec": spec}]})
    truth = {"text": "", "value_axis": [0, 140],
             "values": [["reads", "GM12878_R1", 80.2], ["reads", "H1_R1", 105.5], ["reads", "H1_R2", 88.9]]}
    assert score_values(fig, truth) == pytest.approx(2 / 3)


def test_tick_format_keeps_whole_numbers_as_written():
    assert tick_format(["0", "50,000", "100,000", "150,000"]) == ",d"
    assert tick_format(["0", "1000", "2000"]) == "d"
    assert tick_format(["0", "10k", "20k"]) is None  # the chart's own format writes those
    assert tick_format(["0", "0.5", "1.0"]) is None and tick_format(["10", "20", "30"]) is None


def _soft_line_chart() -> bytes:
    """A matplotlib line chart saved small and upscaled with a blur (a screenshot scaled up, as
    dask's docs show): its 1 px spines fade over nine rows of ink."""
    fig, ax = plt.subplots(figsize=(5, 3.3))
    t = np.arange(0, 380, 5)
    ax.plot(t, np.where(t < 10, 197, np.where(t > 365, 25, 560)), label="value")
    ax.set_xlabel("time(s)")
    ax.set_ylabel("memory usage (GiB)")
    ax.legend(loc="upper left")
    im = Image.open(io.BytesIO(_png(fig))).convert("RGB")
    im = im.resize((im.width * 2, im.height * 2), Image.BICUBIC).filter(ImageFilter.GaussianBlur(1.6))
    buf = io.BytesIO()
    im.save(buf, format="PNG")
    return buf.getvalue()


def test_soft_upscaled_axes_are_found():
    """Each of the spine's nine soft rows runs the whole length: no thin line had been found in
    them, so no axis, and the chart was left as shapes."""
    conv = convert(_soft_line_chart())
    assert conv.report["components"].get("chart") == 1
    truth = {"text": "", "value_axis": [0, 600], "values": [["value", 100, 560], ["value", 0, 197], ["value", 375, 25]]}
    assert score_values(conv.figure, truth) >= 2 / 3


def test_stacked_panels_spines_frame_no_chart_across_them():
    """d2l's hyperband grid: 2 × 3 panels sharing x, dashed vertical lines in each: no chart is
    read across panels. (On the real figure the upper row's spines, evenly spaced with the same
    ends, had framed one chart across all three; this drawing's spacing does not reproduce that,
    see the frame's ``bars_only`` in the test above.)"""
    fig, axes = plt.subplots(2, 3, figsize=(7, 4), sharex=True, sharey=True)
    rng = np.random.default_rng(0)
    for k, ax in enumerate(axes.flat):
        for j in range(3):
            ax.plot(np.arange(1, 33), 0.45 - 0.004 * np.arange(32) + rng.normal(0, 0.005, 32) + 0.02 * j, ".-")
        for x in (2, 4, 8, 16, 32):
            ax.axvline(x, color="#bbbbbb", linestyle="--", linewidth=0.8)
        ax.set_title(f"s={5 - k}")
    conv = convert(_png(fig))
    W = 7 * 150  # 7 in at 150 dpi (tight layout trims a little)
    assert all(c.box is None or c.box.w < 0.5 * W for c in conv.figure.of_kind("chart"))
