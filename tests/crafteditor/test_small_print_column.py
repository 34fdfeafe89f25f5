"""Small print upscaled for the text detector (issue 31): a wide Mermaid flowchart shrunk to a
README's 830 px column and screenshotted at 1× has 4 px glyphs; the detector saw them at 2× (the
old bound for a small image) and left labels undetected. The fixture beside its source
(``tests/crafteditor/mermaid/flowchart_column_1x.*``) was drawn by ``craftbench makers mermaid-wild``
(seed 1, its figure mw_022)."""

from __future__ import annotations

from pathlib import Path

from crafteditor.convert import convert
from crafteditor.ocr.text_lines import DETECT_GLYPH_HEIGHT, MAX_DETECT_PIXELS, scale_at
from crafteditor.realset import svg_word_list

FIXTURE = Path(__file__).parent / "mermaid" / "flowchart_column_1x.png"


def test_a_column_screenshots_small_labels_are_read():
    words = svg_word_list(convert(FIXTURE, name="flowchart_column_1x").svg)
    assert "delete" in words and "order" in words, words  # 'Delete order' went undetected at 2×
    assert words.count("input") >= 2, words  # 'Error reject input', 'customer input'


def test_small_print_is_upscaled_until_the_detector_sees_it():
    assert scale_at((178, 862), 4.0) * 4.0 >= DETECT_GLYPH_HEIGHT  # was 2×: 8 px glyphs (then 2.5×: 10 px)
    assert scale_at((178, 862), 9.0) == DETECT_GLYPH_HEIGHT / 9.0  # normal print: as it was
    assert scale_at((178, 862), None) == 2.0


def test_the_upscaling_is_bounded_in_pixels():
    for shape in ((1500, 2600), (600, 4000)):
        s = scale_at(shape, 4.0)
        assert s * s * shape[0] * shape[1] <= MAX_DETECT_PIXELS * 1.001 or s == 1.0


def test_seven_pixel_glyphs_keep_the_old_scale():
    """Raised for 7 px glyphs, a sequence diagram's bold notes were split where they cross its
    coloured lifeline bands: only small print (6 px at most) is upscaled past the old bounds."""
    assert abs(scale_at((720, 903), 7.0) - 736 / 720) < 1e-6
    assert scale_at((1200, 1600), 7.0) == 1.0
