"""A legend right of a framed plot whose right edge was found a few pixels inside the frame (at
the last gridline, short of it: ggplot2's theme_bw expands the panel past its last break). The
frame's own columns had been taken for the next plot's axis, which cut the column right of the
plot off before the legend, and the series came back unnamed ('series 1', 'series 2')."""

import pytest
from mpl_helpers import gg_png

from crafteditor import convert


def test_flipped_bars_keep_the_names_of_a_legend_right_of_a_theme_bw_frame():
    gg = pytest.importorskip("plotnine")
    import pandas as pd

    cats = ["gamma", "north", "Lima", "LAMB", "pear"]
    adam, valid = [0.868, 0.382, 0.878, 0.217, 0.413], [0.477, 0.96, 0.369, 0.447, 0.287]
    df = pd.DataFrame([(c, "Adam", v) for c, v in zip(cats, adam)] + [(c, "valid", v) for c, v in zip(cats, valid)],
                      columns=["x", "series", "y"])
    df["x"] = pd.Categorical(df.x, categories=cats)
    g = (gg.ggplot(df, gg.aes(x="x", y="y", fill="series")) + gg.geom_col(position="dodge") + gg.coord_flip()
         + gg.theme_bw() + gg.labs(x="Epoch", y="Time (s)", fill="") + gg.theme(figure_size=(7.2, 4), dpi=100))
    conv = convert(gg_png(g, 100))
    spec = conv.figure.of_kind("chart")[0].spec
    rows = spec["data"]["values"]
    assert {r.get("series") for r in rows} == {"Adam", "valid"}
    got = {(r["series"], r["x"] if isinstance(r["x"], str) else r["y"]): r for r in rows}
    assert len(got) == 10
