"""The chart painter: a laid-out chart as SVG elements in figure coordinates.

Each facet cell is a group holding its view, gridlines, marks (drawn by
:class:`~crafter.charts.render.mark_painter.MarkPainter`) and axes; legends and the title follow.
An axis's ticks are one path whose values are listed in ``data-crafter-values``, which is
what :mod:`crafter.charts.fidelity` reads back.
"""

from __future__ import annotations

import json
import math
from typing import Any, Sequence
from xml.sax.saxutils import quoteattr

import numpy as np

from crafter.base.markup import num
from crafter.base.text import ASCENT, DESCENT
from crafter.base.theme import Theme
from crafter.charts import scales as sc
from crafter.charts.compile.chart import plan_for
from crafter.charts.compile.encoding import value_label
from crafter.charts.render.chart_layout import AxisLayout, ChartLayout, label_height, layout_chart, title_width
from crafter.charts.render.legends import Legend, custom_symbol, symbol_box, symbol_height
from crafter.charts.render.mark_painter import MarkPainter
from crafter.charts.render.svg_writer import ElementIds, SvgWriter, dash_array, slug
from crafter.charts.render.text_measure import BASELINE_SHIFT, text_width
from crafter.charts.theme import SYMBOL_NAMES, ChartTheme, as_chart_theme


