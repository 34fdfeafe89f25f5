"""Excalidraw arrows whose open 'V' head and second pencil pass were traced apart from the shaft
(issue 31, the drawn state machines of ``craftbench makers excalidraw-states``): the head's barbs
as loose strokes at the shaft's tip, the rough stroke's second pass as a shorter shaft beside the
first. Read so, the arrow had no head, or its head was turned round to the node it leaves."""

from __future__ import annotations

import math

import numpy as np

from crafteditor.lines.paths import Arrowhead, LinePath
from crafteditor.shapes.detect import DetectedShape
from crafteditor.shapes.faces import Face
from crafteditor.sketch_arrows import join_sketch_arrows
from crafteditor.sketch_lines import barbed_heads, reach_nodes, second_strokes_dropped


def _box(x, y, w, h) -> DetectedShape:
    m = np.ones((h, w), bool)
    face = Face(paint=0, x=x, y=y, w=w, h=h, mask=m, filled=m)
    return DetectedShape(shape="box", x=x, y=y, w=w, h=h, fill=(255, 255, 255), stroke=(0, 0, 0), stroke_px=2.0,
                         iou=0.95, face=face)


def _line(*pts, width: float = 4.0, head_end: Arrowhead | None = None) -> LinePath:
    return LinePath(points=[tuple(map(float, p)) for p in pts], width=width, color=(25, 113, 194), head_end=head_end)


def _v(tip, up: bool = True, arm: float = 30.0) -> list[LinePath]:
    """The two barbs of a 'V' at ``tip`` of a vertical shaft (pointing up, or down), each its own stroke."""
    s = 1 if up else -1
    return [_line((tip[0] + side * 2, tip[1] + s * 2),
                  (tip[0] + side * arm * math.sin(0.42), tip[1] + s * arm * math.cos(0.42))) for side in (-1, 1)]


def test_a_shaft_and_two_loose_barbs_are_an_arrow_with_an_open_head():
    shaft = _line((200, 300), (200, 120))  # pointing up, its tip at y 120
    out = barbed_heads([shaft, *_v((200, 120))])
    assert len(out) == 1  # the barbs are the head, no lines of their own
    ln = out[0]
    head = ln.head_end
    assert head is not None and head.kind == "open" and head.tip == (200.0, 120.0) and ln.head_start is None


def test_two_strokes_leaving_a_line_forwards_are_no_head():
    shaft = _line((200, 300), (200, 120))
    fork = [_line((200, 120), (180, 90)), _line((200, 120), (220, 90))]  # a 'Y': branches going on, not back
    out = barbed_heads([shaft, *fork])
    assert len(out) == 3 and all(ln.head_start is None and ln.head_end is None for ln in out)


def test_a_loose_barb_pair_beside_a_head_read_already_goes_and_the_head_stays_at_the_target():
    # the state machine's 'Database model -> Monitor load': the head read at the tip, its barbs traced
    # again as loose strokes leaving the target; kept, they looked like arrows fanning out of it and
    # the head was turned round to the source
    shapes = [_box(100, 20, 200, 100), _box(100, 420, 200, 100)]
    head = Arrowhead(tip=(200.0, 132.0), base=(200.0, 154.0), length=22.0, width=20.0, mask_box=(190, 132, 211, 155),
                     kind="open")
    upper = _line((199, 260), (200, 132), head_end=head)
    lower = _line((198, 408), (199, 300))  # cut where a label sits on the arrow
    lines = barbed_heads(second_strokes_dropped([upper, lower, *_v((200, 132), arm=26.0)]))
    out = join_sketch_arrows(lines, shapes)
    reach_nodes(out, shapes)
    arrows = [ln for ln in out if ln.length > 200]
    assert len(arrows) == 1 and len(out) == 1
    ln = arrows[0]
    tip = ln.start if ln.head_start is not None else ln.end
    assert (ln.head_start is None) != (ln.head_end is None) and tip[1] < 200  # pointing at the upper box


def test_a_rough_strokes_second_pass_goes_but_a_parallel_connector_stays():
    first = _line((100, 200), (400, 203))
    second = _line((160, 205), (330, 206))  # the second pencil pass, 3 px off, traced apart
    other = _line((100, 260), (400, 262))  # a connector of its own, 60 px below
    out = second_strokes_dropped([first, second, other])
    assert out == [first, other]


