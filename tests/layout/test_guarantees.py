"""What every layout promises, on hand-made figures, the examples and generated figures, both engines.

No two nodes overlap; labels fit their shapes; members sit inside their groups; sibling
groups apart; edge labels off the nodes; routes orthogonal and ending on outlines;
2-decimal numbers; every component placed (see ``crafter.layout.check``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from layout_cases import CASES, case_figure, random_figure

from crafter.formats import load_figure
from crafter.layout import layout_figure, layout_problems, route_crossings

EXAMPLES = sorted(Path(__file__).resolve().parents[2].joinpath("examples").glob("*.dsl"))


@pytest.mark.parametrize("name", sorted(CASES))
def test_cases(name: str, engine: str) -> None:
    laid = layout_figure(case_figure(name), engine=engine)
    assert layout_problems(laid) == []
    assert route_crossings(laid) == []


@pytest.mark.parametrize("direction", ["TB", "RL", "BT"])
@pytest.mark.parametrize("name", ["nested_groups", "annotations", "self_loop", "edges_between_groups", "panels"])
def test_directions(name: str, direction: str, engine: str) -> None:
    laid = layout_figure(case_figure(name, direction), engine=engine)
    assert layout_problems(laid) == []
    assert route_crossings(laid) == []


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_examples(path: Path, engine: str) -> None:
    laid = layout_figure(load_figure(path), engine=engine)
    assert layout_problems(laid) == []
    assert route_crossings(laid) == []


@pytest.mark.parametrize("seed", range(12))
def test_generated(seed: int, engine: str) -> None:
    laid = layout_figure(random_figure(seed), engine=engine)
    assert layout_problems(laid) == []


def test_directions_flow_the_right_way(engine: str) -> None:
    for direction, (axis, sign) in {"LR": ("x", 1), "RL": ("x", -1), "TB": ("y", 1), "BT": ("y", -1)}.items():
        laid = layout_figure(case_figure("chain", direction), engine=engine)
        boxes = [laid.get(i).box for i in "abcd"]
        centres = [getattr(b, "c" + axis) * sign for b in boxes]  # type: ignore[union-attr]
        assert centres == sorted(centres), direction


def test_labels_wrap_to_the_theme_width(engine: str) -> None:
    laid = layout_figure(case_figure("long_labels"), engine=engine)
    a = laid.get("a")
    assert a.box.w <= 150 + 2 * 10 + 0.01  # node_max_text_w + padding (paper theme)
    assert a.box.h > 40  # several lines


def test_canvas_covers_everything_with_title_room(engine: str) -> None:
    laid = layout_figure(case_figure("panels"), engine=engine)
    assert laid.canvas is not None
    top = min(c.box.y for c in laid.components if c.box is not None)
    assert top >= 10 + 14 * 1.8 - 0.01  # margin + the title band of the paper theme
    for c in laid.components:
        if c.box is not None:
            assert c.box.right <= laid.canvas.w - 10 + 0.01 and c.box.bottom <= laid.canvas.h - 10 + 0.01


@pytest.mark.parametrize("name", ["nested_groups", "long_labels", "annotations", "panels"])
def test_slides_theme(name: str, engine: str) -> None:
    fig = case_figure(name).model_copy(update={"theme": "slides"})
    laid = layout_figure(fig, engine=engine)
    assert layout_problems(laid) == []
    assert route_crossings(laid) == []
