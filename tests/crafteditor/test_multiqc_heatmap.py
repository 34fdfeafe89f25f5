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


def test_the_heatmap_is_drawn_back_with_its_row_labels_and_colour_bar_right_of_the_cells(distances):
    """The reader says where the labels were (Vega-Lite's axis.orient, labelAngle, legend orient)
    and the SVG drawn back puts them there: row labels right of the cells, the bar beyond them."""
    import re

    from defusedxml import ElementTree as ET

    _, conv = distances
    spec = conv.figure.of_kind("chart")[0].spec
    assert spec["encoding"]["y"]["axis"]["orient"] == "right"
    assert spec["encoding"]["x"]["axis"]["labelAngle"] == pytest.approx(-45, abs=10)
    assert spec["layer"][0]["encoding"]["color"]["legend"]["orient"] == "right"
    root = ET.fromstring(conv.svg)
    groups = {el.get("id", ""): el for el in root.iter() if el.tag.endswith("}g") or el.tag == "g"}
    cell = next(el for el in root.iter() if el.get("data-crafter-plot"))
    x, _, w, _ = (float(v) for v in cell.get("data-crafter-plot").split())
    ylab = next(g for i, g in groups.items() if i.endswith("axis-y-labels"))
    xs = [float(t.get("x")) for t in ylab.iter() if t.tag.endswith("text")]
    assert len(xs) == 6 and min(xs) > x + w
    legend = next(g for i, g in groups.items() if i.endswith("-legend"))
    bar = next(el for el in legend.iter() if el.tag.endswith("rect"))
    assert float(bar.get("x")) > max(xs) + 20  # beyond the row labels ('GM_R1' is wider than 20 px)
    assert re.search(r'transform="rotate\(-4\d', ET.tostring(groups[next(i for i in groups if i.endswith("axis-x-labels"))],
                                                              encoding="unicode"))