class ChartPainter:
    """Draws a laid-out chart: each cell's view, grid, marks and axes, then the legends and the title."""

    def __init__(self, layout: ChartLayout, ox: float, oy: float, ids: ElementIds, svg: SvgWriter) -> None:
        self.L = layout
        self.ct = layout.ct
        self.S = layout.scales
        self.ox, self.oy = ox, oy  # chart origin in figure coordinates
        self.ids = ids
        self.svg = svg
        self.marks = MarkPainter(layout, ids, svg)

    # -- the whole chart ---------------------------------------------------------------
    def paint(self) -> None:
        L, ct, svg = self.L, self.ct, self.svg
        facets = L.plan.facet_field is not None
        for cell in L.plan.cells:
            cx, cy = L.cell_origin(cell.row, cell.col)
            cx += self.ox
            cy += self.oy
            pfx = slug(cell.header) if facets else None
            cell_id = self.ids.make(pfx) if facets else self.ids.make("plot")
            svg.open(cell_id, class_="crafter-chart-cell", font_family=ct.font_family, data_crafter_cell=cell.index,
                     data_crafter_row=cell.row, data_crafter_col=cell.col,
                     data_crafter_plot=f"{num(cx)} {num(cy)} {num(L.pw)} {num(L.ph)}",
                     data_crafter_header=cell.header)
            if facets and cell.header is not None:
                svg.open(self.ids.make(pfx, "header"), class_="crafter-chart-header",
                         font_size=num(ct.header_font_size), fill=ct.text_color)
                svg.text(cx + L.pw / 2, cy - L.header_h + ct.header_font_size * ASCENT, cell.header, anchor="middle")
                svg.close()
            if ct.view_fill:
                svg.add(f'<rect id={quoteattr(self.ids.make(pfx, "view"))} class="crafter-chart-view" x="{num(cx)}" '
                        f'y="{num(cy)}" width="{num(L.pw)}" height="{num(L.ph)}" fill={quoteattr(ct.view_fill)}/>')
            if ct.axis_zindex >= 1:  # the grid over the marks (Vega-Lite's axis zindex)
                self.marks.paint_cell(cell, cx, cy, pfx)
                self._grid(cell, cx, cy, pfx)
            else:
                self._grid(cell, cx, cy, pfx)
                self.marks.paint_cell(cell, cx, cy, pfx)
            if ct.view_stroke:
                svg.add(f'<rect id={quoteattr(self.ids.make(pfx, "frame"))} class="crafter-chart-frame" x="{num(cx)}" '
                        f'y="{num(cy)}" width="{num(L.pw)}" height="{num(L.ph)}" fill="none" stroke="{ct.view_stroke}" '
                        f'stroke-width="{num(ct.view_stroke_width)}"/>')
            below_missing = not any(c.row == cell.row + 1 and c.col == cell.col for c in L.plan.cells)
            edge_row = cell.row == 0 if L.x_axis is not None and L.x_axis.orient == "top" else below_missing
            edge_col = (cell.col == L.plan.n_cols - 1 or not any(c.row == cell.row and c.col == cell.col + 1
                                                                  for c in L.plan.cells)) \
                if L.y_axis is not None and L.y_axis.orient == "right" else cell.col == 0
            if L.x_axis is not None and L.x_axis.show and edge_row:
                self._x_axis(L.x_axis, cx, cy, pfx)
            if L.y_axis is not None and L.y_axis.show and edge_col:
                self._y_axis(L.y_axis, cx, cy, pfx)
            svg.close()
        for lg, lx, ly in L.legends:
            self._legend(lg, self.ox + lx, self.oy + ly)
        if L.plan.title:
            plot_w_all = L.plan.n_cols * L.pw + (L.plan.n_cols - 1) * L.gap_x
            svg.open(self.ids.make("title"), class_="crafter-chart-title", font_family=ct.font_family,
                     font_size=num(ct.title_font_size),
                     font_weight=ct.title_weight, fill=ct.text_color)
            cx = self.ox + L.left + plot_w_all / 2
            cx = min(max(cx, self.ox + title_width(L) / 2), self.ox + L.width - title_width(L) / 2)
            for i, line in enumerate(L.title_lines):
                svg.text(cx, self.oy + L.title_y + i * ct.title_font_size * 1.2, line, anchor="middle")
            svg.close()

    # -- grid --------------------------------------------------------------------------
    def _grid(self, cell, cx: float, cy: float, pfx: str | None) -> None:
        L, ct, svg = self.L, self.ct, self.svg
        if cell.layers and all(layer.mark == "arc" for layer in cell.layers):
            return  # a pie has no grid
        for ax in (L.y_axis, L.x_axis):
            # (a band or point axis has gridlines only when its channel asks: at its categories, as
            # ggplot and seaborn draw them)
            if ax is None or not ax.grid:
                continue
            major = [t for t in ax.scale.ticks if not t.minor]
            if not major:
                continue
            # one path per direction: a gridline is not edited alone, and 10 lines are 10 elements
            if ax.channel == "y":
                d = "".join(f"M{num(cx)},{num(cy + t.pos)}h{num(L.pw)}" for t in major)
            else:
                d = "".join(f"M{num(cx + t.pos)},{num(cy)}v{num(L.ph)}" for t in major)
            svg.add(f'<path id={quoteattr(self.ids.make(pfx, "grid", ax.channel))} class="crafter-chart-grid" d="{d}" '
                    f'stroke="{ct.grid_color}" stroke-width="{num(ct.grid_width)}" fill="none"'
                    + (f' stroke-dasharray="{dash_array(ct.grid_dash)}"' if ct.grid_dash else "")
                    + (f' stroke-opacity="{num(min(1.0, ct.grid_opacity))}"' if ct.grid_opacity < 1 else "")
                    + f'{_tick_values_attrs(major, [])}/>')
        # a zero line where bars or areas cross zero
        for layer in cell.layers:
            if layer.mark not in ("bar", "area"):
                continue
            s = L.scales.y if layer.value_axis == "y" else L.scales.x
            if isinstance(s, sc.ContinuousScale) and s.kind != "log" and min(s.d0, s.d1) < 0 < max(s.d0, s.d1):
                p = s(0.0)
                if layer.value_axis == "y":
                    line = f'<line x1="{num(cx)}" y1="{num(cy + p)}" x2="{num(cx + L.pw)}" y2="{num(cy + p)}"/>'
                else:
                    line = f'<line x1="{num(cx + p)}" y1="{num(cy)}" x2="{num(cx + p)}" y2="{num(cy + L.ph)}"/>'
                svg.open(self.ids.make(pfx, "zero-line"), class_="crafter-chart-zero", stroke=ct.axis_color,
                         stroke_width=num(ct.axis_width))
                svg.add(line)
                svg.close()
                break

    # -- axes --------------------------------------------------------------------------
    def _axis_attrs(self, ax: AxisLayout) -> dict[str, Any]:
        s = ax.scale
        a: dict[str, Any] = {"data_crafter_axis": ax.channel, "data_crafter_scale": s.kind}
        if isinstance(s, sc.ContinuousScale):
            if s.kind == "log":
                a["data_crafter_base"] = num(s.base)
            if s.kind == "symlog":
                a["data_crafter_constant"] = repr(s.constant)
            a["data_crafter_domain"] = f"{s.d0!r} {s.d1!r}"
        return a

    def _ticks(self, ax: AxisLayout, pfx: str | None, segment: Any) -> None:
        """An axis's ticks as one path: each subpath starts on the axis line at its tick.

        Major ticks come first, then minor ones (shorter); ``data-crafter-values`` and
        ``data-crafter-minor-values`` list their values in that path order, so a reader pairs
        the n-th subpath with the n-th value (crafter.charts.fidelity does).
        """
        ct = self.ct
        major = [t for t in ax.scale.ticks if not t.minor]
        minor = [t for t in ax.scale.ticks if t.minor]
        if not ct.ticks or (not major and not minor):
            return
        size = -ct.tick_size if ct.tick_direction == "in" else ct.tick_size  # "in": into the plot
        d = "".join(segment(t, size) for t in major) + "".join(segment(t, size * 0.6) for t in minor)
        self.svg.add(f'<path id={quoteattr(self.ids.make(pfx, f"axis-{ax.channel}-ticks"))} d="{d}" '
                     f'stroke="{ct.axis_color}" stroke-width="{num(ct.axis_width)}" fill="none"'
                     f'{_tick_values_attrs(major, minor)}/>')

    def _x_axis(self, ax: AxisLayout, cx: float, cy: float, pfx: str | None) -> None:
        ct, svg, L = self.ct, self.svg, self.L
        top = ax.orient == "top"
        y0 = cy if top else cy + L.ph
        out = -1.0 if top else 1.0  # away from the plot
        svg.open(self.ids.make(pfx, "axis-x"), class_="crafter-chart-axis", **self._axis_attrs(ax),
                 data_crafter_orient=ax.orient if top else None)
        if ct.domain:
            svg.add(f'<line id={quoteattr(self.ids.make(pfx, "axis-x-domain"))} x1="{num(cx)}" y1="{num(y0)}" '
                    f'x2="{num(cx + L.pw)}" y2="{num(y0)}" stroke="{ct.axis_color}" '
                    f'stroke-width="{num(ct.axis_width)}"/>')
        self._ticks(ax, pfx, lambda t, ln: f"M{num(cx + t.pos)},{num(y0)}v{num(out * ln)}")
        fs = ct.tick_font_size
        if ax.labels:
            svg.open(self.ids.make(pfx, "axis-x-labels"), font_size=num(fs), fill=ct.label_color or ct.text_color)
            ly = y0 + out * (ct.tick_size + ct.tick_pad)
            for t in ax.scale.ticks:
                if t.minor or not t.label:
                    continue
                x = cx + t.pos
                if top:  # above the plot: baselines up off the ticks; turned labels rise from theirs
                    if ax.angle == 0:
                        svg.text(x, ly - fs * DESCENT, t.label, anchor="middle")
                    elif abs(ax.angle) == 90:
                        svg.text(x + fs * BASELINE_SHIFT, ly, t.label, anchor="start", rotate=-90)
                    else:
                        a = math.radians(abs(ax.angle))
                        svg.text(x - fs * 0.35 * math.sin(a), ly - fs * 0.35 * math.cos(a) - 1, t.label,
                                 rotate=-abs(ax.angle))
                elif ax.angle == 0:
                    svg.text(x, ly + fs * ASCENT, t.label, anchor="middle")
                elif abs(ax.angle) == 90:
                    svg.text(x + fs * BASELINE_SHIFT, ly, t.label, anchor="end", rotate=ax.angle)
                else:
                    a = math.radians(abs(ax.angle))
                    svg.text(x + fs * 0.35 * math.sin(a), ly + fs * 0.35 * math.cos(a) + 1, t.label, anchor="end",
                             rotate=ax.angle)
            svg.close()
        if ax.title and top:
            ty = y0 - ct.tick_size - ct.tick_pad - label_height(ax, ct) - ax.title_pad - ct.label_font_size * DESCENT
            svg.text(cx + L.pw / 2, ty, ax.title, size=ct.label_font_size, anchor="middle",
                     id_=self.ids.make(pfx, "axis-x-title"), fill=ct.axis_title_color or ct.text_color)
        elif ax.title:
            ty = y0 + ct.tick_size + ct.tick_pad + label_height(ax, ct) + ax.title_pad + ct.label_font_size * ASCENT
            svg.text(cx + L.pw / 2, ty, ax.title, size=ct.label_font_size, anchor="middle",
                     id_=self.ids.make(pfx, "axis-x-title"), fill=ct.axis_title_color or ct.text_color)
        svg.close()

    def _y_axis(self, ax: AxisLayout, cx: float, cy: float, pfx: str | None) -> None:
        ct, svg, L = self.ct, self.svg, self.L
        right = ax.orient == "right"
        x0 = cx + L.pw if right else cx
        out = 1.0 if right else -1.0  # away from the plot
        svg.open(self.ids.make(pfx, "axis-y"), class_="crafter-chart-axis", **self._axis_attrs(ax),
                 data_crafter_orient=ax.orient if right else None)
        if ct.domain:
            svg.add(f'<line id={quoteattr(self.ids.make(pfx, "axis-y-domain"))} x1="{num(x0)}" y1="{num(cy)}" '
                    f'x2="{num(x0)}" y2="{num(cy + L.ph)}" stroke="{ct.axis_color}" '
                    f'stroke-width="{num(ct.axis_width)}"/>')
        self._ticks(ax, pfx, lambda t, ln: f"M{num(x0)},{num(cy + t.pos)}h{num(out * ln)}")
        fs = ct.tick_font_size
        label_w = 0.0
        if ax.labels:
            svg.open(self.ids.make(pfx, "axis-y-labels"), font_size=num(fs), fill=ct.label_color or ct.text_color)
            lx = x0 + out * (ct.tick_size + ct.tick_pad)
            for t in ax.scale.ticks:
                if t.minor or not t.label:
                    continue
                label_w = max(label_w, text_width(t.label, fs))
                svg.text(lx, cy + t.pos + fs * BASELINE_SHIFT, t.label, anchor="start" if right else "end")
            svg.close()
        if ax.title and right:  # turned the other way (Vega's right-axis title reads top to bottom)
            tx = x0 + ct.tick_size + ct.tick_pad + label_w + ax.title_pad + ct.label_font_size * DESCENT
            svg.text(tx, cy + L.ph / 2, ax.title, size=ct.label_font_size, anchor="middle", rotate=90,
                     id_=self.ids.make(pfx, "axis-y-title"), fill=ct.axis_title_color or ct.text_color)
        elif ax.title:
            tx = cx - ct.tick_size - ct.tick_pad - label_w - ax.title_pad - ct.label_font_size * DESCENT
            ty = cy + L.ph / 2
            svg.text(tx, ty, ax.title, size=ct.label_font_size, anchor="middle", rotate=-90,
                     id_=self.ids.make(pfx, "axis-y-title"), fill=ct.axis_title_color or ct.text_color)
        svg.close()

    # -- legends -----------------------------------------------------------------------
    def _legend_symbol(self, lg: Legend, value: Any, x: float, y: float, sym: float) -> str:
        """A legend swatch centred vertically at y, starting at x."""
        ct = self.ct
        color = ct.palette[0]
        if lg.channel == "color" and self.S.color is not None:
            color = self.S.color(value)
        elif lg.channel != "color":
            color = "#555555"
        shape = self.S.shape.get(value_label(value), "circle") if lg.shape_field else "circle"
        dash = self.S.dash.get(value_label(value)) if lg.dash_field else None
        if lg.kind == "size" and self.S.size is not None:
            r = math.sqrt(self.S.size(value) / math.pi)
            return (f'<circle cx="{num(x + sym / 2)}" cy="{num(y)}" r="{num(r)}" fill="none" stroke="{ct.axis_color}" '
                    f'stroke-width="1"/>')
        if lg.symbol.startswith("line") or ct.legend_symbol_type == "stroke":
            width = lg.stroke_width if lg.stroke_width is not None else ct.line_width
            out = (f'<line x1="{num(x)}" y1="{num(y)}" x2="{num(x + sym)}" y2="{num(y)}" stroke="{color}" '
                   f'stroke-width="{num(width)}"' + (f' stroke-dasharray="{dash_array(dash)}"' if dash else "") + "/>")
            if lg.symbol == "line-point" or lg.shape_field:
                size = lg.point_size if lg.point_size is not None else ct.line_point_size
                out += (f'<path transform="translate({num(x + sym / 2)},{num(y)})" '
                        f'd="{sc.symbol_path(shape, size)}" fill="{color}"/>')
            return out
        path = custom_symbol(lg, ct)
        if path is not None:  # the square −1…1 scaled to the swatch's width
            return (f'<path transform="translate({num(x + sym / 2)},{num(y)}) scale({num(sym / 2)})" d="{path}" '
                    f'fill="{color}"/>')
        named = ct.legend_symbol_type if ct.legend_symbol_type in SYMBOL_NAMES else None
        if lg.symbol in ("point", "circle", "square") or named:
            shp = shape if lg.shape_field else named or ("square" if lg.symbol == "square" else "circle")
            area = ct.legend_symbol_size if ct.legend_symbol_size is not None else ct.point_size
            return (f'<path transform="translate({num(x + sym / 2)},{num(y)})" d="{sc.symbol_path(shp, area)}" '
                    f'fill="{color}"/>')
        return f'<rect x="{num(x)}" y="{num(y - sym / 2)}" width="{num(sym)}" height="{num(sym)}" fill="{color}"/>'

    def _legend(self, lg: Legend, x: float, y: float) -> None:
        ct, svg = self.ct, self.svg
        fs = ct.legend_font_size
        lid = self.ids.make("legend" if lg.channel == "color" else f"legend-{lg.channel.lower()}")
        svg.open(lid, class_="crafter-chart-legend", data_crafter_legend=lg.channel, font_family=ct.font_family,
                 font_size=num(fs), fill=ct.text_color)
        if lg.orient not in ("right", "left", "top", "bottom"):
            svg.add(f'<rect x="{num(x - 4)}" y="{num(y - 3)}" width="{num(lg.width + 8)}" '
                    f'height="{num(lg.height + 6)}" '
                    f'fill="{ct.background}" fill-opacity="0.85" stroke="{ct.grid_color}" stroke-width="0.6"/>')
        row_h = max(fs * 1.25, ct.legend_symbol) + ct.legend_row_gap
        sym = symbol_box(lg, self.S, ct)
        sym_h = symbol_height(lg, ct, sym)
        if lg.kind == "gradient":
            self._gradient_legend(lg, x, y, lid)
            svg.close()
            return
        step = max(row_h, sym_h + ct.legend_row_gap)
        if lg.orient in ("top", "bottom"):
            line_h = max(row_h, sym_h + ct.legend_row_gap)
            start = x
            if lg.title:
                svg.text(x, y + line_h / 2 - ct.legend_row_gap / 2 + fs * BASELINE_SHIFT, lg.title, font_weight="bold",
                         id_=self.ids.make(lid.split(f"{self.ids.chart_id}-", 1)[1], "title"))
                start = x + text_width(lg.title, fs, bold=True) + ct.legend_col_gap
            for r, row in enumerate(lg.rows):
                ix = start
                cy = y + r * line_h + line_h / 2 - ct.legend_row_gap / 2
                for i in row:
                    value, label = lg.entries[i]
                    self._legend_item(lg, lid, value, label, ix, cy, sym)
                    ix += sym + ct.legend_gap + text_width(label, fs) + ct.legend_col_gap
        else:
            yy = y
            if lg.title:
                svg.text(x, y + fs * ASCENT, lg.title, font_weight="bold",
                         id_=self.ids.make(lid.split(f"{self.ids.chart_id}-", 1)[1], "title"))
                yy += fs * 1.4
            for value, label in lg.entries:
                cy = yy + step / 2 - ct.legend_row_gap / 2
                self._legend_item(lg, lid, value, label, x, cy, sym)
                yy += step
        svg.close()

    def _legend_item(self, lg: Legend, lid: str, value: Any, label: str, x: float, cy: float, sym: float) -> None:
        ct, svg = self.ct, self.svg
        svg.open(self.ids.make(lid.split(f"{self.ids.chart_id}-", 1)[1], slug(value)), class_="crafter-legend-item",
                 data_crafter_value=value_label(value))
        svg.add(self._legend_symbol(lg, value, x, cy, sym))
        svg.text(x + sym + ct.legend_gap, cy + ct.legend_font_size * BASELINE_SHIFT, label)
        svg.close()

    def _gradient_legend(self, lg: Legend, x: float, y: float, lid: str) -> None:
        ct, svg = self.ct, self.svg
        fs = ct.legend_font_size
        cs = lg.colors
        yy = y
        if lg.title:
            svg.text(x, y + fs * ASCENT, lg.title, font_weight="bold",
                     id_=self.ids.make(lid.split(f"{self.ids.chart_id}-", 1)[1], "title"))
            yy += fs * 1.4
        h = lg.height - (yy - y)
        w = ct.legend_symbol
        gid = self.ids.make(lid.split(f"{self.ids.chart_id}-", 1)[1], "gradient")
        stops = "".join(f'<stop offset="{num(i / 10 * 100)}%" '
                        f'stop-color="{cs(cs.lo + (cs.hi - cs.lo) * (1 - i / 10))}"/>' for i in range(11))
        svg.add(f'<defs><linearGradient id={quoteattr(gid)} x1="0" y1="0" x2="0" y2="1">{stops}'
                '</linearGradient></defs>')
        svg.add(f'<rect x="{num(x)}" y="{num(yy)}" width="{num(w)}" height="{num(h)}" fill="url(#{gid})"/>')
        ticks = ""  # one path for all the ramp's ticks, like an axis's
        for v, label in lg.gradient_ticks:
            f = (v - cs.lo) / (cs.hi - cs.lo) if cs.hi != cs.lo else 0.5
            ty = yy + (1 - f) * h
            ticks += f"M{num(x + w)},{num(ty)}h3"
            svg.text(x + w + 4, ty + fs * BASELINE_SHIFT, label)
        if ticks:
            svg.add(f'<path d="{ticks}" stroke="{ct.axis_color}" stroke-width="0.8" fill="none"/>')


