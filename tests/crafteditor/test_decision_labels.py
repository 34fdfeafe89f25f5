"""A decision's branch labels (issue 31, round 22): draw.io's activity diagrams set 'yes' and 'no' by the
corners a branch leaves from, inside the diamond's box but off the diamond; they are the branches' labels,
not words of the decision's name (which draw.io lets run over the diamond's sides where it is wider)."""

from __future__ import annotations

import numpy as np

from crafteditor.assemble.nodes import shape_labels
from crafteditor.ocr.runs import TextRun
from crafteditor.shapes.detect import DetectedShape


def _run(text: str, x: float, y: float, w: float, h: float = 14.0) -> TextRun:
    return TextRun(text=text, x=x, y=y, w=w, h=h, angle=0.0, font_px=h, bold=False, color=(0, 0, 0),
                   confidence=1.0, baseline=y + h * 0.8, glyphs=np.ones((int(h), int(w)), bool))


def _diamond(x, y, w, h) -> DetectedShape:
    return DetectedShape(shape="diamond", x=x, y=y, w=w, h=h, fill=(255, 255, 204), stroke=(255, 0, 0), stroke_px=1.0,
                         iou=1.0, face=None)


def test_a_yes_by_a_diamonds_corner_is_not_its_label():
    runs = [_run("force resync after", 110, 180, 140), _run("MinReadySeconds?", 112, 200, 136),
            _run("yes", 225, 250, 28)]  # under the right corner, above the bottom one: in the box, off the diamond
    labels = shape_labels(runs, [_diamond(100, 130, 160, 140)], set())
    assert labels == {0: [0, 1]}, labels


def test_a_decisions_name_wider_than_its_diamond_is_its_label():
    runs = [_run("no linked", 130, 170, 70), _run("cluster && no", 118, 190, 94),
            _run("delete timestamp", 95, 210, 140)]  # over the diamond's sides
    labels = shape_labels(runs, [_diamond(100, 140, 120, 120)], set())
    assert labels == {0: [0, 1, 2]}, labels


def test_a_box_keeps_its_corner_words():
    box = DetectedShape(shape="box", x=100, y=130, w=160, h=140, fill=(255, 255, 255), stroke=(0, 0, 0),
                        stroke_px=1.0, iou=1.0, face=None)
    labels = shape_labels([_run("note", 215, 245, 32)], [box], set())
    assert labels == {0: [0]}, labels
