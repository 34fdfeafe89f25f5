"""Chart classes misread on charts drawn by the makers' own tools (``craftbench makers charts``,
issue 31 round 5), each drawn here again with its maker: Vega-Lite's category labels turned 90°
under crowded bands (the bars had been numbered 1, 2…: every value lost); ggplot2's legend keys,
taller than their text (taken for bars beside value labels: the series named 'series 1'…) and
its x title close under the labels (taken for a category); subplots sharing x, whose upper plots
show no x labels (not read at all)."""

from __future__ import annotations

import random

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from mpl_helpers import gg_png, mpl_png  # noqa: E402

from craftbench.makers.charts import draw  # noqa: E402
from crafteditor import convert  # noqa: E402
from crafteditor.realset import score_values  # noqa: E402

_CATS = ["plum", "apple", "rural", "treated", "ours", "Kyoto"]


def _grouped(seed: int) -> list[tuple[str, str, float]]:
    rng = random.Random(seed)
    return [(s, c, round(rng.uniform(5, 95), 1)) for s in ("control", "south") for c in _CATS]


def test_vega_lite_category_labels_turned_90_degrees_name_the_bars():
    alt = pytest.importorskip("altair")
    vlc = pytest.importorskip("vl_convert")
    import pandas as pd

    rows = _grouped(1)
    df = pd.DataFrame(rows, columns=["series", "x", "y"])
    chart = alt.Chart(df).mark_bar().encode(x=alt.X("x:N", title="Dose", sort=None), xOffset="series:N",
                                            y=alt.Y("y:Q", title="Memory (GB)"), color=alt.Color("series:N", title=None))
    png = vlc.vegalite_to_png(chart.properties(width=420, height=260).to_json(), scale=2)
    conv = convert(png)
    assert score_values(conv.figure, {"values": [list(r) for r in rows], "value_axis": [0, 100]}) >= 0.9


def test_ggplot2_legend_keys_taller_than_their_text_name_the_series():
    gg = pytest.importorskip("plotnine")
    import pandas as pd

    rows = _grouped(2) + [("river", c, 40.0 + i) for i, c in enumerate(_CATS)]
    df = pd.DataFrame(rows, columns=["series", "x", "y"])
    df["x"] = pd.Categorical(df.x, categories=_CATS)
    g = (gg.ggplot(df) + gg.geom_col(gg.aes(x="x", y="y", fill="series"), position="dodge")
         + gg.labs(x="Epoch", y="Time (s)", fill="") + gg.theme_grey() + gg.theme(figure_size=(6.5, 3.6), dpi=200))
    conv = convert(gg_png(g, 200))
    # three series: each value is looked for under its own name, from the legend
    assert score_values(conv.figure, {"values": [list(r) for r in rows], "value_axis": [0, 100]}) >= 0.9


def test_an_upper_subplot_sharing_x_without_labels_is_read_on_the_lower_ones_axis():
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(6, 4.5), sharex=True)
    xs = list(range(1, 9))
    a = [0.5, 0.7, 0.62, 0.9, 0.85, 1.0, 0.95, 1.1]
    b = [0.3, 0.2, 0.35, 0.28, 0.5, 0.45, 0.6, 0.55]
    top.plot(xs, a)
    bottom.plot(xs, b)
    top.set_title("ViT", fontsize=10)
    bottom.set_title("south", fontsize=10)
    bottom.set_xlabel("Batch size")
    conv = convert(mpl_png(fig))
    values = [["(a) ViT", x, y] for x, y in zip(xs, a)] + [["(b) south", x, y] for x, y in zip(xs, b)]
    assert score_values(conv.figure, {"values": values, "value_axis": [0, 1.2]}) >= 0.9


