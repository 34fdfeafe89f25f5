"""A chart found on the page: its boxes, the pixels it owns, its Vega-Lite spec and its look, and
the FigureSpec ``chart`` component it becomes, its box moved so that the re-rendered plot lands
on the detected one."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from crafteditor.charts.style import ChartStyle
from crafteditor.config import THEME
from crafter.charts.compile.chart import plan_for
from crafter.charts.render.chart_layout import layout_chart
from crafter.charts.theme import chart_theme
from crafter.spec.model import Box, Chart


@dataclass
class ChartResult:
    box: tuple[float, float, float, float]  # x0, y0, x1, y1 in image pixels (the whole chart)
    plot: tuple[float, float, float, float]  # plot area
    mask: np.ndarray  # pixels this chart owns (no shapes or lines are searched there)
    run_indices: list[int]
    spec: dict[str, Any]
    title: str | None = None
    style: ChartStyle | None = None
    kept_text: list[int] = field(default_factory=list)  # its runs left as text ('40 MB/s' ticks: no format writes them)
    axes: tuple[Any, Any] | None = None  # the x and y Axis read (a plot sharing one reads its marks on it)

    def component(self, builder: Any) -> Any:
        x0, y0, x1, y1 = self.box
        px0, py0, px1, py1 = self.plot
        s = builder.s
        spec = dict(self.spec)
        if self.style is not None:
            self.style.apply(spec, self.plot, s)
        # the plot's own size too, so the re-rendered axes span what the original's did
        chart = Chart(kind="chart", id=builder.new_id("chart", self.title), spec=spec,
                      box=builder.box(x0, y0, x1 - x0, y1 - y0), pinned=True,
                      width=round((px1 - px0) * s, 2), height=round((py1 - py0) * s, 2))
        return _pin_plot(chart, (px0 * s, py0 * s), (x1 * s, y1 * s))


def _pin_plot(chart: Any, plot_xy: tuple[float, float], far: tuple[float, float]) -> Any:
    """Move the chart's box so that the renderer's plot area lands on the detected one.

    The renderer puts the plot ``left``/``top`` px inside the box (room for tick labels, axis
    title, chart title, all in its own type sizes); the detected box is the ink's extent, so
    without this the whole re-rendered chart sits a few px off the original.
    """
    ct = chart_theme(THEME)
    box = chart.box
    for _ in range(2):  # the title may wrap differently at the new width: settle once more
        lay = layout_chart(plan_for(chart), ct, width=box.w, height=box.h)
        x, y = plot_xy[0] - lay.left, plot_xy[1] - lay.top - lay.header_h
        w = max(far[0] - x, lay.left + lay.pw + 3.0)
        h = max(far[1] - y, lay.top + lay.header_h + lay.ph + 2.0)
        box = Box(x=round(x, 2), y=round(y, 2), w=round(w, 2), h=round(h, 2))
        chart = chart.model_copy(update={"box": box})
    return chart


def box_mask(box, H: int, W: int) -> np.ndarray:
    """The pixels of a chart's box, which no shape or line search looks at."""
    mask = np.zeros((H, W), bool)
    mask[int(box[1]):int(math.ceil(box[3])), int(box[0]):int(math.ceil(box[2]))] = True
    return mask
