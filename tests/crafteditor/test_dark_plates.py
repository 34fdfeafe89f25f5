"""A dark theme's edge labels (issue 31, the real set's G_daedalus_state-machine: Mermaid's dark
theme exported with a transparent page and viewed on white): a grey label plate on the edge, its
antialiased rim read as a light outline. The plate is no node: the edge runs on through it and
the label names the edge."""

from __future__ import annotations

import numpy as np
from ce_helpers import edge_pairs, png_bytes
from PIL import Image, ImageDraw, ImageFont

from crafteditor.config import Config
from crafteditor.convert import convert
from crafter.spec.model import Edge, Node

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def dark_theme_png() -> bytes:
    """Two near-black rounded boxes with light names, a light grey arrow down from one to the
    other, and a grey plate with light text 'next task' on the arrow's middle."""
    img = Image.new("RGB", (520, 620), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 30)
    light, line = (230, 230, 230), (204, 204, 204)
    for y, name in ((40, "planning"), (480, "executing")):
        d.rounded_rectangle([140, y, 380, y + 100], radius=8, fill=(31, 32, 32), outline=(204, 204, 204), width=2)
        tw = d.textlength(name, font=font)
        d.text((260 - tw / 2, y + 32), name, fill=light, font=font)
    d.line([(260, 140), (260, 470)], fill=line, width=3)
    d.polygon([(260, 478), (250, 460), (270, 460)], fill=line)
    # the label's plate, unoutlined: its antialiased rim (a fractional position) a lighter grey
    d.rectangle([174, 274, 346, 331], fill=(200, 200, 200))
    d.rectangle([175, 275, 345, 330], fill=(88, 88, 88))
    tw = d.textlength("next task", font=font)
    d.text((260 - tw / 2, 284), "next task", fill=light, font=font)
    return png_bytes(np.asarray(img))


def test_a_dark_label_plate_labels_its_edge():
    fig = convert(dark_theme_png(), Config()).figure
    assert edge_pairs(fig) == {("planning", "executing"): 1}
    labels = [c.label for c in fig.components if isinstance(c, Node)]
    assert "next task" not in labels, labels
    assert [e.label for e in fig.components if isinstance(e, Edge)] == ["next task"]
