"""A log axis spanning about one decade: matplotlib labels its minor ticks '3 × 10¹', '6 × 10⁰'
beside the decade '10¹'. Those labels had parsed as no number (and '10¹' as 101), so the chart
was not read at all."""

import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from mpl_helpers import mpl_png as _png  # noqa: E402
from mpl_helpers import read_rows as _rows  # noqa: E402

from crafteditor import convert  # noqa: E402
from crafteditor.charts.numbers import parse_number  # noqa: E402


@pytest.mark.parametrize(("text", "value"), [("3 ×101-", 30.0), ("6 ×10° -", 6.0), ("2.5×10−3", 0.0025),
                                             ("12x", 12.0), ("101", 101.0)])
def test_a_multiple_of_a_power_of_ten_reads_as_its_value(text, value):
    assert parse_number(text) == pytest.approx(value)


def test_a_line_on_a_log_axis_labelled_at_its_minor_ticks_is_read():
    xs = [1, 11, 21, 31, 41, 51, 61, 71, 81]
    ys = [11.9, 18.3, 9.8, 11.3, 4.9, 6.7, 7.5, 11.5, 32.3]
    fig, ax = plt.subplots(figsize=(5.2, 2.8))
    ax.plot(xs, ys)
    ax.set_yscale("log")
    ax.set_xlabel("Batch size")
    ax.set_ylabel("Memory (GB)")
    conv = convert(_png(fig))
    spec, rows = _rows(conv)
    assert spec["encoding"]["y"].get("scale", {}).get("type") == "log"
    got = {round(float(x)): y for _, x, y in rows}

    for x, y in zip(xs, ys):
        near = min(got, key=lambda g: abs(g - x))
        assert abs(near - x) <= 1.5 and abs(math.log10(got[near]) - math.log10(y)) <= 0.02 * math.log10(35 / 4.4)
