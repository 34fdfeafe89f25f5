"""A ``loop`` frame drawn right under PlantUML's participants drawn with no box (a database's, a boundary's name
under its icon): its top line under a name was read as the name's own box's border, moving that lifeline's top 20 px
down and out of the participants' row, or, once not, as an arrowhead under the name; the figure read as no sequence
(the drawn sequences set's strict skin: 0 of 6 messages)."""

from __future__ import annotations

import numpy as np

from crafteditor.assemble.seq_strokes import border_under, head_under
from crafteditor.shapes.detect import DetectedShape


def _name(x: float, y: float, w: float, h: float) -> DetectedShape:
    return DetectedShape(shape="box", x=x, y=y, w=w, h=h, fill=(255, 255, 255), stroke=None, stroke_px=0.0, iou=0.0,
                         face=None)  # type: ignore[arg-type]


def test_a_fragments_top_under_a_name_is_no_border_of_its_box():
    ink = np.zeros((120, 300), bool)
    name = _name(150, 40, 110, 18)
    ink[72:75, 10:290] = True  # the loop's top, 14 px under the name, its sides going down
    ink[72:110, 10:13] = True
    ink[72:110, 287:290] = True
    assert border_under(ink, name, 60) is None
    ink[30:75, 140:143] = True  # the name's own box: its sides rise from the border past the name
    ink[30:75, 268:271] = True
    ink[72:75, 10:290] = False
    ink[72:75, 140:271] = True
    assert border_under(ink, name, 60) == 74


def test_a_line_across_the_strip_under_a_name_is_no_arrowhead():
    strip = np.zeros((14, 13), bool)
    strip[:, 6] = True  # the lifeline's dash
    strip[10, :] = True  # a fragment's top across it
    assert not head_under(strip)
    strip[4, 3:10] = True  # a head's row, narrower than the strip
    assert head_under(strip)
