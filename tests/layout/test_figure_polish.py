"""What makes a laid-out figure read like a paper figure: compact feedback edges, groups that
hug their members, labels beside vertical edges without a layer of their own, labels off
other edges and group frames."""

from __future__ import annotations

from crafter.layout import layout_figure
from crafter.spec import parse_dsl

LOOP = """figure "loop" direction=TB
a node "A"
b node "B"
c node "C"
d node "D"
e1 edge a -> b
e2 edge b -> c
e3 edge c -> d
e4 edge d -> b "again"
g group "G" [b, c]
"""


def _box(fig, cid):
    b = fig.by_id()[cid].box
    return (b.x, b.y, b.w, b.h)


def test_feedback_edge_hooks_back_beside_the_column(engine: str) -> None:
    fig = layout_figure(parse_dsl(LOOP), engine=engine)
    route = fig.by_id()["e4"].route
    xs = [p.x for p in route]
    boxes = [_box(fig, c) for c in "abcd"]
    left = min(b[0] for b in boxes)
    right = max(b[0] + b[2] for b in boxes)
    # the detour stays near the column: no loop around the whole figure
    assert min(xs) > left - 60 and max(xs) < right + 60


def test_groups_hug_their_members(engine: str) -> None:
    fig = layout_figure(parse_dsl(LOOP), engine=engine)
    g = _box(fig, "g")
    b, c = _box(fig, "b"), _box(fig, "c")
    bottom = max(b[1] + b[3], c[1] + c[3])
    assert g[1] + g[3] - bottom < 30  # padding, not room for edges passing by


def test_label_beside_vertical_edge_adds_little_gap(engine: str) -> None:
    plain = layout_figure(parse_dsl('figure "t" direction=TB\na node "A"\nb node "B"\ne edge a -> b\n'),
                          engine=engine)
    labelled = layout_figure(parse_dsl('figure "t" direction=TB\na node "A"\nb node "B"\n'
                                       'e edge a -> b "a label"\n'), engine=engine)
    gap = lambda f: _box(f, "b")[1] - (_box(f, "a")[1] + _box(f, "a")[3])  # noqa: E731
    assert gap(labelled) <= gap(plain) + 30
