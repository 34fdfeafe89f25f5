"""A 5,000-node figure renders (the writer does linear work per component)."""

from __future__ import annotations

import time

from render_helpers import hand_layout

from crafter.formats import load_svg
from crafter.render import figure_to_svg
from crafter.spec import parse_dsl


def test_five_thousand_nodes_render() -> None:
    n = 5000
    lines = [f'n{i} node "Step {i}"' for i in range(n)]
    lines += [f"e{i} edge n{i} -> n{i + 1}" for i in range(n - 1)]
    lines += [f'g{k} group "Stage {k}" [{", ".join(f"n{i}" for i in range(k * 50, k * 50 + 50))}]' for k in range(10)]
    fig = hand_layout(parse_dsl("\n".join(lines)), cols=70)
    start = time.perf_counter()
    svg = figure_to_svg(fig)
    elapsed = time.perf_counter() - start
    print(f"5,000 nodes + {n - 1} edges: SVG written in {elapsed * 1000:.0f} ms ({len(svg) / 1e6:.1f} MB)")
    assert svg.count('data-crafter-kind="node"') == n
    assert svg.count('data-crafter-kind="edge"') == n - 1
    assert load_svg(svg) == fig
