"""Small print read with its faint strokes (issue 31): at 6–7 px glyphs an 'i' is one pixel wide and
anti-aliased to about half the ink's contrast, under the glyph mask's threshold; painted out of the
recogniser's crop, cluster-api's state diagram screenshotted at half size read 'Machne', 'wth',
'provder'. The crop ``crops/cluster_api_running_note.png`` is cut from the dev figure
``G_cluster-api_machine-phases`` (see ``crops/README.md``) and halved as a 1× screenshot would be."""

from __future__ import annotations

import io
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from crafteditor.conditions import apply_condition
from crafteditor.ocr.engine import REC_WORD_WIDTH, get_engine
from crafteditor.ocr.text_lines import SMALL_LINE, TextLine, line_crops, line_jobs

CROP = Path(__file__).parent / "crops" / "cluster_api_running_note.png"


def _readings(rgb: np.ndarray) -> list[str]:
    engine = get_engine()
    jobs = line_jobs(rgb, cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), engine)
    return [r[0] for r in engine.recognize([job[1][0][0] for job in jobs], True, REC_WORD_WIDTH)]


def test_half_size_notes_keep_their_is():
    rgb = np.array(Image.open(io.BytesIO(apply_condition(CROP.read_bytes(), "half")[0])).convert("RGB"))
    text = " ".join(_readings(rgb))
    assert "Machine.Provider" in text, text  # was 'Machane.ProviderD'
    assert "Node with" in text, text
    assert "Machine controller" in text, text


def _line(strong_cols: list[int], faint_col: int, h: int = 7) -> tuple[np.ndarray, TextLine]:
    region = np.full((h + 6, 40, 3), 250, np.uint8)
    mask = np.zeros((h, 30), bool)
    for c in strong_cols:
        region[3:3 + h, 5 + c] = 40
        mask[:, c] = True
    region[5:3 + h, 5 + faint_col] = 150  # a one-pixel stem at half the ink's contrast
    return region, TextLine(mask=mask, y0=3, x0=5, vertical=False)


def test_a_small_lines_faint_stem_stays_in_the_crop():
    region, line = _line([2, 3, 20, 21], 11)
    crop = line_crops(region, line, np.array([250, 250, 250], np.uint8))[0][0]
    pad = (crop.shape[0] - line.mask.shape[0]) // 2
    assert crop[pad + 3, pad + 11].max() < 200  # kept, not painted over


def test_normal_print_crops_are_as_they_were():
    region, line = _line([2, 3, 20, 21], 11, h=SMALL_LINE + 4)
    crop = line_crops(region, line, np.array([250, 250, 250], np.uint8))[0][0]
    pad = (crop.shape[0] - line.mask.shape[0]) // 2
    assert crop[pad + 3, pad + 11].min() == 250  # painted over as before: only small print changes
