"""Charts as native PowerPoint charts, their data edited in PowerPoint read back.

A chart component's Vega-Lite spec is compiled with :func:`crafter.charts.compile_chart`
(so aggregation, stacking and sort orders are Crafter's own) and written as a native chart
whose data sheet holds the drawn values: bars (grouped, stacked, horizontal) as column/bar
charts, lines over categories as line charts and over numbers as XY lines, points as XY
scatter, areas as area charts; series in the chart's colours, axis titles, legend and title.
"Edit Data" in PowerPoint shows the table.

A chart PowerPoint cannot draw natively (facets, layers such as error bars, heatmaps,
box plots) becomes a picture of Crafter's own drawing instead, named and tagged like any
other shape, so it still moves and resizes back into the figure.

Reading back (:func:`read_chart_part`) takes the values PowerPoint caches in the chart part
(what "Edit Data" updates); :func:`merge_chart_data` writes edited values, added and removed
categories or series into the spec's inline rows; :func:`chart_spec_from_table` makes a
Vega-Lite spec for a chart drawn in PowerPoint itself.
"""

from __future__ import annotations

import html
import io
import json
import math
import re
from dataclasses import dataclass, field
from html import unescape
from typing import Any

from pptx.chart.data import CategoryChartData, XyChartData
from pptx.enum.chart import XL_CHART_TYPE as T
from pptx.enum.chart import XL_LEGEND_POSITION, XL_MARKER_STYLE
from pptx.oxml import parse_xml
from pptx.oxml.ns import nsdecls, qn
from pptx.util import Emu, Pt

from crafter.base.text import text_width
from crafter.base.theme import figure_theme
from crafter.charts import chart_svg_fragment, chart_theme, compile_chart
from crafter.charts.errors import ChartSpecError
from crafter.charts.scales import CategoricalColors
from crafter.formats.pptx.package import SlideFrame
from crafter.formats.pptx.shapes import rgb
from crafter.formats.raster import figure_to_png_bytes
from crafter.render import draw_svg
from crafter.spec.model import Chart, Figure

C_NS = "http://schemas.openxmlformats.org/drawingml/2006/chart"
PT_PER_PX = 0.75
NATIVE_MARKS = ("bar", "line", "area", "point", "circle", "square")


@dataclass
class ChartTable:
    """A chart's data as PowerPoint holds it: categories × series, or x/y points per series."""

    kind: str  # bar, line, area, scatter
    horizontal: bool = False
    grouping: str = "clustered"  # clustered, stacked, percentStacked, standard
    categories: list[str] = field(default_factory=list)
    series: list[tuple[str, list[float | None]]] = field(default_factory=list)  # category charts
    points: list[tuple[str, list[tuple[float, float]]]] = field(default_factory=list)  # scatter / XY lines
    title: str | None = None
    x_title: str | None = None
    y_title: str | None = None


@dataclass
class _Native:
    """What a chart component becomes: the table, the fields it came from, the look."""

    table: ChartTable
    colors: list[str]
    lines: bool = False  # XY series joined by lines
    markers: bool = True
    legend: str | None = "right"
    fields: dict[str, str | None] = field(default_factory=dict)  # category / series / value / x / y


