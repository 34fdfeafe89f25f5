"""Edges through label plates and onto icons (issue 31, round 6: Mermaid as READMEs draw it, draw.io's
architecture diagrams). Geometry-level checks on lines and shapes we lay out here; the Mermaid renderings
themselves are in ``test_mermaid_edges``."""

from __future__ import annotations

import numpy as np

from crafteditor.assemble.figure import _icon_parts
from crafteditor.assemble.plates import _plate_like, join_across
from crafteditor.lines.paths import Arrowhead, LinePath
from crafteditor.ocr.runs import TextRun
from crafteditor.shapes.detect import DetectedShape


def _shape(x, y, w, h, shape="box", stroke=(0, 0, 0)):
    return DetectedShape(shape=shape, x=x, y=y, w=w, h=h, fill=(232, 232, 232), stroke=stroke, stroke_px=1.0,
                         iou=1.0, face=None)


def _line(*pts, head_end=False):
    head = Arrowhead(tip=pts[-1], base=pts[-2], length=8, width=8, mask_box=(0, 0, 1, 1)) if head_end else None
    return LinePath(points=list(pts), width=1.0, color=(0, 0, 0), head_end=head)


def test_a_scrap_lying_on_a_plate_does_not_stop_its_edge_joining_across():
    # a plate's rim or a glyph's stroke traced as a short line with both ends on the plate
    box = (100.0, 100.0, 80.0, 20.0)
    lines = [_line((0, 110), (98, 110)), _line((120, 104), (131, 108)), _line((182, 110), (300, 110), head_end=True)]
    assert join_across(lines, box)
    assert lines[0].points[0] == (0, 110) and lines[0].points[-1] == (300, 110) and lines[0].head_end is not None
    assert lines[2] is None and lines[1] is not None


def test_a_short_piece_between_a_plate_and_a_node_close_by_joins_with_its_nearer_end():
    # TD: node above, the plate, a 15 px piece down to the next node (both its ends within the plate's reach)
    box = (100.0, 100.0, 80.0, 20.0)
    lines = [_line((140, 40), (140, 96)), _line((140, 124), (140, 139), head_end=True)]
    assert join_across(lines, box)
    assert lines[0].points[0] == (140, 40) and lines[0].points[-1] == (140, 139) and lines[0].head_end is not None


def test_a_curve_crossing_a_wide_label_off_its_middle_runs_across_it():
    # the neutral theme: no plate; the curve enters the label's top and leaves its bottom left of its middle
    box = (100.0, 100.0, 200.0, 20.0)
    lines = [_line((90, 40), (120, 98)), _line((128, 122), (140, 200), head_end=True)]
    assert join_across(lines, box)
    assert lines[0].points[-1] == (140, 200) and lines[1] is None


def _run(text, x, y, w, h):
    return TextRun(text=text, x=x, y=y, w=w, h=h, angle=0, font_px=h, bold=False, color=(0, 0, 0), confidence=0.99,
                   baseline=y + 0.8 * h, glyphs=np.zeros((int(h), int(w)), bool))


def test_an_outlined_pill_tight_around_its_text_is_a_plate_but_a_node_is_not():
    port = _shape(196, 116, 29, 14, shape="ellipse", stroke=(152, 162, 174))  # draw.io's port label
    node = _shape(100, 100, 120, 40)  # a node has room around its name
    small = _shape(300, 100, 50, 16)  # an outlined box as tight: a small node ('MLP 2'), no plate
    runs = [_run("eth2", 199, 118, 23, 11), _run("server", 130, 112, 60, 14), _run("MLP 2", 305, 102, 40, 11)]
    assert _plate_like(port, [port, node, small], runs)
    assert not _plate_like(node, [port, node, small], runs) and not _plate_like(small, [port, node, small], runs)


def test_an_unnamed_shape_inside_a_captioned_icon_stands_for_its_node():
    # a database icon's cylinder, found as a shape of its own, inside the icon's node (icon and caption)
    cylinder, other = _shape(770, 140, 40, 40, shape="cylinder"), _shape(100, 100, 50, 30)
    icon = _shape(755, 131, 86, 69)
    node_ids = {0: "n1", 1: "n2", 2: "settings_db"}
    ids = _icon_parts([cylinder, other, icon], {1: [0]}, node_ids, first_icon=2)
    assert ids == {0: "settings_db", 1: "n2", 2: "settings_db"}
    named = _icon_parts([cylinder, other, icon], {0: [3]}, node_ids, first_icon=2)
    assert named[0] == "n1"  # a shape with a name of its own is its own node
