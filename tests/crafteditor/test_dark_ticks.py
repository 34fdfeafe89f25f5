"""One- and two-glyph tick labels on a dark page (issue 31): matplotlib's ``dark_background``
scatter. The detector saw the page light on black and missed most short tick labels ('2', '4',
'−2'), so the x axis read as categories and every value was lost (the drawn spread set's two
dark scatters read 0); it now sees a dark page inverted, dark on light as it was trained."""

from __future__ import annotations

import io

import numpy as np
from ce_helpers import figure_png
from PIL import Image

from crafteditor import convert
from crafteditor.config import Config
from crafteditor.ocr.read import read_text
from crafteditor.paint import find_paints, prepare
from crafteditor.realset import score_values


def _dark_scatter(dpi: int) -> np.ndarray:
    import matplotlib  # heavy: the test's own drawing

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # heavy: as above

    rng = np.random.default_rng(11)
    with plt.style.context("dark_background"):
        fig, ax = plt.subplots(figsize=(4.2, 4), dpi=dpi)
        ax.scatter(rng.uniform(-3, 8, 20), rng.uniform(5, 135, 20), s=25)
        ax.set_xlim(-4, 9)
        fig.tight_layout()
        buf = io.BytesIO()
        fig.savefig(buf, dpi=dpi, format="png")
        plt.close(fig)
    return np.asarray(Image.open(buf).convert("RGB"))


def test_one_glyph_tick_labels_on_a_dark_page_are_read():
    rgb = _dark_scatter(150)
    config = Config()
    runs = read_text(rgb, find_paints(prepare(rgb, config).copy(), config), config)
    texts = {r.text for r in runs}
    assert {"0", "2", "4", "6", "8", "20", "40", "60", "80"} <= texts, sorted(texts)


def test_a_pastel_series_on_a_dark_page_is_a_series_and_the_legend_fill_is_not():
    """dark_background's third colour, lavender (190, 186, 218), is as grey as a light label
    (sat 30): no mark paint, its points lost; and the legend's near-black fill (7, 7, 7) was one,
    and took the first entry's name. Each series keeps its legend name and its points."""
    import matplotlib  # heavy: the test's own drawing

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # heavy: as above

    rng = np.random.default_rng(3)
    truth = []
    with plt.style.context("dark_background"):
        fig, ax = plt.subplots(figsize=(4.5, 4), dpi=100)
        for name, lo in (("ResNet", 0), ("large", 30), ("Kyoto", 60)):
            xs, ys = rng.uniform(1, 13, 6), rng.uniform(lo, lo + 60, 6)
            ax.scatter(xs, ys, label=name, s=36)
            truth += [[name, float(x), float(y)] for x, y in zip(xs, ys)]
        ax.legend(loc="upper left")
        ax.set_ylim(-10, 150)
        fig.tight_layout()
        png = figure_png(fig)
    conv = convert(png)
    assert score_values(conv.figure, {"values": truth, "value_axis": [-10, 150]}) >= 0.8
