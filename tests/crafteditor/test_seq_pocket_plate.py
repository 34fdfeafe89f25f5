"""A pocket of paper two lifelines and two messages fence in, read as a box holding the second message's label
(js-sequence-diagrams' hand look, the seq-looks maker's seqlk_02_jsd_hand: a sketch box from Alice's lifeline
to Bob's, from 'Hi Bob' down to 'Hi Alice'), is a cell, no label plate: the messages along its top and bottom
sides are the diagram's, not a plate's border (round 15 had dropped both, and the sequence with them)."""

from __future__ import annotations

import cv2
import numpy as np
from handdrawn import box_shape, participant_boxes

from crafteditor.assemble.sequences import find_sequence
from crafteditor.ocr.runs import TextRun


def _run(text: str, x: float, y: float, w: float, h: float = 24.0) -> TextRun:
    return TextRun(text=text, x=x, y=y, w=w, h=h, angle=0.0, font_px=h, bold=False, color=(0, 0, 0),
                   confidence=1.0, baseline=y + 0.8 * h, glyphs=np.zeros((int(h), int(w)), bool))


def test_messages_along_a_cell_read_as_a_label_box_are_kept():
    rgb = np.full((400, 340, 3), 255, np.uint8)
    xs = (100, 264)
    parts = participant_boxes(rgb, xs, (60, 300), 116, 70, 3)
    for x in xs:
        cv2.line(rgb, (x, 131), (x, 299), (0, 0, 0), 3)
    for y, a, b in ((208, 0, 1), (280, 1, 0)):  # 'Hi Bob' right, 'Hi Alice' back
        s = 1 if b > a else -1
        cv2.line(rgb, (xs[a], y), (xs[b] - 12 * s, y), (0, 0, 0), 3)
        cv2.fillPoly(rgb, [np.array([[xs[b], y], [xs[b] - 14 * s, y - 7], [xs[b] - 14 * s, y + 7]], np.int32)],
                     (0, 0, 0))
    pocket = box_shape(xs[0], 208, xs[1] - xs[0], 72)  # its sides on the lifelines, top and bottom on the messages
    runs = [_run("Hi Bob", 124, 176, 120), _run("Hi Alice", 120, 246, 126)]
    seq = find_sequence(rgb, (255, 255, 255), [*parts, pocket], runs)
    assert seq is not None
    assert sorted((m.source, m.target) for m in seq.messages) == [(0, 1), (1, 0)]
