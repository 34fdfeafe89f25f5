"""Shapes real figures draw that Crafter's own proportions do not (issue 31): trapezoids of any
slant (ML encoders and decoders), reproduced on figures drawn here with PIL."""

from __future__ import annotations

import numpy as np
import pytest
from ce_helpers import png_bytes
from PIL import Image, ImageDraw, ImageFont

from crafteditor.config import Config
from crafteditor.convert import convert
from crafteditor.realset import svg_words

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
INK = (30, 60, 120)


def _encoder_decoder(narrow: float) -> bytes:
    """An encoder narrowing to the right (its narrow side ``narrow`` of the wide one), a box, a
    decoder widening again, arrows between them, and a pooling trapezoid narrow on top."""
    im = Image.new("RGB", (900, 420), "white")
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(FONT, 20)
    inset = 240 * (1 - narrow) / 2
    d.polygon([(60, 80), (240, 80 + inset), (240, 320 - inset), (60, 320)], fill=(214, 230, 244), outline=INK, width=3)
    d.text((80, 188), "Encoder", fill=(20, 20, 20), font=font)
    d.rectangle((360, 160, 500, 240), fill=(250, 235, 200), outline=(120, 80, 20), width=3)
    d.text((395, 188), "Latent", fill=(20, 20, 20), font=font)
    d.polygon([(620, 80 + inset), (800, 80), (800, 320), (620, 320 - inset)], fill=(244, 214, 214),
              outline=(120, 30, 30), width=3)
    d.text((660, 188), "Decoder", fill=(20, 20, 20), font=font)
    for x0, x1 in ((245, 352), (505, 612)):
        d.line((x0, 200, x1 - 8, 200), fill=(40, 40, 40), width=3)
        d.polygon([(x1, 200), (x1 - 14, 193), (x1 - 14, 207)], fill=(40, 40, 40))
    d.polygon([(380, 300), (480, 300), (520, 380), (340, 380)], fill=(225, 240, 220), outline=(40, 100, 40), width=3)
    d.text((400, 330), "Pool", fill=(20, 20, 20), font=font)
    return png_bytes(np.asarray(im))


@pytest.mark.parametrize("narrow", [0.4, 0.6, 0.8])
def test_trapezoids_become_trapezoid_nodes_with_their_labels(narrow):
    conv = convert(_encoder_decoder(narrow), Config(quality=False))
    nodes = {c.label: c for c in conv.figure.components if c.kind == "node"}
    assert nodes["Encoder"].shape == "trapezoid_right"
    assert nodes["Decoder"].shape == "trapezoid_left"
    assert nodes["Pool"].shape == "trapezoid"
    assert nodes["Latent"].shape == "box"
    edges = {(c.source, c.target) for c in conv.figure.components if c.kind == "edge"}
    assert edges == {(nodes["Encoder"].id, nodes["Latent"].id), (nodes["Latent"].id, nodes["Decoder"].id)}
    # no stray diagonals: the slanted sides are the nodes' own
    assert not [c for c in conv.figure.components if c.kind == "path"]
    assert all(svg_words(conv.svg)[w] == 1 for w in ("encoder", "decoder", "latent", "pool"))
