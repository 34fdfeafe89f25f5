"""A traced line run the other way keeps which of its ends meet a junction."""

from __future__ import annotations

from crafteditor.lines.paths import Arrowhead, LinePath


def test_reversing_a_line_swaps_its_heads_and_open_ends() -> None:
    head = Arrowhead(tip=(10.0, 0.0), base=(6.0, 0.0), length=4.0, width=4.0, mask_box=(6, -2, 11, 3))
    ln = LinePath(points=[(0.0, 0.0), (5.0, 0.0), (10.0, 0.0)], width=1.0, color=(0, 0, 0), head_end=head,
                  open_ends=[False, True])
    back = ln.reversed()
    assert back.points == [(10.0, 0.0), (5.0, 0.0), (0.0, 0.0)]
    assert back.head_start is head and back.head_end is None
    assert back.open_ends == [True, False]  # the junction end is still the junction end
    assert back.reversed() == ln
