"""An edge's traced route keeps its corners: points on a straight run or a pixel's jog are dropped
(merge_collinear), and so is a skeleton spur folding back near a head (drop_backtrack); both read a
point's turn the same way (crafteditor.lines.routes)."""

from __future__ import annotations

from crafteditor.lines.routes import drop_backtrack, merge_collinear


def test_an_elbow_keeps_its_corner_and_loses_its_straight_run_points():
    route = [(0.0, 0.0), (20.0, 0.3), (40.0, 0.0), (40.0, 0.0), (40.0, 30.0), (40.5, 60.0)]
    assert merge_collinear(route, 1.0) == [(0.0, 0.0), (40.0, 0.0), (40.5, 60.0)]


def test_a_spur_folding_back_near_the_head_is_dropped():
    route = [(0.0, 0.0), (50.0, 0.0), (60.0, 0.0), (55.0, 0.0), (55.0, 30.0)]
    assert drop_backtrack(route) == [(0.0, 0.0), (50.0, 0.0), (55.0, 0.0), (55.0, 30.0)]
    assert drop_backtrack([(0.0, 0.0), (10.0, 0.0), (10.0, 10.0)]) == [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0)]


def test_a_heads_axis_near_horizontal_or_vertical_is_made_exactly_that():
    import numpy as np

    from crafteditor.lines.paths import snapped_to_axis

    assert snapped_to_axis(np.array([-0.99, 0.14])).tolist() == [-1.0, 0.0]
    assert snapped_to_axis(np.array([0.1, 0.995])).tolist() == [0.0, 1.0]
    assert snapped_to_axis(np.array([0.6, 0.8])).tolist() == [0.6, 0.8]  # a diagonal head stays diagonal
