"""A house style as the figure carries it: values layered over the figure's named theme.

A learned style (``crafter style learn``, :mod:`crafter.style`) is applied to a figure by setting
``Figure.style`` to a :class:`StyleLayer`. Every renderer and export takes its look from
``crafter.base.theme.figure_theme(fig)``, which lays this layer over the named theme, so an SVG,
PNG, PDF, TikZ, draw.io or PowerPoint file of the figure honours the style without knowing of it,
and the style travels inside the figure (JSON, DSL, the SVG's ``<metadata>``).

``None`` means "not known": the theme's value stays. Unknown fields are refused (``extra="forbid"``),
so nothing a hand-edited file says is silently ignored.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from crafter.spec.colors import is_color

ArrowKind = Literal["none", "arrow", "open", "diamond", "circle", "bar"]
FrameDash = Literal["solid", "dashed", "dotted"]
TickDirection = Literal["out", "in"]
LegendOrient = Literal["right", "left", "top", "bottom", "top-right", "top-left", "bottom-right", "bottom-left",
                       "none"]
COLOR_FIELDS = ("text_color", "node_fill", "node_stroke", "edge_color", "edge_label_color", "group_fill",
                "group_stroke", "group_text_color", "background")


def _colour(v: str | None) -> str | None:
    if v is not None and (v == "none" or not is_color(v)):
        raise ValueError(f"'{v}' is not a colour (use #rgb, #rrggbb or a CSS colour name)")
    return v


class _Layer(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True, allow_inf_nan=False, frozen=True)


class ChartLook(_Layer):
    """How charts are drawn: gridlines, spines, ticks, legend, plot background."""

    grid: bool | None = None  # gridlines on continuous axes
    grid_color: str | None = None
    frame: bool | None = None  # a box around the plot (matplotlib's four spines)
    domain: bool | None = None  # the axis lines (left and bottom spines)
    ticks: bool | None = None  # tick marks at all
    tick_direction: TickDirection | None = None
    legend_orient: LegendOrient | None = None  # where a legend goes when the chart does not say
    plot_background: str | None = None  # the plot panel's fill (ggplot's grey)
    axis_color: str | None = None
    axis_width: float | None = Field(default=None, ge=0, le=20)

    _colours = field_validator("grid_color", "plot_background", "axis_color")(classmethod(lambda cls, v: _colour(v)))


class StyleLayer(_Layer):
    """A named style's values, as :func:`crafter.base.theme.figure_theme` lays them over a theme."""

    name: str = Field(min_length=1, max_length=80)
    font_family: str | None = Field(default=None, min_length=1, max_length=200, pattern=r"^[^<>&\"]+$")
    font_size: float | None = Field(default=None, gt=0, le=200)  # node labels
    small_font_size: float | None = Field(default=None, gt=0, le=200)  # edge labels, annotations
    title_font_size: float | None = Field(default=None, gt=0, le=200)
    group_font_size: float | None = Field(default=None, gt=0, le=200)
    stroke_width: float | None = Field(default=None, ge=0, le=20)  # node outlines
    edge_width: float | None = Field(default=None, ge=0, le=20)
    group_stroke_width: float | None = Field(default=None, ge=0, le=20)
    corner_radius: float | None = Field(default=None, ge=0, le=100)
    node_sep: float | None = Field(default=None, ge=0, le=500)  # between nodes in one layer
    rank_sep: float | None = Field(default=None, ge=0, le=500)  # between layers
    text_color: str | None = None
    node_fill: str | None = None
    node_stroke: str | None = None
    edge_color: str | None = None
    edge_label_color: str | None = None
    group_fill: str | None = None
    group_stroke: str | None = None
    group_text_color: str | None = None
    group_dash: FrameDash | None = None  # how a group frame drawn "solid" in the figure is drawn
    background: str | None = None
    palette: tuple[str, ...] | None = None  # chart series colours, in order
    light_palette: tuple[str, ...] | None = None  # node fills by role (the figure's fill colours)
    arrow_head: ArrowKind | None = None  # how an edge's default "arrow" head is drawn
    chart: ChartLook | None = None

    _colours = field_validator(*COLOR_FIELDS)(classmethod(lambda cls, v: _colour(v)))

    @field_validator("palette", "light_palette")
    @classmethod
    def _palette(cls, v: tuple[str, ...] | None) -> tuple[str, ...] | None:
        if v is not None:
            if not v or len(v) > 32:
                raise ValueError("a palette holds 1 to 32 colours")
            for c in v:
                _colour(c)
        return v
