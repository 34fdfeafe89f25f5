"""Review of round 19: the 'o' ending a word on a slanted line stays an 'o' (no subscript zero)."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from crafteditor.ocr.scripts import find_shifts

DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def _line(glyphs: list[tuple[str, float, float]], px: int, slope: float) -> tuple[np.ndarray, list[float]]:
    """An upright mask of ``glyphs`` (character, size in ems, drop below the baseline in ems) set along a baseline
    that sinks ``slope`` px a px to the right (a hand-drawn label a few degrees off level), and their centres."""
    img = Image.new("L", (int(px * 0.8 * len(glyphs)) + 20, int(px * (2.5 + slope * len(glyphs)))), 0)
    draw = ImageDraw.Draw(img)
    x, centres = 4.0, []
    base = ImageFont.truetype(DEJAVU, px).getmetrics()[0]
    for ch, em, drop in glyphs:
        font = ImageFont.truetype(DEJAVU, max(1, round(px * em)))
        y = 4 + base - font.getmetrics()[0] + drop * px + slope * (x - 4)
        draw.text((x, y), ch, fill=255, font=font)
        box = draw.textbbox((x, y), ch, font=font)
        centres.append((box[0] + box[2]) / 2)
        x += font.getlength(ch)
    return np.asarray(img) > 128, centres


@pytest.mark.parametrize("word", ["Demo", "Video", "Logo"])
@pytest.mark.parametrize("px", [14, 20, 30])
def test_a_words_last_o_on_a_slanted_line_is_no_subscript_zero(word, px):
    """A line 4° off level sinks 0.07 px a px: the last 'o' of 'Demo' lay 0.08 em under the line's middle and read
    as a subscript zero ('Dem₀'); it sinks with its neighbours, and the line through them passes under it."""
    mask, centres = _line([(ch, 1.0, 0.0) for ch in word], px, 0.07)
    read = find_shifts(word, centres, mask, 0)
    assert read is None or "0" not in read[0], read


@pytest.mark.parametrize("px", [14, 20, 30])
def test_a_subscript_zero_read_as_o_after_its_letter_is_still_a_zero(px):
    """q₀ set level (TeX's script zero: 0.7 of the size, 0.15 em down) still reads as a subscript zero."""
    mask, centres = _line([("q", 1.0, 0.0), ("0", 0.7, 0.15)], px, 0.0)
    read = find_shifts("qo", centres, mask, 0)
    assert read is not None and read[:2] == ("q0", ["", "sub"]), read


def test_a_box_plots_short_boxes_with_outliers_past_their_whiskers_stay_boxes():
    """A heavy tail squeezes a box plot's boxes to a marker's height, whiskers and all (values near 100, outliers near
    1000 on a 300 px axis): its outliers, read as points, lie past the whiskers, and the boxes are real; hollow markers
    read as boxes have one of them inside each box."""
    from crafteditor.charts.axes import Axis
    from crafteditor.charts.cartesian import _markers_as_boxes
    from crafteditor.charts.series import Series

    yaxis = Axis(a=1000.0, b=-10 / 3)  # value 0 at row 300, 1000 at row 0
    boxes = [(c, [85.0, 97.0, 101.0, 106.0, 112.0], None) for c in "ABC"]  # 8 px whisker to whisker
    outliers = Series(color=(0, 0, 0), kind="point", points=[(c, v) for c in "ABC" for v in (1000.0, 1030.0)],
                      marker_areas=[38.0] * 6)  # 7 px circles
    assert not _markers_as_boxes(boxes, [outliers], yaxis)
    rings = Series(color=(0, 0, 0), kind="point", points=[(c, 99.0) for c in "ABC"], marker_areas=[38.0] * 3)
    assert _markers_as_boxes(boxes, [rings], yaxis)


@pytest.mark.parametrize(("px", "word"), [(9, "5y"), (9, "8y"), (13, "5y"), (13, "8y"), (16, "6y"), (11, "9g")])
def test_a_chart_labels_digit_over_a_lower_letter_stays_a_digit(px, word):
    """A digit over a glyph hanging lower ('5y', '8y': a bond chart's tenors, in DejaVu Sans) is weighed against the
    italic letters as what was read: it had read 'sy', 'ey' (the lead of z_1 read '2' is CM's italic z still)."""
    from crafteditor.ocr.math_letters import crop_ink, glyph_groups, read_math_lead

    img = Image.new("RGB", (12 + px * len(word), px + 12), "white")
    ImageDraw.Draw(img).text((4, 2), word, fill="black", font=ImageFont.truetype(DEJAVU, px))
    bgr = np.asarray(img)[:, :, ::-1].copy()
    centres = [(a + b) / 2 for a, b, _ in glyph_groups(crop_ink(bgr))]
    assert len(centres) == len(word)
    assert read_math_lead(word, 0.97, centres, bgr)[0] == word


@pytest.mark.parametrize("px", [16, 24, 32])
def test_a_letter_over_its_subscript_digit_keeps_its_case(px):
    """z₁: the subscript 1 (0.7 of the size, 0.15 em down) is no cap height to size the z against: it had read 'Z1'.
    A digit standing level with the letter still is ('Z1', 'z1' set level keep their cases)."""
    from crafteditor.ocr.corrections import restore_case

    mask, centres = _line([("z", 1.0, 0.0), ("1", 0.7, 0.15)], px, 0.0)
    assert restore_case("z1", centres, mask, 0) == "z1"
    mask, centres = _line([("Z", 1.0, 0.0), ("1", 1.0, 0.0)], px, 0.0)
    assert restore_case("z1", centres, mask, 0) == "Z1"
    mask, centres = _line([("z", 1.0, 0.0), ("1", 1.0, 0.0)], px, 0.0)
    assert restore_case("Z1", centres, mask, 0) == "z1"
