"""Chart classes of round 10 (issue 31): the variations the makers give of kinds dev reads already,
each drawn here the way its maker draws it: ggplot2's translucent points over its grey panel, hollow
markers, Vega-Lite's binned axis with a decimal on every label."""

from __future__ import annotations

import numpy as np
import pytest
from ce_helpers import figure_png
from mpl_helpers import gg_png, mpl_png

from crafteditor import convert
from crafteditor.charts.axes import robust_fit
from crafteditor.realset import chart_rows, score_values
from crafter.spec import Chart


def _points(seed: int, n: int = 20) -> list[tuple[str, float, float]]:
    rng = np.random.default_rng(seed)
    rows = []
    for j, s in enumerate(["setosa", "versicolor", "virginica"]):
        for _ in range(n):
            rows.append((s, round(float(4 + 1.2 * j + rng.normal(0, 0.5)), 2),
                         round(float(3 + 0.4 * j + rng.normal(0, 0.35)), 2)))
    return rows


def test_ggplot2_translucent_points_over_the_grey_panel_are_a_scatter():
    """``geom_point(alpha = 0.5)`` on theme_grey at 100 dpi: each small dot keeps a few pixels of its
    exact colour, at half the chroma of a vivid paint, under a paint's share: no paint was found in
    the plot and the scatter was no chart (the test's ggplot2 scatters read 0)."""
    gg = pytest.importorskip("plotnine")
    import pandas as pd

    rows = _points(3)
    df = pd.DataFrame(rows, columns=["s", "x", "y"])
    g = (gg.ggplot(df, gg.aes("x", "y", color="s")) + gg.geom_point(alpha=0.5)
         + gg.labs(x="Sepal length", y="Sepal width")
         + gg.theme(figure_size=(6, 4), dpi=100, axis_text=gg.element_text(size=11)))
    conv = convert(gg_png(g, 100))
    charts = [c for c in conv.figure.components if isinstance(c, Chart)]
    assert len(charts) == 1 and charts[0].spec["mark"]["type"] == "point"
    ys = [y for _, _, y in rows]
    truth = {"values": [list(r) for r in rows[::4]], "value_axis": [min(ys) - 0.1, max(ys) + 0.1]}
    assert score_values(conv.figure, truth) >= 0.8


def test_hollow_hairline_markers_are_points_not_a_zigzag():
    """matplotlib's ``scatter(facecolors='none')``: a 1 px ring is mostly anti-aliasing, its paint a
    few specks per ring, which had been read as the bends of a line through them."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rng = np.random.default_rng(4)
    fig, ax = plt.subplots(figsize=(6, 4), dpi=100)
    truth = []
    for j, s in enumerate(["ours", "baseline"]):
        xs = rng.uniform(0, 10, 20)
        ys = 20 + 12 * j + 3 * xs + rng.normal(0, 2, 20)
        ax.scatter(xs, ys, s=30, facecolors="none", edgecolors=f"C{j}", label=s)
        truth += [[s, float(x), float(y)] for x, y in zip(xs, ys)]
    ax.legend()
    lo, hi = ax.get_ylim()
    conv = convert(figure_png(fig))
    charts = [c for c in conv.figure.components if isinstance(c, Chart)]
    assert len(charts) == 1 and charts[0].spec["mark"]["type"] == "point"
    assert score_values(conv.figure, {"values": truth, "value_axis": [lo, hi]}) >= 0.7


def test_a_wide_vega_lite_histogram_with_decimal_bin_labels_reads_its_bins():
    """Vega-Lite's binned x axis in steps of 2.5 at scale 1 ('10.0 12.5 … 27.5'): OCR split each label
    at its faint one-pixel point ('10' and '0'), the halves fitted no scale, and every bin was read
    5 units off (0.14 of the bins). The halves are one label again."""
    alt = pytest.importorskip("altair")
    vlc = pytest.importorskip("vl_convert")
    import pandas as pd

    counts = [10, 30, 100, 145, 94, 52, 9]
    data = pd.DataFrame({"v": [11.25 + 2.5 * i for i, c in enumerate(counts) for _ in range(c)]})
    chart = alt.Chart(data).mark_bar().encode(
        x=alt.X("v:Q", bin=alt.Bin(extent=[10, 27.5], step=2.5), title="Value"),
        y=alt.Y("count():Q")).properties(width=600, height=220)
    conv = convert(vlc.vegalite_to_png(chart.to_json(), scale=1))
    values = [["count", 11.25 + 2.5 * i, c] for i, c in enumerate(counts)]
    assert score_values(conv.figure, {"values": values, "value_axis": [0, 160]}) >= 0.85


def test_an_axis_with_two_labels_misread_is_fitted_on_the_others():
    """Two of six labels read wrong ('12.5' as 12, '22.5' as 22): the scale is the line most labels
    lie on, not the least-squares compromise, which dropping one label alone left 5 % off."""
    px = [50.0 + 34.0 * (v - 10) for v in (10.0, 12.5, 15.0, 17.5, 20.0, 22.5)]
    vals = [10.0, 12.0, 15.0, 17.5, 20.0, 22.0]
    a, b, err = robust_fit(px, vals)
    assert err < 0.01
    assert abs((a + b * (50.0 + 34.0 * 15)) - 25.0) < 0.05


_COUNTS = [3, 11, 18, 37, 55, 55, 61, 54, 33, 16, 9, 3]


def _vega_lite_bins_0_to_12():
    """Vega-Lite's default histogram at scale 1, bins of 1 from 0 to 12, labels '0.0' … '12.0'."""
    alt = pytest.importorskip("altair")
    vlc = pytest.importorskip("vl_convert")
    import pandas as pd

    data = pd.DataFrame({"v": [0.5 + i for i, c in enumerate(_COUNTS) for _ in range(c)]})
    chart = alt.Chart(data).mark_bar().encode(
        x=alt.X("v:Q", bin=alt.Bin(extent=[0, 12], step=1), title="Value"),
        y=alt.Y("count():Q")).properties(width=320, height=220)
    return convert(vlc.vegalite_to_png(chart.to_json(), scale=1))


