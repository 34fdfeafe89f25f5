"""Round 20 (issue 31): an autonumber badge on a lifeline is no box the lifeline runs into through a head.
Mermaid's self-message writes its words across the lifeline just above the badge that starts it; their
ink there had read as an arrowhead into the badge (a top-down flowchart's link into its next node), and
the lifeline was lost with its messages (a drawn Mermaid figure with a tinted ``box``: 4 of 11 read)."""

from __future__ import annotations

import cv2
import numpy as np

from crafteditor.assemble.seq_lifelines import _heads_into_box
from crafteditor.shapes.detect import DetectedShape


def _shape(x, y, w, h, shape="box"):
    return DetectedShape(shape=shape, x=x, y=y, w=w, h=h, fill=(40, 40, 40), stroke=(40, 40, 40), stroke_px=1.0,
                         iou=1.0, face=None)


def _column(filled: bool) -> np.ndarray:
    """A 2 px column, a disc on it at rows 230-270, and a head's worth of ink narrowing down onto the disc."""
    ink = np.zeros((400, 120), np.uint8)
    ink[:, 59:61] = 1
    cv2.circle(ink, (60, 250), 20, 1, -1 if filled else 2)
    for k, row in enumerate(range(220, 228)):
        half = 8 - k
        ink[row, 60 - half:60 + half + 1] = 1
    return ink.astype(bool)


def test_a_filled_badge_on_the_column_is_no_box_it_heads_into():
    top = _shape(20, -60, 80, 58)
    assert not _heads_into_box(_column(True), 0, 60, 60.0, 400.0, [top, _shape(40, 230, 41, 41, "circle")], 0)


def test_a_box_or_an_open_circle_under_the_head_still_ends_the_lifeline():
    top = _shape(20, -60, 80, 58)
    assert _heads_into_box(_column(True), 0, 60, 60.0, 400.0, [top, _shape(0, 230, 120, 41)], 0)
    assert _heads_into_box(_column(False), 0, 60, 60.0, 400.0, [top, _shape(40, 230, 41, 41, "circle")], 0)
