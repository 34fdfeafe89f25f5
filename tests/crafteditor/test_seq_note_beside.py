"""PlantUML's ``note right of`` a participant stands 5 px off its lifeline: on the note's rows the dashed column has
ink 5 px aside (the note's side) and read as no thin line. Drawn right under the participant and taller than the
strip a lifeline is looked for on, it left the participant with no lifeline, and a row of false 'lifelines' lower
down (a band's side under message labels, a note's column) was taken for the participants instead (the drawn
seq-puml set's cluster-api figures in PlantUML's strict skin: 3 of 11 messages)."""

from __future__ import annotations

from collections import Counter

from ce_helpers import edge_pairs, noted_sequence_png

from crafteditor.assemble.seq_parts import Lifeline
from crafteditor.assemble.sequences import _one_row
from crafteditor.convert import convert
from crafteditor.shapes.detect import DetectedShape


def _note_beside_png() -> tuple[bytes, Counter]:
    """Two participants boxed at the top only over dashed lifelines, a three-line note right of the second, its left
    side 5 px off the lifeline, right under the box; then four messages with filled heads and labels above."""
    return noted_sequence_png([80, 300], (305, 55, 545, 120),
                              ("Watches configs and", "machines, requeues", "until the owner is set"),
                              (180, 230, 280, 340))


def test_a_note_beside_the_lifeline_right_under_its_participant_hides_none_of_it():
    png, want = _note_beside_png()
    assert edge_pairs(convert(png).figure) == want


def _box(x: float, y: float, w: float, h: float) -> DetectedShape:
    return DetectedShape(shape="box", x=x, y=y, w=w, h=h, fill=(255, 255, 255), stroke=(0, 0, 0), stroke_px=1.0,
                         iou=1.0, face=None)  # type: ignore[arg-type]


def test_of_two_rows_of_lifelines_as_large_the_higher_are_the_participants():
    """Two participants' boxes at the top, and lower down a box with a small text above its column ('a head'):
    each pair reads as a row of two; the participants' row is the one at the top, whichever is met first."""
    shapes = [_box(150, 500, 280, 57), _box(180, 40, 226, 34), _box(6, 40, 90, 37), _box(47, 391, 78, 21)]
    lines = [Lifeline(node=0, x=298, y0=557, y1=722, width=1, color=(0, 0, 0), style="solid"),
             Lifeline(node=1, x=293, y0=74, y1=728, width=1, color=(0, 0, 0), style="dashed"),
             Lifeline(node=2, x=49, y0=77, y1=728, width=1, color=(0, 0, 0), style="dashed"),
             Lifeline(node=3, x=95, y0=412, y1=722, width=1, color=(0, 0, 0), style="solid")]
    assert sorted(ln.node for ln in _one_row(lines, shapes, 3)) == [1, 2]