def category_label(v: Any) -> str:
    """A category as written in the chart's data sheet (and matched when edits come back)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


# =================================================================================
# The spec as PowerPoint's table
# =================================================================================


def native_chart(c: Chart, theme_name: str) -> _Native | None:
    """The native form of a chart, or None when PowerPoint cannot draw it faithfully."""
    try:
        plan = compile_chart(c.spec, chart_id=c.id, title=c.title, width=c.width, height=c.height)
    except ChartSpecError:
        return None
    if len(plan.cells) != 1 or len(plan.cells[0].layers) != 1:
        return None  # facets, and layers (error bars, value labels, rules) a native chart would drop
    layer = plan.cells[0].layers[0]
    if layer.mark not in NATIVE_MARKS or any(layer.channels.get(ch) is not None and layer.channels[ch].is_field
                                             for ch in ("size", "shape", "strokeDash", "detail", "text")):
        return None
    palette = list(chart_theme(theme_name).palette)
    color = layer.channels.get("color")
    series_values = plan.color_domain() if color is not None and color.is_field and color.discrete else [None]
    if color is not None and color.is_field and not color.discrete:
        return None  # a continuous colour scale has no series
    colors = _series_colors(plan, layer, series_values, palette)
    x, y = layer.channels.get("x"), layer.channels.get("y")
    if x is None or y is None:
        return None
    titles = {"x_title": x.title_text() if x.axis is not None else None,
              "y_title": y.title_text() if y.axis is not None else None}
    legend = None
    if series_values != [None] and color is not None and color.legend is not None:
        orient = (color.legend or {}).get("orient", "right")
        legend = orient if orient in ("top", "bottom", "left", "right") else "right"
    if layer.mark in ("point", "circle", "square") or (layer.mark == "line" and not x.discrete and x.type != "temporal"):
        table = _xy_table(layer, series_values)
        if table is None:
            return None
        table.kind = "scatter" if layer.mark != "line" else "line"
        native = _Native(table, colors, lines=layer.mark == "line", markers=layer.mark != "line" or bool(
            layer.props.get("point")), legend=legend)
        native.fields = {"x": x.field, "y": y.field, "series": color.field if legend or series_values != [None]
                         and color is not None else None}
    else:
        table = _category_table(plan, layer, series_values)
        if table is None:
            return None
        native = _Native(table, colors, markers=bool(layer.props.get("point")), legend=legend)
        cat, val = (x, y) if not table.horizontal else (y, x)
        native.fields = {"category": cat.field if cat.bin is None and cat.aggregate is None else None,
                         "value": val.field if val.aggregate is None and val.bin is None else None,
                         "series": color.field if color is not None and color.is_field else None}
    table.title = plan.title
    table.x_title, table.y_title = titles["x_title"], titles["y_title"]
    return native


def _series_colors(plan: Any, layer: Any, series_values: list[Any], palette: list[str]) -> list[str]:
    if series_values == [None]:
        mark_color = layer.props.get("color") or layer.props.get("fill")
        return [mark_color if isinstance(mark_color, str) and mark_color.startswith("#") else palette[0]]
    scale = CategoricalColors(series_values, palette, layer.channels["color"].scale)
    return [scale(v) if str(scale(v)).startswith("#") else palette[i % len(palette)]
            for i, v in enumerate(series_values)]


def _category_table(plan: Any, layer: Any, series_values: list[Any]) -> ChartTable | None:
    horizontal = layer.orient == "horizontal"
    cat_name, val_name = ("y", "x") if horizontal else ("x", "y")
    cat_ch, val_ch = layer.channels[cat_name], layer.channels[val_name]
    binned = cat_ch.bin is not None
    if cat_ch.discrete:
        cats = plan.discrete_domain(cat_name)
    else:
        cats = sorted({getattr(it, cat_name) for it in layer.items if getattr(it, cat_name) is not None},
                      key=lambda v: (isinstance(v, str), v))

    def label(it: Any) -> str:
        v = getattr(it, cat_name)
        if binned:
            return f"{category_label(v)}–{category_label(getattr(it, cat_name + '2'))}"
        if cat_ch.type == "temporal" and cat_ch.field:
            return category_label(it.datum.get(cat_ch.key, v))
        return category_label(v)

    values: dict[tuple[str, str], float | None] = {}
    order: list[str] = []
    for it in layer.items:
        key = (label(it), category_label(it.color) if series_values != [None] else "")
        if key in values:
            return None  # two marks in one cell: nothing a data sheet can hold
        raw = it.datum.get(val_ch.key, getattr(it, val_name))
        values[key] = float(raw) if isinstance(raw, (int, float)) and not isinstance(raw, bool) else None
        if key[0] not in order:
            order.append(key[0])
    labels = [category_label(c) for c in cats] if not binned and cat_ch.type != "temporal" else order
    labels = [c for c in labels if any(k[0] == c for k in values)] or order
    grouping = "clustered"
    if layer.stacked:
        grouping = "percentStacked" if layer.props.get("_stack") == "normalize" else "stacked"
    elif layer.mark in ("line", "area"):
        grouping = "standard"
    table = ChartTable(kind="bar" if layer.mark == "bar" else layer.mark, horizontal=horizontal, grouping=grouping,
                       categories=labels)
    for s in series_values:
        name = category_label(s) if s is not None else (val_ch.title_text() or "value")
        key_s = category_label(s) if s is not None else ""
        table.series.append((name, [values.get((c, key_s)) for c in labels]))
    return table


def _xy_table(layer: Any, series_values: list[Any]) -> ChartTable | None:
    pts: dict[str, list[tuple[float, float]]] = {}
    for it in layer.items:
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (it.x, it.y)):
            return None
        key = category_label(it.color) if series_values != [None] else ""
        pts.setdefault(key, []).append((float(it.x), float(it.y)))
    table = ChartTable(kind="scatter")
    for s in series_values:
        key = category_label(s) if s is not None else ""
        name = key or (layer.channels["y"].title_text() or "y")
        table.points.append((name, pts.get(key, [])))
    return table


# =================================================================================
# Writing
# =================================================================================


def add_chart(shapes: Any, c: Chart, fig: Figure, frame: SlideFrame) -> Any:
    """The chart as a native chart (or, where PowerPoint cannot draw it, a picture of ours)."""
    native = native_chart(c, fig.theme)
    b = c.box
    assert b is not None, f"chart '{c.id}' has no box"
    if native is None:
        return _chart_picture(shapes, c, fig, frame)
    chart_type, data = _chart_data(native)
    gf = shapes.add_chart(chart_type, Emu(frame.x(b.x)), Emu(frame.y(b.y)), Emu(frame.length(b.w)),
                          Emu(frame.length(b.h)), data)
    _style_chart(gf.chart, native, fig, frame)

    drawn = chart_svg_fragment(c, b, figure_theme(fig))  # Crafter's own drawing: where things go
    _scale_axes(gf.chart, native, _axis_ticks(c, drawn), c)
    _place_plot(gf.chart, c, drawn, native.legend is not None)
    return gf


def _place_plot(chart: Any, c: Chart, drawn: str, legend: bool) -> None:
    """The plot area (and legend) where Crafter's drawing has them, as manual layouts: PowerPoint's
    automatic layout shrinks the plot to make room for everything at once."""
    b = c.box
    m = re.search(r'data-crafter-plot="([-0-9.e]+) ([-0-9.e]+) ([-0-9.e]+) ([-0-9.e]+)"', drawn)
    if m is None or b is None or b.w <= 0 or b.h <= 0:
        return
    x, y, w, h = (float(v) for v in m.groups())

    def layout(target: str, fx: float, fy: float, fw: float | None = None, fh: float | None = None) -> Any:
        size = f'<c:w val="{fw:.4f}"/><c:h val="{fh:.4f}"/>' if fw is not None and fh is not None else ""
        inner = f'<c:layoutTarget val="{target}"/>' if target else ""
        return parse_xml(f'<c:layout {nsdecls("c")}><c:manualLayout>{inner}<c:xMode val="edge"/><c:yMode val="edge"/>'
                         f'<c:x val="{fx:.4f}"/><c:y val="{fy:.4f}"/>{size}</c:manualLayout></c:layout>')

    plot_area = chart.element.find(f".//{qn('c:plotArea')}")
    old = plot_area.find(qn("c:layout"))
    if old is not None:
        plot_area.remove(old)
    plot_area.insert(0, layout("inner", (x - b.x) / b.w, (y - b.y) / b.h, w / b.w, h / b.h))
    title_el = chart.element.find(f"{qn('c:chart')}/{qn('c:title')}")
    t = re.search(rf'id="{re.escape(c.id)}-title"[^>]*font-size="([0-9.]+)"[^>]*>\s*<text x="([-0-9.e]+)" '
                  r'y="([-0-9.e]+)"[^>]*>([^<]*)<', drawn)
    if title_el is not None and t is not None:
        fs, tx, ty = float(t.group(1)), float(t.group(2)), float(t.group(3))
        left = tx - text_width(unescape(t.group(4)), fs, bold=True) / 2 - 4  # PowerPoint pads its text box
        old = title_el.find(qn("c:layout"))
        if old is not None:
            title_el.remove(old)
        placed = layout("", max(0.0, (left - b.x) / b.w), max(0.0, (ty - 0.76 * fs - 3 - b.y) / b.h))
        tx_el = title_el.find(qn("c:tx"))  # c:layout follows the title's text in the schema
        if tx_el is not None:
            tx_el.addnext(placed)
        else:
            title_el.insert(0, placed)
    # the first entry's swatch centre: the legend's top left is a swatch's half-size before it
    first = re.search(rf'id="{re.escape(c.id)}-legend-(?!title)[^"]*"[^>]*>\s*<path transform="translate\('
                      r'([-0-9.e]+),([-0-9.e]+)\)"', drawn)
    legend_el = chart.element.find(f".//{qn('c:legend')}")
    if legend and first is not None and legend_el is not None:
        lx, ly = float(first.group(1)) - 6, float(first.group(2)) - 8
        pos = legend_el.find(qn("c:legendPos"))
        at = pos if pos is not None else legend_el[0]
        old = legend_el.find(qn("c:layout"))
        if old is not None:
            legend_el.remove(old)
        at.addnext(layout("", max(0.0, (lx - b.x) / b.w), max(0.0, (ly - b.y) / b.h)))


def _axis_ticks(c: Chart, drawn: str) -> dict[str, list[Any]]:
    """The tick values Crafter's own drawing of the chart puts on each axis (its nice domain)."""
    frag = drawn
    out = {}
    for axis in ("x", "y"):
        m = re.search(rf'id="{re.escape(c.id)}-axis-{axis}-ticks"[^>]*?data-crafter-values=(["\'])(.*?)\1', frag)
        if m:
            try:
                out[axis] = json.loads(html.unescape(m.group(2)))
            except json.JSONDecodeError:
                continue
    return out


