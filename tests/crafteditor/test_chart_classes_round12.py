"""Chart classes of round 12 (issue 31): a plot drawn with no axis line, gridline or panel (a
Vega-Lite theme's white domain line on a transparent page, despined matplotlib), framed by its tick
labels alone, and a histogram's empty bins read as counts of 0."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
from mpl_helpers import mpl_png

from crafteditor import convert
from crafteditor.charts.axes import Axis
from crafteditor.charts.bars import empty_bins
from crafteditor.realset import score_values
from crafter.spec import Chart

_COUNTS = [0, 13, 14, 43, 41, 19, 6, 1, 0, 0]


def _bare_histogram() -> bytes:
    """Contiguous bins over 10,000 … 15,000 on a page with no spines, no tick marks, no grid."""
    fig, ax = plt.subplots(figsize=(6, 4))
    lefts = [10000 + 500 * i for i in range(len(_COUNTS))]
    ax.bar(lefts, _COUNTS, width=500, align="edge", color="#4682b4", edgecolor="white")
    ax.set_xlim(10000, 15000)
    ax.set_ylim(0, 45)
    ax.set_yticks(range(0, 50, 5))
    for side in ax.spines.values():
        side.set_visible(False)
    ax.tick_params(length=0)
    ax.set_xlabel("Batch size")
    ax.set_ylabel("Count")
    return mpl_png(fig)


def test_a_histogram_with_no_axis_lines_is_framed_by_its_tick_labels_and_its_empty_bins_are_zero():
    """No long stroke frames the plot: nothing had been read as a chart. The y numbers' column and
    the x labels below it frame it; the empty bins at both ends are counts of 0, not missing rows."""
    conv = convert(_bare_histogram())
    charts = [c for c in conv.figure.components if isinstance(c, Chart)]
    assert len(charts) == 1 and charts[0].spec["mark"]["type"] == "bar"
    truth = {"values": [["count", 10250 + 500 * i, c] for i, c in enumerate(_COUNTS)], "value_axis": [0, 45]}
    assert score_values(conv.figure, truth) >= 0.9


def test_a_table_of_numbers_is_no_chart():
    """A column of evenly stepped numbers with cells beside it on each line is a table, not a y axis."""
    fig, ax = plt.subplots(figsize=(5, 3))
    ax.axis("off")
    for i, v in enumerate([40, 30, 20, 10, 0]):
        ax.text(0.1, 0.9 - 0.18 * i, str(v), ha="right", fontsize=12)
        ax.text(0.3, 0.9 - 0.18 * i, f"row {i}", fontsize=12)
        ax.text(0.6, 0.9 - 0.18 * i, f"cell {i}", fontsize=12)
    ax.text(0.3, -0.05, "alpha", fontsize=12)
    ax.text(0.6, -0.05, "beta", fontsize=12)
    conv = convert(mpl_png(fig))
    assert not [c for c in conv.figure.components if isinstance(c, Chart)]


def test_empty_bins_fill_whole_slots_between_and_beside_touching_bins():
    spans = [(100.0, 150.0), (150.0, 200.0), (250.0, 300.0), (300.0, 350.0)]
    got = empty_bins(spans, (48.0, 0.0, 402.0, 500.0), Axis(0.0, 1.0))
    assert sorted(got) == [(50.0, 100.0), (200.0, 250.0), (350.0, 400.0)]
    assert empty_bins([(100.0, 140.0), (160.0, 200.0), (220.0, 260.0)], (0.0, 0.0, 400.0, 500.0), Axis(0.0, 1.0)) == []



_CROPS = Path(__file__).parent / "crops"


def test_a_greyscale_donut_names_its_black_and_grey_slices_by_their_legend_dots():
    """Vega-Lite's greyscale donut: its legend's dots read with their names ('● Lima', '· pear'). The
    black slice's dot is the type's colour and the grey one's is in the type's anti-aliased edge: both
    had been refused as swatches, the slices left 'slice k'; the white edge at 12 o'clock was a
    slice of 0.4 % that took the title's name."""
    conv = convert((_CROPS / "vl_grey_donut_dot_legend.png").read_bytes())
    charts = [c for c in conv.figure.components if isinstance(c, Chart)]
    assert len(charts) == 1 and charts[0].spec["mark"]["type"] == "arc"
    rows = {r["x"]: r["y"] for r in charts[0].spec["data"]["values"]}
    assert len(rows) == 3 and "Speed-up" not in rows
    for name, share in (("Lima", 49.65), ("pear", 16.5)):
        assert name in rows and abs(rows[name] - share) <= 2
