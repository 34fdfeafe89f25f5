"""A line cut where it crosses a group's frame aslant is joined again: the erased band of the frame's
stroke takes a longer stretch of a slanted line (band / sin of the crossing angle). Dev
G_clem_web-architecture's Mermaid curve from 'Statistics Service' into 'Project Discovery' crossed
the 'Data Layer' frame at ~20°, left a 19.4 px gap against a 19.3 px reach, and had one end only."""

from __future__ import annotations

import numpy as np

from crafteditor.assemble.joins import _join_pair
from crafteditor.lines.paths import LinePath
from crafteditor.shapes.detect import DetectedShape
from crafteditor.shapes.faces import Face


def _frame(x: float, y: float, w: float, h: float) -> DetectedShape:
    return DetectedShape(shape="box", x=x, y=y, w=w, h=h, fill=(255, 255, 222), stroke=(170, 170, 51),
                         stroke_px=1.76, iou=1.0,
                         face=Face(0, int(x), int(y), 1, 1, np.ones((1, 1), bool), np.ones((1, 1), bool)))


def _line(pts) -> LinePath:
    return LinePath(points=[(float(x), float(y)) for x, y in pts], width=1.8, color=(51, 51, 51))


def test_a_line_crossing_a_frame_side_aslant_is_joined_across_it():
    group = _frame(100, 2025, 1200, 300)  # its top side at y = 2025
    above = _line([(275, 1990), (292, 2010), (321.2, 2022.25)])  # ~22° to the side
    below = _line([(339.4, 2028.9), (465, 2055), (689, 2091)])
    joined = _join_pair(above, below, [group], [])
    assert joined is not None and joined.points[0] == (275.0, 1990.0) and joined.points[-1] == (689.0, 2091.0)


def test_a_square_crossing_is_joined_as_before_and_a_far_aslant_one_is_not():
    group = _frame(100, 2025, 1200, 300)
    above = _line([(300, 1960), (300, 2019)])
    assert _join_pair(above, _line([(300, 2032), (300, 2100)]), [group], []) is not None
    # aslant, the reach grows at most twofold: 45 px along a 20° crossing is no frame's gap
    slant = _line([(240, 1998), (282, 2019)])
    assert _join_pair(slant, _line([(324, 2034), (400, 2062)]), [group], []) is None
