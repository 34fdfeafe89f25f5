"""Mermaid's typed participants (``participant Bob@{ "type": "control" }``) draw an icon with the name under it at
both ends of the lifeline; a ``control``'s icon carries an arrowhead on top of its circle, and the lifeline running
into the foot icon read as a link into a box through a head: no lifeline, Bob's messages lost (a drawn Mermaid
set: 2 of 3 participants, 3 of 5 messages). The icon drawn again at the foot, the size of the one over the name at
the top, is no box a link runs into."""

from __future__ import annotations

from crafteditor.assemble.seq_lifelines import _icons_again
from crafteditor.shapes.detect import DetectedShape


def _shape(kind: str, x: float, y: float, w: float, h: float) -> DetectedShape:
    return DetectedShape(shape=kind, x=x, y=y, w=w, h=h, fill=(255, 255, 255), stroke=(0, 0, 0), stroke_px=1.0,
                         iou=1.0, face=None)  # type: ignore[arg-type]


def test_the_icon_over_the_foot_name_is_the_one_over_the_name_at_the_top():
    shapes = [_shape("circle", 319, 38, 45, 43), _shape("circle", 319, 546, 45, 43), _shape("box", 423, 149, 50, 20),
              _shape("box", 325, 85, 33, 16), _shape("box", 325, 597, 33, 16)]  # icon, foot icon, tag, names
    assert _icons_again(shapes, 3, 341.0, 595.0) == {1}


def test_a_box_of_another_size_at_the_foot_is_no_icon_again():
    shapes = [_shape("circle", 319, 38, 45, 43), _shape("box", 300, 540, 90, 50), _shape("box", 325, 85, 33, 16)]
    assert _icons_again(shapes, 2, 341.0, 595.0) == set()