def test_a_head_stopping_the_binding_gap_short_of_its_node_reaches_it():
    shapes = [_box(100, 20, 200, 100), _box(100, 420, 200, 100)]
    head = Arrowhead(tip=(200.0, 396.0), base=(200.0, 372.0), length=24.0, width=20.0, mask_box=(190, 372, 211, 397),
                     kind="open")
    ln = _line((200, 128), (200, 396), width=3.3, head_end=head)  # 24 px short of the lower box (a 2x export)
    reach_nodes([ln], shapes)
    assert abs(ln.end[1] - 420) <= 6 and ln.head_end is not None and abs(ln.head_end.tip[1] - ln.end[1]) < 1


def test_a_small_open_heads_barbs_on_a_rough_line_are_no_second_pass():
    # w=2, arms 14 px, 24° off the shaft: every sample of a barb lies within 2w+4 px of the shaft, and
    # the barbs were dropped as second passes before they could make the head (a headless line)
    shaft = _line((200, 300), (201, 200), (200, 120), width=2.0)
    second = _line((202, 290), (202, 160), width=2.0)  # the rough stroke's second pass
    out = barbed_heads(second_strokes_dropped([shaft, second, *_v((200, 120), arm=14.0)]))
    assert len(out) == 1 and out[0].head_end is not None and out[0].head_end.kind == "open"


def test_a_shaft_given_a_head_is_no_barb_of_another_shaft():
    # a short arrow, its head given first, leaves the tip of another arrow backwards, like a barb
    short = _line((202, 122), (200 + 40 * math.sin(0.42), 120 + 40 * math.cos(0.42)))
    tip = short.end
    d = (tip[0] - short.start[0], tip[1] - short.start[1])
    n = math.hypot(*d)
    d = (d[0] / n, d[1] / n)
    barbs = [_line((tip[0] - d[0] * 2, tip[1] - d[1] * 2),
                   (tip[0] - 20 * (d[0] * math.cos(a) - d[1] * math.sin(a)),
                    tip[1] - 20 * (d[1] * math.cos(a) + d[0] * math.sin(a)))) for a in (0.42, -0.42)]
    long = _line((200, 300), (200, 120))
    loose = _v((200, 120))[0]  # one loose barb on the long arrow's other side
    out = barbed_heads([short, *barbs, long, loose])
    kept = [ln for ln in out if ln.points[0] == short.points[0]]
    assert len(kept) == 1 and kept[0].head_end is not None
    assert all(ln.head_end is None and ln.head_start is None for ln in out if ln.points[0] == long.points[0])


def test_an_arrow_stopping_well_short_of_a_box_stays_free():
    shapes = [_box(100, 20, 200, 100), _box(100, 420, 200, 100)]
    head = Arrowhead(tip=(200.0, 360.0), base=(200.0, 330.0), length=30.0, width=30.0, mask_box=(185, 330, 216, 361),
                     kind="open")
    ln = _line((200, 140), (200, 360), width=8.0, head_end=head)  # 60 px short of the lower box, on purpose
    reach_nodes([ln], shapes)
    assert ln.end == (200.0, 360.0) and ln.head_end.tip == (200.0, 360.0)


def test_a_reaching_open_head_moves_whole():
    shapes = [_box(100, 20, 200, 100), _box(100, 420, 200, 100)]
    px = np.array([[200.0, 380.0], [195.0, 390.0], [205.0, 390.0]])
    head = Arrowhead(tip=(200.0, 396.0), base=(200.0, 372.0), length=24.0, width=20.0, mask_box=(190, 372, 211, 397),
                     pixels=px, kind="open")
    ln = _line((200, 128), (200, 396), width=3.3, head_end=head)
    reach_nodes([ln], shapes)
    h = ln.head_end
    dy = ln.end[1] - 396
    assert dy > 0 and h.tip == ln.end and abs(h.base[1] - (372 + dy)) < 1e-6
    assert h.mask_box[2] - h.mask_box[0] == 21 and h.mask_box[3] - h.mask_box[1] == 25  # shifted, not grown
    assert abs(h.pixels[0, 1] - (380 + round(dy))) < 1e-6 and head.pixels[0, 1] == 380.0  # the original untouched
