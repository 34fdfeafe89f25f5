"""Single-digit tick labels in small type at low resolution (issue 31): plotnine's theme_grey axis
text at 7 and 9 pt saved at 72 dpi. Its grey30 digits are anti-aliased to greys of 110..150 that
fill their 4x6 px boxes; with little or no text read by the detector they had failed the lone-glyph
pass's colour and marker gates, a '4' fell out of a glyph height pulled down by marks read as '>',
and a '3' with its tick mark above had been boxed as a sideways 'w−'."""

from __future__ import annotations

import numpy as np
import pytest
from mpl_helpers import gg_png

from crafteditor import convert
from crafteditor.realset import svg_words


@pytest.mark.parametrize("size", [7, 9])
def test_small_single_digit_tick_labels_at_72_dpi_are_all_read(size):
    gg = pytest.importorskip("plotnine")
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(0)
    x = rng.uniform(3, 7.5, 30)
    df = pd.DataFrame({"x": x, "y": 0.6 * x + rng.normal(0, 0.3, 30)})
    g = (gg.ggplot(df, gg.aes("x", "y")) + gg.geom_point()
         + gg.theme(figure_size=(4, 3), dpi=72, axis_text=gg.element_text(size=size)))
    conv = convert(gg_png(g, 72))
    words = svg_words(conv.svg)
    assert {"2", "3", "4", "5", "6", "7"} <= set(words)
    assert words["3"] >= 2 and words["4"] >= 2  # on both axes
    assert "w−" not in words


def test_pale_glyphs_are_kept_only_where_three_line_up_like_tick_labels():
    """Three pale glyphs on one row (top and height within a pixel) or one right-aligned column are
    tick labels; two are not; counted by keys, so a page of specks stays linear."""
    from crafteditor.ocr.lone_glyphs import _tick_rows

    row = [(10, 50, 4, 6, 1), (40, 51, 4, 6, 2), (70, 50, 4, 7, 3)]
    assert _tick_rows(row, []) == row
    assert _tick_rows(row[:2], []) == []
    assert _tick_rows(row[:2], [(100, 50, 5, 6, 9)]) == row[:2]  # a sure label on the row counts
    column = [(20, 10, 4, 6, 4), (19, 60, 5, 6, 5), (16, 110, 8, 6, 6)]  # right edges 24, 24, 24
    assert _tick_rows(column, []) == column
    specks = [(k % 300 * 7, k // 300 * 9 + (k % 3), 3, 5 + k % 2, k) for k in range(10000)]
    assert len(_tick_rows(specks, [])) == len(specks)  # a regular grid of specks lines up everywhere


def test_a_doubtful_sideways_run_two_glyphs_long_gives_way_to_an_upright_number(monkeypatch):
    """A tick label with its tick, boxed as a vertical line and read sideways as three glyphs ('=16'
    for a '5' upscaled as small print), is doubtful by its length (two upright glyphs at most), not
    only by its count of glyphs read: it gives way to the '5' the lone-glyph pass reads there."""
    from crafteditor.config import Config
    from crafteditor.ocr import read
    from crafteditor.ocr.runs import TextRun

    def run(text, x, y, w, h, angle, conf, source="det"):
        return TextRun(text=text, x=x, y=y, w=w, h=h, angle=angle, font_px=h, bold=False, color=(77, 77, 77),
                       confidence=conf, baseline=y + h, glyphs=np.ones((int(h), int(w)), bool), source=source)

    ticks = [run(d, 35 + 53 * k, 192, 4, 6, 0.0, 0.998) for k, d in enumerate("34")]
    sideways = run("=16", 141, 187, 3, 11, 90.0, 0.61)
    five = run("5", 141, 192, 3, 6, 0.0, 0.944, "glyph")
    seen = []

    def lone(rgb, paints, runs, engine, latin, config):
        seen.extend(runs)
        return [five]

    monkeypatch.setattr(read, "read_lone_glyphs", lone)
    out = read._with_lone_glyphs([*ticks, sideways], np.zeros((216, 288, 3), np.uint8), None, None, True, Config())
    assert not any(r is sideways for r in seen)  # its ink is left to the lone-glyph pass
    assert [r.text for r in out] == ["3", "4", "5"]
    long_run = run("=16", 141, 180, 3, 18, 90.0, 0.61)  # three glyphs read over three glyphs' length: kept
    out = read._with_lone_glyphs([*ticks, long_run], np.zeros((216, 288, 3), np.uint8), None, None, True, Config())
    assert any(r is long_run for r in out)
