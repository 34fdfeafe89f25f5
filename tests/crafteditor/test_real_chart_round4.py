"""Chart read faults seen on real dev charts (issue 31, round 4), drawn here with matplotlib in
the makers' styles: SciencePlots' family of curves crossing at one point, where a curve cut into
pieces by the others had kept one small round piece and been read as that one point; grouped
bars whose value labels, wider than the bars, are written over the next bar (its fill cut into
specks: read as a line); a legend entry OCR read on into a value label beside the legend;
Vega-Lite's stacked horizontal bars of six series with their values written in white in the
segments (a legend of value labels chosen over the real one, segments with text holes no
rectangles, a third segment read before the second's tops were floors); MultiQC's stacked
horizontal bars, a thin middle segment and the legend in a row under the axis title; a lone
pale bar taken for a tinted plot panel and painted out; a line on horizontal gridlines alone
(W&B's card, a despined ``grid(axis='y')``), no axis line found; and plotly's look (the
held-out split has plotly charts, dev none): checked to read, no fault found."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from conftest import dev_figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from mpl_helpers import mpl_png  # noqa: E402

from crafteditor import convert  # noqa: E402
from crafteditor.blobs import find_blobs  # noqa: E402
from crafteditor.charts.axes import Axis  # noqa: E402
from crafteditor.charts.legend import entry_name  # noqa: E402
from crafteditor.charts.lines import line_series  # noqa: E402
from crafteditor.ocr.runs import TextRun  # noqa: E402
from crafteditor.realset import score_real, score_values  # noqa: E402

_SCIENCE = ["#0C5DA5", "#00B945", "#FF9500", "#FF2C00", "#845B97", "#474747"]


def _model(x: np.ndarray, p: float) -> np.ndarray:
    """SciencePlots' example curves: steeper with the order, all through (1, 0.5), all meeting
    again at the top right."""
    return x ** (2 * p + 1) / (1 + x ** (2 * p))


def _crossing_curves() -> tuple[bytes, list[list]]:
    """SciencePlots' 'science' look: six curves of rising order through one point, a legend
    with a title and no frame, inward ticks on every side."""
    fig, ax = plt.subplots(figsize=(3.5, 2.6))
    x = np.linspace(0.75, 1.25, 201)
    truth = []
    for order, c in zip((10, 15, 20, 30, 50, 100), _SCIENCE):
        ax.plot(x, _model(x, order), color=c, lw=1, label=str(order))
        truth += [[str(order), xv, float(_model(np.array([xv]), order)[0])] for xv in (0.9, 1.05, 1.1)]
    ax.legend(title="Order", frameon=False, fontsize=7, title_fontsize=7)
    ax.set_xlim(0.75, 1.25)
    ax.set_ylim(0, 1.3)
    ax.set_xlabel("Voltage (mV)")
    ax.set_ylabel("Current (µA)")
    ax.tick_params(direction="in", top=True, right=True)
    ax.minorticks_on()
    ax.tick_params(which="minor", direction="in", top=True, right=True)
    return mpl_png(fig), truth


def test_every_curve_of_a_family_crossing_at_one_point_is_read_as_a_line():
    png, values = _crossing_curves()
    conv = convert(png)
    truth = {"values": values, "value_axis": [0, 1.3]}
    assert score_values(conv.figure, truth) >= 0.9


def test_a_curve_cut_into_pieces_with_one_small_round_piece_is_still_a_line():
    """Where five other curves cross it, a curve is cut into pieces, one of them a 3x3 speck the
    size of a marker: that speck had been taken for the series' one point (a scatter of one)
    and the rest of the curve dropped (SciencePlots' green curve, read as (1.18, 1.17))."""
    m = np.zeros((120, 200), bool)
    xs = np.arange(10, 190)
    ys = (100 - 80 / (1 + np.exp(-(xs - 100) / 12))).astype(int)
    for x, y in zip(xs, ys):
        m[y:y + 2, x] = True
    m[:, 95:101] = False  # cut where the other curves cross it
    m[:, 150:175] = False
    m[ys[150] - 1:ys[150] + 2, 159:162] = True  # a speck of it left between two crossings
    n, lab, stats, _ = find_blobs(m)
    comps = [(i, stats[i]) for i in range(1, n) if stats[i][4] >= 4]
    axis = Axis(a=0.0, b=1.0)
    sr = line_series(m, lab, comps, [], (0, 185, 69), Axis(a=120.0, b=-1.0), axis,
                     lambda y, x, h, w: np.zeros((h, w)))
    assert sr is not None and sr.kind == "line"
    assert len(sr.points) >= 6
    assert min(x for x, _ in sr.points) < 20 and max(x for x, _ in sr.points) > 180


def _labelled_groups() -> tuple[bytes, dict]:
    """flash-attention's training-speed bars: three series a group, narrow bars, each labelled
    with its value in type wider than the bar, so a label overlaps the taller bar beside it."""
    cats = ["A", "B", "C", "D", "E"]
    vals = {"base": [25, 29, 46, 63, 80], "mid": [70, 82, 115, 142, 149], "fast": [149, 167, 163, 189, 189]}
    fig, ax = plt.subplots(figsize=(6, 3.5))
    x = np.arange(5)
    for i, (n, c) in enumerate(zip(vals, ["#1f77b4", "#ff7f0e", "#2ca02c"])):
        bars = ax.bar(x + (i - 1) * 0.15, vals[n], 0.15, color=c, label=n)
        ax.bar_label(bars, labels=[str(v) for v in vals[n]], fontsize=15)
    ax.set_xticks(x, cats)
    ax.set_ylim(0, 215)
    ax.legend(loc="upper left")
    truth = {"values": [[n, c, v] for n in vals for c, v in zip(cats, vals[n])], "value_axis": [0, 215]}
    return mpl_png(fig), truth


def test_bars_cut_into_specks_by_value_labels_over_them_are_still_bars():
    """The labels' digits cut the tall bars' fill into specks (the counters of '6', '8', '9'):
    most of that paint's blobs were no rectangles on the baseline, and the bars were read as a
    line along their tops (a third of the values)."""
    png, truth = _labelled_groups()
    conv = convert(png)
    assert score_values(conv.figure, truth) == 1.0


def _run(text: str, words: list[int], gaps: list[int], font: float = 20.0) -> TextRun:
    """A run read as ``text``: blocks of ink ``words`` px wide, ``gaps`` px apart."""
    w = sum(words) + sum(gaps)
    glyphs = np.zeros((16, w), bool)
    x = 0
    for i, ww in enumerate(words):
        glyphs[2:14, x:x + ww] = True
        x += ww + (gaps[i] if i < len(gaps) else 0)
    return TextRun(text=text, x=100.0, y=50.0, w=float(w), h=16.0, angle=0, font_px=font, bold=False,
                   color=(0, 0, 0), confidence=0.9, baseline=66.0, glyphs=glyphs)


def test_a_legend_entry_ends_at_a_gap_wider_than_a_font_size():
    """'Megatron-LM' with a bar's value label '167' half under the legend's face, 1.1 font sizes
    on: read 'Megatron-LM i7', which no series was named (four values lost)."""
    assert entry_name(_run("Megatron-LM i7", [120, 20], [23])) == "Megatron-LM"
    # a name's own spaces are word gaps, narrower than a font size
    assert entry_name(_run("Grand Rapids", [50, 60], [6])) == "Grand Rapids"
    assert entry_name(_run("gpt2 small val", [40, 50, 30], [6, 7])) == "gpt2 small val"
    # gaps and spaces that do not pair up: the text as read
    assert entry_name(_run("a b c", [10, 60], [30])) == "a b c"


_VEGA = ["#4C78A8", "#F58518", "#E45756", "#72B7B2", "#54A24B", "#EECA3B"]


def _stacked_with_text() -> tuple[bytes, dict]:
    """altair's 'stacked bar chart with text': six series stacked along x, each segment's value
    written in white at its end, the legend with its title right of the plot."""
    cats = ["Glabron", "Manchuria", "No. 457", "No. 462", "Peatland", "Trebi", "Velvet"]
    rng = np.random.default_rng(3)
    vals = {s: [round(float(v), 1) for v in rng.uniform(35, 115, len(cats))]
            for s in ["Crookston", "Duluth", "Grand Rapids", "Morris", "University Farm", "Waseca"]}
    fig, ax = plt.subplots(figsize=(5.2, 2.6))
    left = np.zeros(len(cats))
    y = np.arange(len(cats))[::-1]
    for (s, v), c in zip(vals.items(), _VEGA):
        ax.barh(y, v, left=left, color=c, label=s, height=0.9)
        for yy, lo, vv in zip(y, left, v):
            ax.text(lo + vv - 3, yy, f"{vv:.1f}", color="white", ha="right", va="center", fontsize=7)
        left += np.array(v)
    ax.set_yticks(y, cats)
    ax.set_xlim(0, 550)
    ax.set_xlabel("Sum of yield")
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    ax.legend(title="site", loc="upper left", bbox_to_anchor=(1.01, 1), frameon=False, fontsize=7, title_fontsize=7)
    truth = {"values": [[s, c, v] for s in vals for c, v in zip(cats, vals[s])], "value_axis": [0, 550]}
    return mpl_png(fig), truth


def test_stacked_bars_with_their_values_written_in_them_read_every_series():
    """Before: the value labels beside their segments were taken for the legend (seven of them
    against its six entries), and past the third series the segments were points: a third of
    the values. The bottom row's labels overlap two segments' ends: it may miss."""
    png, truth = _stacked_with_text()
    conv = convert(png)
    chart = conv.figure.of_kind("chart")[0]
    assert {r.get("series") for r in chart.spec["data"]["values"]} == {s for s, _, _ in truth["values"]}
    assert score_values(conv.figure, truth) >= 0.8


def _multiqc_bars() -> tuple[bytes, dict]:
    """MultiQC's alignment scores: three series stacked along x, the middle one a thin sliver
    (a twentieth of the first), counts in millions ('20M'), and the legend's round swatches
    in one row under the axis title."""
    cats = ["GM12878_R1", "GM12878_R2", "H1_R1", "H1_R2", "K562_R1", "K562_R2"]
    vals = {"mapped uniquely": [80.2, 80.6, 105.5, 88.9, 74.8, 93.9], "multimapped": [3.2, 3.1, 6.0, 4.3, 3.1, 4.1],
            "neither mate aligned": [9.6, 13.1, 9.8, 11.2, 13.5, 14.3]}
    colors = ["#20568F", "#F7A35C", "#981919"]
    fig, ax = plt.subplots(figsize=(8, 3.6))
    y = np.arange(len(cats))[::-1]
    left = np.zeros(len(cats))
    for v, c in zip(vals.values(), colors):
        ax.barh(y, v, left=left, color=c, height=0.8)
        left += np.array(v)
    ax.set_yticks(y, cats, fontsize=7)
    ax.set_xlim(0, 140)
    ax.set_xticks(range(0, 141, 20), [f"{v}M" if v else "0" for v in range(0, 141, 20)], fontsize=7)
    ax.grid(axis="x", color="#E6E6E6")
    ax.set_axisbelow(True)
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)
    ax.set_xlabel("# Reads", fontsize=8)
    handles = [Line2D([], [], marker="o", ls="", color=c, label=n) for n, c in zip(vals, colors)]
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.22), ncol=3, frameon=False, fontsize=8)
    values = [[n, c, v * 1e6] for n in vals for c, v in zip(cats, vals[n])]
    values += [["total", c, 1e6 * sum(vals[n][i] for n in vals)] for i, c in enumerate(cats)]
    return mpl_png(fig), {"values": values, "value_axis": [0, 140e6]}


