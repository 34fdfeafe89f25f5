"""Big figures lay out in seconds and keep the promises that matter (no overlaps, groups hold members)."""

from __future__ import annotations

import pytest
from layout_cases import random_figure

from crafter.benchmarks.render import bench_figure
from crafter.layout import layout_figure, layout_problems


def test_5000_node_pipeline() -> None:
    """A 3,000-node chain with 2,000 branches and two big groups (the benchmark figure): ~5 s."""
    laid = layout_figure(bench_figure(5000))
    assert layout_problems(laid) == []


@pytest.mark.slow
def test_5000_node_random_graph() -> None:
    """Random tree plus cross and back edges, nested groups, every shape: ~10 s on 2 busy cores."""
    laid = layout_figure(random_figure(1, n=5000))
    assert layout_problems(laid, check_routes=False) == []


@pytest.mark.slow
def test_500_nodes_with_elk_size_limit() -> None:
    """Above the ELK size limit "auto" switches to the Python engine instead of waiting on ELK."""
    laid = layout_figure(bench_figure(500))
    assert layout_problems(laid) == []
