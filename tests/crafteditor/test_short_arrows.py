"""Arrows that stop short of what they join, as TikZ draws them (issue 31, the real set's
G_diagrams_random-forest): a few points off the node or frame, past the tolerance an end touching
an outline is read with; and an arrowhead at a titled frame points at the frame, not at the first
shape inside it."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
from ce_helpers import png_bytes
from PIL import Image, ImageDraw, ImageFont

from crafteditor.config import Config
from crafteditor.convert import convert
from crafteditor.lines.arrows import _end_direction
from crafter.spec.model import Edge, Group, Node

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"


def _arrow(d: ImageDraw.ImageDraw, p, q, head: bool = True) -> None:
    d.line([p, q], fill="black", width=2)
    if head:
        L = math.dist(p, q)
        ux, uy = (q[0] - p[0]) / L, (q[1] - p[1]) / L
        bx, by = q[0] - 11 * ux, q[1] - 11 * uy
        d.polygon([q, (bx - 4 * uy, by + 4 * ux), (bx + 4 * uy, by - 4 * ux)], fill="black")


def short_arrows_png() -> bytes:
    """'source' -> frame 'Tree 1' (a dot inside, under the head) -> 'vote' <- frame 'Tree 2', every
    arrow ending 12 px off its target and starting 12 px off its source."""
    img = Image.new("RGB", (900, 620), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 22)

    def box(x0, y0, x1, y1, text):
        d.rounded_rectangle([x0, y0, x1, y1], radius=8, outline="black", width=2)
        tw = d.textlength(text, font=font)
        d.text(((x0 + x1) / 2 - tw / 2, (y0 + y1) / 2 - 13), text, fill="black", font=font)

    box(380, 30, 520, 80, "source")
    box(390, 540, 510, 590, "vote")
    for x0, name in ((60, "Tree 1"), (520, "Tree 2")):
        d.rounded_rectangle([x0, 200, x0 + 320, 420], radius=10, outline="black", width=2)
        d.text((x0 + 10, 206), name, fill="black", font=font)
        for dx, dy in ((160, 240), (100, 320), (220, 320)):  # a little tree of unlabelled dots
            cx, cy = x0 + dx, dy
            d.ellipse([cx - 14, cy - 14, cx + 14, cy + 14], fill=(120, 120, 240))
        d.line([(x0 + 150, 252), (x0 + 110, 308)], fill="black", width=2)
        d.line([(x0 + 170, 252), (x0 + 210, 308)], fill="black", width=2)
    _arrow(d, (430, 92), (230, 188))  # source -> Tree 1: ends 12 px above the frame
    _arrow(d, (470, 92), (670, 188))  # source -> Tree 2
    _arrow(d, (230, 432), (420, 528))  # Tree 1 -> vote
    _arrow(d, (670, 432), (480, 528))  # Tree 2 -> vote
    return png_bytes(np.asarray(img))


def _named_pairs(fig) -> Counter:
    names = {c.id: (c.label or "").strip() for c in fig.components if isinstance(c, (Node, Group))}
    return Counter((names.get(e.source, "?"), names.get(e.target, "?"))
                   for e in fig.components if isinstance(e, Edge))


def test_short_arrows_join_the_boxes_and_frames_they_point_at():
    pairs = _named_pairs(convert(short_arrows_png(), Config()).figure)
    want = Counter({("source", "Tree 1"): 1, ("source", "Tree 2"): 1, ("Tree 1", "vote"): 1, ("Tree 2", "vote"): 1})
    assert {k: n for k, n in pairs.items() if k in want} == want, pairs


def test_a_line_of_one_point_has_no_direction_into_a_head():
    # a stroke thinned to one pixel (a JPEG speck beside a head) must not stop the figure: no direction, no head
    assert _end_direction([(4.0, 7.0)], 12.0) is None
    assert _end_direction([(4.0, 7.0), (4.0, 7.0)], 12.0) is None
    assert _end_direction([(0.0, 0.0), (30.0, 0.5)], 12.0) == (1.0, 0.0)
