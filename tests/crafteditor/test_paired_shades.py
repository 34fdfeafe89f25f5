"""Light and dark shades of one hue are two series where each has dots of its own (ColorBrewer's
Paired, tab20): a paler shade of a paint found is merged into it only where it lies on that paint's
dots (their anti-aliased rim, or a core within their ring)."""

from __future__ import annotations

import numpy as np
import pytest
from mpl_helpers import gg_png, read_rows

from crafteditor import convert


def test_a_paired_scatter_of_small_dots_keeps_its_light_series():
    """ggplot2's 1.5 mm points at 72 dpi (no flat colour): thirty dark blue (31, 120, 180) dots and
    twelve light blue (166, 206, 227) ones, a blend of the dark blue and white. The light dots were
    taken for the dark ones' paler shade and the light series was lost."""
    gg = pytest.importorskip("plotnine")
    import pandas as pd

    rng = np.random.default_rng(5)
    rows = [(s, round(float(3 * j + rng.normal(0, 1.5)), 2), round(float(0.2 + 0.25 * j + rng.normal(0, 0.1)), 3))
            for j, s in enumerate(["control", "treated"]) for _ in range(30 if j == 0 else 12)]
    df = pd.DataFrame(rows, columns=["s", "x", "y"])
    g = (gg.ggplot(df, gg.aes("x", "y", color="s")) + gg.geom_point() + gg.theme_minimal()
         + gg.scale_color_manual(values=["#1f78b4", "#a6cee3"]) + gg.labs(x="Dose", y="Loss")
         + gg.theme(figure_size=(11, 7.5), dpi=72, legend_position="none"))
    _, read = read_rows(convert(gg_png(g, 72)))
    by = {}
    for s, _, y in read:
        by.setdefault(s, []).append(y)
    assert len(by) == 2
    light = min(by.values(), key=len)
    assert len(light) >= 10 and abs(float(np.mean(light)) - float(np.mean([y for s, _, y in rows if s == "treated"]))) < 0.1
