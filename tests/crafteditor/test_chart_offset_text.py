"""matplotlib's offset text (issue 31 round 22, mpl22): a factor ('1e6' over the y axis, '×10⁶' with mathtext)
or an offset ('+1.9e3' under the x axis's end) that the ScalarFormatter writes once instead of in every tick
label; the values are read with it, and the labels stay as written."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from mpl_helpers import mpl_png  # noqa: E402

from crafteditor import convert  # noqa: E402
from crafteditor.charts.axes import Axis  # noqa: E402
from crafteditor.charts.offsets import offset_axis, offset_text  # noqa: E402
from crafteditor.realset import score_values, svg_words  # noqa: E402

# flights.csv (seaborn-data): yearly passengers, in thousands
_YEARS = list(range(1949, 1961))
_TOTALS = [1520, 1676, 2042, 2364, 2700, 2867, 3408, 3939, 4421, 4572, 5140, 5714]


def test_offset_texts_read_as_factor_and_offset():
    assert offset_text("1e6") == (1e6, 0.0)
    assert offset_text("1e\u22125") == (1e-5, 0.0)  # the minus sign matplotlib writes
    assert offset_text("x106") == (1e6, 0.0)  # '×10⁶' read flat
    assert offset_text("+1.9e3") == (1.0, 1900.0)
    assert offset_text("+1.9x103") == (1.0, 1900.0)
    assert offset_text("\u22122e3") == (1.0, -2000.0)
    for text in ("2e3", "1.5", "100", "1e0", "Year"):  # numbers and words are no offset text
        assert offset_text(text) is None
    axis = offset_axis(Axis(a=10.0, b=-0.1), "1e6")
    assert axis is not None and abs(axis.value(0.0) - 1e7) < 1e-3
    assert offset_axis(Axis(a=0.0, b=1.0, log=True), "1e6") is None  # a log axis writes its values whole


def _passengers(style: str, rc: dict | None = None) -> bytes:
    with plt.style.context(style), plt.rc_context(rc or {}):
        fig, ax = plt.subplots(figsize=(5, 3.5))
        ax.plot(_YEARS, [t * 1000 for t in _TOTALS], marker="o")
        ax.set_xlabel("Year")
        ax.set_ylabel("Passengers")
        return mpl_png(fig)


def test_a_factor_over_the_y_axis_scales_the_values_and_the_labels_stay():
    truth = {"values": [["", y, t * 1000] for y, t in zip(_YEARS, _TOTALS)]}
    for style, rc in (("default", None), ("default", {"axes.formatter.use_mathtext": True})):
        conv = convert(_passengers(style, rc))
        assert score_values(conv.figure, truth) >= 0.9, (style, rc)
        words = svg_words(conv.svg)
        assert words["2"] and words["5"], "the tick labels as written"
    assert svg_words(convert(_passengers("default")).svg)["1e6"]


def test_an_offset_under_the_x_axis_shifts_the_x_values():
    # the classic style writes years as '48 50 … 60' and '+1.9e3' under the axis's end
    truth = {"values": [["", y, t * 1000] for y, t in zip(_YEARS, _TOTALS)]}
    conv = convert(_passengers("classic"))
    assert score_values(conv.figure, truth) >= 0.9
