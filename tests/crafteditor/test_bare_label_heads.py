"""A bare label between two arrows keeps the head of the arrow into it, even where that head is smaller
than the next arrow's (issue 31): the rule that a small 'head' on a label's plate is the plate's rim
(a dark theme's grey plate, mermaid11) had been applied to bare labels too, so TikZ's 'layer 1 → a(x) →
layer 2' lost the head at a(x), the two arrows were joined through the text and dev
G_diagrams_skip-connection fell from edges 0.67 to 0.00."""

from __future__ import annotations

import numpy as np
from ce_helpers import edge_pairs
from PIL import Image, ImageDraw, ImageFont

from crafteditor.config import Config
from crafteditor.convert import convert

INK, LINE = (46, 61, 75), (40, 40, 40)


def _chain(small: int, big: int) -> np.ndarray:
    """'layer 1 → a(x) → layer 2' with the first arrow's head ``small`` px long, the second's ``big``."""
    im = Image.new("RGB", (560, 160), (255, 255, 255))
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype("DejaVuSans.ttf", 15)
    for x0, name in ((20, "layer 1"), (360, "layer 2")):
        d.rectangle([x0, 45, x0 + 160, 115], fill=(255, 255, 255), outline=LINE, width=2)
        d.text((x0 + 80, 80), name, fill=INK, font=font, anchor="mm")
    d.text((262, 80), "a(x)", fill=INK, font=font, anchor="mm")
    for x0, x1, head in ((182, 240, small), (284, 358, big)):
        d.line([(x0, 80), (x1 - head, 80)], fill=LINE, width=2)
        d.polygon([(x1 - head, 80 - head // 2), (x1 - head, 80 + head // 2), (x1, 80)], fill=LINE)
    return np.asarray(im)


def test_a_bare_labels_smaller_head_is_no_plate_rim():
    pairs = edge_pairs(convert(_chain(6, 14), Config(quality=False)).figure)
    assert ("layer 1", "layer 2") not in pairs and ("layer 2", "layer 1") not in pairs
    assert ("layer 1", "a(x)") in pairs and ("a(x)", "layer 2") in pairs
