"""Small print is looked for (issue 31): the text regions the detector runs on take in dark glyphs
down to 5 px long, so a panel's 7 px axis title, whose lower-case letters are 4-6 px tall, is read
and not left out of every region, and a title is not cut at its small letters. The crop is the
lower-left panel of the dev figure B_tuning_playbook_stride-instability (CC-BY-4.0, crops/README.md):
'Global Step' had never been read, and its title had come back as 'Training' and 'rning rate'."""

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
    assert "Training at learning rate: 0.001" in texts, texts
    assert sum("×" in t for t in texts) >= 6, texts  # the y tick labels '2.8×10⁰'…, their superscripts aside
