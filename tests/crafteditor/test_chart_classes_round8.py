"""Chart classes of round 8 (issue 31): Vega-Lite's binned histograms over thousands, pies with their
legends beside them, and the tick formats users write, each drawn here or given as the runs OCR reads."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from ce_helpers import figure_png

from crafteditor import convert
from crafteditor.charts.cartesian import _x_axis
from crafteditor.ocr.runs import TextRun
from crafteditor.realset import chart_rows
from crafter.spec import Chart


def _run(text: str, x: float = 0.0, y: float = 0.0, w: float = 20.0) -> TextRun:
    return TextRun(text=text, x=x, y=y, w=w, h=10.0, angle=0.0, font_px=10.0, bold=False, color=(0, 0, 0),
                   confidence=1.0, baseline=y + 8.0, glyphs=np.ones((10, int(w)), bool))


def test_x_tick_labels_over_thousands_read_with_a_point_for_the_comma_keep_a_linear_axis():
    """Vega-Lite's binned years '1,000 … 1,700': OCR read the last two '1.600', '1.700', and the x axis
    fitted 1.6 and 1.7 beside 1500 as a log axis (every bin misplaced, the histogram scored 0.25)."""
    texts = ("1,000", "1,100", "1,200", "1,300", "1,400", "1,500", "1.600", "1.700")
    runs = [_run(t, x=40.0 + 60.0 * i, y=205.0, w=24.0) for i, t in enumerate(texts)]
    xaxis, ticks, numbered = _x_axis(runs, set(), 40.0, 200.0, 500.0, 10.0, None, (255, 255, 255))
    assert not numbered and not xaxis.log and len(ticks) == len(texts)
    assert abs(xaxis.value(runs[6].cx) - 1600) < 1 and abs(xaxis.value(runs[0].cx) - 1000) < 1


@pytest.mark.slow  # Vega-Lite's renderer starts in 5 s
def test_a_small_vega_lite_pie_names_a_slice_whose_legend_word_has_no_ascenders():
    """Vega-Lite's legend at scale 1: 'west' is 6 px high beside a 10 px round swatch; the window
    left of the word was only the word's rows, the swatch filled most of it and was taken for a tint
    round the text (the slice stayed 'slice 4': a third of the drawn Vega-Lite pies lost one)."""
    alt = pytest.importorskip("altair")
    vlc = pytest.importorskip("vl_convert")
    import pandas as pd

    df = pd.DataFrame({"category": ["Lyon", "west", "Oslo", "sum"], "value": [11, 7, 27, 9]})
    chart = alt.Chart(df).mark_arc(innerRadius=40).encode(theta="value:Q", color=alt.Color("category:N", sort=None))
    conv = convert(vlc.vegalite_to_png(chart.to_json(), scale=1))
    (pie,) = [c for c in conv.figure.components if isinstance(c, Chart)]
    shares = {x: y for _, x, y in chart_rows(pie.spec)}
    assert set(shares) == {"Lyon", "west", "Oslo", "sum"}
    assert abs(shares["west"] - 100 * 7 / 54) <= 1.0 and abs(shares["sum"] - 100 * 9 / 54) <= 1.0


def test_a_pie_legend_swatch_read_as_a_letter_is_no_part_of_the_slice_name():
    """OCR's box of a scale-2 Vega-Lite legend entry began over its square swatch and read its right
    edge as 'I' ('I beta'); that letter's ink is the swatch's paint, so it is dropped. A real
    one-letter word in the text's own ink ('A beta') stays."""
    from crafteditor.charts.pie import _entry_name

    rgb = np.full((20, 60, 3), 255, np.uint8)
    rgb[3:17, 0:6] = (137, 165, 78)  # the swatch's right part, under the run's first glyph
    rgb[5:15, 12:40] = (0, 0, 0)  # the word's glyphs
    glyphs = np.zeros((20, 60), bool)
    glyphs[3:17, 2:5] = True
    glyphs[5:15, 12:40] = True
    run = TextRun(text="I beta", x=0.0, y=0.0, w=60.0, h=20.0, angle=0.0, font_px=18.0, bold=False,
                  color=(0, 0, 0), confidence=0.9, baseline=15.0, glyphs=glyphs)
    assert _entry_name(rgb, run, np.array([137, 165, 78])) == "beta"
    rgb[3:17, 0:6] = (0, 0, 0)  # the same letter in the text's ink
    assert _entry_name(rgb, replace(run, text="A beta"), np.array([137, 165, 78])) == "A beta"
    assert _entry_name(rgb, replace(run, text="■ beta"), np.array([137, 165, 78])) == "beta"


