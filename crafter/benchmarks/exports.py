"""``crafter bench export``: how long each export and import takes on a large synthetic figure."""

from __future__ import annotations

import time
from typing import Any, Callable

from crafter.formats import drawio_to_figure, figure_to_drawio, figure_to_latex, figure_to_pptx, import_svg
from crafter.formats.pptx.read import pptx_to_figure
from crafter.render import figure_to_svg
from crafter.spec import Box, Edge, Figure, Node, Point, Size


def export_bench_figure(nodes: int) -> Figure:
    """``nodes`` boxes on a grid, laid out already, in chains of ten joined by straight edges."""
    cols = max(int(nodes ** 0.5), 1)
    comps: list = []
    for i in range(nodes):
        comps.append(Node(kind="node", id=f"n{i}", label=f"Node {i}",
                          box=Box(x=20 + (i % cols) * 140, y=20 + (i // cols) * 70, w=100, h=36)))
    for i in range(nodes - 1):
        if i % 10 != 9:
            a, b = comps[i].box, comps[i + 1].box
            comps.append(Edge(kind="edge", id=f"e{i}", source=f"n{i}", target=f"n{i + 1}",
                              route=[Point(x=a.right, y=a.cy), Point(x=b.x, y=b.cy)]))
    return Figure(canvas=Size(w=40 + cols * 140, h=40 + (nodes // cols + 1) * 70), components=comps)


def run_export_bench(fig: Figure) -> list[tuple[str, float]]:
    """(what, seconds) for the TikZ, draw.io and PowerPoint exports and imports, and the SVG merge-back import."""
    rows: list[tuple[str, float]] = []

    def timed(name: str, fn: Callable[..., Any], *args: Any) -> Any:
        t0 = time.perf_counter()
        out = fn(*args)
        rows.append((name, time.perf_counter() - t0))
        return out

    svg = figure_to_svg(fig)
    timed("TikZ (standalone .tex)", figure_to_latex, fig)
    xml = timed("draw.io export", figure_to_drawio, fig)
    timed("draw.io import (merge)", drawio_to_figure, xml)
    timed("SVG import (unedited, merge-back)", import_svg, svg)
    pptx = timed("PowerPoint export", figure_to_pptx, fig)
    timed("PowerPoint import (merge)", pptx_to_figure, pptx)
    return rows
