"""Chart read faults seen on real figures (issue 31), drawn here with matplotlib and PIL in the
makers' styles: a high-energy-physics plot (mplhep: framed axes, inward ticks on all four
sides, single-digit tick labels beside the frame, nine small markers, a bold experiment title
over the plot), tick labels whose decimal point OCR read as a space, powers of ten whose
exponents OCR garbled, a legend in a row above the plot (W&B), a bar too short to see, a heatmap
whose column labels are turned 90°, and a heatmap's cells scored."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from conftest import dev_figure  # noqa: E402
from mpl_helpers import mpl_png  # noqa: E402
from PIL import Image, ImageDraw, ImageFont  # noqa: E402

from crafteditor import convert  # noqa: E402
from crafteditor.charts.axes import decade_ticks, mend_spaced_decimals, spaced_decimal  # noqa: E402
from crafteditor.ocr.runs import TextRun  # noqa: E402
from crafteditor.realset import score_real, score_values, svg_words  # noqa: E402
from crafter.spec import Figure  # noqa: E402


def _hep_plot() -> bytes:
    """mplhep's look: a frame with inward major and minor ticks on every side, tick labels 2 px
    from it, nine 2 pt markers (too few pixels of their blue for a paint at the usual share)."""
    fig, ax = plt.subplots(figsize=(4.8, 4.8))
    ax.plot(range(1, 10), range(1, 10), "o", ms=2, color="#1f77b4")
    ax.set_xlim(0, 10)
    ax.set_ylim(0, 10)
    ax.tick_params(direction="in", top=True, right=True, length=6, labelsize=12, pad=2)
    ax.minorticks_on()
    ax.tick_params(which="minor", direction="in", top=True, right=True, length=3)
    ax.text(0, 1.01, "CMS", transform=ax.transAxes, fontsize=15, fontweight="bold", va="bottom")
    ax.text(1, 1.01, "2017 (13 TeV)", transform=ax.transAxes, fontsize=12, ha="right", va="bottom")
    return mpl_png(fig)


def test_a_framed_plot_with_single_digit_ticks_and_few_small_markers_is_read():
    """The y tick labels 2…8 stand beside the frame's side: they had been taken for part of a
    drawing and never read, so no y axis was found (and the frame's ticks came back as a line)."""
    conv = convert(_hep_plot())
    truth = {"text": "CMS 2017 (13 TeV) 0 2 4 6 8 10 0 2 4 6 8 10", "value_axis": [0, 10],
             "values": [["points", k, k] for k in range(1, 10)]}
    assert score_values(conv.figure, truth) == 1.0
    assert {"2", "4", "6", "8"} <= set(svg_words(conv.svg))


def _number_run(text_drawn: str, text_read: str, size: int = 12) -> tuple[TextRun, np.ndarray]:
    """A tick label drawn in small type on white, as OCR hands it over: read ``text_read``, its
    glyph mask without the point (too small a speck for a glyph)."""
    font = ImageFont.truetype("DejaVuSans.ttf", size)
    im = Image.new("RGB", (80, 30), "white")
    ImageDraw.Draw(im).text((10, 8), text_drawn, fill="black", font=font)
    rgb = np.asarray(im)
    ink = rgb.min(axis=2) < 128
    ys, xs = np.nonzero(ink)
    y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    glyphs = ink[y0:y1, x0:x1].copy()
    dots = [i for i, ch in enumerate(text_drawn) if ch == "."]
    if dots:  # the point's columns: those whose ink is only in the bottom fifth
        low = glyphs[int(0.75 * glyphs.shape[0]):].any(axis=0) & ~glyphs[:int(0.75 * glyphs.shape[0])].any(axis=0)
        glyphs[:, low] = False
    run = TextRun(text=text_read, x=float(x0), y=float(y0), w=float(x1 - x0), h=float(y1 - y0), angle=0,
                  font_px=float(size), bold=False, color=(0, 0, 0), confidence=0.9, baseline=float(y1),
                  glyphs=glyphs)
    return run, rgb


@pytest.mark.parametrize("drawn, read, whole", [("7.5", "7 5", "7.5"), ("10.0", "10 0", "10.0"), ("2.5", "2 5", "2.5")])
def test_a_decimal_point_read_as_a_space_is_put_back(drawn, read, whole):
    """ggplot's count axis 0.0 … 10.0 in small type came back '5 0', '7 5', '10 0': read as
    0 … 100, every bar ten times its height."""
    run, rgb = _number_run(drawn, read)
    assert spaced_decimal(run, rgb, (255, 255, 255)) == whole
    runs = [run]
    mend_spaced_decimals(runs, [0], rgb, (255, 255, 255))
    assert runs[0].text == whole


def test_a_space_between_numbers_without_a_point_stays():
    """'10 000' (a space as the thousands separator) or two numbers side by side keep their
    reading: there is no point in the gap."""
    run, rgb = _number_run("10 20", "10 20")
    assert spaced_decimal(run, rgb, (255, 255, 255)) is None


@pytest.mark.parametrize("name", ["B_mplhep_example1", "B_patchwork_mixed-themes", "B_altair_simple-heatmap"])
def test_real_charts_read_their_values(real_set, name):
    """Optional: on the real figures themselves (dev split), where the set is present."""
    fig = dev_figure(real_set, name)
    conv = convert(fig.path)
    assert score_real(conv.figure, conv.svg, fig.truth)["values"] == 1.0


def _legend_above() -> bytes:
    """Loss curves with their legend in a row above the plot (W&B's, plotly's look)."""
    fig, ax = plt.subplots(figsize=(6, 3.6))
    x = np.arange(0, 101, 5)
    for name, c, base in (("small", "#1f77b4", 3.0), ("medium", "#ff7f0e", 2.5), ("large", "#2ca02c", 2.0)):
        ax.plot(x, base + 2.0 * np.exp(-x / 15), color=c, label=name, lw=1.5)
    ax.set_ylim(0, 6)
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=3, frameon=False)
    ax.set_title("val/loss", pad=28)
    return mpl_png(fig)


