"""A participant whose activation bar starts right under its box (pgf-umlsd's ``\\newthread``, an activation from
the first row) still has its lifeline: the bar hides the dotted line's first rows, a few dots show above it and
the rest below it. The drawn seq23 set's pgf-umlsd threads (translated from real Mermaid sources) had read the
thread as no participant, and with two participants every message was lost."""

from __future__ import annotations

import cv2
import numpy as np
from handdrawn import box_shape

from crafteditor.assemble.seq_strokes import bar_rows
from crafteditor.assemble.sequences import find_sequence


def _thread_page(bar: bool) -> tuple[np.ndarray, list]:
    """Two pgf-umlsd-like instances (boxes with no foot), 1 px dotted lifelines every 4 rows down to row 200,
    the first with a grey bar from 10 rows under its box to row 130, and two messages across at rows 60 and 100."""
    rgb = np.full((220, 340, 3), 255, np.uint8)
    xs = (80, 260)
    boxes = [box_shape(x - 50, 5, 100, 40) for x in xs]
    for s in boxes:
        cv2.rectangle(rgb, (s.x, s.y), (s.x + s.w - 1, s.y + s.h - 1), (0, 0, 0), 2)
    for x in xs:
        for y in range(48, 200, 4):
            rgb[y, x] = 0
    if bar:
        cv2.rectangle(rgb, (xs[0] - 6, 55), (xs[0] + 6, 130), (217, 217, 217), -1)
        cv2.rectangle(rgb, (xs[0] - 6, 55), (xs[0] + 6, 130), (0, 0, 0), 1)
    a = xs[0] + (7 if bar else 1)
    cv2.line(rgb, (a, 70), (xs[1] - 1, 70), (0, 0, 0), 1)
    cv2.fillPoly(rgb, [np.array([[xs[1] - 1, 70], [xs[1] - 9, 66], [xs[1] - 9, 74]], np.int32)], (0, 0, 0))
    cv2.line(rgb, (a, 110), (xs[1] - 1, 110), (0, 0, 0), 1)
    cv2.fillPoly(rgb, [np.array([[a, 110], [a + 8, 106], [a + 8, 114]], np.int32)], (0, 0, 0))
    return rgb, boxes


def test_a_thread_with_a_bar_from_the_top_keeps_its_lifeline_and_messages():
    rgb, boxes = _thread_page(bar=True)
    seq = find_sequence(rgb, (255, 255, 255), boxes, [])
    assert seq is not None and len(seq.lifelines) == 2
    assert sorted((m.source, m.target) for m in seq.messages) == [(0, 1), (1, 0)]


def test_the_same_page_without_the_bar_reads_the_same():
    rgb, boxes = _thread_page(bar=False)
    seq = find_sequence(rgb, (255, 255, 255), boxes, [])
    assert seq is not None and len(seq.lifelines) == 2 and len(seq.messages) == 2


def test_bar_rows_are_a_bar_not_a_message_across():
    ink = np.zeros((60, 40), bool)
    ink[10:40, 14:27] = True  # a bar 13 px wide about column 20, 30 rows
    ink[50, :] = True  # a message crossing the whole strip: no bar
    rows = bar_rows(ink, 20)
    assert rows[10:40].all() and not rows[:10].any() and not rows[40:].any()