def _scale_axes(chart: Any, native: _Native, ticks: dict[str, list[Any]], c: Chart) -> None:
    """Value axes over Crafter's domain and tick step (PowerPoint's own choice differs: 0–120 for
    0–100 data); log axes where the spec has them."""
    t = native.table
    enc = _encoding(c.spec)
    axes = [("y", chart.value_axis)] if not t.horizontal else [("x", chart.value_axis)]
    if t.points:
        axes.append(("x", chart.category_axis))
    val_axes = chart.element.findall(f".//{qn('c:plotArea')}/{qn('c:valAx')}")  # python-pptx's order: x, then y
    for name, axis in axes:
        values = [v for v in ticks.get(name, []) if isinstance(v, (int, float)) and not isinstance(v, bool)]
        scale = (enc.get(name) or {}).get("scale") or {}
        log = isinstance(scale, dict) and scale.get("type") == "log"
        if log and val_axes:
            el = val_axes[0] if not t.points or name == "x" else val_axes[-1]
            el.find(qn("c:scaling")).insert(0, parse_xml(f'<c:logBase {nsdecls("c")} val="10"/>'))
        if len(values) >= 2 and values[-1] > values[0]:
            axis.minimum_scale, axis.maximum_scale = values[0], values[-1]
            steps = {round(b - a, 9) for a, b in zip(values, values[1:])}
            if not log and len(steps) == 1:
                axis.major_unit = steps.pop()


