"""Chart classes the drawn sets had not covered (issue 31, round 6): histograms whose bins touch
(Vega-Lite's binned bars, matplotlib's ``stepfilled``: one blob on the baseline, read as nothing)
and pies and donuts (no axes: read as nothing), each drawn here with its maker."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from mpl_helpers import gg_png, mpl_png  # noqa: E402

from crafteditor import convert  # noqa: E402
from crafteditor.realset import chart_rows, score_values  # noqa: E402
from crafter.spec import Chart  # noqa: E402

_EDGES = [0, 5, 10, 15, 20, 25, 30, 35, 40]
_COUNTS = [3, 9, 17, 30, 26, 14, 6, 2]


def _samples() -> list[float]:
    """Values whose counts per 5-wide bin from 0 are ``_COUNTS`` (spread inside each bin)."""
    return [lo + (k + 0.5) * 5 / n for lo, n in zip(_EDGES, _COUNTS) for k in range(n)]


def _truth(values: list[list], axis: list[float]) -> dict:
    return {"values": values, "value_axis": axis}


@pytest.mark.parametrize("histtype", ["stepfilled", "bar"])
def test_a_matplotlib_histogram_whose_bins_touch_reads_each_bins_count(histtype):
    fig, ax = plt.subplots(figsize=(5.5, 3.6))
    ax.hist(_samples(), bins=_EDGES, histtype=histtype)
    ax.set_xlabel("Dose")
    ax.set_ylabel("Count")
    conv = convert(mpl_png(fig))
    values = [["count", (a + b) / 2, c] for a, b, c in zip(_EDGES, _EDGES[1:], _COUNTS)]
    assert score_values(conv.figure, _truth(values, [0, 31.5])) >= 0.85
    # redrawn as wide as drawn: no gaps between the bins
    (chart,) = conv.figure.of_kind("chart")
    assert chart.spec["mark"]["size"] >= 0.9 * chart.width / 9


def test_a_vega_lite_binned_histogram_reads_each_bins_count():
    alt = pytest.importorskip("altair")
    vlc = pytest.importorskip("vl_convert")
    import pandas as pd

    df = pd.DataFrame({"v": _samples()})
    chart = alt.Chart(df).mark_bar().encode(x=alt.X("v:Q", bin=alt.Bin(extent=[0, 40], step=5), title="Dose"),
                                            y=alt.Y("count():Q", title="Count"))
    conv = convert(vlc.vegalite_to_png(chart.properties(width=360, height=220).to_json(), scale=2))
    values = [["count", (a + b) / 2, c] for a, b, c in zip(_EDGES, _EDGES[1:], _COUNTS)]
    assert score_values(conv.figure, _truth(values, [0, 30])) >= 0.85


_SLICES = [("apple", 40.0), ("pear", 25.0), ("plum", 20.0), ("cherry", 10.0), ("fig", 5.0)]


@pytest.mark.parametrize("donut,legend", [(False, True), (True, False)])
def test_a_matplotlib_pie_reads_each_slices_share_and_name(donut, legend):
    fig, ax = plt.subplots(figsize=(6, 4))
    names, shares = zip(*_SLICES)
    ax.pie(shares, labels=None if legend else names, startangle=90, counterclock=False,
           wedgeprops={"edgecolor": "white", **({"width": 0.45} if donut else {})})
    ax.set_aspect("equal")
    if legend:
        ax.legend(names, loc="center left", bbox_to_anchor=(1.0, 0.5))
    conv = convert(mpl_png(fig))
    (chart,) = [c for c in conv.figure.components if isinstance(c, Chart)]
    assert chart.spec["mark"]["type"] == "arc" and bool(chart.spec["mark"].get("innerRadius")) == donut
    read = {str(x): y for _, x, y in chart_rows(chart.spec)}
    assert set(read) == set(names)
    assert all(abs(read[n] - v) <= 1.0 for n, v in _SLICES)
    assert score_values(conv.figure, _truth([["share", n, v] for n, v in _SLICES], [0, 100])) == 1.0


def test_a_vega_lite_pie_with_its_legend_reads_each_slices_share():
    alt = pytest.importorskip("altair")
    vlc = pytest.importorskip("vl_convert")
    import pandas as pd

    df = pd.DataFrame(_SLICES, columns=["cat", "v"])
    chart = alt.Chart(df).mark_arc().encode(theta="v:Q", color=alt.Color("cat:N", title=None, sort=None))
    conv = convert(vlc.vegalite_to_png(chart.properties(width=260, height=260).to_json(), scale=2))
    assert score_values(conv.figure, _truth([["share", n, v] for n, v in _SLICES], [0, 100])) >= 0.8


def test_three_subplots_in_two_columns_sharing_x_are_read_each_on_its_own_panel():
    """The upper right plot of three in a 2x2 grid shows no x labels and has no plot under it:
    it reads on the lower left plot's x axis, moved over (it had not been read, and the panels
    after it were named a letter early)."""
    fig, axes = plt.subplots(2, 2, figsize=(6.5, 4.5), sharex=True)
    xs = list(range(1, 9))
    ys = {"(a) Kyoto": [0.5, 0.7, 0.62, 0.9, 0.85, 1.0, 0.95, 1.1], "(b) Oslo": [1.5, 1.2, 1.4, 1.1, 0.9, 1.0, 0.7, 0.8],
          "(c) plum": [0.3, 0.2, 0.35, 0.28, 0.5, 0.45, 0.6, 0.55]}
    for ax, (name, y) in zip([axes[0][0], axes[0][1], axes[1][0]], ys.items()):
        ax.plot(xs, y)
        ax.set_title(name.split(") ")[1], fontsize=10)
    axes[1][1].set_visible(False)
    conv = convert(mpl_png(fig))
    assert len(conv.figure.of_kind("chart")) == 3
    values = [[name, x, v] for name, y in ys.items() for x, v in zip(xs, y)]
    assert score_values(conv.figure, _truth(values, [0, 1.6])) >= 0.9


def test_ggplot2_facets_in_two_rows_at_100_dpi_are_read_one_plot_each():
    """ggplot2's facet_wrap in 2x2 at 100 dpi: the ink closed across the few px between a panel
    and the strip of the one below had made one column of the panels (none found)."""
    gg = pytest.importorskip("plotnine")

    import pandas as pd

    xs = list(range(10, 19))
    names = ["Lyon", "Oslo", "Quebec", "SGD"]
    rows = [(n, x, 300.0 + 200 * k + 60 * ((x * (k + 2)) % 7)) for k, n in enumerate(names) for x in xs]
    df = pd.DataFrame(rows, columns=["series", "x", "y"])
    g = (gg.ggplot(df) + gg.geom_line(gg.aes(x="x", y="y"), size=0.8) + gg.facet_wrap("series", ncol=2)
         + gg.theme_grey() + gg.labs(x="Batch size", y="Count") + gg.theme(figure_size=(5.4, 3.7), dpi=100))
    conv = convert(gg_png(g, 100))
    assert len(conv.figure.of_kind("chart")) == 4


def test_a_dense_ggplot2_scatter_reads_its_clumped_markers_and_every_hue():
    """300 markers in three hues at 100 dpi: clumps of overlapping markers are as many markers as
    their area holds (they had been read as the bends of a line), and the green drawn in two
    shades is one series (each had been dropped as the other's outline)."""
    gg = pytest.importorskip("plotnine")
    import random

    import pandas as pd

    rng = random.Random(5)
    rows = [(n, round(3 + 2 * k + rng.gauss(0, 0.8), 2), round(2 + k + rng.gauss(0, 0.5), 2))
            for k, n in enumerate(["setosa", "versicolor", "virginica"]) for _ in range(100)]
    df = pd.DataFrame(rows, columns=["species", "x", "y"])
    g = (gg.ggplot(df, gg.aes("x", "y", colour="species")) + gg.geom_point(size=2) + gg.theme_grey()
         + gg.labs(x="Sepal length", y="Petal width") + gg.theme(figure_size=(6, 4), dpi=100))
    conv = convert(gg_png(g, 100))
    (chart,) = conv.figure.of_kind("chart")
    read = chart_rows(chart.spec)
    assert {s for s, _, _ in read} == {"setosa", "versicolor", "virginica"}
    assert len(read) >= 200
    assert score_values(conv.figure, _truth([list(r) for r in rows[::10]], [0, 5])) >= 0.5


def _box_data() -> dict[str, list[float]]:
    import random

    rng = random.Random(8)
    return {name: [round(rng.gauss(mu, 0.12), 3) for _ in range(40)]
            for name, mu in (("apple", 0.5), ("pear", 0.8), ("plum", 1.05), ("fig", 0.65))}


def _box_truth(data: dict[str, list[float]]) -> list[list]:
    import numpy as np

    return [[f"box {k}", name, float(np.percentile(v, q))] for name, v in data.items()
            for k, q in (("Q1", 25), ("median", 50), ("Q3", 75))]


def test_a_matplotlib_box_plot_reads_each_boxs_quartiles_and_median():
    data = _box_data()
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.boxplot(list(data.values()), tick_labels=list(data))
    ax.set_xlabel("Fruit")
    ax.set_ylabel("Score")
    conv = convert(mpl_png(fig))
    (chart,) = conv.figure.of_kind("chart")
    assert chart.spec["mark"]["type"] == "boxplot"
    assert score_values(conv.figure, _truth(_box_truth(data), [0.1, 1.5])) >= 0.9


def test_a_vega_lite_box_plot_reads_each_boxs_quartiles_and_median():
    alt = pytest.importorskip("altair")
    vlc = pytest.importorskip("vl_convert")
    import pandas as pd

    data = _box_data()
    df = pd.DataFrame([(k, v) for k, vs in data.items() for v in vs], columns=["cat", "v"])
    chart = alt.Chart(df).mark_boxplot(extent=1.5).encode(x=alt.X("cat:N", title="Fruit", sort=None),
                                                         y=alt.Y("v:Q", title="Score"))
    conv = convert(vlc.vegalite_to_png(chart.properties(width=320, height=240).to_json(), scale=2))
    # (Vega-Lite's turned category labels lose one here, 'fig', and read 'apple-' with its tick:
    # the labels' reading, not the boxes')
    assert score_values(conv.figure, _truth(_box_truth(data), [0, 1.6])) >= 0.7
