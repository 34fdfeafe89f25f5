"""Issue 31, Mermaid's flowcharts: a hand-drawn node read as an empty frame is still a node; a dark
plate's rim left on its edge's end as an oversized 'head' does not stop the edge at its label; a curve
bending under its label (in at one side, out at the next) runs on through it."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from crafteditor.assemble.named_frames import named_boxes
from crafteditor.assemble.plates import join_across, rim_head_length
from crafteditor.config import Config
from crafteditor.convert import convert
from crafteditor.lines.paths import Arrowhead, LinePath
from crafteditor.ocr.runs import TextRun
from crafteditor.shapes.detect import DetectedShape
from crafter.spec.model import Group, Node, Text


def _frame(x, y, w, h, members=()):
    return DetectedShape(shape="round", x=x, y=y, w=w, h=h, fill=(238, 238, 238), stroke=(153, 153, 153),
                         stroke_px=1.7, iou=1.0, face=None, is_group=True, members=list(members))


def _run(text, x, y, w, h=13.0):
    return TextRun(text=text, x=x, y=y, w=w, h=h, angle=0, font_px=h, bold=False, color=(0, 0, 0), confidence=0.99,
                   baseline=y + 0.8 * h, glyphs=np.zeros((int(h), int(w)), bool))


def _head(tip, base, length):
    x0, y0 = min(tip[0], base[0]) - 3, min(tip[1], base[1]) - 3
    x1, y1 = max(tip[0], base[0]) + 3, max(tip[1], base[1]) + 3
    return Arrowhead(tip=tip, base=base, length=length, width=length, mask_box=(int(x0), int(y0), int(x1), int(y1)))


def _line(*pts, head_start=None, head_end=None):
    return LinePath(points=list(pts), width=1.0, color=(0, 0, 0), head_start=head_start, head_end=head_end)


def test_a_frame_holding_only_its_centred_name_is_a_node():
    shapes = [_frame(1111, 78, 140, 52), _frame(20, 20, 600, 400), _frame(700, 20, 300, 200, members=[0])]
    runs = [_run("Model filter", 1140, 98, 80), _run("Cluster", 30, 26, 50), _run("Services", 710, 100, 70)]
    out = named_boxes(shapes, runs)
    # the sketched node is a node; a big frame with its title in a corner, a frame with members stay frames
    assert [s.is_group for s in out] == [False, True, True]
    # a thick outline's outer ring read as a frame around the node's fill (too big to be its member)
    ring, fill = _frame(100, 100, 200, 80), _frame(106, 106, 188, 68)
    fill.is_group = False
    assert named_boxes([ring, fill], [_run("Weight layer", 150, 133, 100)])[0].is_group
    # an edge label's plate, unoutlined, that a thick line crossing it cut into pieces
    plate = _frame(950, 858, 275, 43)
    plate.stroke = None
    assert named_boxes([plate], [_run("notify parse upload", 955, 872, 265)])[0].is_group


def test_an_oversized_head_on_a_label_is_its_plates_rim():
    # three arrows with 7 px heads; the edge into the label 'make run' ends in a 19 px 'head' on its side
    box = (592.0, 60.0, 125.0, 30.0)
    lines = [_line((1006, 32), (760, 70), (705, 76), head_end=_head((705, 76), (724, 74), 19.0)),
             _line((660, 88), (652, 97), (650, 110), (650, 140), head_end=_head((650, 140), (650, 133), 7.0)),
             _line((10, 10), (10, 200), head_end=_head((10, 200), (10, 193), 7.0)),
             _line((40, 10), (40, 200), head_end=_head((40, 200), (40, 193), 7.2))]
    assert join_across(lines, box, rim=rim_head_length(lines))
    assert lines[0].points[0] == (1006, 32) and lines[0].points[-1] == (650, 140) and lines[1] is None
    # a figure-sized head at a label is a head: a chain through a borderless label stays two lines
    lines = [_line((1006, 32), (760, 70), (705, 76), head_end=_head((705, 76), (712, 75), 7.0)), *lines[2:],
             _line((660, 88), (652, 97), (650, 110), (650, 140), head_end=_head((650, 140), (650, 133), 7.0))]
    assert not join_across(lines, box, rim=rim_head_length(lines))


def test_a_curve_bending_under_its_label_runs_on_through_it():
    # in at the label's right side heading left, out at its bottom heading down-left, then down
    box = (592.0, 66.0, 114.0, 19.0)
    lines = [_line((1006, 32), (850, 52), (707, 76)),
             _line((660, 87), (652, 96), (650, 110), (650, 140), head_end=_head((650, 140), (650, 133), 7.0))]
    assert join_across(lines, box)
    assert lines[0].points[0] == (1006, 32) and lines[0].points[-1] == (650, 140) and lines[1] is None
    # a line leaving the label back the way the other came in is no curve through it
    lines = [_line((1006, 32), (850, 52), (707, 76)),
             _line((700, 64), (760, 20), head_end=_head((760, 20), (755, 25), 7.0))]
    assert not join_across(lines, box)


def _framed_words_png() -> bytes:
    """A group frame holding two plain words with an arrow between them, no boxes round them."""
    img = Image.new("RGB", (640, 300), "white")
    d = ImageDraw.Draw(img)
    d.rectangle([120, 90, 520, 210], outline="black", width=2)
    font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 24)
    d.text((200, 150), "Client", fill="black", font=font, anchor="mm")
    d.text((440, 150), "Server", fill="black", font=font, anchor="mm")
    d.line([250, 150, 378, 150], fill="black", width=2)
    d.polygon([(390, 150), (376, 144), (376, 156)], fill="black")
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def test_a_frame_round_words_with_an_arrow_between_is_no_node():
    fig = convert(_framed_words_png(), Config()).figure
    assert not [c for c in fig.components if isinstance(c, Node)], fig.components
    assert any(isinstance(c, Group) for c in fig.components)
    assert sorted(c.text for c in fig.components if isinstance(c, Text)) == ["Client", "Server"]


def test_a_frame_whose_text_is_no_one_block_or_that_holds_an_arrow_stays_a_frame():
    runs = [_run("Model filter", 1140, 98, 80)]
    # dashed: a group's frame
    dashed = _frame(1111, 78, 140, 52)
    dashed.dashed = "dashed"
    assert named_boxes([dashed], runs)[0].is_group
    # two words far apart on a line; two lines not centred on each other
    assert named_boxes([_frame(1111, 78, 140, 52)], [_run("In", 1121, 98, 20), _run("Out", 1215, 98, 25)])[0].is_group
    assert named_boxes([_frame(1111, 78, 140, 52)], [_run("Model filter", 1125, 90, 80),
                                                     _run("x", 1210, 108, 10)])[0].is_group
    # an arrow from end to end inside it (one reaching in from outside is a sketched node's edge)
    inside = _line((1125, 120), (1235, 120), head_end=_head((1235, 120), (1228, 120), 7.0))
    assert named_boxes([_frame(1111, 78, 140, 52)], runs, [inside])[0].is_group
    into = _line((1000, 104), (1112, 104), head_end=_head((1112, 104), (1105, 104), 7.0))
    assert not named_boxes([_frame(1111, 78, 140, 52)], runs, [into])[0].is_group
    # a name on two lines, centred on each other, stays a node
    two = [_run("Model", 1160, 88, 42), _run("filter", 1158, 104, 44)]
    assert not named_boxes([_frame(1111, 78, 140, 52)], two)[0].is_group