def _tick_values_attrs(major: Sequence[sc.Tick], minor: Sequence[sc.Tick]) -> str:
    """``data-crafter-values`` (and ``data-crafter-minor-values``): the ticks' values as a JSON list.

    JSON rather than a comma-separated list because category names and dates may hold commas;
    numbers stay numbers.
    """
    def values(ticks: Sequence[sc.Tick]) -> str:
        return json.dumps([_tick_json(t) for t in ticks], ensure_ascii=False, separators=(",", ":"))

    out = f" data-crafter-values={quoteattr(values(major))}"
    if minor:
        out += f" data-crafter-minor-values={quoteattr(values(minor))}"
    return out


def _tick_json(t: sc.Tick) -> Any:
    """A tick's value for JSON: numbers as numbers (numpy's too), anything else as its label."""
    v = t.value
    if isinstance(v, bool):
        return value_label(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        return float(v)
    return value_label(v)


def chart_svg_fragment(chart: Any, box: Any, theme: ChartTheme | Theme | str | None = None) -> str:
    """SVG elements for ``chart`` filling ``box`` (figure coordinates); no outer ``<svg>``.

    The caller wraps them in the chart's ``<g id=… data-crafter-kind="chart">``.
    """
    ct = as_chart_theme(theme)
    layout = layout_chart(plan_for(chart), ct, width=box.w, height=box.h)
    svg = SvgWriter()
    ChartPainter(layout, box.x, box.y, ElementIds(chart.id), svg).paint()
    return svg.result()


def chart_svg(chart: Any, theme: ChartTheme | Theme | str | None = None, *, margin: float = 4.0) -> str:
    """A standalone SVG document holding one chart (for the CLI, tests and benchmarks)."""
    ct = as_chart_theme(theme)
    layout = layout_chart(plan_for(chart), ct)  # natural size: laid out once, painted as is
    w, h = layout.width, layout.height
    svg = SvgWriter()
    ChartPainter(layout, margin, margin, ElementIds(chart.id), svg).paint()
    body = svg.result()
    W, H = w + 2 * margin, h + 2 * margin
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(W)}" height="{num(H)}" '
            f'viewBox="0 0 {num(W)} {num(H)}" '
            f'font-family={quoteattr(ct.font_family)}>'
            f'<rect width="100%" height="100%" fill="{ct.background}"/>'
            f'<g id={quoteattr(chart.id)} data-crafter-kind="chart">{body}</g></svg>')
