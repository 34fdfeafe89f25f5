"""Chart read faults seen on real figures (issue 31), drawn here with matplotlib and PIL in the
makers' styles: a high-energy-physics plot (mplhep: framed axes, inward ticks on all four
sides, single-digit tick labels beside the frame, nine small markers, a bold experiment title
over the plot), and tick labels whose decimal point OCR read as a space."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from conftest import REAL_MANIFEST  # noqa: E402
from mpl_helpers import mpl_png  # noqa: E402
from PIL import Image, ImageDraw, ImageFont  # noqa: E402

from crafteditor import convert  # noqa: E402
from crafteditor.charts.axes import mend_spaced_decimals, spaced_decimal  # noqa: E402
from crafteditor.ocr.runs import TextRun  # noqa: E402
from crafteditor.realset import load_real, score_real, score_values, svg_words  # noqa: E402


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


@pytest.mark.parametrize("name", ["B_mplhep_example1", "B_patchwork_mixed-themes"])
def test_real_charts_read_their_values(real_set, name):
    """Optional: on the real figures themselves (dev split), where the set is present."""
    fig = next(f for f in load_real(real_set, "dev", manifest=REAL_MANIFEST) if f.id == name)
    conv = convert(fig.path)
    assert score_real(conv.figure, conv.svg, fig.truth)["values"] == 1.0
