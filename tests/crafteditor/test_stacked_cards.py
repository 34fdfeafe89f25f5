"""The sheets drawn behind a card that holds boxes (an Excalidraw stack of 'Partition Server' cards,
each card read as a frame) are the card's pencil, not connectors (issue 31).

Frames had been passed over when a line was asked whether it is a shape's own pencil (connectors between
the boxes inside a frame run along its sides); the back sheets run along the card's outside, and a dev
figure's two stacks gave 14 edges from a card to its own title box, none in its truth."""

from __future__ import annotations

from crafteditor.lines.paths import LinePath
from crafteditor.shapes.detect import DetectedShape
from crafteditor.sketch_lines import outline_pencil


def _shape(x, y, w, h, group=False):
    s = DetectedShape(shape="round", x=x, y=y, w=w, h=h, fill=(178, 242, 187), stroke=(30, 30, 30), stroke_px=2.0,
                      iou=1.0, face=None)
    s.is_group = group
    return s


def _line(*pts):
    return LinePath(points=list(pts), width=2.0, color=(30, 30, 30))


def test_the_sheets_behind_a_card_that_is_a_frame_are_its_pencil():
    card = _shape(100, 100, 240, 300, group=True)
    shapes = [card, _shape(120, 100, 200, 70), _shape(120, 200, 200, 45), _shape(600, 100, 200, 70)]
    # the back sheet's bottom and right sides, 12 px out from the card's
    assert outline_pencil(_line((115, 412), (352, 412), (352, 115)), shapes)
    # a connector from the card's title box to a box far off, leaving along nothing: kept
    assert not outline_pencil(_line((320, 135), (600, 135)), shapes)
    # a line inside the frame along its side (between its boxes): kept as before
    assert not outline_pencil(_line((108, 180), (108, 390)), shapes)
