"""Chart themes: the chart-specific sizes and colours on top of a figure :class:`Theme`.

Fonts, text colour and the categorical palette come from the figure theme
(crafter/render/theme.py: DejaVu Sans, Okabe–Ito), so a chart sits in a figure without a
seam. Sizes are px at 96 dpi printed 1:1: the "paper" chart fills a single column
(3.3 in = 317 px) by default, with 8 pt tick labels and legends, 9 pt axis titles and a
10 pt title; "double"
width is the 7 in double column; "slides" doubles the type for a projector.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from crafter.base.theme import PX_PER_IN, PX_PER_PT, THEMES, Theme, get_theme
from crafter.charts.errors import ChartSpecError
from crafter.spec.colors import is_css_color

SINGLE_COLUMN_IN = 3.3
DOUBLE_COLUMN_IN = 7.0


@dataclass(frozen=True)
class ChartTheme:
    name: str
    font_family: str
    text_color: str
    palette: tuple[str, ...]  # categorical colours, in order (colour-blind safe)
    width: float  # default total chart width (px): the column width
    aspect: float = 0.62  # default plot height / plot width
    min_plot: float = 80.0  # smallest plot side the layout will make
    max_plot_height: float = 420.0
    tick_font_size: float = 8 * PX_PER_PT  # 8 pt: the smallest size journals accept
    label_font_size: float = 9 * PX_PER_PT  # axis titles, like the figure's body text
    title_font_size: float = 10 * PX_PER_PT
    legend_font_size: float = 8 * PX_PER_PT
    header_font_size: float = 9 * PX_PER_PT  # facet headers
    value_font_size: float = 7.5 * PX_PER_PT  # text marks (heatmap cells)
    tick_size: float = 3.5
    tick_pad: float = 2.5  # tick to label
    title_pad: float = 5.0  # labels to axis title, title to plot
    tick_spacing: float = 48.0  # aim: one labelled tick per this many px of axis
    axis_color: str = "#4D4D4D"
    axis_width: float = 0.8
    grid_color: str = "#E3E3E3"
    grid_width: float = 0.6
    grid_dash: tuple[float, ...] | None = None  # dashed gridlines: dash, gap, ... (px); None: solid
    grid_opacity: float = 1.0
    axis_zindex: float = 0.0  # ≥ 1: the gridlines are drawn over the marks (matplotlib's default for bars)
    line_width: float = 1.6
    point_size: float = 30.0  # marker area in px^2 (Vega-Lite's size)
    line_point_size: float = 16.0
    bar_padding: float = 0.18  # band padding between categories (fraction of the step)
    offset_padding: float = 0.06  # between bars of one group
    error_width: float = 1.0
    error_tick: float = 6.0  # whisker cap width in px
    legend_symbol: float = 9.0
    legend_gap: float = 4.0  # symbol to label
    legend_row_gap: float = 3.0
    legend_col_gap: float = 12.0
    legend_pad: float = 10.0  # plot to legend
    facet_gap: float = 14.0
    band_opacity: float = 0.25  # error bands, area under lines
    sequential_scheme: str = "viridis"
    background: str = "#FFFFFF"
    grid: bool | None = None  # gridlines on continuous axes; None: the axis decides (on)
    title_weight: str = "bold"
    title_offset: float | None = None  # title's last line (baseline + descent) to the plot top; None: title_pad-based
    view_stroke: str | None = None  # a frame around the plot (all four sides), as matplotlib draws
    view_stroke_width: float = 1.0
    view_fill: str | None = None  # the plot's background (ggplot and seaborn's grey panel)
    domain: bool = True  # the axis lines (ggplot draws none: the panel's edge is the axis)
    ticks: bool = True  # the tick marks
    label_color: str | None = None  # tick labels (None: text_color; ggplot's are grey)
    axis_title_color: str | None = None  # axis titles (None: text_color)
    # legend swatches (Vega's symbolType: a shape's name, 'stroke', or path data in the square
    # −1…1, as matplotlib's 2 × 0.7 em bar handles are); symbolSize: the swatch's area, px²
    legend_symbol_type: str | None = None
    legend_symbol_size: float | None = None
    tick_direction: str = "out"  # "in": tick marks point into the plot (a house style's choice)
    legend_orient: str = "right"  # where a legend goes when the chart does not say

    def scaled(self, **changes: float) -> "ChartTheme":
        return replace(self, **changes)


def chart_theme(theme: Theme | str | None = None, *, width: str | float | None = None) -> ChartTheme:
    """The chart theme for a figure theme (name or object).

    ``width``: "single" (3.3 in), "double" (7 in) or a number of px; default the theme's.
    """
    base = get_theme(theme) if isinstance(theme, str) else (theme or THEMES["paper"])
    common = dict(font_family=base.font_family, text_color=base.text_color, palette=tuple(base.palette),
                  background=base.background)
    if base.name == "slides":
        ct = ChartTheme(
            name="slides", width=720.0, aspect=0.58, min_plot=140.0, max_plot_height=560.0,
            tick_font_size=16.0, label_font_size=18.0, title_font_size=22.0, legend_font_size=16.0,
            header_font_size=17.0, value_font_size=14.0, tick_size=6.0, tick_pad=4.0, title_pad=8.0,
            tick_spacing=80.0, axis_width=1.4, grid_width=1.0, line_width=3.0, point_size=80.0,
            line_point_size=40.0, error_width=2.0, error_tick=10.0, legend_symbol=14.0, legend_gap=6.0,
            legend_row_gap=5.0, legend_col_gap=20.0, legend_pad=16.0, facet_gap=24.0, **common,
        )
    else:
        ct = ChartTheme(name=base.name, width=SINGLE_COLUMN_IN * PX_PER_IN, **common)
        if base.name == "mono":
            ct = replace(ct, grid_color="#DDDDDD", sequential_scheme="greys")
    if base.chart_look:  # a house style's chart look (crafter.base.theme.styled_theme)
        ct = replace(ct, **base.chart_look)
    if width == "single":
        ct = replace(ct, width=SINGLE_COLUMN_IN * PX_PER_IN)
    elif width == "double":
        ct = replace(ct, width=DOUBLE_COLUMN_IN * PX_PER_IN)
    elif isinstance(width, (int, float)):
        ct = replace(ct, width=float(width))
    return ct


def as_chart_theme(theme: ChartTheme | Theme | str | None) -> ChartTheme:
    if isinstance(theme, ChartTheme):
        return theme
    return chart_theme(theme)


# Vega-Lite ``config`` properties Crafter draws: (config group, property) -> ChartTheme field
_CONFIG_FIELDS: dict[tuple[str, str], str] = {
    ("axis", "labelFontSize"): "tick_font_size",
    ("axis", "titleFontSize"): "label_font_size",
    ("axis", "tickSize"): "tick_size",
    ("axis", "labelPadding"): "tick_pad",
    ("axis", "titlePadding"): "title_pad",
    ("axis", "domainColor"): "axis_color",
    ("axis", "tickColor"): "axis_color",
    ("axis", "domainWidth"): "axis_width",
    ("axis", "tickWidth"): "axis_width",
    ("axis", "gridColor"): "grid_color",
    ("axis", "gridWidth"): "grid_width",
    ("axis", "gridDash"): "grid_dash",
    ("axis", "gridOpacity"): "grid_opacity",
    ("axis", "zindex"): "axis_zindex",
    ("axis", "grid"): "grid",
    ("title", "fontSize"): "title_font_size",
    ("title", "fontWeight"): "title_weight",
    ("title", "offset"): "title_offset",
    ("legend", "rowPadding"): "legend_row_gap",
    ("legend", "labelFontSize"): "legend_font_size",
    ("legend", "symbolType"): "legend_symbol_type",
    ("legend", "symbolSize"): "legend_symbol_size",
    ("legend", "labelOffset"): "legend_gap",
    ("view", "stroke"): "view_stroke",
    ("view", "strokeWidth"): "view_stroke_width",
    ("view", "fill"): "view_fill",
    ("axis", "domain"): "domain",
    ("axis", "ticks"): "ticks",
    ("axis", "labelColor"): "label_color",
    ("axis", "titleColor"): "axis_title_color",
}


_COLOR_FIELDS = ("axis_color", "grid_color", "label_color", "axis_title_color")


SYMBOL_NAMES = ("circle", "square", "cross", "diamond", "triangle", "triangle-up", "triangle-down",
                "triangle-left", "triangle-right", "stroke")
# path data of straight segments only (M, L, H, V, Z and numbers): written into an attribute as is
_SYMBOL_PATH = re.compile(r"^\s*[Mm](?:[\s,]*(?:[MmLlHhVvZz]|-?(?:\d+\.?\d*|\.\d+)(?:[eE]-?\d+)?))+\s*$")


def is_symbol_type(value: str) -> bool:
    """A legend ``symbolType`` Crafter draws: one of Vega's shape names or straight-segment path data."""
    return value in SYMBOL_NAMES or bool(_SYMBOL_PATH.fullmatch(value)) and len(value) <= 400


