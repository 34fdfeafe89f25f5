"""A lifeline is read on the rows no box crosses: a note over two lifelines, or an ``alt`` frame's tag, drawn right
under the participants (PlantUML's and Mermaid's notes; the seq-looks maker's real kubernetes KMS source) hid the
top of the lifelines it spans, which then read as none, and the diagram lost every message (edge F1 0)."""

from __future__ import annotations

from collections import Counter

import numpy as np
from ce_helpers import draw_messages, edge_pairs, png_bytes
from PIL import Image, ImageDraw, ImageFont

from crafteditor.convert import convert

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def _note_under_participants_png() -> tuple[bytes, Counter]:
    """Three participants boxed top and bottom over dashed lifelines, a note spanning the second and third right
    under their boxes, and three messages (the last a dashed return) with filled heads and labels above."""
    names, xs = ["user", "apiserver", "etcd"], [60, 260, 440]
    W, H = 520, 340
    img = Image.new("RGB", (W, H), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 14)
    for x in xs:
        for y in range(47, 292, 10):
            d.line([(x, y), (x, y + 5)], fill=(60, 60, 60), width=1)
    for x, name in zip(xs, names):
        tw = d.textlength(name, font=font)
        for y in (5, 292):
            d.rectangle([x - tw / 2 - 12, y, x + tw / 2 + 12, y + 40], fill=(222, 234, 255), outline=(50, 90, 160))
            d.text((x - tw / 2, y + 12), name, fill="black", font=font)
    d.rectangle([205, 62, 495, 94], fill=(255, 255, 236), outline=(150, 40, 40))
    d.text((215, 70), "Refer to the key diagram", fill="black", font=font)
    want = draw_messages(d, font, xs, names, [(0, 1, "create resource", False), (1, 2, "store object", False),
                                              (2, 0, "stored", True)], (140, 190, 240), 12)
    return png_bytes(np.asarray(img)), want


def test_a_note_right_under_the_participants_hides_no_lifeline():
    png, want = _note_under_participants_png()
    conv = convert(png)
    assert edge_pairs(conv.figure) == want