def test_a_legend_above_the_plot_names_the_series_and_is_drawn_there():
    """The entries had been looked for only inside the plot and right of it: the series came
    back 'series 1' … 'series 3' and the values could not be matched to their names."""
    conv = convert(_legend_above())
    truth = {"text": "", "value_axis": [0, 6], "values": [["small", 100, 3.0], ["medium", 100, 2.5],
                                                            ["large", 100, 2.0], ["small", 0, 5.0]]}
    assert score_values(conv.figure, truth) == 1.0
    chart = conv.figure.of_kind("chart")[0]
    assert chart.spec["encoding"]["color"]["legend"]["orient"] == "top"
    assert svg_words(conv.svg)["series"] == 0


def test_powers_of_ten_with_garbled_exponents_are_consecutive_decades():
    """matplotlib's 10⁻³ … 10⁰ read '10' (exponent lost), '1e2' (its minus lost), '10-' and
    '10°': evenly spaced, they are 10⁻³, 10⁻², 10⁻¹, 10⁰ (anchored where two readings agree)."""
    ticks = [(0, 243.0, "10"), (1, 400.5, "1e2"), (2, 556.0, "10-"), (3, 714.0, "10°")]
    assert decade_ticks(ticks, +1) == {0: "1e-3", 1: "1e-2", 2: "1e-1", 3: "1e0"}
    # a decade whose label was not read at all is a whole step
    assert decade_ticks([(0, 100.0, "10°"), (1, 200.0, "10"), (2, 400.0, "10")], +1) == {0: "1e0", 1: "1e1", 2: "1e3"}
    # a linear axis with one '10' among its labels, or labels unevenly spaced, is none
    assert decade_ticks([(0, 100.0, "0"), (1, 200.0, "10"), (2, 300.0, "20")], +1) is None
    assert decade_ticks([(0, 100.0, "10°"), (1, 230.0, "10"), (2, 300.0, "10")], +1) is None


def test_a_heatmaps_cells_score_as_row_column_value():
    """The truth of a heatmap is [row label, column label, value] ('y=-5' or '-5' for the row)."""
    rows = [{"x": str(x), "y": str(y), "value": float(x * x + y * y)} for y in (-5, 0, 4) for x in (-5, 0, 4)]
    spec = {"data": {"values": rows}, "encoding": {"x": {"field": "x", "type": "nominal"},
                                                   "y": {"field": "y", "type": "nominal"}},
            "layer": [{"mark": {"type": "rect"}, "encoding": {"color": {"field": "value", "type": "quantitative"}}}]}
    fig = Figure.model_validate({"components": [{"id": "c", "kind": "chart", "spec": spec}]})
    truth = {"text": "", "value_axis": [0, 50], "values": [["y=-5", "-5", 50], ["y=0", "4", 16], ["4", "0", 16],
                                                            ["y=4", "-5", 10]]}
    assert score_values(fig, truth) == pytest.approx(3 / 4)  # the last is 41, not 10


def test_a_bar_too_short_to_see_reads_as_the_baseline():
    """uv's resolver benchmark: 0.01 s beside 3.38 s is no visible bar; its category kept its
    place but had no value, so the chart's data lost it."""
    fig, ax = plt.subplots(figsize=(5, 3.2))
    ax.bar(["uv", "pdm", "poetry", "pip"], [0.01, 3.38, 0.6, 1.56], color="#6340AC", width=0.5)
    conv = convert(mpl_png(fig))
    truth = {"text": "", "value_axis": [0, 3.5], "values": [["t", "uv", 0.01], ["t", "pdm", 3.38], ["t", "poetry", 0.6]]}
    assert score_values(conv.figure, truth) == 1.0


def test_a_heatmap_with_column_labels_turned_90_degrees_is_read():
    """Altair's heatmap: the x labels turned 90° were not read, so the cells were no heatmap (and
    the plot came back as fifteen line series); neighbouring cells alike in colour show no edge
    between them."""
    ks = list(range(-5, 5))
    z = np.array([[x * x + y * y for x in ks] for y in ks], float)
    fig, ax = plt.subplots(figsize=(4, 3.4))
    im = ax.imshow(z, cmap="YlGnBu", aspect="auto")
    ax.set_xticks(range(10), [str(k) for k in ks], rotation=90)
    ax.set_yticks(range(10), [str(k) for k in ks])
    fig.colorbar(im)
    conv = convert(mpl_png(fig))
    truth = {"text": "", "value_axis": [0, 50], "values": [["y=-5", "-5", 50], ["y=0", "0", 0], ["y=4", "4", 32],
                                                             ["y=0", "-5", 25], ["y=-5", "4", 41], ["y=2", "-1", 5]]}
    assert score_values(conv.figure, truth) == 1.0
