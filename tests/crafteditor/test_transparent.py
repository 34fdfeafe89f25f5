"""Transparent figures (PNG with alpha, a tRNS key colour, a palette with transparent entries)
are read as a figure on a page: on white, or on a dark page when their ink is drawn for one."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from crafteditor import load_image
from crafteditor.config import Config
from crafteditor.convert import convert
from crafteditor.loading import DARK_PAGE
from crafteditor.realset import svg_words

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def _png(im: Image.Image, **kw) -> bytes:
    buf = io.BytesIO()
    im.save(buf, "PNG", **kw)
    return buf.getvalue()


def _boxes(mode: str, page, ink, text_ink=None) -> Image.Image:
    """Two labelled boxes and an arrow, drawn in ``ink`` on a ``page`` that is to be transparent."""
    im = Image.new(mode, (420, 160), page)
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(FONT, 20)
    for x, word in ((30, "Encoder"), (260, "Decoder")):
        d.rectangle((x, 50, x + 130, 110), outline=ink, width=3)
        d.text((x + 22, 68), word, fill=text_ink or ink, font=font)
    d.line((160, 80, 250, 80), fill=ink, width=3)
    d.polygon([(258, 80), (244, 73), (244, 87)], fill=ink)
    return im


@pytest.mark.parametrize("case", ["rgba", "rgb_key", "grey_key", "palette", "grey_alpha"])
def test_transparent_pixels_are_the_white_page(case):
    if case == "rgba":
        data = _png(_boxes("RGBA", (0, 0, 0, 0), (30, 60, 120, 255)))
    elif case == "rgb_key":  # tRNS: black is transparent, the ink is blue
        data = _png(_boxes("RGB", (0, 0, 0), (30, 60, 120)), transparency=(0, 0, 0))
    elif case == "grey_key":
        data = _png(_boxes("L", 0, 90), transparency=0)
    elif case == "palette":
        im = _boxes("RGB", (0, 0, 0), (30, 60, 120)).quantize(4)
        black = int(np.asarray(im)[0, 0])
        data = _png(im, transparency=black)
    else:
        data = _png(_boxes("LA", (0, 0), (40, 255)))
    img = load_image(data)
    assert img.had_alpha
    assert tuple(img.rgb[2, 2]) == (255, 255, 255)  # the page, not the transparent pixels' colour
    assert img.rgb[50:53, 30:160].mean() < 200  # the ink is kept


def test_light_ink_drawn_for_a_dark_page_is_read_on_a_dark_page():
    data = _png(_boxes("RGBA", (255, 255, 255, 0), (255, 255, 255, 255)))
    img = load_image(data)
    assert "#%02X%02X%02X" % tuple(img.rgb[2, 2]) == DARK_PAGE
    conv = convert(data, Config(quality=False))
    words = svg_words(conv.svg)
    assert words["encoder"] and words["decoder"]
    assert sum(c.kind == "node" for c in conv.figure.components) == 2


def test_a_transparent_diagram_converts_like_an_opaque_one():
    data = _png(_boxes("RGBA", (0, 0, 0, 0), (30, 60, 120, 255), text_ink=(20, 20, 20, 255)))
    conv = convert(data, Config(quality=False))
    words = svg_words(conv.svg)
    assert words["encoder"] and words["decoder"]
    assert sum(c.kind == "node" for c in conv.figure.components) == 2
    assert any(c.kind == "edge" for c in conv.figure.components)
