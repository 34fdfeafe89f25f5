"""Large filled arrowheads on short stems between two wide boxes, as the MLP-Mixer figure draws them
(issue 31): each 19×28 px triangle was fitted as a polygon shape, taken out of the line ink, and the
arrows came back as stubs and loose triangles. A filled triangle standing alone (no stem) stays a
drawn polygon. Drawn here with PIL."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw, ImageFont

from crafteditor.config import Config
from crafteditor.convert import convert
from crafter.spec.model import Edge, Node

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
GREY = (94, 94, 94)


def _arrows(n: int = 5) -> bytes:
    img = Image.new("RGB", (820, 330), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 26)
    d.rounded_rectangle([40, 60, 700, 112], radius=8, fill=(229, 229, 229), outline="black", width=3)
    d.text((370, 86), "Global Average Pooling", fill="black", font=font, anchor="mm")
    d.rounded_rectangle([40, 165, 700, 277], radius=8, fill="white", outline="black", width=3)
    d.text((370, 221), "N x (Mixer Layer)", fill="black", font=font, anchor="mm")
    for i in range(n):
        x = 90 + 130 * i
        d.line([x, 163, x, 140], fill=GREY, width=3)  # a 23 px stem under a 28 px head
        d.polygon([(x - 9, 143), (x + 9, 143), (x, 115)], fill=GREY, outline=(30, 30, 30))
    d.polygon([(745, 230), (785, 230), (765, 190)], fill=GREY, outline=(30, 30, 30))  # alone: no head
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def test_big_heads_on_short_stems_are_arrows_between_the_boxes():
    fig = convert(_arrows(), Config()).figure
    labels = {c.id: c.label for c in fig.components if isinstance(c, Node)}
    pairs = [(labels.get(e.source), labels.get(e.target)) for e in fig.components if isinstance(e, Edge)]
    # (none before; the recogniser reads one such arrow here as a 'T', a text-stage matter). Side by side into
    # the same box they are one link, the other strands drawn as paths with their heads (assemble/bundles.py)
    assert pairs.count(("N x (Mixer Layer)", "Global Average Pooling")) == 1, pairs
    strands = [c for c in fig.components if c.kind == "path" and " Z" in c.d and float(c.d[1:].split(",")[0]) < 700]
    assert len(strands) >= 3, [c.d for c in fig.components if c.kind == "path"]
    # the triangle standing alone is still drawn, as a filled path
    assert any(c.kind == "path" and float(c.d[1:].split(",")[0]) > 700 for c in fig.components)