def test_a_scatter_of_hollow_circles_reads_each_ring_as_a_point():
    """Open circles (matplotlib's ``facecolors='none'``, Vega-Lite's default point mark): a ring fills
    under half its box, so no ring was a marker and each series was read as a zigzag line through
    its rings' pieces. A small closed outline round a hole is a hollow marker, drawn back unfilled."""

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from crafteditor.realset import score_values

    rng = np.random.default_rng(2)
    fig, ax = plt.subplots(figsize=(5, 3.6), dpi=150)
    values = []
    for name, colour in (("ours", "C0"), ("baseline", "C1")):
        x, y = rng.uniform(0, 10, 12), rng.uniform(0, 50, 12)
        ax.scatter(x, y, facecolors="none", edgecolors=colour, s=56, label=name)
        values += [[name, float(a), float(b)] for a, b in zip(x, y)]
    ax.set_ylim(0, 55)
    ax.legend(loc="upper right")
    png = figure_png(fig)
    conv = convert(png)
    (chart,) = [c for c in conv.figure.components if isinstance(c, Chart)]
    assert chart.spec["mark"]["type"] == "point" and chart.spec["mark"]["filled"] is False
    assert score_values(conv.figure, {"values": values, "value_axis": [0, 55]}) >= 0.9


def test_ggplot2_facets_stacked_in_a_column_are_read_as_plots_of_their_own():
    """facet_wrap in two columns under theme_linedraw: the strips' frames join the left panels' axis
    lines into one line down the page, and the column was read as one plot whose y labels ran
    '0.50 … 1.50 0.50 … 1.50' (the lower panel's values read on a scale of both). Where the numbers
    left of the axis fall back going up, the lower plot ends above its last number."""
    gg = pytest.importorskip("plotnine")
    import io

    import pandas as pd

    from crafteditor.realset import score_values
    from crafter.spec import Figure

    rows = [(s, x, round(b + 0.1 * x + 0.05 * ((x * 7 + k) % 3), 3))
            for k, (s, b) in enumerate((("Adam", 0.8), ("control", 0.6), ("south", 0.45))) for x in range(1, 8)]
    df = pd.DataFrame(rows, columns=["series", "x", "y"])
    plot = gg.ggplot(df, gg.aes("x", "y")) + gg.geom_line(size=1) + gg.facet_wrap("~series", ncol=2) + gg.theme_linedraw()
    buf = io.BytesIO()
    plot.save(buf, format="png", width=6.4, height=4.3, dpi=100, verbose=False)
    conv = convert(buf.getvalue())
    charts = [c for c in conv.figure.components if isinstance(c, Chart)]
    assert len(charts) == 3
    (low,) = [c for c in charts if c.box.y > 0.4 * 430]
    south = [["south", x, y] for s, x, y in rows if s == "south"]
    assert score_values(Figure(components=[low]), {"values": south}) >= 0.85