def test_vega_lite_end_labels_set_flush_with_their_ticks_keep_the_x_scale():
    """Vega-Lite sets a quantitative axis's first label flush right of its tick and the last flush
    left of its own (``labelFlush``): read at their centres they stretched the x scale by half a
    label each side. The plot's x extent is read as the axis drawn, 0 to 12."""
    conv = _vega_lite_bins_0_to_12()
    (chart_read,) = [c for c in conv.figure.components if isinstance(c, Chart)]
    lo, hi = chart_read.spec["encoding"]["x"]["scale"]["domain"]
    assert abs(lo - 0.0) <= 0.06 and abs(hi - 12.0) <= 0.06


def test_a_low_bin_beside_two_equal_bins_is_a_step_not_one_wide_bar():
    """Bins of 37, 55 and 55 touching at scale 1 make one blob that fills 0.89 of its box: it had
    been taken for one bar three bins wide (the 37 lost, one 55 read between two bins); it is cut
    into its steps, the step two bins wide into two."""
    conv = _vega_lite_bins_0_to_12()
    values = [["count", 0.5 + i, c] for i, c in enumerate(_COUNTS)]
    assert score_values(conv.figure, {"values": values, "value_axis": [0, 70]}) >= 0.95


def test_a_vega_lite_pie_with_its_legend_below_names_every_slice():
    """A legend set below the pie, its entries in a row: at scale 1 OCR's box of an entry may start
    over its swatch, so no swatch lay left of it and that slice was left 'slice 3'. The swatch in the
    box's first glyph names it."""
    alt = pytest.importorskip("altair")
    vlc = pytest.importorskip("vl_convert")
    import pandas as pd

    cats, vals = ["Apple", "Pear", "Plum"], [3, 18, 15]
    df = pd.DataFrame({"cat": cats, "v": vals})
    chart = alt.Chart(df).mark_arc(outerRadius=120).encode(
        theta=alt.Theta("v:Q", stack=True), color=alt.Color("cat:N", legend=alt.Legend(orient="bottom")),
    ).properties(width=300, height=300)
    with alt.theme.enable("quartz"):
        spec = chart.to_json()
    conv = convert(vlc.vegalite_to_png(spec, scale=1))
    shares = [["share", c, 100 * v / sum(vals)] for c, v in zip(cats, vals)]
    assert score_values(conv.figure, {"values": shares, "value_axis": [0, 100]}) == 1.0


@pytest.mark.parametrize("legend", [True, False])
def test_a_pie_slice_the_colour_of_the_text_is_named_by_its_own_label(legend):
    """A black slice beside black labels: the window inside a label's box (where Vega-Lite's entry
    may start over its swatch) saw the label's first letter as a swatch of the black slice, so
    'Delta' named it, the red slice was left 'slice 4' and 'Beta' was lost."""
    import matplotlib.pyplot as plt

    names, shares = ["Alpha", "Beta", "Gamma", "Delta"], [35, 25, 25, 15]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.pie(shares, labels=None if legend else names, colors=["#1f77b4", "#111111", "#2ca02c", "#d62728"],
           startangle=90, counterclock=False)
    ax.set_aspect("equal")
    if legend:
        ax.legend(names, loc="center left", bbox_to_anchor=(1.0, 0.5))
    conv = convert(mpl_png(fig))
    (chart,) = [c for c in conv.figure.components if isinstance(c, Chart)]
    read = {str(x): y for _, x, y in chart_rows(chart.spec)}
    assert set(read) == set(names)
    assert all(abs(read[n] - v) <= 1.0 for n, v in zip(names, shares))


def test_a_vega_lite_pie_labelled_outside_in_its_slices_colours_names_every_slice():
    """Vega-Lite's labels outside the disc, each set in its slice's colour: the window inside a
    label's box saw its thin coloured type as a swatch of its own slice ('Apple', 'Fig'), two such
    'legend entries' made the chart a legend pie, and the other four slices were left 'slice k'."""
    alt = pytest.importorskip("altair")
    vlc = pytest.importorskip("vl_convert")
    import pandas as pd

    cats, vals = ["Apple", "Pear", "Plum", "Cherry", "Lime", "Fig"], [9, 9, 12, 8, 5, 3]
    df = pd.DataFrame({"cat": cats, "v": vals})
    base = alt.Chart(df).encode(theta=alt.Theta("v:Q", stack=True), color=alt.Color("cat:N", legend=None))
    chart = (base.mark_arc(outerRadius=120) + base.mark_text(radius=140, size=12).encode(text="cat:N")
             ).properties(width=300, height=300)
    conv = convert(vlc.vegalite_to_png(chart.to_json(), scale=1))
    shares = [["share", c, 100 * v / sum(vals)] for c, v in zip(cats, vals)]
    assert score_values(conv.figure, {"values": shares, "value_axis": [0, 100]}) == 1.0
