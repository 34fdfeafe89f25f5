"""Participants drawn as an icon under their name (a protocol figure's server rack, database cylinder, person
pictogram), the lifeline hanging from the icon's foot, are participants: their messages are read. The drawn seq24
set's TikZ protocol figures with icon participants (real Mermaid sources and RFC flows) read as no sequence, every
message lost, 0 of 6; the name's own lifeline test met the icon right under it."""

from __future__ import annotations

import cv2
import numpy as np

from crafteditor.assemble.sequences import find_sequence
from crafteditor.ocr.runs import TextRun


def _run(text: str, x: float, y: float, w: float, h: float = 20.0) -> TextRun:
    return TextRun(text=text, x=x, y=y, w=w, h=h, angle=0.0, font_px=h, bold=True, color=(0, 0, 0),
                   confidence=1.0, baseline=y + 0.8 * h, glyphs=np.zeros((int(h), int(w)), bool))


def _icon_page(lifelines: bool) -> tuple[np.ndarray, list[TextRun]]:
    """Two names at the top; under the first a rack of three grey boxes, under the second a cylinder's outline;
    (``lifelines``) 2 px lines from 10 px under each icon to row 400 and two messages with filled heads."""
    rgb = np.full((420, 380, 3), 255, np.uint8)
    xs = (90, 290)
    runs = [_run("Server", xs[0] - 35, 10, 70), _run("Database", xs[1] - 45, 10, 90)]
    for k in range(3):  # the rack
        y = 45 + 26 * k
        cv2.rectangle(rgb, (xs[0] - 35, y), (xs[0] + 35, y + 22), (220, 220, 220), -1)
        cv2.rectangle(rgb, (xs[0] - 35, y), (xs[0] + 35, y + 22), (0, 0, 0), 2)
        cv2.circle(rgb, (xs[0] + 24, y + 11), 3, (0, 0, 0), -1)
    cv2.ellipse(rgb, (xs[1], 52), (30, 8), 0, 0, 360, (0, 0, 0), 2)  # the cylinder
    cv2.ellipse(rgb, (xs[1], 115), (30, 8), 0, 0, 180, (0, 0, 0), 2)
    cv2.line(rgb, (xs[1] - 30, 52), (xs[1] - 30, 115), (0, 0, 0), 2)
    cv2.line(rgb, (xs[1] + 30, 52), (xs[1] + 30, 115), (0, 0, 0), 2)
    if lifelines:
        for x in xs:
            cv2.line(rgb, (x, 133), (x, 400), (0, 0, 0), 2)
        cv2.line(rgb, (xs[0], 200), (xs[1] - 2, 200), (0, 0, 0), 2)
        cv2.fillPoly(rgb, [np.array([[xs[1] - 1, 200], [xs[1] - 13, 194], [xs[1] - 13, 206]], np.int32)], (0, 0, 0))
        cv2.line(rgb, (xs[1], 290), (xs[0] + 2, 290), (0, 0, 0), 2)
        cv2.fillPoly(rgb, [np.array([[xs[0] + 1, 290], [xs[0] + 13, 284], [xs[0] + 13, 296]], np.int32)], (0, 0, 0))
    return rgb, runs


def test_icons_under_their_names_are_participants_and_their_messages_are_read():
    rgb, runs = _icon_page(lifelines=True)
    seq = find_sequence(rgb, (255, 255, 255), [], runs)
    assert seq is not None and len(seq.lifelines) == 2
    assert sorted((m.source, m.target) for m in seq.messages) == [(0, 1), (1, 0)]
    # each participant is its name, not its icon: the name's box, a little wider than the letters
    tops = sorted((s.x, s.y) for s in seq.extra)
    assert [round(y) for _, y in tops] == [8, 8] and tops[0][0] < runs[0].x - 2


def test_icons_with_names_and_no_lifelines_are_no_sequence():
    rgb, runs = _icon_page(lifelines=False)
    assert find_sequence(rgb, (255, 255, 255), [], runs) is None