def test_a_histograms_tail_bins_a_pixel_high_are_read():
    """A histogram's end bins of 5 and 4 on an axis to 1,000 are a row of the bars' paint on the
    axis; the plot's inner margin (3 px off the axis) hid them and the end bins were lost (Vega-Lite's
    gallery histogram, dev 0.78). Beside touching bins, such a sliver a bin wide is a bin."""

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from crafteditor.realset import score_values

    counts = [5, 43, 100, 273, 633, 985, 741, 204, 4]
    fig, ax = plt.subplots(figsize=(5, 3.5), dpi=100)
    ax.bar([i + 1.5 for i in range(9)], counts, width=1.0, color="#4C78A8")
    ax.set_xlim(1, 10)
    ax.set_ylim(0, 1000)
    png = figure_png(fig)
    conv = convert(png)
    truth = [["count", i + 1.5, c] for i, c in enumerate(counts)]
    assert score_values(conv.figure, {"values": truth, "value_axis": [0, 1000]}) == 1.0


def test_tick_labels_with_an_en_dash_for_the_minus_keep_their_format():
    """'–2,000' (U+2013, an en dash set as the minus, or OCR's reading of U+2212) is -2000: the
    labels' format is the thousands-comma one they are written in (it had been none, and the chart
    wrote its ticks '-2k')."""
    from crafteditor.charts.style import tick_format

    assert tick_format(["–2,000", "0", "2,000", "4,000"]) == ",d"
    assert tick_format(["–1.0", "0.0", "1.0"]) == ".1f"
    assert tick_format(["–2000", "0", "2000"]) == "d"


def test_a_pie_slice_labelled_by_a_bare_number_leaves_its_neighbour_its_name():
    """Two thin slices side by side, one labelled by its share alone ('3'), the other by its name
    ('pear'): the first had taken 'pear', the nearer to its own middle, and the pear slice was
    left 'slice 3'. A label names the slice its end toward the disc points at."""
    import math

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(4, 4), dpi=100)
    wedges, _ = ax.pie([44, 3, 4, 49], labels=["apple", "", "pear", "plum"], startangle=90, counterclock=False)
    mid = math.radians((wedges[1].theta1 + wedges[1].theta2) / 2)
    ax.text(1.3 * math.cos(mid), 1.3 * math.sin(mid), "3", ha="center", va="center")
    png = figure_png(fig)
    (pie,) = [c for c in convert(png).figure.components if isinstance(c, Chart)]
    shares = {x: y for _, x, y in chart_rows(pie.spec)}
    assert abs(shares["pear"] - 4) <= 0.4 and abs(shares["plum"] - 49) <= 1 and abs(shares["apple"] - 44) <= 1


def test_two_legend_classes_of_a_sequential_palette_stay_two_series_where_their_markers_touch():
    """A sequential palette's light class is its dark class's colour thinned by the page; with each
    light marker touching a dark one, merge_overlaps took the light paint for the dark markers'
    overlaps and made the two classes one series (half the values lost). Paints the legend names
    apart stay apart."""

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from crafteditor.realset import score_values

    rng = np.random.default_rng(1)
    dark = np.array([31, 119, 180]) / 255
    fig, ax = plt.subplots(figsize=(5, 3.6), dpi=120)
    x, y = rng.uniform(1, 9, 10), rng.uniform(5, 45, 10)
    ax.scatter(x, y, s=60, color=dark, label="2019")
    ax.scatter(x + 0.27, y + 1.0, s=60, color=0.6 * dark + 0.4, label="2020")
    ax.set_xlim(0, 10)
    ax.set_ylim(0, 50)
    ax.legend(loc="upper right")
    png = figure_png(fig)
    conv = convert(png)
    values = [["2019", a, b] for a, b in zip(x, y)] + [["2020", a + 0.27, b + 1.0] for a, b in zip(x, y)]
    assert score_values(conv.figure, {"values": values, "value_axis": [0, 50]}) >= 0.9


def test_a_lone_ggplot2_triangle_is_a_marker():
    """A ggplot2 triangle (palmerpenguins' Chinstrap, CC0; a crop of the dev figure) fills 0.53 of
    its box: under the 0.55 a lone marker needed, each lone triangle had been a piece of line and
    its value lost."""
    import cv2
    from PIL import Image

    from crafteditor.charts.lines import _lone, lone_marker

    crop = Path(__file__).parent / "crops" / "palmerpenguins_lone_triangle.png"
    im = np.asarray(Image.open(crop).convert("RGB")).astype(np.float32)
    mask = (np.linalg.norm(im - np.array([163, 51, 240], np.float32), axis=2) <= 60).astype(np.uint8)
    n, lab, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    i = 1 + int(np.argmax(stats[1:, 4]))
    x, y, w, h, _ = stats[i]
    assert not _lone(stats[i]) and lone_marker(lab[y:y + h, x:x + w] == i, stats[i])


