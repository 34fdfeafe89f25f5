"""Two runs read as one (a split subscript's minus, a rotated title's two halves, an underscore) keep
every glyph pixel of both, each where it was (crafteditor.ocr.runs.joined_glyphs)."""

from __future__ import annotations

import numpy as np

from crafteditor.ocr.runs import TextRun, joined_glyphs


def _run(x: float, y: float, glyphs: np.ndarray) -> TextRun:
    h, w = glyphs.shape
    return TextRun(text="a", x=x, y=y, w=w, h=h, angle=0.0, font_px=10.0, bold=False, color=(0, 0, 0),
                   confidence=0.9, baseline=y + h, glyphs=glyphs)


def test_both_runs_glyphs_land_where_they_were():
    a = _run(10.0, 20.0, np.eye(4, 6, dtype=bool))
    b = _run(18.4, 21.6, np.ones((3, 2), bool))
    out = joined_glyphs((a, b), 10.0, 20.0, b.x + 2, 24.0)
    assert out.shape == (4, 11)
    assert np.array_equal(out[:, :6], np.eye(4, 6, dtype=bool))
    assert out[2:5, 8:10].all() and out.sum() == 4 + 2 * 2  # b's rows clipped at the box's bottom


def test_a_run_starting_before_the_box_is_cut_at_its_edge():
    """A run whose ink box starts half a pixel above or left of the joined box (rounded to -1) keeps its
    glyphs where they were, cut at the box's edge: a negative offset used as a slice start counted from the
    far end and pasted nothing (or a wrong strip)."""
    g = np.zeros((4, 5), bool)
    g[1, :] = True  # a bar on the run's second row
    g[:, 2] = True  # a stem in its third column
    a = _run(9.4, 19.4, g)  # rounds to offset (-1, -1) in the box from (10, 20)
    out = joined_glyphs((a,), 10.0, 20.0, 16.0, 25.0)
    assert out.shape == (5, 6)
    assert out[0, :4].all()  # the bar, now on the box's first row, its first column cut off
    assert out[:3, 1].all() and out[3:, 1].sum() == 0  # the stem, one column left, its top row cut off
    assert out.sum() == 4 + 2
