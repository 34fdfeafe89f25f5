"""A chart's marks come back as thick as they were drawn: a line's stroke width and a scatter's
marker size read from the paint's pixels plus the anti-aliased edge the paint leaves out (the
lines had come back half as thick, the markers a fifth smaller, and the redrawn chart looked
thinner than the original)."""

import numpy as np
import pytest
from mpl_helpers import mpl_png, plt, read_rows

from crafteditor import convert
from crafteditor.charts.lines import drawn_marker_area, stroke_width

DPI_SCALE = 96 / 150  # mpl_png saves at 150 dpi; the figure's px are 1/96 in


def _stroke(pt: float):
    fig, ax = plt.subplots(figsize=(5, 3.4))
    x = np.linspace(0, 10, 11)
    ax.plot(x, 2 + np.sin(x / 2) * 3, color="#1f77b4", lw=pt, label="a")
    ax.plot(x, 8 - 0.5 * x, color="#d62728", lw=pt, label="b")
    ax.set_ylim(-2, 10)
    return convert(mpl_png(fig))


@pytest.mark.parametrize("pt", [1.5, 3.0])
def test_line_redrawn_as_thick_as_drawn(pt):
    spec, rows = read_rows(_stroke(pt))
    drawn = pt / 72 * 150 * DPI_SCALE
    assert spec["mark"]["type"] == "line" and len({r[0] for r in rows}) == 2
    assert spec["mark"]["strokeWidth"] == pytest.approx(drawn, rel=0.15)


def test_scatter_markers_redrawn_their_size():
    fig, ax = plt.subplots(figsize=(5, 3.4))
    rng = np.random.default_rng(3)
    ax.scatter(rng.uniform(0, 10, 25), rng.uniform(0, 10, 25), s=50, color="#2ca02c", linewidths=0)
    spec, rows = read_rows(convert(mpl_png(fig)))
    drawn = np.pi * (np.sqrt(50) / 72 * 150 / 2) ** 2 * DPI_SCALE ** 2  # s is the marker's area in pt²
    assert spec["mark"]["type"] == "point" and len(rows) >= 20
    assert spec["mark"]["size"] == pytest.approx(drawn, rel=0.15)


def test_stroke_width_counts_the_anti_aliased_edge_not_a_snapped_lines():
    """A level band 3 px thick in its paint is 3 px wide where the line was snapped to the pixel
    grid (no edge), 4 px where a half-covered pixel row runs along each side."""
    m = np.zeros((40, 400), bool)
    m[18:21] = True
    cover = np.zeros(m.shape)
    assert stroke_width(m, cover) == pytest.approx(3.0, abs=0.1)
    cover[17] = cover[21] = 0.5
    assert stroke_width(m, cover) == pytest.approx(4.0, abs=0.1)
    assert stroke_width(np.zeros((5, 5), bool), cover[:5, :5]) == 1.0


def test_marker_area_grows_by_its_edge():
    core = np.pi * 4.0 ** 2
    assert drawn_marker_area(core) == pytest.approx(np.pi * 4.4 ** 2)
