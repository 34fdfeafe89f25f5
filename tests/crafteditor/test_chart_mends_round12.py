"""Mends of round 12's charts framed by their tick labels alone, a histogram's empty bins and a pie's
seams (review of session 47): the x axis's own '0' at the corner, despined plots stacked or side by
side, a matplotlib histogram's padded range, a small tab20 slice beside its darker pair."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest
from mpl_helpers import mpl_png

from crafteditor import convert
from crafter.spec import Chart


def _charts(png: bytes) -> list[Chart]:
    return [c for c in convert(png).figure.components if isinstance(c, Chart)]


def _bare(ax, lefts, counts, width) -> None:
    """Bars on an axis with no spines, no tick marks, no grid."""
    ax.bar(lefts, counts, width=width, align="edge", color="#4682b4", edgecolor="white")
    for side in ax.spines.values():
        side.set_visible(False)
    ax.tick_params(length=0)


def test_the_x_axis_zero_at_the_corner_leaves_the_y_numbers_a_frame():
    """The x axis's '0' under the y axis's '0' shares its right edge: it had joined the y numbers'
    column (values 40 … 0, 0: not falling), and the plot was left unframed."""
    fig, ax = plt.subplots(figsize=(6, 4))
    _bare(ax, [0, 2, 4, 6, 8], [12, 30, 25, 38, 8], 1.5)
    ax.set_xlim(0, 10)
    ax.set_ylim(0, 40)
    charts = _charts(mpl_png(fig))
    assert len(charts) == 1 and charts[0].spec["mark"]["type"] == "bar"


@pytest.mark.parametrize("rows, cols, size", [(2, 1, (6, 7)), (1, 2, (10, 4))], ids=["stacked", "side_by_side"])
def test_despined_plots_stacked_or_side_by_side_are_each_framed(rows, cols, size):
    """Two despined plots one above the other (their y numbers make one column, uneven and not falling:
    both plots had been lost) or side by side (the left one's x labels had run on to the right one's
    last, its frame over both, and the right plot was dropped): each is framed."""
    fig, (first, second) = plt.subplots(rows, cols, figsize=size)
    _bare(first, [10, 20, 30, 40], [12, 30, 25, 38], 6)
    _bare(second, [10, 20, 30, 40], [30, 8, 22, 15], 6)
    for ax in (first, second):
        ax.set_xlim(5, 50)
        ax.set_ylim(0, 40)
    assert len(_charts(mpl_png(fig))) == 2


def test_a_matplotlib_histogram_of_twenty_bins_gets_no_invented_side_bins():
    """matplotlib pads the x range by 5 %, a bin's width past each end at 20 bins: no tick stands on
    that padding's edge, and no empty bin is read there."""
    data = np.random.default_rng(47).normal(0.0, 1.0, 2000)
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.hist(data, bins=20, color="#4682b4", edgecolor="white")
    charts = _charts(mpl_png(fig))
    assert len(charts) == 1
    rows = charts[0].spec["data"]["values"]
    assert len(rows) == 20, rows
    assert min(r["y"] for r in rows) > 0


def _tab20_pie() -> bytes:
    fig, ax = plt.subplots(figsize=(6, 4))
    shares = [40.0, 0.5, 30.0, 29.5]
    wedges, _ = ax.pie(shares, colors=["#1f77b4", "#aec7e8", "#ff7f0e", "#ffbb78"], startangle=90, counterclock=False)
    ax.legend(wedges, ["north", "east", "south", "west"], loc="center left", bbox_to_anchor=(1.0, 0.5))
    ax.set_aspect("equal")
    return mpl_png(fig)


def test_a_small_tab20_slice_beside_its_darker_pair_is_no_seam():
    """tab20's pale blue lies between the page's white and its blue: a slice of half a percent
    beside the blue had been dropped as the anti-aliased seam; its legend swatch shows it is a slice."""
    charts = _charts(_tab20_pie())
    assert len(charts) == 1 and charts[0].spec["mark"]["type"] == "arc"
    rows = {r["x"]: r["y"] for r in charts[0].spec["data"]["values"]}
    assert len(rows) == 4, rows
    assert "east" in rows and rows["east"] <= 1.5


def test_an_empty_bin_on_a_log_axis_is_a_count_of_zero():
    """On a log axis the bars stand on the plot's bottom, not on 0: an empty bin's count had been
    read as the axis's value there (its minimum), not 0."""
    fig, ax = plt.subplots(figsize=(6, 4))
    counts = [3, 40, 200, 0, 500, 90, 12]
    ax.bar(range(len(counts)), counts, width=1.0, align="edge", color="#4682b4", log=True)
    ax.set_xlim(0, len(counts))
    charts = _charts(mpl_png(fig))
    assert len(charts) == 1
    rows = sorted(charts[0].spec["data"]["values"], key=lambda r: float(r["x"]))
    assert len(rows) == len(counts), rows
    assert rows[3]["y"] == 0.0, rows
