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
from crafter.formats.raster import svg_to_png

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


def test_boxes_drawn_to_the_edges_of_a_transparent_figure_stay_on_its_page():
    """Filled boxes with dark outlines that touch the image's edges (a Graphviz/draw.io export cropped
    tight): their outlines own most of the border band, yet the transparent page is what they sit on.
    The background had been voted from the border and the figure came back on black."""
    im = Image.new("RGBA", (560, 160), (255, 255, 255, 0))
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(FONT, 18)
    for x0, y0, word in ((0, 0, "Dense mark"), (300, 0, "Eager span"), (0, 110, "Heap bitmap"), (300, 110, "Sweep free")):
        d.rounded_rectangle((x0, y0, x0 + 259, y0 + 49), radius=6, fill=(201, 218, 248, 255), outline=(0, 0, 0, 255),
                            width=2)
        d.text((x0 + 40, y0 + 14), word, fill=(0, 0, 0, 255), font=font)
    for x in (130, 430):
        d.line((x, 50, x, 104), fill=(0, 0, 0, 255), width=2)
        d.polygon([(x, 109), (x - 6, 97), (x + 6, 97)], fill=(0, 0, 0, 255))
    img = load_image(_png(im))
    assert img.page == (255, 255, 255)
    conv = convert(img, Config(quality=False))
    words = svg_words(conv.svg)
    assert words["dense"] and words["sweep"]
    nodes = [c for c in conv.figure.components if c.kind == "node"]
    assert len(nodes) == 4
    # drawn back on the white page: the gap between the boxes is white, not black
    drawn = np.asarray(Image.open(io.BytesIO(svg_to_png(conv.svg))).convert("RGB").resize((560, 160)))
    assert drawn[75:85, 200:240].min() > 230 and drawn[140:150, 270:290].min() > 230


def test_a_half_clear_canvas_is_the_page_it_shows():
    """A canvas washed over with a half-clear dark tint (an Excalidraw dark-theme export at a third opacity)
    flattens to grey, and that grey is the page: white strokes on it are ink. The page had been taken as the
    white it was flattened onto, the strokes read as page and the canvas as ink, and every arrow was lost."""
    im = _boxes("RGBA", (84, 84, 84, 85), (255, 255, 255, 255))
    img = load_image(_png(im))
    grey = tuple(int(v) for v in img.rgb[2, 2])
    assert img.page == grey and 190 <= grey[0] <= 205
    conv = convert(img, Config(quality=False))
    assert sum(c.kind == "node" for c in conv.figure.components) == 2
    assert any(c.kind == "edge" for c in conv.figure.components)


def test_a_half_clear_panel_over_most_of_a_clear_canvas_is_no_page():
    """A translucent panel over three quarters of a transparent canvas: the clear canvas round it shows,
    so the page is the white it is flattened onto, not the panel's tint (which held over half the
    see-through pixels, and had been taken as the page)."""
    im = Image.new("RGBA", (400, 300), (255, 255, 255, 0))
    d = ImageDraw.Draw(im)
    d.rectangle((0, 0, 399, 224), fill=(40, 90, 160, 90))
    d.rectangle((60, 60, 200, 120), fill=(255, 255, 255, 255), outline=(0, 0, 0, 255), width=2)
    img = load_image(_png(im))
    assert img.page == (255, 255, 255)
