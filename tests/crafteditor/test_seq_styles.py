"""Sequence diagrams as makers export them at a large scale (PlantUML's ``-scale 3``, mermaid-cli's
``--scale 3``, a 3x PNG from sequencediagram.org): a participant's name fills a third of its box's
height, its glyphs are long holes in the box's face, and the shape pass took the box for a frame
holding a drawing (no participant, its messages lost)."""

from __future__ import annotations

from collections import Counter

import numpy as np
from ce_helpers import edge_pairs, png_bytes
from PIL import Image, ImageDraw, ImageFont

from crafteditor.config import Config
from crafteditor.convert import convert
from crafter.spec.model import Node

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def _scaled_sequence_png(scale: int) -> tuple[bytes, Counter]:
    """'Client' and 'Billing' (tall letters) boxed top and bottom, dashed lifelines, four messages
    with filled heads and labels above, drawn at 1x and resampled ``scale`` times larger."""
    names, xs = ["Client", "Billing"], [80, 280]
    W, H = 360, 340
    img = Image.new("RGB", (W, H), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 15)
    for x in xs:
        for y in range(54, H - 60, 8):
            d.line([(x, y), (x, y + 4)], fill=(80, 80, 80), width=1)
    for x, name in zip(xs, names):
        tw = d.textlength(name, font=font)
        for y in (20, H - 60):
            d.rectangle([x - tw / 2 - 10, y, x + tw / 2 + 10, y + 32], fill=(226, 226, 240), outline="black")
            d.text((x - tw / 2, y + 8), name, fill="black", font=font)
    want: Counter = Counter()
    for k, y in enumerate(range(100, 260, 50)):
        a, b = (0, 1) if k % 2 == 0 else (1, 0)
        s = 1 if b > a else -1
        d.line([(xs[a], y), (xs[b], y)], fill="black", width=1)
        d.polygon([(xs[b], y), (xs[b] - 10 * s, y - 5), (xs[b] - 10 * s, y + 5)], fill="black")
        d.text(((xs[0] + xs[1]) / 2 - 20, y - 20), f"call{k}", fill="black", font=font)
        want[(names[a], names[b])] += 1
    img = img.resize((W * scale, H * scale), Image.LANCZOS)
    return png_bytes(np.asarray(img)), want


def test_a_large_scale_export_reads_its_participants_and_messages():
    png, want = _scaled_sequence_png(3)
    fig = convert(png, Config()).figure
    boxes = sorted(c.label for c in fig.components if isinstance(c, Node) and c.label)
    assert boxes == ["Billing", "Billing", "Client", "Client"], boxes
    assert edge_pairs(fig) == want, edge_pairs(fig)
