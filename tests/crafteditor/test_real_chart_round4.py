"""Chart read faults seen on real dev charts (issue 31, round 4), drawn here with matplotlib in
the makers' styles: SciencePlots' family of curves crossing at one point, where a curve cut into
pieces by the others had kept one small round piece and been read as that one point."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from conftest import dev_figure  # noqa: E402
from mpl_helpers import mpl_png  # noqa: E402

from crafteditor import convert  # noqa: E402
from crafteditor.blobs import find_blobs  # noqa: E402
from crafteditor.charts.axes import Axis  # noqa: E402
from crafteditor.charts.lines import line_series  # noqa: E402
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
    sr = line_series(m, lab, comps, [], (0, 185, 69), Axis(a=120.0, b=-1.0), axis)
    assert sr is not None and sr.kind == "line"
    assert len(sr.points) >= 6
    assert min(x for x, _ in sr.points) < 20 and max(x for x, _ in sr.points) > 180


@pytest.mark.parametrize("name", ["B_SciencePlots_science", "B_SciencePlots_grid", "B_SciencePlots_high-vis"])
def test_real_curve_families_read_their_values(real_set, name):
    """Optional: on the real figures themselves (dev split), where the set is present."""
    fig = dev_figure(real_set, name)
    conv = convert(fig.path)
    assert score_real(conv.figure, conv.svg, fig.truth)["values"] == 1.0
