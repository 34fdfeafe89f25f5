"""Chart layout: every part's size and place before anything is drawn.

The axes (ticks, label angle, the room their labels and titles take), the legends' places,
the title's lines and the plot size, settled by measuring the axes at a guessed size and
again at the size they leave (they depend on each other).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from crafter.base.text import ASCENT, DESCENT, wrap
from crafter.base.theme import PX_PER_IN, Theme
from crafter.charts import scales as sc
from crafter.charts.compile.chart import plan_for
from crafter.charts.compile.encoding import MISSING
from crafter.charts.compile.plan import ChartPlan
from crafter.charts.render.legends import Legend, build_legends, measure_legend
from crafter.charts.render.plan_scales import ChartScales, axis_option, build_scales, plan_channels
from crafter.charts.render.text_measure import text_width
from crafter.charts.theme import DOUBLE_COLUMN_IN, ChartTheme, as_chart_theme, configured_theme

_UNSET = object()


@dataclass
class AxisLayout:
    channel: str
    scale: sc.PositionScale
    title: str | None
    show: bool
    grid: bool
    labels: bool
    angle: float = 0.0
    extent: float = 0.0  # px the axis needs outside the plot (labels + title)
    title_pad: float = 0.0  # tick labels to axis title (the channel's axis.titlePadding, else the theme's)
    orient: str = "bottom"  # Vega-Lite's axis.orient: x "bottom"/"top", y "left"/"right"


@dataclass
class ChartLayout:
    plan: ChartPlan
    ct: ChartTheme
    scales: ChartScales
    width: float
    height: float
    pw: float  # plot (cell) width
    ph: float
    left: float  # plot origin of cell (0, 0)
    top: float
    gap_x: float
    gap_y: float
    legends: list[tuple[Legend, float, float]]  # legend, x, y (chart-local)
    x_axis: AxisLayout | None
    y_axis: AxisLayout | None
    title_y: float = 0.0
    title_lines: list[str] = field(default_factory=list)
    header_h: float = 0.0

    def cell_origin(self, row: int, col: int) -> tuple[float, float]:
        return (self.left + col * (self.pw + self.gap_x), self.top + self.header_h + row * (self.ph + self.gap_y))


def label_height(ax: AxisLayout, ct: ChartTheme) -> float:
    fs = ct.tick_font_size
    if not ax.labels:
        return 0.0
    labels = [t.label for t in ax.scale.ticks if not t.minor]
    if ax.angle == 0:
        return fs * (ASCENT + DESCENT)
    w = max((text_width(lab, fs) for lab in labels), default=0.0)
    a = math.radians(abs(ax.angle))
    return w * math.sin(a) + fs * math.cos(a) * 0.8


def _x_axis_extent(ax: AxisLayout, ct: ChartTheme) -> float:
    if not ax.show:
        return 0.0
    h = ct.tick_size + ct.tick_pad + label_height(ax, ct)
    if ax.title:
        h += ax.title_pad + ct.label_font_size * (ASCENT + DESCENT)
    return h + 1.0


def _y_axis_extent(ax: AxisLayout, ct: ChartTheme) -> float:
    if not ax.show:
        return 0.0
    fs = ct.tick_font_size
    w = ct.tick_size + ct.tick_pad
    if ax.labels:
        w += max((text_width(t.label, fs) for t in ax.scale.ticks if not t.minor), default=0.0)
    if ax.title:
        w += ax.title_pad + ct.label_font_size * (ASCENT + DESCENT)
    return w + 1.0


def _auto_angle(ax: AxisLayout, ct: ChartTheme) -> float:
    """Band/point x labels: horizontal if they fit their step, else 45°, else 90°."""
    s = ax.scale
    labels = [t.label for t in s.ticks]
    if not labels:
        return 0.0
    fs = ct.tick_font_size
    if isinstance(s, sc.BandScale):
        step = s.step if s.step else s.length / max(1, len(labels))
        widest = max(text_width(lab, fs) for lab in labels)
        if widest <= step * 0.95:
            return 0.0
        if fs * 1.45 <= step:
            return -45.0
        return -90.0
    # continuous: labels never rotate; the tick count shrinks instead
    return 0.0


def _continuous_labels_fit(ax: AxisLayout, ct: ChartTheme) -> bool:
    ticks = [t for t in ax.scale.ticks if not t.minor]
    fs = ct.tick_font_size
    for a, b in zip(ticks, ticks[1:]):
        need = (text_width(a.label, fs) + text_width(b.label, fs)) / 2 + fs * 0.6
        if abs(b.pos - a.pos) < need:
            return False
    return True


def _finalize_axis(plan: ChartPlan, name: str, scale: sc.PositionScale, length: float, ct: ChartTheme,
                   r0: float, r1: float) -> AxisLayout:
    chans = plan_channels(plan, name)
    show = any(c.axis is not None for c in chans) if chans else False
    title: Any = next((c.axis["title"] for c in chans if c.axis is not None and "title" in c.axis), _UNSET)
    if title is _UNSET:
        explicit = [c for c in chans if c.title is not MISSING]
        title = explicit[0].title_text() if explicit else next((c.title_text() for c in chans if c.is_field), None)
    grid_default = isinstance(scale, sc.ContinuousScale) and ct.grid is not False
    grid = bool(axis_option(chans, "grid", grid_default))
    labels = bool(axis_option(chans, "labels", True))
    scale.set_range(r0, r1)
    spacing = ct.tick_spacing if name == "x" else ct.tick_spacing * 0.8
    scale.finalize(length, spacing)
    ax = AxisLayout(name, scale, title if isinstance(title, str) or title is None else str(title), show, grid, labels)
    pad = axis_option(chans, "titlePadding")
    ok = isinstance(pad, (int, float)) and not isinstance(pad, bool) and pad >= 0
    ax.title_pad = float(pad) if ok else ct.title_pad
    orient = axis_option(chans, "orient")
    sides = ("bottom", "top") if name == "x" else ("left", "right")
    ax.orient = orient if orient in sides else sides[0]
    if isinstance(scale, sc.ContinuousScale) and name == "x" and scale.tick_count is None:
        # fewer ticks until the labels do not collide
        tries = 0
        while not _continuous_labels_fit(ax, ct) and tries < 6:
            spacing *= 1.35
            tries += 1
            scale.finalize(length, spacing)
    if isinstance(scale, sc.ContinuousScale) and name == "y":
        scale.declutter(ct.tick_font_size * 1.15)
    if name == "x":
        angle = axis_option(chans, "labelAngle")
        ax.angle = float(angle) if isinstance(angle, (int, float)) else _auto_angle(ax, ct)
        if ax.angle > 180:
            ax.angle -= 360
    return ax


def _plot_size_request(plan: ChartPlan, scales: ChartScales, name: str, value: Any) -> float | None:
    if isinstance(value, (int, float)) and value > 0:
        return float(value)
    if isinstance(value, dict) and isinstance(value.get("step"), (int, float)):
        s = scales.x if name == "width" else scales.y
        n = len(s.domain) if isinstance(s, sc.BandScale) else 10
        return float(value["step"]) * max(1, n)
    return None


def layout_chart(plan: ChartPlan, ct: ChartTheme, width: float | None = None,
                 height: float | None = None) -> ChartLayout:
    """Sizes and positions of every part; ``width``/``height`` fix the outer size (a layout box)."""
    ct = configured_theme(ct, plan.config, plan.chart_id)
    scales = build_scales(plan, ct)
    legends = build_legends(plan, scales, ct)
    header_h = ct.header_font_size * (ASCENT + DESCENT) + 4.0 if plan.facet_field else 0.0
    ncol, nrow = plan.n_cols, plan.n_rows
    gap_x = ct.facet_gap
    req_w = _plot_size_request(plan, scales, "width", plan.width)
    req_h = _plot_size_request(plan, scales, "height", plan.height)
    title_lines = _title_lines(plan.title, ct, width or (req_w and req_w * 1.3) or ct.width)
    title_h = (len(title_lines) * ct.title_font_size * 1.2 - ct.title_font_size * (1.2 - ASCENT - DESCENT)
               + ct.title_pad * 1.5) if title_lines else 0.0
    default_total = ct.width if ncol == 1 else max(ct.width, DOUBLE_COLUMN_IN * PX_PER_IN * (ct.width / 316.8))
    if width is None and req_w is None:
        width = default_total
    y_disc = isinstance(scales.y, sc.BandScale)

    def measure(pw: float, ph: float) -> tuple[AxisLayout | None, AxisLayout | None]:
        xa = _finalize_axis(plan, "x", scales.x, pw, ct, 0.0, pw) if scales.x is not None else None
        ya = None
        if scales.y is not None:
            r0, r1 = (0.0, ph) if y_disc else (ph, 0.0)
            ya = _finalize_axis(plan, "y", scales.y, ph, ct, r0, r1)
        return xa, ya

    # start from a guess, then settle (the axes' extents depend on the plot size and back)
    pw = req_w or max(ct.min_plot, (width or default_total) * 0.75 / ncol)
    if req_h is not None:
        ph = req_h
    elif height is not None:
        ph = max(ct.min_plot * 0.5, height * 0.7 / nrow)
    else:
        ph = _default_height(pw, scales, ct)
    for _ in range(4):
        before = (pw, ph)
        xa, ya = measure(pw, ph)
        y_ext = _y_axis_extent(ya, ct) if ya is not None else 2.0
        x_ext = _x_axis_extent(xa, ct) if xa is not None else 2.0
        y_right = ya is not None and ya.orient == "right"
        x_top = xa is not None and xa.orient == "top"
        left, right_axis = (2.0, y_ext) if y_right else (y_ext, 0.0)
        bottom, top_axis = (2.0, x_ext) if x_top else (x_ext, 0.0)
        x_over = 0.0
        if xa is not None and xa.show and xa.labels and isinstance(xa.scale, sc.ContinuousScale) and xa.scale.ticks:
            last = [t for t in xa.scale.ticks if not t.minor][-1]
            x_over = max(0.0, text_width(last.label, ct.tick_font_size) / 2 - (pw - last.pos))
        if xa is not None and xa.angle and xa.angle not in (0, -90, 90) and xa.scale.ticks:
            cos = math.cos(math.radians(abs(xa.angle)))
            if x_top:  # 45° labels above the plot rise right of their tick
                last = xa.scale.ticks[-1]
                x_over = max(x_over, text_width(last.label, ct.tick_font_size) * cos - (pw - last.pos))
            else:  # 45° labels below it hang left of their tick
                first = xa.scale.ticks[0]
                left = max(left, text_width(first.label, ct.tick_font_size) * cos - first.pos + 2)
        right_legends = [lg for lg in legends if lg.orient in ("right",)]
        left_legends = [lg for lg in legends if lg.orient == "left"]
        for lg in legends:
            measure_legend(lg, scales, ct, max_width=max(pw * ncol, 120.0))
        x_over = max(x_over, right_axis)  # a right-oriented y axis: legends go beyond it
        right = max(x_over, 3.0) + (max(lg.width for lg in right_legends) + ct.legend_pad if right_legends else 0.0)
        left += max((lg.width + ct.legend_pad for lg in left_legends), default=0.0)
        top_leg = sum(lg.height + ct.legend_pad * 0.6 for lg in legends if lg.orient == "top")
        bot_leg = sum(lg.height + ct.legend_pad * 0.6 for lg in legends if lg.orient == "bottom")
        top_over = ct.tick_font_size * 0.6 if ya is not None and isinstance(ya.scale, sc.ContinuousScale) else 2.0
        if title_lines and ct.title_offset is not None:
            # the title's last line sits title_offset px above the plot (Vega's title.offset)
            top = title_h - ct.title_pad * 1.5 + 1.0 + ct.title_offset + top_leg + top_axis
        else:
            top = title_h + top_leg + max(top_over, top_axis)
        gap_y = ct.facet_gap + header_h
        if req_w is None and width is not None:
            pw = max(ct.min_plot * 0.4, (width - left - right - (ncol - 1) * gap_x) / ncol)
        if req_h is None and height is not None:
            ph = max(ct.min_plot * 0.3, (height - top - header_h - bottom - bot_leg - (nrow - 1) * gap_y) / nrow)
        elif req_h is None:
            ph = _default_height(pw, scales, ct)
        if abs(pw - before[0]) < 0.01 and abs(ph - before[1]) < 0.01:
            break  # settled: the axes were measured at this very size
    else:
        xa, ya = measure(pw, ph)
    total_w = width if width is not None else left + ncol * pw + (ncol - 1) * gap_x + right
    total_h = height if height is not None else top + header_h + nrow * ph + (nrow - 1) * gap_y + bottom + bot_leg
    layout = ChartLayout(plan, ct, scales, total_w, total_h, pw, ph, left, top, gap_x, gap_y, [], xa, ya,
                         header_h=header_h)
    _place_legends(layout, legends, title_h, bottom, x_over)
    layout.title_y = ct.title_font_size * ASCENT + 1.0
    layout.title_lines = title_lines
    return layout


def _place_legends(layout: ChartLayout, legends: list[Legend], title_h: float, bottom: float, x_over: float) -> None:
    """Each legend's position (chart-local): right of the plot, left, above, below, or inside it."""
    ct, left, top, header_h, ph = layout.ct, layout.left, layout.top, layout.header_h, layout.ph
    ncol, nrow, pw, gap_x, gap_y = layout.plan.n_cols, layout.plan.n_rows, layout.pw, layout.gap_x, layout.gap_y
    plot_w_all = ncol * pw + (ncol - 1) * gap_x
    plot_h_all = header_h + nrow * ph + (nrow - 1) * gap_y
    y_top = title_h
    y_bot = top + plot_h_all + bottom
    ry = top + header_h
    for lg in legends:
        if lg.orient == "right":
            x = left + plot_w_all + max(x_over, 0.0) + ct.legend_pad
            layout.legends.append((lg, x, ry))
            ry += lg.height + ct.legend_pad
        elif lg.orient == "left":
            layout.legends.append((lg, 1.0, top + header_h))
        elif lg.orient == "top":
            layout.legends.append((lg, left + max(0.0, (plot_w_all - lg.width) / 2), y_top))
            y_top += lg.height + ct.legend_pad * 0.6
        elif lg.orient == "bottom":
            layout.legends.append((lg, left + max(0.0, (plot_w_all - lg.width) / 2), y_bot + ct.legend_pad * 0.6))
            y_bot += lg.height + ct.legend_pad * 0.6
        elif lg.at is not None:  # pinned inside the plot (legendX/legendY)
            layout.legends.append((lg, left + lg.at[0], top + header_h + lg.at[1]))
        else:  # inside the plot: top-left, top-right, bottom-left, bottom-right
            pad = 6.0
            lx = left + pad if "left" in lg.orient else left + plot_w_all - lg.width - pad
            ly = top + header_h + pad if "top" in lg.orient else top + header_h + ph - lg.height - pad
            layout.legends.append((lg, lx, ly))


def _title_lines(title: str | None, ct: ChartTheme, width: float) -> list[str]:
    """The chart title, wrapped to the chart's width (long titles would stick out)."""
    if not title:
        return []

    return wrap(title, ct.title_font_size, max(width - 4, ct.title_font_size * 4), bold=ct.title_weight == "bold")


def title_width(layout: "ChartLayout") -> float:
    return max((text_width(t, layout.ct.title_font_size, bold=layout.ct.title_weight == "bold")
                for t in layout.title_lines), default=0.0)


def _default_height(pw: float, scales: ChartScales, ct: ChartTheme) -> float:
    ph = min(ct.max_plot_height, max(ct.min_plot, pw * ct.aspect))
    if isinstance(scales.y, sc.BandScale):  # horizontal bars: one readable row per category
        ph = max(ph, len(scales.y.domain) * ct.tick_font_size * 1.9)
    return ph


def chart_size(chart: Any, theme: ChartTheme | Theme | str | None = None) -> tuple[float, float]:
    """The natural (width, height) in px of a chart: plot size plus axes, legend and title."""
    layout = layout_chart(plan_for(chart), as_chart_theme(theme))
    return layout.width, layout.height
