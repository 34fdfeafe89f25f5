"""Chart classes found on real charts (issue 31, round 7: Vega-Lite's gallery pies and
histograms, plotly's markers beside lines), each drawn here with its maker: the drawn classes of
round 6 had passed while the real ones of those makers still read nothing."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from mpl_helpers import mpl_png  # noqa: E402

from crafteditor import convert  # noqa: E402
from crafteditor.charts.axes import mend_thousands_points  # noqa: E402
from crafteditor.charts.numbers import parse_number  # noqa: E402
from crafteditor.charts.style import tick_format  # noqa: E402
from crafteditor.ocr.runs import TextRun  # noqa: E402
from crafteditor.realset import chart_rows, score_values  # noqa: E402
from crafter.spec import Chart  # noqa: E402


def _truth(values: list[list], axis: list[float]) -> dict:
    return {"values": values, "value_axis": axis}


def test_a_vega_lite_pie_whose_legend_names_the_slices_by_number_reads_each_name():
    """Vega-Lite's gallery pie: categories 1..6 in a legend titled 'category' set by the disc's rim.
    A bare number in a legend is a name (only a label beside a slice needs a letter), and the
    title, whose left side sees the rim of the slice under it, is no legend entry (it had taken
    the first slice's name and left every slice 'slice k': the real pies scored 0)."""
    alt = pytest.importorskip("altair")
    vlc = pytest.importorskip("vl_convert")
    import pandas as pd

    counts = [4, 6, 10, 3, 7, 8]
    df = pd.DataFrame({"category": range(1, 7), "value": counts})
    chart = alt.Chart(df).mark_arc().encode(theta="value:Q", color="category:N")
    conv = convert(vlc.vegalite_to_png(chart.to_json(), scale=1))
    (pie,) = [c for c in conv.figure.components if isinstance(c, Chart)]
    assert [str(x) for _, x, _ in chart_rows(pie.spec)] == ["1", "2", "3", "4", "5", "6"]
    shares = [["share", str(k + 1), 100 * c / sum(counts)] for k, c in enumerate(counts)]
    assert score_values(conv.figure, _truth(shares, [0, 100])) == 1.0


def test_a_vega_lite_histogram_at_scale_1_reads_its_touching_bins_its_tails_and_its_labels():
    """Vega-Lite's binned bars at scale 1: the tall middle bins touch (one blob, cut into bins) and
    the low tails stand apart (rectangles of their own): all are bins (either had been lost to the
    other); the y axis cut by the tick labels' boxes ('300 –', '400') is one axis (the plot under
    the cut had been read as a second chart); the x labels keep their one decimal ('5.0', not '5')."""
    alt = pytest.importorskip("altair")
    vlc = pytest.importorskip("vl_convert")
    import pandas as pd

    counts = [3, 30, 70, 190, 450, 680, 520, 140, 2]
    rows = [{"lo": a, "hi": a + 1, "n": c} for a, c in zip(range(1, 10), counts)]
    chart = alt.Chart(pd.DataFrame(rows)).mark_bar().encode(
        x=alt.X("lo:Q", bin=alt.Bin(binned=True, step=1), title="Rating", axis=alt.Axis(format=".1f")),
        x2="hi", y=alt.Y("n:Q", title="Count"))
    conv = convert(vlc.vegalite_to_png(chart.to_json(), scale=1))
    assert len(conv.figure.of_kind("chart")) == 1
    # the two outer bins are a pixel or less tall, under the plot's inner margin: 7 of 9
    values = [["count", a + 0.5, c] for a, c in zip(range(1, 10), counts)]
    assert score_values(conv.figure, _truth(values, [0, 700])) >= 0.75
    assert ">5.0<" in conv.svg and ">10.0<" in conv.svg


def test_a_few_small_markers_beside_lines_are_a_series_of_their_own():
    """plotly's classic 'line and scatter': four 6 px markers beside two lines are a fiftieth of
    the lines' ink, under the least a series needs: a vivid paint in round dots of one size, and
    named in the legend, is a series (it had been lost)."""
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.plot([2, 3, 4, 5], [16, 5, 11, 9], color="tab:orange", label="trend")
    ax.plot([1, 2, 3, 4], [12, 9, 15, 12], color="tab:green", marker="o", markersize=4, label="model")
    ax.plot([1, 2, 3, 4], [10, 15, 13, 17], "o", color="tab:blue", markersize=3, label="samples")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    conv = convert(mpl_png(fig))
    values = [["samples", x, y] for x, y in zip([1, 2, 3, 4], [10, 15, 13, 17])]
    assert score_values(conv.figure, _truth(values, [5, 17])) == 1.0


def _run(text: str) -> TextRun:
    return TextRun(text=text, x=0.0, y=0.0, w=20.0, h=10.0, angle=0.0, font_px=10.0, bold=False, color=(0, 0, 0),
                   confidence=1.0, baseline=8.0, glyphs=np.ones((10, 20), bool))


def test_tick_labels_read_with_a_point_or_comma_for_the_other_are_the_numbers_written():
    """OCR reads Vega-Lite's '1,000' as '1.000' (the top tick became 1, and the axis lost it) and
    '4.0' as '4,0' (40, and the x axis fit lost): among whole hundreds, 'd.ddd' is thousands; a
    comma before one or two digits is a decimal comma; the labels' format keeps their decimals."""
    runs = [_run(t) for t in ("0", "100", "200", "900", "1.000")]
    mend_thousands_points(runs, list(range(5)))
    assert [r.text for r in runs][-1] == "1,000"
    decimals = [_run(t) for t in ("0.25", "0.500", "1.000")]
    mend_thousands_points(decimals, [0, 1, 2])  # no whole numbers: decimals stay
    assert decimals[2].text == "1.000"
    assert parse_number("4,0") == 4.0 and parse_number("2,5") == 2.5 and parse_number("12,345") == 12345.0
    assert tick_format(["1.0", "2.0", "4,0", "10.0"]) == ".1f"
    assert tick_format(["0", "100", "1,000"]) == ",d"
    assert tick_format(["0", "0.5", "1"]) is None


def test_a_ggplot2_scatter_of_translucent_markers_reads_each_species_where_they_overlap():
    """ggplot2's points at alpha 0.8 (palmerpenguins' README): where two or three overlap they make
    darker shades of the species' colour, each lying along the others; all had been dropped as
    each other's outlines (no chart read at 96 dpi) or read as series of their own, unnamed. A
    shade that is the species' colour with less of the background, its blobs touching the
    species' own, is that species."""
    gg = pytest.importorskip("plotnine")
    import io

    import pandas as pd

    rng = np.random.default_rng(3)
    rows = [(name, round(cx + rng.normal(0, 5), 1), round(cy + rng.normal(0, 2.5), 1))
            for name, cx, cy in (("Adelie", 190, 39), ("Gentoo", 217, 47.5), ("Chinstrap", 196, 49)) for _ in range(70)]
    alone = [("Adelie", 171.3, 33.0), ("Gentoo", 232.2, 58.0), ("Chinstrap", 178.4, 57.5)]
    df = pd.DataFrame(rows + alone, columns=["species", "flipper", "bill"])
    plot = (gg.ggplot(df, gg.aes("flipper", "bill", color="species", shape="species"))
            + gg.geom_point(size=3, alpha=0.8) + gg.theme_minimal()
            + gg.scale_color_manual(values=["darkorange", "purple", "#008B8B"]))
    buf = io.BytesIO()
    plot.save(buf, format="png", width=7, height=5, dpi=96, verbose=False)
    conv = convert(buf.getvalue())
    (chart,) = conv.figure.of_kind("chart")
    assert {str(s) for s, _, _ in chart_rows(chart.spec)} == {"Adelie", "Chinstrap", "Gentoo"}
    assert score_values(conv.figure, _truth([list(v) for v in alone], [30, 60])) == 1.0
