"""Typeset boxes whose sides stray from straight lines are no sign of a hand-drawn page (issue 31, excal24).

A draw.io pill (a stadium: cluster-api's activity diagrams, 120×40, arcSize 50) strays 0.21 px over the middle
half of its round ends, and an edge label's plate notched by its line on one side strays 0.1-0.2 px: each had
made a crisp page hand-drawn, and its hand-only rules (lettering trims, stroke mends) ran on it. Both mirror
themselves across an axis; a hand-drawn box bows at random on every side."""

from __future__ import annotations

import random
from pathlib import Path

import cv2
import numpy as np
from handdrawn import box_shape

from crafteditor.convert import convert
from crafteditor.shapes.detect import DetectedShape
from crafteditor.shapes.faces import Face
from crafteditor.shapes.sketch import _mirror_stray, _side_stray, hand_drawn_outlines


def _shape(m: np.ndarray, x: int = 0, outlined: bool = True) -> DetectedShape:
    h, w = m.shape
    face = Face(paint=0, x=x, y=0, w=w, h=h, mask=m.astype(bool), filled=m.astype(bool))
    return DetectedShape(shape="round", x=x, y=0, w=w, h=h, fill=(255, 255, 230),
                         stroke=(255, 0, 0) if outlined else None, stroke_px=1.0, iou=0.95, face=face)


def _pill(w: int = 120, h: int = 40) -> np.ndarray:
    m = np.zeros((h, w), np.uint8)
    r = h // 2
    cv2.rectangle(m, (r, 0), (w - 1 - r, h - 1), 1, -1)
    cv2.circle(m, (r, r), r, 1, -1)
    cv2.circle(m, (w - 1 - r, r), r, 1, -1)
    return m


def _notched_plate(w: int = 160, h: int = 26) -> np.ndarray:
    """A label's plate, its line running under it into one side: a notch of a few rows on the left."""
    m = np.ones((h, w), np.uint8)
    m[10:16, :2] = 0
    m[8:18, 0] = 0
    return m


def _rough_box(seed: int, w: int = 160, h: int = 70, amp: float = 1.2) -> np.ndarray:
    """A box whose four sides wander off straight lines at random, as rough.js draws them."""
    rnd = random.Random(seed)

    def side(n: int) -> np.ndarray:
        knots = [rnd.uniform(-amp, amp) for _ in range(4)]
        return np.interp(np.arange(n), np.linspace(0, n - 1, 4), knots)

    left, right, top, bottom = side(h), side(h), side(w), side(w)
    m = np.ones((h, w), np.uint8)
    for i in range(h):
        a, b = int(round(2 + left[i])), int(round(2 + right[i]))
        m[i, :a] = 0
        m[i, w - b:] = 0
    for j in range(w):
        a, b = int(round(2 + top[j])), int(round(2 + bottom[j]))
        m[:a, j] = 0
        m[h - b:, j] = 0
    return m


def test_a_page_of_typeset_pills_is_not_hand_drawn():
    pill = _pill()
    assert _side_stray(pill.astype(bool)) >= 0.1  # its round ends stray: the old sign
    assert _mirror_stray(pill.astype(bool)) == 0.0
    assert not hand_drawn_outlines([_shape(pill, x) for x in (0, 200, 400)])[1]
    # the lines' mends still ask the wider sign: they join a typeset page's curves that stop short
    assert hand_drawn_outlines([_shape(pill, x) for x in (0, 200, 400)])[0]


def test_label_plates_notched_on_one_side_are_no_sign():
    plate = _notched_plate()
    assert not hand_drawn_outlines([_shape(plate, 0, outlined=False), _shape(plate, 300, outlined=False)])[1]
    assert not hand_drawn_outlines([_shape(plate, 0)])[1]


def test_a_hand_drawn_box_is_still_a_sign():
    boxes = [_rough_box(seed).astype(bool) for seed in range(8)]
    # each whose sides stray (all but one, whose random sides came out straight) is a sign, as before
    found = [hand_drawn_outlines([_shape(m)])[1] for m in boxes if _side_stray(m) >= 0.1]
    assert len(found) == 7 and all(found), found
    assert hand_drawn_outlines([box_shape(0, 0, 160, 80, bow=3.0)])[1]  # a bow on every side


def test_a_draw_io_activity_diagram_of_pills_keeps_its_words_as_read():
    """A real source (kubernetes-sigs/cluster-api, docs/book/common_code/images/activity_cluster_reconciliation.drawio
    at 0c79e05, Apache-2.0) drawn by draw.io 16.6.4 at 1× (``craftbench makers drawio-real``): its pills made the page
    hand-drawn, and the hand lettering's trim cut the diagram's own 'exitst' to 'exits'."""
    conv = convert(Path(__file__).parent / "drawio" / "cluster_api_activity.png", name="cluster_api_activity")
    words = " ".join(r.text for r in conv.vectorized.texts).split()
    assert "exitst" in words, words