def test_translucent_markers_of_a_legend_named_line_take_its_name():
    """ggplot2's points at alpha 0.8 under a solid regression line of the species' colour: the
    legend's key names the line's paint, and the markers (its colour thinned by the page) had been
    'series 4'. A series whose paint is one named series' thinned, or the other way round, is it."""
    from crafteditor.charts.marks import _name_translucent
    from crafteditor.charts.series import Series

    line = Series(color=(140, 0, 236), kind="line", points=[(1.0, 2.0)], name="Chinstrap")
    dots = Series(color=(163, 51, 240), kind="point", points=[(1.0, 3.0)])
    other = Series(color=(40, 160, 40), kind="point", points=[(2.0, 3.0)])
    bars = Series(color=(170, 80, 245), kind="bar", points=[(2.0, 3.0)])
    _name_translucent([line, dots, other, bars], np.array([255, 255, 255]))
    assert dots.name == "Chinstrap" and other.name is None and bars.name is None


def test_two_series_read_under_one_name_are_one_legend_entry_with_the_markers_look():
    """ggplot2's translucent markers and their species' solid trend line are both named by the legend (one
    species, two paints): the colour and shape scales had listed each name twice (Vega merges the repeated
    name and shifts the next colours; the legend drawn back showed every species twice and lost the
    triangles). Each name is listed once, with the look of its series with the most points."""
    from crafteditor.charts.axes import Axis
    from crafteditor.charts.series import Series
    from crafteditor.charts.vegalite import chart_spec

    pts = [(float(x), float(x % 7)) for x in range(20)]
    series = [Series((253, 147, 58), "point", pts, name="Adelie", shape="circle"),
              Series((252, 120, 8), "point", pts[:3], name="Adelie", shape="circle"),
              Series((163, 51, 240), "point", pts[:12], name="Chinstrap", shape="triangle-up"),
              Series((140, 0, 236), "point", pts[:2], name="Chinstrap", shape="circle")]
    spec = chart_spec(series, Axis(0.0, 1.0), Axis(0.0, 1.0), (0, 0, 100, 100), None, "x", "y")
    color, shape = spec["encoding"]["color"]["scale"], spec["encoding"]["shape"]["scale"]
    assert color == {"domain": ["Adelie", "Chinstrap"], "range": ["#FD933A", "#A333F0"]}
    assert shape == {"domain": ["Adelie", "Chinstrap"], "range": ["circle", "triangle-up"]}


def test_a_decimal_split_at_its_point_leaves_no_stray_half_beside_category_labels():
    """merge_decimals joins '2' and '5' into '2.5' in place; the '5' left behind was consumed only
    where a numeric axis was fitted: beside categories (or powers of ten) it stayed as stray text."""
    rgb = np.full((300, 600, 3), 255, np.uint8)
    rgb[213, 457] = 0  # the decimal point between '2' (ends at 456) and '5' (starts at 459)
    runs = [_run(t, x=60.0 + 100.0 * i, y=205.0, w=30.0) for i, t in enumerate(("apple", "pear", "plum"))]
    runs += [_run("2", x=450.0, y=205.0, w=6.0), _run("5", x=459.0, y=205.0, w=6.0)]
    xaxis, ticks, numbered = _x_axis(runs, set(), 40.0, 200.0, 500.0, 10.0, rgb, (255, 255, 255))
    assert not numbered and [t for _, t in xaxis.categories] == ["apple", "pear", "plum"]
    assert runs[3].text == "2.5" and 4 in ticks and 3 not in ticks