def test_stacked_bars_with_a_thin_segment_and_the_legend_under_the_axis_are_read():
    """Before: the thin 'multimapped' paint was dropped as an anti-aliased fringe (under an
    eighth of the bars' paint), the segments after it had no floor and became error bars, and
    the legend under the axis was never looked for: one unnamed series (a quarter of the values)."""
    png, truth = _multiqc_bars()
    conv = convert(png)
    chart = conv.figure.of_kind("chart")[0]
    assert {r.get("series") for r in chart.spec["data"]["values"]} == {"mapped uniquely", "multimapped",
                                                                         "neither mate aligned"}
    assert chart.spec["encoding"]["color"]["legend"]["orient"] == "bottom"  # redrawn in its row under the axis
    assert score_values(conv.figure, truth) == 1.0


def _lone_pale_bar() -> tuple[bytes, dict]:
    """MultiQC's Bracken taxa: two samples, the first stacked of two species, the second one
    large pale bar alone, numbered below ('10k'), on faint vertical gridlines, no axis lines."""
    fig, ax = plt.subplots(figsize=(8, 5.3))
    ax.barh([1, 0], [12460, 14070], color="#7CB5EC", height=0.8, label="Homo sapiens")
    ax.barh([1], [37130], left=[12460], color="#434348", height=0.8, label="Bacillus subtilis")
    ax.set_yticks([1, 0], ["bacillus_10p_4", "bacillus_10p_5"], fontsize=7)
    ax.set_xlim(0, 52000)
    ax.set_xticks(range(0, 50000, 10000), ["0", "10k", "20k", "30k", "40k"], fontsize=7)
    ax.tick_params(length=0)
    ax.grid(axis="x", color="#E6E6E6")
    ax.set_axisbelow(True)
    for side in ("top", "right", "left", "bottom"):
        ax.spines[side].set_visible(False)
    ax.set_xlabel("Number of fragments", color="#999999")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False, fontsize=7)
    truth = {"values": [["Homo sapiens", "bacillus_10p_4", 12460], ["Bacillus subtilis", "bacillus_10p_4", 37130],
                        ["Homo sapiens", "bacillus_10p_5", 14070]], "value_axis": [0, 52000]}
    return mpl_png(fig), truth


