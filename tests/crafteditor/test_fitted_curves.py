"""A scatter with a curve fitted through it in the scatter's own colour (seaborn's regplot and
residplot, a paper's trend line): the markers are the points, the line is a curve of its own. The
markers had been joined up into a zigzag through them, and the curve lost."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from mpl_helpers import mpl_png as _png  # noqa: E402

from crafteditor import convert  # noqa: E402


def _curve(x):
    return 0.6 + 0.5 * x - 0.04 * x ** 2


@pytest.fixture(scope="module")
def scatter_with_fit():
    rng = np.random.default_rng(3)
    x = np.sort(rng.uniform(0.5, 9.5, 40))
    y = _curve(x) + rng.normal(0, 0.45, x.size)
    fig, ax = plt.subplots(figsize=(5, 3.4))
    ax.scatter(x, y, color="C0", s=25)
    xs = np.linspace(0.5, 9.5, 60)
    ax.plot(xs, _curve(xs), color="C0", lw=2)
    ax.set_ylim(-1, 4)
    conv = convert(_png(fig))
    return conv, list(zip(x, y))


def test_the_markers_are_points_and_the_curve_a_line_over_them(scatter_with_fit):
    conv, _ = scatter_with_fit
    spec = conv.figure.of_kind("chart")[0].spec
    marks = [ly["mark"]["type"] for ly in spec["layer"]]
    assert marks[-2:] == ["point", "line"]
    filters = [ly["transform"][0]["filter"] for ly in spec["layer"][-2:]]
    assert filters == [{"field": "fit", "equal": False}, {"field": "fit", "equal": True}]


def test_the_fitted_curve_reads_its_values_within_2_percent(scatter_with_fit):
    conv, _ = scatter_with_fit
    rows = conv.figure.of_kind("chart")[0].spec["data"]["values"]
    curve = [(r["x"], r["y"]) for r in rows if r["fit"]]
    assert len(curve) >= 20
    assert min(x for x, _ in curve) <= 1.0 and max(x for x, _ in curve) >= 9.0  # it crosses the plot
    off = [abs(y - _curve(x)) for x, y in curve if 0.7 <= x <= 9.3]
    assert max(off) <= 0.02 * 5  # the y axis runs from -1 to 4


def test_the_scatter_keeps_its_points(scatter_with_fit):
    conv, truth = scatter_with_fit
    rows = conv.figure.of_kind("chart")[0].spec["data"]["values"]
    points = [(r["x"], r["y"]) for r in rows if not r["fit"]]
    # every marker standing clear of the others is read where it is drawn
    hit = sum(any(abs(px - x) <= 0.02 * 9 and abs(py - y) <= 0.02 * 5 for px, py in points) for x, y in truth)
    assert hit >= 0.85 * len(truth)


def test_a_line_with_markers_on_it_stays_one_line():
    """The guard: markers the line runs through are its vertices, no scatter beside a curve."""
    t = np.arange(0, 12)
    fig, ax = plt.subplots(figsize=(5, 3.2))
    ax.plot(t, np.sqrt(t), "--o", color="C2")
    conv = convert(_png(fig))
    spec = conv.figure.of_kind("chart")[0].spec
    assert spec["mark"]["type"] == "line"
    rows = spec["data"]["values"]
    assert all("fit" not in r for r in rows)
    assert len(rows) == 12 and all(abs(r["y"] - np.sqrt(r["x"])) <= 0.02 * 3.3 for r in rows)

