"""A message that leaves a lifeline just above its foot box, its hand-drawn start curling out of the column
(websequencediagrams' napkin style: a real kubeadm figure), is no flowchart's arrowhead down the column into the
box: the lifeline and its messages stay."""

from __future__ import annotations

from collections import Counter

import numpy as np
from ce_helpers import edge_pairs, png_bytes
from PIL import Image, ImageDraw, ImageFont
from test_seq_badges import FONT, _participants

from crafteditor.config import Config
from crafteditor.convert import convert


def _late_message_png() -> tuple[bytes, Counter]:
    names, xs = ["user", "kubeadm", "kubelet"], [110, 330, 560]
    W, H = 680, 600
    img = Image.new("RGB", (W, H), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 18)
    _participants(d, xs, names, H, font, "white", (34, 34, 34))
    want: Counter = Counter()
    for y, (a, b) in ((150, (0, 1)), (260, (1, 2)), (350, (2, 1)), (H - 80 - 6, (1, 2))):
        s = 1 if xs[b] > xs[a] else -1
        d.text(((xs[a] + xs[b]) / 2 - 30, y - 28), f"call{y}", fill="black", font=font)
        d.line([(xs[a], y), (xs[b] - 20 * s, y)], fill=(34, 34, 34), width=3)
        d.line([(xs[a] - 1, y - 3), (xs[a] + 5 * s, y - 3)], fill=(34, 34, 34), width=1)  # the pen's curl
        d.polygon([(xs[b], y), (xs[b] - 24 * s, y - 11), (xs[b] - 16 * s, y), (xs[b] - 24 * s, y + 11)],
                  fill=(34, 34, 34))
        want[(names[a], names[b])] += 1
    return png_bytes(np.asarray(img)), want


def test_a_message_leaving_just_above_a_foot_box_keeps_its_lifeline():
    png, want = _late_message_png()
    fig = convert(png, Config()).figure
    assert edge_pairs(fig) == want, edge_pairs(fig)
