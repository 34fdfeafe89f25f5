"""A column of dashes leaving a box's bottom through an arrowhead pointing up into the box is a link drawn
bottom-up into it (a hand-drawn Excalidraw page's dashed 'with' and 'template' arrows up into two boxes side by
side: the drawn excalidraw-real set's exr_010, alice's maintenance page), no lifeline: two such columns and a
line across between them are no sequence diagram (round 18 had read them as one, and lost the page's tree of
links with it). The same columns with no heads still read as two lifelines and a message."""

from __future__ import annotations

import cv2
import numpy as np
from handdrawn import participant_boxes

from crafteditor.assemble.sequences import find_sequence


def _page(heads: bool) -> tuple[np.ndarray, list]:
    rgb = np.full((420, 360, 3), 255, np.uint8)
    xs = (100, 264)
    boxes = participant_boxes(rgb, xs, (60, 320), 116, 60, 2)
    for x in xs:
        for y in range(124, 318, 14):  # dashes from the lower box's top up to the upper box's bottom
            cv2.line(rgb, (x, y), (x, min(y + 8, 318)), (0, 0, 0), 2)
        if heads:
            cv2.rectangle(rgb, (x - 3, 121), (x + 3, 137), (255, 255, 255), -1)
            cv2.fillPoly(rgb, [np.array([[x, 121], [x - 8, 137], [x + 8, 137]], np.int32)], (0, 0, 0))
    cv2.line(rgb, (xs[0], 230), (xs[1], 230), (0, 0, 0), 2)  # a link across, between the two columns
    return rgb, boxes


def test_dashed_links_up_into_two_boxes_are_no_sequence():
    rgb, boxes = _page(heads=True)
    assert find_sequence(rgb, (255, 255, 255), boxes, []) is None


def test_the_same_columns_with_no_heads_are_lifelines():
    rgb, boxes = _page(heads=False)
    seq = find_sequence(rgb, (255, 255, 255), boxes, [])
    assert seq is not None and len(seq.lifelines) == 2 and len(seq.messages) == 1