def _encoding(spec: dict[str, Any]) -> dict[str, Any]:
    enc = spec.get("encoding")
    if not isinstance(enc, dict) and isinstance(spec.get("layer"), list) and spec["layer"]:
        enc = spec["layer"][0].get("encoding")
    return enc if isinstance(enc, dict) else {}


def _chart_data(native: _Native) -> tuple[Any, Any]:
    t = native.table
    if t.points:
        data = XyChartData()
        for name, pts in t.points:
            s = data.add_series(name)
            for x, y in pts:
                s.add_data_point(x, y)
        if native.lines:
            kind = T.XY_SCATTER_LINES if native.markers else T.XY_SCATTER_LINES_NO_MARKERS
        else:
            kind = T.XY_SCATTER
        return kind, data
    data = CategoryChartData()
    data.categories = t.categories
    for name, values in t.series:
        data.add_series(name, values)
    kinds = {
        ("bar", False, "clustered"): T.COLUMN_CLUSTERED, ("bar", False, "stacked"): T.COLUMN_STACKED,
        ("bar", False, "percentStacked"): T.COLUMN_STACKED_100, ("bar", True, "clustered"): T.BAR_CLUSTERED,
        ("bar", True, "stacked"): T.BAR_STACKED, ("bar", True, "percentStacked"): T.BAR_STACKED_100,
        ("area", False, "standard"): T.AREA, ("area", False, "stacked"): T.AREA_STACKED,
        ("area", False, "percentStacked"): T.AREA_STACKED_100,
    }
    if t.kind == "line":
        return (T.LINE_MARKERS if native.markers else T.LINE), data
    return kinds.get((t.kind, t.horizontal, t.grouping), T.COLUMN_CLUSTERED), data