def configured_theme(ct: ChartTheme, config: dict | None, chart_id: str | None = None) -> ChartTheme:
    """``ct`` with a Vega-Lite ``config``'s supported properties applied (others are ignored,
    as a Vega-Lite renderer ignores what it does not draw).

    A value of the wrong type is an error naming its path (``config.axis.labelFontSize``).
    """
    changes: dict[str, object] = {}
    for (group, prop), name in _CONFIG_FIELDS.items():
        block = (config or {}).get(group)
        if not isinstance(block, dict) or prop not in block:
            continue
        v = block[prop]
        default = getattr(ct, name)
        if name in ("grid", "domain", "ticks"):
            ok = isinstance(v, bool)
        elif name == "title_weight":
            ok = isinstance(v, (str, int)) and not isinstance(v, bool)
            v = "bold" if v == "bold" or (isinstance(v, int) and v >= 600) else "normal"
        elif name == "grid_dash":
            # Vega-Lite's stroke dash array: numbers ≥ 0, not all zero ([] is solid)
            ok = isinstance(v, (list, tuple)) and all(isinstance(x, (int, float)) and not isinstance(x, bool)
                                                      and x >= 0 for x in v)
            v = tuple(float(x) for x in v) if ok and any(v) else None
        elif name in ("view_stroke", "view_fill"):
            ok = v is None or v == "" or is_css_color(v)
            v = None if v in (None, "", "transparent", "none") else v
        elif name == "legend_symbol_type":
            ok = isinstance(v, str) and is_symbol_type(v)
        elif name in _COLOR_FIELDS:
            # written into SVG attributes: a colour, nothing else
            ok = is_css_color(v) and v != "none"
        elif isinstance(default, str):
            ok = isinstance(v, str)
        else:
            ok = isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0
            v = float(v) if ok else v
        if not ok:
            raise ChartSpecError(f"config.{group}.{prop} has an unusable value {v!r}", chart=chart_id,
                                 path=f"config.{group}.{prop}")
        changes[name] = v
    return replace(ct, **changes) if changes else ct
