"""Icons kept as pictures (issue 31, round 22): a cloud architecture's pictograms with their names under
them (drawn here with PIL), and with the real set present the dev figures whose logos in tiles and discs
were gone or traced to blobs. A user opening the SVG finds each icon as one picture where it was drawn,
and the node still named."""

from __future__ import annotations

import re

import numpy as np
import pytest
from ce_helpers import png_bytes
from conftest import REAL_MANIFEST
from PIL import Image, ImageDraw, ImageFont

from crafteditor.config import Config
from crafteditor.convert import convert
from crafteditor.realset import load_real, score_real
from crafter.spec.model import Node

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def _labels(fig) -> list[str]:
    return sorted(" ".join(c.label.split()) for c in fig.components if isinstance(c, Node) and c.label and c.label.strip())


def _images_in(fig, x0: float, y0: float, x1: float, y1: float) -> list:
    return [c for c in fig.components if c.kind == "image" and x0 - 3 <= c.box.x and c.box.x + c.box.w <= x1 + 3
            and y0 - 3 <= c.box.y and c.box.y + c.box.h <= y1 + 3]


def _captioned() -> bytes:
    """Two pictograms in several colours and strokes with their names under them, an arrow between."""
    im = Image.new("RGB", (620, 240), "white")
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(FONT, 15)
    for k, name in enumerate(("Web Client", "Orders DB")):
        x = 100 + k * 300
        if k == 0:  # a monitor: screen, stand and foot
            d.rectangle((x, 60, x + 56, 96), fill=(60, 60, 60))
            d.rectangle((x + 5, 65, x + 51, 91), fill=(120, 190, 240))
            d.rectangle((x + 24, 97, x + 32, 108), fill=(60, 60, 60))
            d.rectangle((x + 12, 109, x + 44, 114), fill=(60, 60, 60))
        else:  # a database: stacked discs
            for j in range(3):
                d.ellipse((x + 4, 60 + j * 16, x + 52, 78 + j * 16), fill=(40, 150, 220), outline="white", width=2)
        d.text((x + 28, 128), name, fill=(30, 30, 30), font=font, anchor="mt")
    d.line((170, 88, 382, 88), fill="black", width=2)
    d.polygon([(392, 88), (380, 82), (380, 94)], fill="black")
    return png_bytes(np.asarray(im))


def test_a_captioned_icon_is_one_picture():
    fig = convert(_captioned(), Config(quality=False)).figure
    assert {"Web Client", "Orders DB"} <= set(_labels(fig)), _labels(fig)
    assert len(_images_in(fig, 395, 55, 462, 120)) == 1, [c.box for c in fig.components if c.kind == "image"]
    # its pieces are in the picture, not traced again over it
    assert not [c.d for c in fig.components if c.kind == "path" and _within(c.d, 398, 55, 460, 120)]


def _within(d: str, x0: float, y0: float, x1: float, y1: float) -> bool:
    v = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", d)]
    xs, ys = v[0::2], v[1::2]
    return bool(xs) and x0 <= min(xs) and max(xs) <= x1 and y0 <= min(ys) and max(ys) <= y1


@pytest.mark.parametrize("fid, pictures, nodes", [("C_nodejs-microservices_architecture", 0.99, 0.99),
                                                  ("C_serverless-chat-langchainjs_architecture", 0.6, 0.8),
                                                  ("C_clab-io-draw_modern-dark", 0.5, 0.9)])
def test_real_icons_kept_as_pictures(real_set, fid, pictures, nodes):
    """Logos in tiles (Azure's), on navy squares (a network's routers) and over captions: kept as pictures."""
    figs = [f for f in load_real(real_set, "dev", manifest=REAL_MANIFEST) if f.id == fid]
    if not figs:
        pytest.skip(f"{fid} is not in the real set's dev split")
    conv = convert(figs[0].path.read_bytes(), Config(quality=False), name=fid)
    sc = score_real(conv.figure, conv.svg, figs[0].truth)
    assert sc["images"] >= pictures and sc["nodes"] >= nodes, (fid, sc)
