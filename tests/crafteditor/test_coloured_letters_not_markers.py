"""A few pixels of a vivid paint are a series of markers where they make three or more round dots of one size
(:func:`crafteditor.charts.mark_paints.few_markers`); the round letters of a small coloured label (a, c, e, o
fill 0.4-0.55 of their box, as a ring dot does) are set in a row, letter-spaced, and stay text."""

from __future__ import annotations

import numpy as np
import pytest

from crafteditor.charts.mark_paints import few_markers

RED = (214, 39, 40)


def _paint_of(word: str, size: int) -> np.ndarray:
    """The pixels a paint takes of ``word`` drawn red at ``size`` px (its anti-aliased shades nearer red than white)."""
    matplotlib = pytest.importorskip("matplotlib")
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(matplotlib.get_data_path() + "/fonts/ttf/DejaVuSans.ttf", size)
    im = Image.new("RGB", (200, 40), "white")
    ImageDraw.Draw(im).text((5, 5), word, fill=RED, font=font)
    return np.abs(np.asarray(im).astype(int) - np.array(RED)).sum(axis=2) < 200


@pytest.mark.parametrize(("word", "size"), [("see", 10), ("see", 16), ("ooo", 11), ("oeaoe", 16)])
def test_a_small_coloured_word_of_round_letters_is_no_markers(word, size):
    assert not few_markers(_paint_of(word, size), RED)


def test_scattered_dots_and_spaced_markers_in_a_row_are_markers():
    m = np.zeros((120, 200), bool)
    for y, x in [(10, 20), (60, 90), (95, 150), (30, 170)]:
        m[y:y + 5, x:x + 5] = True
    assert few_markers(m, RED)
    m = np.zeros((40, 200), bool)
    for x in (20, 50, 80, 110):  # a flat series' markers, three widths apart
        m[10:15, x:x + 5] = True
    assert few_markers(m, RED)
