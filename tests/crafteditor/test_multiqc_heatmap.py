"""A sample-to-sample distance heatmap drawn as MultiQC draws it: row labels right of the cells,
column labels at 45° hanging from the columns, the colour bar right of the row labels, no
numbers in the cells. It had not been read as a chart at all (the reader looked for its row
labels on the left and level column labels, and for the bar just right of the cells)."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from mpl_helpers import mpl_png as _png  # noqa: E402

from crafteditor import convert  # noqa: E402

SAMPLES = ["GM_R1", "GM_R2", "H1_R1", "H1_R2", "K5_R1", "K5_R2"]


@pytest.fixture(scope="module")
def distances():
    rng = np.random.default_rng(4)
    pts = rng.normal(size=(6, 3)) * 120 + np.repeat(rng.normal(size=(3, 3)) * 200, 2, axis=0)
    d = np.linalg.norm(pts[:, None] - pts[None], axis=2)
    d = np.round(d / d.max() * 480)
    fig, ax = plt.subplots(figsize=(5.6, 4.6))
    im = ax.imshow(d, cmap="RdYlBu", vmin=0, vmax=500)
    ax.set_xticks(range(6), SAMPLES, rotation=45, ha="right", rotation_mode="anchor")
    ax.set_yticks(range(6), SAMPLES)
    ax.yaxis.tick_right()
    fig.colorbar(im, ax=ax, pad=0.2, ticks=[0, 100, 200, 300, 400, 500])
    return d, convert(_png(fig))


def test_a_heatmap_labelled_right_and_at_45_degrees_is_read_off_its_colour_bar(distances):
    d, conv = distances
    charts = conv.figure.of_kind("chart")
    assert len(charts) == 1
    spec = charts[0].spec
    assert spec["encoding"]["y"]["sort"] == SAMPLES and spec["encoding"]["x"]["sort"] == SAMPLES
    got = {(r["y"], r["x"]): r["value"] for r in spec["data"]["values"]}
    assert len(got) == 36
    off = [abs(got[(a, b)] - d[i, j]) for i, a in enumerate(SAMPLES) for j, b in enumerate(SAMPLES)]
    assert max(off) <= 0.02 * 500
    # the colour bar drawn back with the ticks it was drawn with
    ticks = spec["layer"][0]["encoding"]["color"]["legend"]["values"]
    assert len(ticks) >= 4 and set(ticks) <= {0, 100, 200, 300, 400, 500}  # (a lone '0' OCR may miss)
