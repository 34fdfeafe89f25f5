"""A lifeline read under a tall box low in the figure (a ``box`` band's stretch or an ``opt`` frame that a lifeline
runs out of) is no anchor of the participants' row: its bottom's tolerance grew with its height (a quarter of 922
px) and every small name 'beside' it passed for a stick figure's head, so the row became the band sides and frames
(PlantUML's participants in coloured ``box`` bands, drawn from cluster-api's MachinePool source: 34 messages read,
all but two joined to frames, edges 0.06)."""

from __future__ import annotations

from crafteditor.assemble.seq_parts import Lifeline
from crafteditor.assemble.sequences import _one_row
from crafteditor.shapes.detect import DetectedShape


def _box(x: float, y: float, w: float, h: float) -> DetectedShape:
    return DetectedShape(shape="box", x=x, y=y, w=w, h=h, fill=(255, 255, 255), stroke=(0, 0, 0), stroke_px=1.0,
                         iou=1.0, face=None)  # type: ignore[arg-type]


def _line(node: int, x: float, y0: float, y1: float) -> Lifeline:
    return Lifeline(node=node, x=x, y0=y0, y1=y1, width=1, color=(0, 0, 0), style="dashed")


def test_the_row_is_the_participants_not_the_tall_boxes_their_lifelines_run_out_of():
    # five participants (two boxes, three names drawn with no box) at the top, all lifelines to 2637; lower down
    # a band's stretch (238 x 922) and a frame (192 x 232) on two of their columns, and two more frames
    shapes = [_box(640, 112, 220, 41), _box(1518, 124, 219, 34), _box(1514, 332, 238, 922), _box(1987, 1022, 192, 232),
              _box(637, 878, 237, 156), _box(805, 1299, 829, 155), _box(9, 139, 44, 17), _box(303, 138, 91, 18),
              _box(1993, 140, 174, 19)]
    lines = [_line(0, 753, 153, 2637), _line(1, 1630, 158, 2637), _line(2, 1632, 1253, 2637), _line(3, 2082, 1253, 2637),
             _line(4, 754, 1033, 2637), _line(5, 1174, 1454, 2337), _line(6, 32, 156, 2637), _line(7, 349, 156, 2637),
             _line(8, 2080, 159, 2637)]
    assert sorted(ln.node for ln in _one_row(lines, shapes, 6)) == [0, 1, 6, 7, 8]


def test_a_participants_box_is_no_stick_figures_head_beside_a_frame_tag():
    """PlantUML participants in grey ``box`` bands over a ``group`` frame: the frame's tag (223 x 90 with the
    activation bar beside it) and a label plate below had 'API Server''s box, wider than tall, for a stick figure's
    head and outnumbered the participants' row; a head is round."""
    shapes = [_box(6, 88, 89, 37), _box(156, 96, 214, 33), _box(151, 126, 223, 90), _box(128, 214, 215, 21),
              _box(98, 156, 59, 48), _box(392, 110, 180, 15)]
    lines = [_line(0, 53, 124, 581), _line(1, 263, 130, 581), _line(2, 258, 215, 580), _line(3, 258, 235, 580),
             _line(4, 128, 204, 568), _line(5, 484, 125, 581)]
    assert sorted(ln.node for ln in _one_row(lines, shapes, 5)) == [0, 1, 5]
