"""A second ``fill_between`` band seen only through the first (charts24): matplotlib's gallery
``fill_between_alpha`` look, two random walkers' mean ± sd at alpha 0.3, the second band lying
inside the first. What shows of the second band is its colour laid over the first band's tint
(orange over pale blue: tan), the largest paint of the plot; the lines, under an eighth of it,
had been dropped as fringes and no chart was read."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from mpl_helpers import mpl_png as _png  # noqa: E402

from crafteditor import convert  # noqa: E402


def test_a_band_inside_another_band_leaves_both_lines_read():
    t = np.arange(40)
    mu1, sd1 = 0.004 * t, 0.02 + 0.006 * t
    mu2, sd2 = 0.002 * t, 0.01 + 0.003 * t
    fig, ax = plt.subplots(figsize=(5, 4))
    ax.plot(t, mu1, lw=2, label="mean population 1")
    ax.plot(t, mu2, lw=2, label="mean population 2")
    ax.fill_between(t, mu1 + sd1, mu1 - sd1, facecolor="C0", alpha=0.3)
    ax.fill_between(t, mu2 + sd2, mu2 - sd2, facecolor="C1", alpha=0.3)
    ax.legend(loc="upper left")
    ax.set_xlabel("num steps")
    ax.set_ylabel("position")
    charts = convert(_png(fig)).figure.of_kind("chart")
    assert charts, "no chart read"
    spec = charts[0].spec
    assert spec["encoding"]["color"]["scale"]["domain"] == ["mean population 1", "mean population 2"]
    for name, mu in (("mean population 1", mu1), ("mean population 2", mu2)):
        rows = [r for r in spec["data"]["values"] if r.get("series") == name]
        assert len(rows) >= 2 and max(r["x"] for r in rows) - min(r["x"] for r in rows) >= 30
        assert all(abs(r["y"] - float(np.interp(r["x"], t, mu))) <= 0.02 * 0.4 for r in rows)
