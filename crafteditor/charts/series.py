"""A data series read off a chart's marks: its paint, mark kind, points, and how it was drawn."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Series:
    color: tuple[int, int, int]
    kind: str  # bar, line, point
    points: list[tuple[Any, float]]  # (x value or category, y value)
    name: str | None = None
    legend_title: str | None = None  # the legend's heading (kept on the first series)
    marker_areas: list[float] = field(default_factory=list)  # ink px² of each point marker
    bar_spans: list[tuple[float, float]] = field(default_factory=list)  # each bar's left and right, px
    floors: list[tuple[float, float, float]] = field(default_factory=list)  # each bar's left, right, top px
    errors: list[tuple[float, float] | None] = field(default_factory=list)  # per point: (down, up) error bar
    stacked: bool = False  # segments standing on another series' bars
    band: list[tuple[float, float] | None] = field(default_factory=list)  # per point: a shaded band's (lo, hi)
    line_width: float | None = None
    line_core: float | None = None  # the line's skeleton width (lines.line_width), what the speck test weighs
    shape: str | None = None  # the markers' shape, where they have one (circle, square, diamond, triangle-*)
    outline: tuple[tuple[int, int, int], float] | None = None  # the marks' edge: colour, width px
    hollow: bool = False  # point markers drawn as outlines (open circles)
    fit: list[tuple[Any, float]] = field(default_factory=list)  # a curve drawn through the points in their paint
    swatch: tuple[float, float, float] | None = None  # its legend swatch's width, height, gap to the label, px
