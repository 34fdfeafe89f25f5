"""A long flat left-to-right chain wraps into rows (nine protocol steps are not drawn as one 8:1 strip); a
short chain stays on one row, and a chain with skip edges keeps its one row and its lanes."""

from __future__ import annotations

import pytest

from crafter.layout.elk import WRAP_LAYERS, elk_available
from crafter.layout.figure import layout_figure
from crafter.spec import parse_dsl


def _chain(n: int, skip: bool = False) -> str:
    lines = ['figure "Station routine" direction=LR']
    lines += [f's{i} node "Step {i} of the station routine"' for i in range(n)]
    lines += [f"e{i} edge s{i} -> s{i + 1}" for i in range(n - 1)]
    if skip:
        lines.append(f"k edge s1 -> s{n - 2}")
    return "\n".join(lines)


def _rows(fig) -> int:  # type: ignore[no-untyped-def]
    return len({round(n.box.cy) for n in fig.of_kind("node")})


@pytest.fixture(autouse=True)
def _elk() -> None:
    if not elk_available():
        pytest.skip("Node.js or elkjs is not installed")


def test_nine_steps_in_a_row_wrap_into_rows() -> None:
    fig = layout_figure(parse_dsl(_chain(9)), engine="elk")
    boxes = [n.box for n in fig.of_kind("node")]
    width = max(b.x + b.w for b in boxes) - min(b.x for b in boxes)
    height = max(b.y + b.h for b in boxes) - min(b.y for b in boxes)
    assert _rows(fig) >= 2
    assert width / height < 5, (width, height)
    order = [n.box for n in sorted(fig.of_kind("node"), key=lambda n: int(n.id[1:]))]
    assert all(a.cy <= b.cy + 1 for a, b in zip(order, order[1:]))  # read row by row, top to bottom


def test_a_short_chain_and_a_chain_with_skips_stay_on_one_row() -> None:
    assert _rows(layout_figure(parse_dsl(_chain(WRAP_LAYERS - 1)), engine="elk")) == 1
    assert _rows(layout_figure(parse_dsl(_chain(9, skip=True)), engine="elk")) == 1


def test_a_long_chain_beside_a_group_wraps_too() -> None:
    # networking-security-004: thirteen steps in one 13:1 strip beside a 'Detection stage' group
    dsl = _chain(9) + '\nr node "Ruleset"\nd node "Detection"\ng group "Detection stage" [r, d]\nf edge r -> d'
    fig = layout_figure(parse_dsl(dsl), engine="elk")
    assert _rows(fig) >= 3
    boxes = [c.box for c in fig.components if c.kind in ("node", "group")]
    width = max(b.x + b.w for b in boxes) - min(b.x for b in boxes)
    height = max(b.y + b.h for b in boxes) - min(b.y for b in boxes)
    assert width / height < 5, (width, height)
