"""Figure themes: fonts, sizes, spacing and colours shared by layout and rendering.

Sizes are SVG user units (px at 96 dpi). The "paper" theme targets a single-column
figure (3.3 in ≈ 317 px) to a double-column one (7 in ≈ 672 px) printed at 1:1, so
its 12 px body text prints at 9 pt.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

PX_PER_PT = 96 / 72
PX_PER_IN = 96.0
TITLE_MAX_W = 480.0  # px: a title up to this wide stays on one line, widening a narrow figure

# Okabe–Ito: the colour-blind-safe palette most journals recommend.
OKABE_ITO = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
# Light fills derived from the same hues, for node backgrounds where dark text must stay readable.
OKABE_ITO_LIGHT = ("#D6E6F4", "#FBEBCB", "#CDEBE1", "#F3E0EC", "#DDF0FB", "#F7DCCB", "#FBF6CC", "#E6E6E6")


@dataclass(frozen=True)
class Theme:
    name: str
    font_family: str = "DejaVu Sans, Arial, Helvetica, sans-serif"
    font_size: float = 12.0  # node labels
    small_font_size: float = 10.5  # edge labels, annotations
    title_font_size: float = 14.0
    group_font_size: float = 11.0
    line_height: float = 1.25  # multiple of font size
    node_pad_x: float = 10.0
    node_pad_y: float = 7.0
    node_min_w: float = 64.0
    node_min_h: float = 32.0
    node_max_text_w: float = 150.0  # labels wrap beyond this width
    node_sep: float = 22.0  # between nodes in one layer
    rank_sep: float = 44.0  # between layers
    group_pad: float = 12.0
    group_label_h: float = 18.0
    panel_sep: float = 28.0
    margin: float = 10.0
    stroke_width: float = 1.0
    edge_width: float = 1.0
    corner_radius: float = 6.0
    background: str = "#FFFFFF"
    text_color: str = "#1A1A1A"
    node_fill: str = "#F2F5FA"
    node_stroke: str = "#4A5568"
    edge_color: str = "#3C4656"
    group_fill: str = "#FAFAFA"
    group_stroke: str = "#9AA3AF"
    # drawing details used by the renderer (crafter/render/svg.py)
    edge_corner_radius: float = 4.0  # rounding of orthogonal route corners
    edge_label_color: str = "#333B47"
    group_stroke_width: float = 0.9
    group_text_color: str = "#3C4656"
    group_label_bold: bool = True
    group_label_inset: float = 8.0  # label's left offset inside the group frame
    panel_font_size: float = 12.0  # "(a) Title" panel headings
    annotation_color: str = "#3C4656"
    palette: tuple[str, ...] = OKABE_ITO
    light_palette: tuple[str, ...] = OKABE_ITO_LIGHT
    extra: dict = field(default_factory=dict)
    # a house style's choices (crafter.style): the defaults draw exactly what the figure says
    arrow_head: str = "arrow"  # how an edge's default "arrow" head is drawn ("open": a lab that draws open heads)
    group_dash: str = "solid"  # how a group frame the figure leaves "solid" is drawn
    style_name: str | None = None  # the house style laid over this theme, if any
    chart_look: dict = field(default_factory=dict)  # ChartTheme fields the style sets (crafter.charts.theme)

    def head_kind(self, head: str) -> str:
        """The marker an edge end is drawn with: the figure's, with the default "arrow" in the house style."""
        return self.arrow_head if head == "arrow" else head

    def frame_dash(self, style: str) -> str:
        """A group frame's dash: the figure's, with the default "solid" in the house style."""
        return self.group_dash if style == "solid" else style


