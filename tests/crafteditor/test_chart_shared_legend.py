"""Facets under one legend (issue 31 round 22, mpl22): plotnine's facet_wrap, seaborn's FacetGrid and ggplot2 draw
the legend once, beside the last panel; every panel's series take its names (the others had read 'series 1',
'series 2', and their values were scored as no series of the truth)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from mpl_helpers import gg_png

from crafteditor import convert
from crafteditor.charts.component import ChartResult
from crafteditor.charts.shared_legend import name_from_shared_legend
from crafteditor.realset import score_values


def _result(names: list[str], colours: list[str]) -> ChartResult:
    rows = [{"x": x, "y": float(i + x), "series": n} for i, n in enumerate(names) for x in range(3)]
    spec = {"data": {"values": rows}, "encoding": {"color": {"field": "series", "scale": {"domain": names,
                                                                                          "range": colours}}}}
    return ChartResult(box=(0, 0, 1, 1), plot=(0, 0, 1, 1), mask=np.zeros((1, 1), bool), run_indices=[], spec=spec)


def test_unnamed_panels_take_the_names_of_the_legend_of_the_same_colours():
    left = _result(["series 1", "series 2"], ["#f8766d", "#00bfc4"])
    right = _result(["stim", "cue"], ["#00bec3", "#f8766e"])  # one legend, its colours a hair apart
    other = _result(["series 1", "series 2"], ["#000000", "#ff00ff"])  # colours no legend shows: left as read
    name_from_shared_legend([left, right, other])
    assert left.spec["encoding"]["color"]["scale"]["domain"] == ["cue", "stim"]
    assert {r["series"] for r in left.spec["data"]["values"]} == {"cue", "stim"}
    assert other.spec["encoding"]["color"]["scale"]["domain"] == ["series 1", "series 2"]


def test_plotnine_facets_read_every_panel_under_the_legends_names():
    from plotnine import aes, facet_wrap, geom_line, ggplot

    t = np.arange(0, 19)
    rows = [(x, ev, reg, (0.2 if ev == "stim" else 0.06) * (1.5 if reg == "parietal" else 1.0)
             * np.exp(-((x - 5) / 2.5) ** 2) - 0.02) for reg in ("frontal", "parietal") for ev in ("cue", "stim")
            for x in t]
    df = pd.DataFrame(rows, columns=["timepoint", "event", "region", "signal"])
    png = gg_png(ggplot(df, aes("timepoint", "signal", colour="event")) + geom_line() + facet_wrap("~region"), 150)
    conv = convert(png)
    assert len(conv.figure.of_kind("chart")) == 2
    truth = {"values": [[f"({'ab'[('frontal', 'parietal').index(reg)]}) {ev}", x, y]
                        for x, ev, reg, y in rows if x % 3 == 0]}
    assert score_values(conv.figure, truth) >= 0.9


def test_a_legend_with_an_unnamed_entry_still_names_the_panels():
    """seaborn's confidence band read as one more, unnamed series beside the legend's lines (round 23): the
    legend's named colours still name the other panels; the band's colour keeps its own name."""
    left = _result(["series 1", "series 2", "series 3"], ["#4c72b0", "#dd8452", "#f2d2c0"])
    right = _result(["stim", "cue", "series 3"], ["#4c72b0", "#dd8452", "#f2d2c0"])
    name_from_shared_legend([left, right])
    assert left.spec["encoding"]["color"]["scale"]["domain"][:2] == ["stim", "cue"]


def test_seaborn_facetgrid_at_talk_size_reads_both_panels():
    """At talk and poster sizes the next panel's first x label ('0') sits within reach of this panel's axis:
    '0 10 0' had fitted an x axis of 3.1 to 3.6 and every value of the figure was lost (3 of 3 looks at 0)."""
    import seaborn as sns

    t = np.arange(0, 19)
    rows = [(x, ev, reg, (0.2 if ev == "stim" else 0.06) * (1.5 if reg == "parietal" else 1.0)
             * np.exp(-((x - 5) / 2.5) ** 2) - 0.02) for reg in ("parietal", "frontal") for ev in ("stim", "cue")
            for x in t]
    df = pd.DataFrame(rows, columns=["timepoint", "event", "region", "signal"])
    with sns.plotting_context("talk"), sns.axes_style("whitegrid"):
        g = sns.relplot(df, x="timepoint", y="signal", hue="event", col="region", kind="line", height=3.5)
        import io

        import matplotlib.pyplot as plt
        buf = io.BytesIO()
        g.figure.savefig(buf, format="png", dpi=200)
        plt.close(g.figure)
    conv = convert(buf.getvalue())
    assert len(conv.figure.of_kind("chart")) == 2
    truth = {"values": [[f"({'ab'[('parietal', 'frontal').index(reg)]}) {ev}", x, y]
                        for x, ev, reg, y in rows if x % 3 == 0], "value_axis": [-0.05, 0.3]}
    assert score_values(conv.figure, truth) >= 0.9
