"""Text drawn back where, and as large and as wide as, it was drawn (issue 31, round 19): a label comes back
as wide as its ink (a line the renderer's DejaVu Sans sets narrower or wider than its face is letter-spaced
to it), a label in DejaVu at its height and on its baseline. Labels drawn here with PIL, a character at a time."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from crafteditor.convert import convert
from crafteditor.ocr.font_metrics import fitted_spacing, ink_width_em
from crafteditor.ocr.runs import TextRun
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


def _boxes(drawn, i):
    original, ours, _ = drawn
    y = LABELS[i][2]
    band = slice(y - 12, y + SIZE + 14)
    return _ink_box(original[band]), _ink_box(ours[band])


@pytest.mark.parametrize("i", range(len(LABELS)))
def test_a_label_comes_back_as_wide_as_it_was_drawn(drawn, i):
    (ox0, _, ox1, _), (rx0, _, rx1, _) = _boxes(drawn, i)
    assert abs((rx1 - rx0) / (ox1 - ox0) - 1) <= 0.03 and abs(rx0 - ox0) <= 2.5


def test_a_label_in_the_renderer_s_face_comes_back_at_its_height_and_on_its_baseline(drawn):
    (_, oy0, _, oy1), (_, ry0, _, ry1) = _boxes(drawn, 2)
    assert abs((ry1 - ry0) / (oy1 - oy0) - 1) <= 0.10 and abs(ry1 - oy1) <= 1.5


@pytest.mark.xfail(strict=True, reason="sized by its width (font_metrics.size_and_weight_from_width), a label in a "
                   "face 6 % wider or narrower than DejaVu Sans comes back 10-12 % taller or shorter; drawing it at its "
                   "height's size lowered dev's SSIM (round 19: hand lettering is sized by its width on purpose)")
@pytest.mark.parametrize("i", [0, 1])
def test_a_label_in_a_wider_or_narrower_face_comes_back_at_its_height(drawn, i):
    (_, oy0, _, oy1), (_, ry0, _, ry1) = _boxes(drawn, i)
    assert abs((ry1 - ry0) / (oy1 - oy0) - 1) <= 0.10


def test_labels_read_as_drawn_and_one_in_the_renderer_s_face_is_not_spaced(drawn):
    *_, conv = drawn
    texts = {c.text: c for c in conv.figure.components if isinstance(c, Text)}
    assert set(texts) == {t for t, _, _ in LABELS}  # the words read are the words drawn
    assert texts["Encoder output"].letter_spacing is None


def _run(text: str, ink_w: int, font_px: float, **kw) -> TextRun:
    glyphs = np.zeros((20, ink_w), bool)
    glyphs[5:15, [0, ink_w - 1]] = True
    return TextRun(text=text, x=10.0, y=10.0, w=float(ink_w), h=20.0, angle=0.0, font_px=font_px, bold=False,
                   color=(0, 0, 0), confidence=0.9, baseline=25.0, glyphs=glyphs, **kw)


def test_a_run_wider_than_its_reading_set_in_dejavu_is_spaced_to_its_ink():
    """A face 20 % wider than DejaVu Sans (the width's size was refused as too far from the height's)."""
    drawn_w = ink_width_em("Transformer", False) * 20
    run = _run("Transformer", round(drawn_w * 1.2), 20.0)
    spacing = run.spacing_at(20.0)
    assert spacing == pytest.approx((round(drawn_w * 1.2) - 0.45 - drawn_w) / 10)
    assert _run("Transformer", round(drawn_w * 1.2), 20.0, font="serif").spacing_at(20.0) is None  # DejaVu Sans' widths only


def test_fitted_spacing_spreads_the_difference_between_the_characters():
    drawn_w = ink_width_em("encoder", False) * 20
    assert fitted_spacing("encoder", drawn_w * 1.01, 20, False) is None  # near enough
    assert fitted_spacing("encoder", drawn_w * 1.6, 20, False) is None  # not this reading's ink
    assert fitted_spacing("encoder", drawn_w * 0.7, 20, False) is None  # its letters would run together
    assert fitted_spacing("ab", drawn_w, 20, False) is None  # too short to tell
    assert fitted_spacing("encoder", drawn_w + 12, 20, False) == pytest.approx(2.0)


def test_a_line_narrower_than_dejavu_sets_it_keeps_its_letters_apart():
    """A condensed face 18 % narrower than DejaVu is set closer by at most 0.05 em a character (DejaVu's letters
    stand 0.125 em apart at the median): 'Service' and 'Source: R Graphics' had run their letters together."""
    drawn_w = ink_width_em("Service", True) * 20
    assert fitted_spacing("Service", drawn_w * 0.96, 20, True) == pytest.approx(-drawn_w * 0.04 / 6)
    assert fitted_spacing("Service", drawn_w * 0.82, 20, True) == pytest.approx(-1.0)  # 0.05 em at 20 px


def test_letter_spacing_is_kept_through_the_dsl_and_drawn_in_the_svg():
    fig = Figure(components=[Text(kind="text", id="t1", text="wide & set", at=Point(x=80, y=20), letter_spacing=1.5)])
    assert parse_dsl(print_dsl(fig)).components[0].letter_spacing == 1.5
    svg = figure_to_svg(fig)
    assert 'letter-spacing="1.5"' in svg and "wide &amp; set" in svg