THEMES: dict[str, Theme] = {
    "paper": Theme(name="paper"),
    "slides": Theme(
        name="slides",
        font_size=20.0, small_font_size=16.0, title_font_size=28.0, group_font_size=17.0,
        node_pad_x=16.0, node_pad_y=11.0, node_min_w=110.0, node_min_h=52.0, node_max_text_w=240.0,
        node_sep=34.0, rank_sep=70.0, group_pad=18.0, group_label_h=28.0, panel_sep=44.0, margin=16.0,
        stroke_width=2.0, edge_width=2.0, corner_radius=10.0,
        edge_corner_radius=7.0, group_stroke_width=1.5, group_label_inset=12.0, panel_font_size=20.0,
        node_fill="#E8F1FB", node_stroke="#1F3B5C", edge_color="#1F3B5C", group_fill="#F6F8FB",
    ),
    "mono": Theme(
        name="mono",
        node_fill="#FFFFFF", node_stroke="#000000", edge_color="#000000", group_fill="#FFFFFF",
        group_stroke="#555555", text_color="#000000",
        edge_label_color="#000000", group_text_color="#000000", annotation_color="#000000",
        palette=("#000000", "#444444", "#777777", "#AAAAAA"),
        light_palette=("#FFFFFF", "#EEEEEE", "#DDDDDD", "#CCCCCC"),
    ),
}


def get_theme(name: str) -> Theme:
    try:
        return THEMES[name]
    except KeyError:
        raise KeyError(f"unknown theme '{name}'; expected one of {', '.join(THEMES)}") from None


# StyleLayer fields that are Theme fields of the same name (the rest: palettes, arrowheads, charts)
_LAYER_FIELDS = ("font_family", "font_size", "small_font_size", "title_font_size", "group_font_size", "stroke_width",
                 "edge_width", "group_stroke_width", "corner_radius", "node_sep", "rank_sep", "text_color", "node_fill",
                 "node_stroke", "edge_color", "edge_label_color", "group_fill", "group_stroke", "group_text_color",
                 "group_dash", "background", "palette", "light_palette", "arrow_head")
# ChartLook fields -> ChartTheme fields (crafter.charts.theme.ChartTheme)
_CHART_LOOK = {"grid": "grid", "grid_color": "grid_color", "domain": "domain", "ticks": "ticks",
               "tick_direction": "tick_direction", "legend_orient": "legend_orient", "plot_background": "view_fill",
               "axis_color": "axis_color", "axis_width": "axis_width"}


def styled_theme(theme: Theme, layer: Any) -> Theme:
    """``theme`` with a house style (a :class:`crafter.spec.style_layer.StyleLayer`) laid over it:
    every value the style knows replaces the theme's; what it does not know stays the theme's."""
    if layer is None:
        return theme
    changes: dict[str, Any] = {k: getattr(layer, k) for k in _LAYER_FIELDS if getattr(layer, k) is not None}
    if layer.font_size is not None and layer.group_font_size is None:
        # group labels keep their size relative to node labels
        changes["group_font_size"] = round(theme.group_font_size * layer.font_size / theme.font_size, 2)
    if layer.font_size is not None:
        changes.setdefault("panel_font_size", layer.font_size)
    if layer.text_color is not None:
        changes.setdefault("annotation_color", layer.text_color)
    look: dict[str, Any] = dict(theme.chart_look)
    if layer.chart is not None:
        for k, ct_field in _CHART_LOOK.items():
            v = getattr(layer.chart, k)
            if v is not None:
                look[ct_field] = v
        if layer.chart.frame is not None:
            look["view_stroke"] = (layer.chart.axis_color or "#4D4D4D") if layer.chart.frame else None
    return replace(theme, **changes, chart_look=look, style_name=layer.name)


def figure_theme(fig: Any) -> Theme:
    """The theme a figure is drawn in: its named theme, the house style it carries (``fig.style``)
    laid over it, and the figure's own overrides (its ``background``). Every renderer, exporter and
    check takes its look from here, so a figure on a grey page is drawn, exported and
    contrast-checked on grey, and a figure in a lab's style is drawn in it by every export."""
    theme = styled_theme(get_theme(fig.theme), getattr(fig, "style", None))
    background = getattr(fig, "background", None)
    return theme if background is None else replace(theme, background=background)
