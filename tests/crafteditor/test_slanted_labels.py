"""Labels set at a slant (issue 31): a chart's 45° category labels, a layer's size along PlotNeuralNet's
diagonal, a message along a diagonal arrow. The detector's slanted box is read from a deskewed crop, the
label keeps its angle in the SVG, and a slanted reading never replaces an upright one of the same ink."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from crafteditor.convert import convert
from crafteditor.ocr.runs import TextRun, dedupe
from crafteditor.ocr.text_lines import slant_of
from crafter.spec.model import Text

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def _page(items: list[tuple[str, float, tuple[int, int]]]) -> bytes:
    """A white page with each (text, degrees counter-clockwise, top-left) drawn in 18 px DejaVu Sans."""
    font = ImageFont.truetype(FONT, 18)
    page = Image.new("RGB", (520, 420), "white")
    for text, deg, at in items:
        label = Image.new("RGB", (260, 40), "white")
        ImageDraw.Draw(label).text((10, 8), text, fill="black", font=font)
        label = label.rotate(deg, expand=True, fillcolor="white", resample=Image.BICUBIC)
        page.paste(label, at)
    buf = io.BytesIO()
    page.save(buf, format="PNG")
    return buf.getvalue()


@pytest.mark.parametrize("deg", [45, -45])
def test_a_label_drawn_at_45_degrees_reads_whole_with_its_angle(deg):
    conv = convert(_page([("Convolution layer", deg, (100, 60)), ("Upright title", 0, (120, 360))]), name="slant.png")
    texts = {c.text: c for c in conv.figure.components if isinstance(c, Text)}
    assert "Convolution layer" in texts and "Upright title" in texts
    # rising to the right is SVG's rotate(-45), falling rotate(45)
    assert texts["Convolution layer"].rotate == pytest.approx(-deg, abs=3)
    assert texts["Upright title"].rotate == 0
    assert 'transform="rotate(' in conv.svg


def test_slant_of_a_detector_box():
    rising = np.array([[100, 200], [200, 100], [210, 110], [110, 210]], np.float32)
    assert slant_of(rising) == pytest.approx(-45)
    falling = np.array([[420, 130], [560, 360], [548, 367], [408, 137]], np.float32)
    assert 55 <= slant_of(falling) <= 62
    level = np.array([[10, 10], [200, 14], [200, 34], [10, 30]], np.float32)
    assert slant_of(level) == 0
    square = np.array([[10, 20], [20, 10], [30, 20], [20, 30]], np.float32)  # a glyph or two: no line to follow
    assert slant_of(square) == 0


def _run(text: str, angle: float, conf: float, x: float, y: float, glyphs: np.ndarray) -> TextRun:
    h, w = glyphs.shape
    return TextRun(text=text, x=x, y=y, w=w, h=h, angle=angle, font_px=12.0, bold=False, color=(0, 0, 0),
                   confidence=conf, baseline=y + h, glyphs=glyphs)


def test_a_slanted_reading_never_replaces_an_upright_reading_of_the_same_ink():
    ink = np.zeros((20, 60), bool)
    ink[5:15, 2:58] = True
    upright = _run("label", 0.0, 0.80, 10, 10, ink)
    slanted = _run("lbael", -30.0, 0.99, 8, 8, np.pad(ink, 2))
    assert [r.text for r in dedupe([slanted, upright])] == ["label"]
    # one that only shares its upright box with an upright label, not its ink, stays beside it
    corner = np.zeros((40, 40), bool)
    corner[np.arange(40), np.arange(40)] = True
    beside = _run("diagonal", -45.0, 0.99, 10, 10, corner)
    other = _run("word", 0.0, 0.9, 40, 10, np.pad(np.ones((6, 8), bool), 1))
    assert sorted(r.text for r in dedupe([beside, other])) == ["diagonal", "word"]
