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
