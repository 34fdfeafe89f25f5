"""Small print is looked for (issue 31): in a figure set in small print the text regions the
detector runs on take in dark glyphs a pixel shorter than its typical glyph, so a panel's 7 px axis
titles, whose lower-case letters are 4-6 px tall, are read and not left out of every region. The
crop is the lower-left panel of the dev figure B_tuning_playbook_stride-instability (CC-BY-4.0,
crops/README.md): its 'Global Step', 'Train Loss' and '2.8×10⁰' ticks had never been read."""

from __future__ import annotations

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
