"""A connector cut by its own label ('Yes' in a gap of the line, only a short stub and the head
past it) joins the two boxes, labelled, not the first box to the text (issue 31, net11:
java-design-patterns' state flowchart lost its branches 'State A', 'State B' and 'Yes')."""

from __future__ import annotations

import numpy as np
from ce_helpers import edge_pairs
from PIL import Image, ImageDraw, ImageFont

from crafteditor.config import Config
from crafteditor.convert import convert
from crafter.spec.model import Edge

PAGE, LINE, INK = (240, 244, 247), (120, 136, 150), (46, 61, 75)


def _branches() -> np.ndarray:
    """Two boxes on top, one each below; each pair joined by a vertical connector whose label
    sits in a gap 24 px above the lower box, past which a 10 px stub and a head reach it."""
    im = Image.new("RGB", (520, 420), PAGE)
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype("DejaVuSans.ttf", 15)
    for cx, (top, bottom, word) in zip((130, 390), (("Check", "Act", "Yes"), ("Wait", "Stop", "No"))):
        for y, name in ((40, top), (290, bottom)):
            d.rounded_rectangle([cx - 90, y, cx + 90, y + 80], radius=4, fill=(213, 231, 247), outline=(44, 136, 217),
                                width=2)
            d.text((cx, y + 40), name, fill=INK, font=font, anchor="mm")
        d.line([(cx, 120), (cx, 236)], fill=LINE, width=4)
        d.text((cx, 250), word, fill=INK, font=font, anchor="mm")
        d.line([(cx, 264), (cx, 276)], fill=LINE, width=4)
        d.polygon([(cx - 7, 276), (cx + 7, 276), (cx, 286)], fill=LINE)
    return np.asarray(im)


def test_a_label_in_its_line_does_not_end_it():
    fig = convert(_branches(), Config(quality=False)).figure
    assert edge_pairs(fig) == {("Check", "Act"): 1, ("Wait", "Stop"): 1}
    labels = sorted(e.label for e in fig.components if isinstance(e, Edge))
    assert labels == ["No", "Yes"]
