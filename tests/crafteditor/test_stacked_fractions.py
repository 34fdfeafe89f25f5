"""A TeX stacked fraction (F over its rule over N) read as one sideways line 'FN' (issue 31): the words F and
N were lost and the fraction was drawn turned 90°. Its parts, read upright by the lone-glyph pass one
above the other with the rule between them, now stand in its place. On a crop of the dev figure
G_diagrams_thermo-ensemble-trafos (crops/README.md)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from crafteditor.config import Config
from crafteditor.convert import convert
from crafteditor.ocr.read import longest_run

CROP = Path(__file__).parent / "crops" / "thermo_stacked_fractions.png"


def test_a_stacked_fraction_reads_upright_numerator_over_denominator():
    fig = convert(CROP.read_bytes(), Config()).figure
    texts = [c for c in fig.components if c.kind in ("text", "node")]
    words = [(getattr(c, "text", None) or getattr(c, "label", None), getattr(c, "rotate", None)) for c in texts]
    assert not any(w and w.replace(" ", "") == "FN" for w, _ in words), words
    f = [c for c in texts if getattr(c, "text", None) == "F"]
    n = [c for c in texts if getattr(c, "text", None) == "N" and f and abs(c.at.x - f[0].at.x) < 10]
    assert f and n and n[0].at.y > f[0].at.y, words  # the numerator above its denominator, upright
    assert not f[0].rotate and not n[0].rotate


def test_longest_run_is_the_longest_row_of_ink():
    m = np.zeros((3, 9), bool)
    m[0, 1:3] = m[1, 2:8] = m[2, 0] = True
    assert longest_run(m) == 6
    assert longest_run(np.zeros((2, 4), bool)) == 0
