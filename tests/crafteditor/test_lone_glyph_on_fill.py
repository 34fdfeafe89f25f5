"""A small glyph set on a light fill is on that fill: the fill is looked for in a thin ring just outside the
glyph's box. Inside it, the 5 x 5 opening that keeps rims off the fill takes the counters and gaps of a
glyph 7-10 px high too, and a '0' on a node's fill had read as off it."""

from __future__ import annotations

import cv2
import numpy as np

from crafteditor.ocr.lone_glyphs import _crowded


def test_a_small_zero_on_a_fill_is_held_to_the_fills_margin():
    H = W = 200
    fill = np.zeros((H, W), bool)
    fill[40:160, 20:180] = True  # a node wider than a small one
    ink = np.zeros((H, W), bool)
    ink[38:40, 18:182] = ink[160:162, 18:182] = True  # its outline
    y, x = 50, 90  # a '0' 8 px high, 6 wide, 12 px under the outline
    ink[y:y + 8, x:x + 6] = True
    ink[y + 1:y + 7, x + 1:x + 5] = False
    light = cv2.morphologyEx((fill & ~ink).astype(np.uint8), cv2.MORPH_OPEN, np.ones((5, 5), np.uint8)).astype(bool)
    lab = np.zeros((H, W), np.int32)
    lab[y:y + 8, x:x + 6][ink[y:y + 8, x:x + 6]] = 7
    # the text's glyphs 30 px high: on the canvas the margin is 9 px, on a fill 18 px, and reaches the outline
    assert _crowded(ink, lab, [(0, 0, 0, 0, 7)], (x, y, x + 6, y + 8), 30.0, light)
