"""A recurrent cell's gates as TikZ draws them (nntikz's GRU, issue 31): circles holding a lone × or
+ (read at 0.53 and 0.82, under the lone-glyph gate, so the circles came back empty) and a σ in a
box smaller than the node size at the figure's dpi (its box was dropped, the σ left as loose text
and the arrows to it unattached). Drawn here with PIL; the figure claims 300 dpi, as a TikZ PNG does."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from crafteditor.config import Config
from crafteditor.convert import convert
from crafteditor.ocr.operators import operator_shaped
from crafter.spec.model import Node

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
SERIF = "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Italic.ttf"


def _png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="PNG", dpi=(300, 300))
    return buf.getvalue()


def _gates() -> bytes:
    img = Image.new("RGB", (760, 300), "white")
    d = ImageDraw.Draw(img)
    big, glyph = ImageFont.truetype(FONT, 40), ImageFont.truetype(FONT, 36)
    for i, op in enumerate(["×", "+", "×"]):
        cx, cy = 150 + 230 * i, 150
        d.line([cx + 28, cy, cx + 202, cy], fill="black", width=4) if i < 2 else None
        d.ellipse([cx - 28, cy - 28, cx + 28, cy + 28], fill=(202, 202, 202), outline="black", width=2)
        d.text((cx, cy), op, fill="black", font=glyph, anchor="mm")
    for i, word in enumerate(["Input", "Output"]):  # tall labels: the page's glyphs are large
        d.text((60 + 560 * i, 40), word, fill="black", font=big)
    return _png(img)


def test_circled_operators_are_read_as_node_labels():
    fig = convert(_gates(), Config()).figure
    labels = sorted(c.label for c in fig.components if isinstance(c, Node) and c.shape == "circle")
    assert labels.count("×") + labels.count("+") >= 2, labels


def test_an_operator_shape_is_told_from_a_letter():
    img = Image.new("L", (40, 40), 0)
    d = ImageDraw.Draw(img)
    d.text((20, 20), "×", fill=255, font=ImageFont.truetype(FONT, 30), anchor="mm")
    assert operator_shaped(np.asarray(img) > 128)
    img = Image.new("L", (40, 40), 0)
    ImageDraw.Draw(img).text((20, 20), "k", fill=255, font=ImageFont.truetype(FONT, 30), anchor="mm")
    assert not operator_shaped(np.asarray(img) > 128)


def test_only_a_lone_times_or_plus_reading_is_raised_as_an_operator():
    from crafteditor.ocr.operators import OPERATOR_SCORE, sure_operator

    img = Image.new("L", (40, 40), 0)
    ImageDraw.Draw(img).text((20, 20), "+", fill=255, font=ImageFont.truetype(FONT, 30), anchor="mm")
    plus = np.asarray(img) > 128
    assert sure_operator("+", 0.2, plus) == OPERATOR_SCORE
    for text in ("", "×+", "x"):  # nothing read, two glyphs, a letter: as read
        assert sure_operator(text, 0.2, plus) == 0.2, text


def test_a_small_box_around_a_sigma_is_a_node():
    img = Image.new("RGB", (560, 260), "white")
    d = ImageDraw.Draw(img)
    glyph = ImageFont.truetype(SERIF, 30)
    for i in range(3):
        x = 80 + 170 * i
        d.rectangle([x, 110, x + 40, 156], outline="black", width=2)  # 40 px: under 14 pt at 300 dpi
        d.text((x + 20, 133), "σ" if i != 1 else "a", fill="black", font=glyph, anchor="mm")
        d.line([x + 20, 20, x + 20, 108], fill="black", width=5)
        d.line([x + 20, 158, x + 20, 240], fill="black", width=5)
    for i, word in enumerate(["update", "reset", "state"]):  # the page's labels, as tall as the glyphs
        d.text((110 + 170 * i, 60), word, fill="black", font=ImageFont.truetype(SERIF, 28))
    fig = convert(_png(img), Config()).figure
    boxes = [c for c in fig.components if isinstance(c, Node) and c.shape == "box"]
    assert len(boxes) >= 2 and sum(c.label in ("σ", "a") for c in boxes) >= 2, [(c.shape, c.label) for c in boxes]