def test_the_charts_maker_draws_figures_with_their_truth(tmp_path):
    pytest.importorskip("altair")
    pytest.importorskip("vl_convert")
    pytest.importorskip("plotnine")
    records = draw(tmp_path, n=4, seed=3)
    assert [r["maker"] for r in records] == ["vega-altair", "ggplot2", "matplotlib", "plotly"]
    for r in records:
        assert (tmp_path / r["file"].split("/", 1)[1]).stat().st_size > 1000
        assert r["kind"] == "chart" and len(r["values"]) >= 5 and r["width"] > 100


def test_ggplot2_facets_side_by_side_are_read_one_plot_each():
    """ggplot2's facets 5.5 pt apart: the closing that bridges white gridlines had made one panel
    of both (their strips inside it), read as one plot."""
    gg = pytest.importorskip("plotnine")
    import pandas as pd

    xs = list(range(10, 17))
    a = [0.72, 0.89, 0.88, 0.74, 0.83, 0.94, 1.19]
    b = [0.65, 0.89, 1.07, 1.11, 1.03, 1.14, 1.19]
    df = pd.DataFrame([("Kyoto", x, y) for x, y in zip(xs, a)] + [("rural", x, y) for x, y in zip(xs, b)],
                      columns=["series", "x", "y"])
    g = (gg.ggplot(df) + gg.geom_line(gg.aes(x="x", y="y"), size=0.8) + gg.facet_wrap("series", ncol=2) + gg.theme_grey()
         + gg.labs(x="Epoch", y="Loss") + gg.theme(figure_size=(5, 4.5), dpi=100))
    conv = convert(gg_png(g, 100))
    assert len(conv.figure.of_kind("chart")) == 2
    values = [["(a) Kyoto", x, y] for x, y in zip(xs, a)] + [["(b) rural", x, y] for x, y in zip(xs, b)]
    assert score_values(conv.figure, {"values": values, "value_axis": [0.6, 1.25]}) >= 0.9


def test_two_tick_labels_that_are_no_powers_of_ten_are_a_linear_axis():
    """ggplot2 labels a short axis '5', '10': two labels fit a log axis as exactly as a linear
    one, and had been read as log (every point off by a tenth of the axis)."""
    rng = random.Random(4)
    pts = [(round(rng.uniform(0, 10), 2), round(rng.uniform(3, 14), 2)) for _ in range(20)]
    fig, ax = plt.subplots(figsize=(5, 3))
    ax.scatter([p[0] for p in pts], [p[1] for p in pts], s=20)
    ax.set_ylim(2.2, 14.7)
    ax.set_yticks([5, 10])
    conv = convert(mpl_png(fig))
    values = [["points", x, y] for x, y in pts]
    assert score_values(conv.figure, {"values": values, "value_axis": [2.2, 14.7]}) >= 0.9


def test_the_powerbi_theme_draws_its_tick_labels():
    """vl-convert lacks powerbi's 'Segoe UI': drawn as the theme names it, a chart had no tick labels at all (its
    truth still listed them); the maker gives the theme's fonts a sans-serif fallback."""
    import io

    import altair as alt
    import numpy as np
    import vl_convert as vlc
    from PIL import Image

    from craftbench.makers.charts import _fonts_fall_back

    chart = alt.Chart(alt.Data(values=[{"a": "x", "b": 2}, {"a": "y", "b": 3}])).mark_bar().encode(
        x="a:N", y="b:Q").properties(width=200, height=150)
    with alt.theme.enable("powerbi"):
        spec = chart.to_json()

    def label_ink(s: str) -> int:  # dark-grey text pixels left of the plot (the y axis's tick labels)
        rgba = np.asarray(Image.open(io.BytesIO(vlc.vegalite_to_png(s, scale=1))).convert("RGBA"))
        left = rgba[:, : rgba.shape[1] // 8]
        return int(((left[..., 3] > 128) & (left[..., :3].max(axis=2) < 140)).sum())

    assert label_ink(_fonts_fall_back(spec, vlc)) > label_ink(spec) + 20
    assert _fonts_fall_back(spec.replace("powerbi", "quartz"), vlc) == spec.replace("powerbi", "quartz")
