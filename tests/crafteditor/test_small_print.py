"""Small print is looked for (issue 31): in a figure set in small print the text regions the
detector runs on take in dark glyphs a pixel shorter than its typical glyph, so a panel's 7 px axis
titles, whose lower-case letters are 4-6 px tall, are read and not left out of every region. The
crop is the lower-left panel of the dev figure B_tuning_playbook_stride-instability (CC-BY-4.0,
crops/README.md): its 'Global Step', 'Train Loss' and '2.8×10⁰' ticks had never been read."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
from PIL import Image

from crafteditor.config import Config
from crafteditor.ocr.read import read_text
from crafteditor.paint import find_paints, prepare

CROP = Path(__file__).parent / "crops" / "tuning_playbook_small_print.png"


def test_a_panels_small_print_is_read():
    rgb = np.asarray(Image.open(CROP).convert("RGB"))
    config = Config()
    texts = [r.text for r in read_text(rgb, find_paints(prepare(rgb, config).copy(), config, None), config)]
    assert "Global Step" in texts, texts
    assert "Train Loss" in texts, texts  # the y title, read bottom to top
    assert sum("×" in t for t in texts) >= 6, texts  # the y tick labels '2.8×10⁰'…, their superscripts aside


def test_a_scatters_dots_do_not_make_normal_print_small():
    """Hundreds of 5 px markers outnumber the letters: the small-print floor is judged on the letters,
    so a scatter set in 10 px type keeps the normal floor and its tiles (it had gone to the detector whole)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from ce_helpers import figure_png

    from crafteditor.text_regions import SHORTEST_GLYPH, dark_components, find_text_regions, typical_glyph_height

    rng = np.random.RandomState(0)
    fig, ax = plt.subplots(figsize=(6, 4), dpi=100)
    ax.scatter(rng.rand(300), rng.rand(300), s=8, color="black")
    ax.set_xlabel("Training steps per second")
    ax.set_ylabel("Validation accuracy")
    ax.set_title("Throughput against accuracy")
    gray = np.asarray(Image.open(io.BytesIO(figure_png(fig))).convert("L"))
    dark = dark_components(gray)
    assert typical_glyph_height(dark) < SHORTEST_GLYPH <= typical_glyph_height(dark, letters_only=True)
    assert find_text_regions(gray, dark) is not None


def test_normal_print_keeps_the_glyph_floor():
    """A figure in 11 px type keeps :data:`SHORTEST_GLYPH`: lowered everywhere, the floor had changed the
    tiles of 44 dev figures and cut long lines at the new tiles' edges ('LogicManager' as 'LogicM' 'lanager')."""
    from PIL import ImageDraw, ImageFont

    from crafteditor.text_regions import SHORTEST_GLYPH, dark_components, typical_glyph_height

    img = Image.new("L", (640, 200), 255)
    d = ImageDraw.Draw(img)
    font = ImageFont.load_default(size=15)
    for k in range(4):
        d.text((20, 20 + 40 * k), "LogicManager calls the ParserFactory and returns results", fill=0, font=font)
    g = typical_glyph_height(dark_components(np.asarray(img)), letters_only=True)
    assert g is not None and g >= SHORTEST_GLYPH