def _style_chart(chart: Any, native: _Native, fig: Figure, frame: SlideFrame) -> None:
    ct = chart_theme(fig.theme)
    font_name = ct.font_family.split(",")[0].strip()
    pt = lambda px: Pt(round(px * frame.scale * PT_PER_PX * 10) / 10)  # noqa: E731
    chart.font.name = font_name
    chart.font.size = pt(ct.tick_font_size)
    chart.font.color.rgb = rgb(ct.text_color)
    t = native.table
    chart.has_title = bool(t.title)
    if t.title:
        tf = chart.chart_title.text_frame
        tf.text = t.title
        run_font = tf.paragraphs[0].runs[0].font
        run_font.size, run_font.bold, run_font.name = pt(ct.title_font_size), ct.title_weight == "bold", font_name
    chart.has_legend = native.legend is not None
    if native.legend is not None:
        chart.legend.position = {"right": XL_LEGEND_POSITION.RIGHT, "left": XL_LEGEND_POSITION.LEFT,
                                 "top": XL_LEGEND_POSITION.TOP, "bottom": XL_LEGEND_POSITION.BOTTOM}[native.legend]
        chart.legend.include_in_layout = False
        chart.legend.font.size = pt(ct.legend_font_size)
    x_axis, y_axis = chart.category_axis, chart.value_axis
    if t.horizontal:  # a bar chart's categories run up the side: the value axis is x
        x_title, y_title = t.y_title, t.x_title
    else:
        x_title, y_title = t.x_title, t.y_title
    for axis, title, grid in ((x_axis, x_title, bool(t.points)), (y_axis, y_title, True)):
        axis.has_major_gridlines = grid
        if grid:
            axis.major_gridlines.format.line.color.rgb = rgb(ct.grid_color)
            axis.major_gridlines.format.line.width = Pt(ct.grid_width * PT_PER_PX)
        axis.format.line.color.rgb = rgb(ct.axis_color)
        axis.tick_labels.font.size = pt(ct.tick_font_size)
        axis.has_title = bool(title)
        if title:
            axis.axis_title.text_frame.text = title
            f = axis.axis_title.text_frame.paragraphs[0].runs[0].font
            f.size, f.bold, f.name = pt(ct.label_font_size), False, font_name
    if t.horizontal:
        x_axis.reverse_order = True  # Vega-Lite lists the first category at the top
    plot = chart.plots[0]
    if t.kind == "bar":
        plot.gap_width = max(0, min(500, round(ct.bar_padding / (1 - ct.bar_padding) * 100)))
        if t.grouping == "clustered":
            plot.overlap = -round(ct.offset_padding * 100)
    for i, ser in enumerate(plot.series):
        color = rgb(native.colors[i % len(native.colors)])
        if t.kind in ("bar", "area"):
            ser.format.fill.solid()
            ser.format.fill.fore_color.rgb = color
            ser.format.line.fill.background()
            continue
        if native.lines or t.kind == "line":
            ser.format.line.color.rgb = color
            ser.format.line.width = Pt(ct.line_width * PT_PER_PX)
            ser.smooth = False
        else:
            ser.format.line.fill.background()
        if native.markers:
            ser.marker.style = XL_MARKER_STYLE.CIRCLE
            ser.marker.size = max(2, min(72, round(math.sqrt(ct.point_size) * PT_PER_PX)))
            ser.marker.format.fill.solid()
            ser.marker.format.fill.fore_color.rgb = color
            ser.marker.format.line.color.rgb = color
        else:
            ser.marker.style = XL_MARKER_STYLE.NONE


def _chart_picture(shapes: Any, c: Chart, fig: Figure, frame: SlideFrame) -> Any:
    """A chart PowerPoint cannot draw natively: Crafter's drawing of it, as a picture."""
    alone = Figure(theme=fig.theme, background=fig.background, components=[c.model_copy(update={"pinned": True})])
    svg = draw_svg(alone, embed_spec=False)
    m = re.search(r'viewBox="([-0-9.e]+) ([-0-9.e]+) ([-0-9.e]+) ([-0-9.e]+)"', svg[:3000])
    assert m is not None, "the SVG writer always sets a viewBox"
    x, y, w, h = (float(v) for v in m.groups())
    png = figure_to_png_bytes(alone, dpi=192)
    return shapes.add_picture(io.BytesIO(png), Emu(frame.x(x)), Emu(frame.y(y)), Emu(frame.length(w)),
                              Emu(frame.length(h)))