def test_a_lone_pale_bar_is_no_plot_panel():
    """A pale bar alone in its row, a twentieth of the figure, with numbers below it, was taken
    for a tinted plot panel (ggplot's) and painted out before the chart was read."""
    png, truth = _lone_pale_bar()
    conv = convert(png)
    assert score_values(conv.figure, truth) == 1.0


def _row_grid_line() -> tuple[bytes, dict]:
    """W&B's loss card: a line over faint horizontal gridlines, no axis line, no vertical
    gridline, y ticks '3', '3.2' at the gridlines' left ends, the plot running on below the
    last gridline to the x ticks."""
    fig, ax = plt.subplots(figsize=(7, 3.6))
    x = np.arange(0, 401, 10)
    y = 2.9 + 0.7 * np.exp(-x / 40)
    ax.plot(x, y, color="#5387DD", lw=1.5)
    ax.set_ylim(2.7, 3.6)
    ax.set_yticks([2.8, 3.0, 3.2, 3.4, 3.6], ["2.8", "3", "3.2", "3.4", "3.6"])
    ax.grid(axis="y", color="#EEEEEE")
    ax.set_axisbelow(True)
    for side in ax.spines.values():
        side.set_visible(False)
    ax.tick_params(length=0, labelsize=8, labelcolor="#555555")
    ax.set_title("val/loss", fontsize=10)
    truth = {"values": [["loss", int(a), float(b)] for a, b in zip(x[::8], y[::8])], "value_axis": [2.7, 3.6]}
    return mpl_png(fig), truth


