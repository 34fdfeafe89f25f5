"""Routes kept off group titles (crafter.layout.titles): a vertical stretch through a title moves past it."""

from __future__ import annotations

from crafter.layout.titles import TITLE_CLEARANCE, clear_titles

TITLE = (10.0, 65.0, 146.0, 18.0)  # x, y, w, h: "Preprocessing chain" across the top of its frame


def test_a_stretch_up_through_a_title_moves_past_its_end() -> None:
    source, target = (20.0, 90.0, 120.0, 36.0), (400.0, 90.0, 80.0, 36.0)
    route = [(140.0, 100.0), (142.0, 100.0), (142.0, 70.0), (380.0, 70.0), (380.0, 100.0), (400.0, 100.0)]
    out = clear_titles(route, [TITLE], [], (source, target))
    x = TITLE[0] + TITLE[2] + TITLE_CLEARANCE
    assert out == [(140.0, 100.0), (x, 100.0), (x, 70.0), (380.0, 70.0), (380.0, 100.0), (400.0, 100.0)]


def test_a_stretch_stays_where_moving_it_would_cross_a_box_or_leave_its_end() -> None:
    source, target = (20.0, 90.0, 120.0, 36.0), (400.0, 90.0, 80.0, 36.0)
    route = [(140.0, 100.0), (142.0, 100.0), (142.0, 70.0), (380.0, 70.0), (380.0, 100.0), (400.0, 100.0)]
    blocker = (150.0, 60.0, 30.0, 60.0)  # a box just past the title, and nothing free before the frame
    assert clear_titles(route, [TITLE], [blocker, (0.0, 60.0, 8.0, 60.0)], (source, target)) == route
    # the last stretch comes down into a box under the title: its end must stay on that box's top
    into = [(300.0, 20.0), (100.0, 20.0), (100.0, 95.0)]
    assert clear_titles(into, [TITLE], [], (None, (60.0, 95.0, 90.0, 36.0))) == into


def test_a_moved_stretch_never_runs_back_through_its_own_end_box() -> None:
    """Review: the way out past a title's start led the route's first stretch back across its source."""
    pts = [(140.0, 100.0), (145.0, 100.0), (145.0, 40.0), (400.0, 40.0)]
    source, title, blocker = (20.0, 90.0, 120.0, 36.0), (120.0, 45.0, 50.0, 14.0), (175.0, 40.0, 20.0, 20.0)
    assert clear_titles(pts, [title], [blocker], (source, None)) == pts
