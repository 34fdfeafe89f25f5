"""Text drawn back where, and as large and as wide as, it was drawn (issue 31, round 19): a label set in
a face wider or narrower than the renderer's DejaVu Sans comes back letter-spaced to its ink's width,
at its cap height and on its baseline. Labels drawn here with PIL, a character at a time."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from crafteditor.convert import convert
from crafteditor.ocr.font_metrics import fitted_spacing, ink_width_em
from crafteditor.quality import render_aligned
from crafter.render import figure_to_svg
from crafter.spec.dsl import parse_dsl, print_dsl
from crafter.spec.model import Figure, Point, Text

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
SIZE = 26
LABELS = (("feature maps", 1.2, 40), ("Attention scores", -1.5, 110), ("Encoder output", 0.0, 180))  # (text, tracking px, top)


def _ink_box(gray: np.ndarray) -> tuple[int, int, int, int]:
    ys, xs = np.nonzero(gray < 128)
    return int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max())


@pytest.fixture(scope="module")
def drawn():
    """Three labels: one tracked 1.2 px wider than DejaVu Sans sets it (about 6 %), one 1.5 px closer, one as set."""
    font = ImageFont.truetype(FONT, SIZE)
    im = Image.new("RGB", (640, 240), "white")
    d = ImageDraw.Draw(im)
    for text, tracking, y in LABELS:
        x = 40.0
        for ch in text:
            d.text((x, y), ch, font=font, fill="black")
            x += font.getlength(ch) + tracking
    buf = io.BytesIO()
    im.save(buf, format="PNG", dpi=(96, 96))
    conv = convert(buf.getvalue(), name="spaced.png")
    img = conv.vectorized.image
    ours = render_aligned(conv.figure, img.dpi, (img.height, img.width), conv.svg)
    return np.asarray(im.convert("L")), np.asarray(Image.fromarray(ours).convert("L")), conv


@pytest.mark.parametrize("i", range(len(LABELS)))
def test_a_label_comes_back_as_wide_as_tall_and_where_it_was_drawn(drawn, i):
    original, ours, _ = drawn
    y = LABELS[i][2]
    band = slice(y - 12, y + SIZE + 14)
    ox0, oy0, ox1, oy1 = _ink_box(original[band])
    rx0, ry0, rx1, ry1 = _ink_box(ours[band])
    assert abs((rx1 - rx0) / (ox1 - ox0) - 1) <= 0.03  # the line's width
    assert abs((ry1 - ry0) / (oy1 - oy0) - 1) <= 0.10  # its height: caps to descenders
    assert abs(ry1 - oy1) <= 1.5 and abs(rx0 - ox0) <= 2.5  # on its baseline, from its left end


def test_only_a_label_off_the_renderer_s_width_is_spaced(drawn):
    *_, conv = drawn
    texts = {c.text: c for c in conv.figure.components if isinstance(c, Text)}
    assert set(texts) == {t for t, _, _ in LABELS}  # the words read are the words drawn
    assert texts["feature maps"].letter_spacing > 0 and texts["Attention scores"].letter_spacing < 0
    assert texts["Encoder output"].letter_spacing is None
    assert conv.svg.count("letter-spacing=") == 2


def test_fitted_spacing_spreads_the_difference_between_the_characters():
    drawn_w = ink_width_em("encoder", False) * 20
    assert fitted_spacing("encoder", drawn_w * 1.01, 20, False) is None  # near enough
    assert fitted_spacing("encoder", drawn_w * 1.6, 20, False) is None  # not this reading's ink
    assert fitted_spacing("ab", drawn_w, 20, False) is None  # too short to tell
    assert fitted_spacing("encoder", drawn_w + 12, 20, False) == pytest.approx(2.0)


def test_letter_spacing_is_kept_through_the_dsl_and_drawn_in_the_svg():
    fig = Figure(components=[Text(kind="text", id="t1", text="wide & set", at=Point(x=80, y=20), letter_spacing=1.5)])
    assert parse_dsl(print_dsl(fig)).components[0].letter_spacing == 1.5
    svg = figure_to_svg(fig)
    assert 'letter-spacing="1.5"' in svg and "wide &amp; set" in svg
