"""Chart classes of round 11 (issue 31): the failing groups' kinds drawn over a page's spread
(craftbench.makers.charts_spread): ggplot2's small points at low dpi, whose dots have no flat colour,
and an axis fitted through one far-off misread label."""

from __future__ import annotations

import numpy as np
import pytest
from mpl_helpers import gg_png

from crafteditor import convert
from crafteditor.charts.axes import fit_axis
from crafteditor.realset import score_values
from crafter.spec import Chart


def _clusters(seed: int) -> list[tuple[str, float, float]]:
    rng = np.random.default_rng(seed)
    rows = []
    for j, s in enumerate(["north", "south", "east"]):
        for _ in range(15):
            rows.append((s, round(float(3 * j + rng.normal(0, 1.5)), 2), round(float(0.2 + 0.25 * j + rng.normal(0, 0.1)), 3)))
    return rows


def test_ggplot2_small_translucent_points_on_a_wide_page_are_a_scatter_of_each_series():
    """``geom_point(alpha = 0.7)`` (1.5 mm) on theme_minimal, a page 11 inches wide: each dot is a
    3×3 core of a dozen shades and no flat colour, none with a paint's share of the page's pixels:
    no paint was found in the plot and the scatter was no chart. Their shades together are a paint
    each, its specks no dots."""
    gg = pytest.importorskip("plotnine")
    import pandas as pd

    rows = _clusters(5)
    df = pd.DataFrame(rows, columns=["s", "x", "y"])
    g = (gg.ggplot(df, gg.aes("x", "y", color="s")) + gg.geom_point(alpha=0.7) + gg.theme_minimal()
         + gg.labs(x="Dose", y="Loss") + gg.theme(figure_size=(11, 7.5), dpi=72, legend_position="none"))
    conv = convert(gg_png(g, 72))
    charts = [c for c in conv.figure.components if isinstance(c, Chart)]
    assert len(charts) == 1 and charts[0].spec["mark"]["type"] == "point"
    assert len({r.get("series") for r in charts[0].spec["data"]["values"]}) == 3
    ys = [y for _, _, y in rows]
    truth = {"values": [["", x, y] for _, x, y in rows[::3]], "value_axis": [min(ys) - 0.05, max(ys) + 0.05]}
    assert score_values(conv.figure, truth) >= 0.8


def test_one_far_off_misread_label_does_not_pull_the_axis():
    """'0.75' read '0 75' (its point lost in small type) over 0.50, 0.25, 0.00: a line through 75
    leaves its worst residual on 0.50, and dropping that one had fitted an axis from 75 to -15."""
    axis = fit_axis([(117.0, "0 75"), (233.5, "0.50"), (350.0, "0.25"), (466.5, "0.00")])
    assert axis is not None
    assert abs(axis.value(466.5)) < 0.005 and abs(axis.value(117.0) - 0.75) < 0.005


def test_a_far_off_merged_label_is_dropped_before_the_misread_ones():
    """Vega-Lite's crowded binned axis, half its labels lost: '13.0' and '14.0' read as one run, 13014,
    and '10.0' read 100. The line through all of them leaves its worst residual on the 7.0 between the
    found ones (the fit by that residual dropped 13014, then 7.0, and ran 2 … 5); the reading farthest
    off the line through the others goes first: 13014, then 100."""
    pos = [0, 1, 2, 3, 4, 7, 10, 13]
    texts = ["0.0", "1.0", "2.0", "3.0", "4.0", "7.0", "100", "13014"]
    axis = fit_axis([(40.0 + 39.3 * p, t) for p, t in zip(pos, texts)])
    assert axis is not None
    assert abs(axis.value(40.0 + 39.3 * 2) - 2.0) < 0.05 and abs(axis.value(40.0 + 39.3 * 7) - 7.0) < 0.05


def test_a_misread_end_label_is_dropped_not_the_good_one_beside_it():
    """0, 25, 50 and '75' read 7.5: in the span of the others, leaving out the 50 (whose absence
    narrows that span to 0 … 25) had looked the farthest off, and the 50 was dropped."""
    axis = fit_axis([(400.0, "0"), (300.0, "25"), (200.0, "50"), (100.0, "7.5")])
    assert axis is not None
    assert abs(axis.value(400.0)) < 0.05 and abs(axis.value(100.0) - 75.0) < 0.05


@pytest.mark.slow  # four makers started (Deno for vl-convert): about 10 s
def test_the_spread_maker_draws_each_failing_kind_with_its_truth(tmp_path):
    """``craftbench makers charts-spread``: one figure of each kind, its file there, its truth whole."""
    pytest.importorskip("altair")
    pytest.importorskip("vl_convert")
    pytest.importorskip("plotnine")
    from craftbench.makers.charts_spread import SPREAD_KINDS, draw

    records = draw(tmp_path, n=len(SPREAD_KINDS), seed=2)
    assert [r["group"] for r in records] == list(SPREAD_KINDS)
    for r in records:
        assert (tmp_path / r["file"].split("/", 1)[1]).stat().st_size > 1000
        assert r["kind"] == "chart" and len(r["values"]) >= 3 and len(r["value_axis"]) == 2
