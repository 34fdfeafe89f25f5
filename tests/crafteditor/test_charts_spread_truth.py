"""The spread charts' truth holds only what is drawn (``craftbench.makers.charts_spread``): the series' names and
the legend's title where a legend is, a subtitle where the maker drew one (matplotlib's scatter never does)."""

from __future__ import annotations

import pytest


def _draw(tmp_path, monkeypatch, kind: str, n: int, seed: int):
    pytest.importorskip("plotnine")
    from craftbench.makers import charts_spread

    plots, make_plot = [], charts_spread.make_plot
    monkeypatch.setattr(charts_spread, "make_plot", lambda rng, base: plots.append(make_plot(rng, base)) or plots[-1])
    return charts_spread.draw(tmp_path, n=n, seed=seed, kinds=(kind,)), plots


def test_a_ggplot2_scatter_drawn_without_a_legend_names_no_series(tmp_path, monkeypatch):
    records, plots = _draw(tmp_path, monkeypatch, "gg-scatter", 8, 4)
    hidden = 0
    for r, p in zip(records, plots):
        words = r["text"].split()
        if p.legend and all(v[0] == "" for v in r["values"]):  # legend_position = "none"
            hidden += 1
            assert not set(p.series) & set(words) and "group" not in words, (r["id"], r["text"])
        assert "Drawn" not in words  # ggplot2 draws its own subtitle only
    assert hidden


def test_a_matplotlib_scatter_has_no_subtitle_in_its_truth(tmp_path, monkeypatch):
    records, plots = _draw(tmp_path, monkeypatch, "mpl-scatter", 8, 1)
    assert any(p.title for p in plots)
    assert not any("at random" in r["text"] for r in records)
