"""A frame's member list is checked against the frame itself before it becomes a group's members: a list
carried through a step that dropped or reordered shapes named the frame itself (a handDrawn Mermaid
flowchart's subgraph), and the whole figure failed to build ('a group cannot contain itself')."""

import numpy as np

from crafteditor.assemble.builder import FigureBuilder
from crafteditor.assemble.groups import _inside, group_components
from crafteditor.config import Config
from crafteditor.loading import load_image
from crafteditor.paint import find_paints
from crafteditor.shapes.detect import DetectedShape
from crafteditor.shapes.faces import Face


def _shape(x: float, y: float, w: float, h: float, members: list[int] | None = None) -> DetectedShape:
    ones = np.ones((max(1, int(h)), max(1, int(w))), bool)
    face = Face(paint=-1, x=int(x), y=int(y), w=int(w), h=int(h), mask=ones, filled=ones)
    return DetectedShape(shape="round", x=x, y=y, w=w, h=h, fill=(255, 255, 255), stroke=(0, 0, 0), stroke_px=1.0,
                         iou=1.0, face=face, is_group=members is not None, members=members or [])


def test_a_frame_listing_itself_keeps_only_the_boxes_inside_it():
    shapes = [_shape(10, 10, 80, 30), _shape(300, 10, 80, 30),  # one box inside the frame, one outside
              _shape(0, 0, 200, 100, members=[0, 1, 2, 7])]  # the frame names itself, a box outside, a stale index
    assert _inside(shapes, 2) == [0]


def test_group_components_lists_only_the_boxes_inside_the_frame():
    rgb = np.full((120, 400, 3), 255, np.uint8)
    image = load_image(rgb, Config())
    b = FigureBuilder(image, Config(), find_paints(rgb, Config()))
    shapes = [_shape(10, 10, 80, 30), _shape(300, 10, 80, 30), _shape(0, 0, 200, 100, members=[0, 1, 2, 7])]
    node_ids = {0: "n0", 1: "n1"}
    (group,) = group_components(b, [], shapes, {}, node_ids)
    assert group.members == ["n0"]