def test_a_line_on_horizontal_gridlines_alone_is_read():
    """No axis line and no vertical gridline: no chart was found and the line was traced."""
    png, truth = _row_grid_line()
    conv = convert(png)
    assert len(conv.figure.of_kind("chart")) == 1
    assert score_values(conv.figure, truth) == 1.0


_PLOTLY = ["#636EFA", "#EF553B", "#00CC96"]


def _plotly_axes():
    """plotly's default template: the #E5ECF6 panel, white gridlines, no axis lines or tick
    marks, tick labels in #2a3f5f."""
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.set_facecolor("#E5ECF6")
    ax.grid(True, color="white", lw=1.2)
    ax.set_axisbelow(True)
    for side in ax.spines.values():
        side.set_visible(False)
    ax.tick_params(length=0, labelcolor="#2a3f5f", labelsize=9)
    return fig, ax


def _plotly_chart(kind: str) -> tuple[bytes, dict]:
    fig, ax = _plotly_axes()
    values = []
    if kind == "line":
        x = np.arange(0, 11)
        for i, (n, c) in enumerate(zip(["alpha", "beta", "gamma"], _PLOTLY)):
            y = 10 + 5 * i + 3 * np.sin(x / 2 + i)
            ax.plot(x, y, color=c, lw=2, label=n)
            values += [[n, int(a), float(b)] for a, b in zip(x[::2], y[::2])]
        ax.set_xlim(0, 10)
        ax.set_ylim(0, 30)
        title, span = "variable", [0, 30]
    else:
        cats = ["Mon", "Tue", "Wed", "Thu"]
        for i, (n, c) in enumerate(zip(["2019", "2020"], _PLOTLY)):
            v = [12 + 3 * i + k * 2 for k in range(4)]
            ax.bar(np.arange(4) + (i - 0.5) * 0.4, v, 0.4, color=c, label=n)
            values += [[n, cat, b] for cat, b in zip(cats, v)]
        ax.set_xticks(range(4), cats)
        ax.set_ylim(0, 25)
        title, span = "year", [0, 25]
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), frameon=False, title=title)
    return mpl_png(fig), {"values": values, "value_axis": span}


@pytest.mark.parametrize("kind", ["line", "bars"])
def test_plotly_looking_charts_read_their_values(kind):
    png, truth = _plotly_chart(kind)
    conv = convert(png)
    assert score_values(conv.figure, truth) == 1.0


@pytest.mark.parametrize("name", ["B_SciencePlots_science", "B_SciencePlots_grid", "B_SciencePlots_high-vis",
                                  "B_altair_stacked-bar-text", "B_nf-core-rnaseq_hisat2",
                                  "B_nf-core-rnaseq_bracken"])
def test_real_charts_read_all_their_values(real_set, name):
    """Optional: on the real figures themselves (dev split), where the set is present."""
    fig = dev_figure(real_set, name)
    conv = convert(fig.path)
    assert score_real(conv.figure, conv.svg, fig.truth)["values"] == 1.0


def test_real_labelled_groups_read_their_values(real_set):
    """Optional: flash-attention's bars (dev split), one bar top hidden by the legend's face."""
    fig = dev_figure(real_set, "B_flash-attention_gpt3-eff")
    conv = convert(fig.path)
    assert score_real(conv.figure, conv.svg, fig.truth)["values"] >= 0.9
