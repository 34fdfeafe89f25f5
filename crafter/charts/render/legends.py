"""Legends: which ones a chart has (colour, shape, dash, size), their entries and swatches, and
their measured sizes (a top or bottom legend wraps into rows as wide as the plot)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Sequence

from crafter.base.svgpath import parse_path, path_bbox
from crafter.charts import scales as sc
from crafter.charts.compile.encoding import Channel
from crafter.charts.compile.plan import ChartPlan, discrete_domain
from crafter.charts.render.plan_scales import ChartScales, plan_channels
from crafter.charts.render.text_measure import text_width
from crafter.charts.theme import SYMBOL_NAMES, ChartTheme


@dataclass
class Legend:
    channel: str
    kind: str  # "symbol", "gradient", "size"
    title: str | None
    entries: list[tuple[Any, str]]  # (value, label)
    orient: str
    symbol: str = "square"  # square, line, circle, point, errorbar
    at: tuple[float, float] | None = None  # orient "inside", pinned at (legendX, legendY) from the plot's top-left
    width: float = 0.0
    height: float = 0.0
    rows: list[list[int]] = field(default_factory=list)  # for horizontal legends: entry indices per row
    shape_field: bool = False
    dash_field: bool = False
    colors: Any = None
    gradient_ticks: list[tuple[float, str]] = field(default_factory=list)
    stroke_width: float | None = None  # a line swatch's: its line layer's strokeWidth
    point_size: float | None = None  # a line swatch's marker: its line layer's point size


def _legend_symbol(plan: ChartPlan, channel: str) -> str:
    marks = [layer.mark for layer in plan.layers if channel in layer.channels and layer.channels[channel].is_field]
    for m in ("line", "point", "circle", "square"):
        if m in marks:
            if m == "line":
                pt = any(layer.mark == "line" and layer.props.get("point") for layer in plan.layers)
                return "line-point" if pt else "line"
            return "point" if m == "point" else m
    if "errorbar" in marks and not any(m in marks for m in ("bar", "area", "rect", "boxplot", "errorband")):
        return "line"
    return "square"


def _legend_orient(chans: Sequence[Channel], default: str = "right") -> tuple[str, tuple[float, float] | None]:
    """(orient, at): right, left, top, bottom, a corner inside the plot (top-left…) or "none" (no
    legend); or ("inside", (x, y)) for Vega-Lite's orient "none" with ``legendX``/``legendY``
    (px from the plot's top-left)."""
    for ch in chans:
        if ch.legend is None:
            continue
        lx, ly = ch.legend.get("legendX"), ch.legend.get("legendY")
        if ch.legend.get("orient") == "none" and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                                     for v in (lx, ly)):
            return "inside", (float(lx), float(ly))
        if ch.legend.get("orient"):
            return str(ch.legend["orient"]), None
    return default, None


def build_legends(plan: ChartPlan, scales: ChartScales, ct: ChartTheme) -> list[Legend]:
    out: list[Legend] = []
    color = next((c for c in plan_channels(plan, "color") if c.is_field), None)
    shape = next((c for c in plan_channels(plan, "shape") if c.is_field), None)
    dash = next((c for c in plan_channels(plan, "strokeDash") if c.is_field), None)
    size = next((c for c in plan_channels(plan, "size") if c.is_field), None)
    color = next((c for c in plan_channels(plan, "color") if c.is_field and c.legend is not None), color)
    if color is not None and color.legend is not None:
        orient, at = _legend_orient(plan_channels(plan, "color"), ct.legend_orient)
        if orient != "none":
            title = color.legend.get("title", color.title_text()) if color.legend else color.title_text()
            if color.discrete or color.type is None:
                entries = [(v, sc.fmt_category(v)) for v in plan.color_domain()]
                lg = Legend("color", "symbol", title, entries, orient, _legend_symbol(plan, "color"), at=at)
                lg.shape_field = shape is not None and shape.field == color.field
                lg.dash_field = dash is not None and dash.field == color.field
                line = next((layer for layer in plan.layers if layer.mark == "line" and "color" in layer.channels),
                            None)
                if line is not None:  # a line swatch is drawn as its lines are (Vega-Lite's legend too)
                    lg.stroke_width = line.props.get("strokeWidth")
                    pt = line.props.get("point")
                    lg.point_size = pt.get("size") if isinstance(pt, dict) else None
                out.append(lg)
            else:
                import matplotlib.ticker as mt  # heavy: 0.4 s to import; only a gradient legend needs it

                cs = scales.color
                # Vega-Lite's legend.values: the ticks a colour bar was drawn with (a heatmap read back)
                ticks = [float(v) for v in color.legend.get("values") or
                         mt.MaxNLocator(nbins=4, steps=[1, 2, 2.5, 5, 10]).tick_values(cs.lo, cs.hi)
                         if cs.lo - 1e-9 <= float(v) <= cs.hi + 1e-9]
                labels = sc.fmt.linear_tick_labels(ticks) if ticks else []
                lg = Legend("color", "gradient", title, [], orient if orient in ("right", "left") else "right")
                lg.colors = cs
                lg.gradient_ticks = list(zip(ticks, labels))
                out.append(lg)
    for ch, name in ((shape, "shape"), (dash, "strokeDash")):
        if ch is None or ch.legend is None or (color is not None and ch.field == color.field):
            continue
        orient, at = _legend_orient(plan_channels(plan, name), ct.legend_orient)
        if orient == "none":
            continue
        dom = discrete_domain(plan, name)
        lg = Legend(name, "symbol", ch.title_text(), [(v, sc.fmt_category(v)) for v in dom], orient,
                     "point" if name == "shape" else "line", at=at)
        lg.shape_field = name == "shape"
        lg.dash_field = name == "strokeDash"
        out.append(lg)
    if size is not None and size.legend is not None and scales.size is not None and size.type == "quantitative":
        import matplotlib.ticker as mt  # heavy: 0.4 s to import; only a size legend needs it

        s = scales.size
        ticks = [float(v) for v in mt.MaxNLocator(nbins=3, steps=[1, 2, 2.5, 5, 10]).tick_values(max(s.lo, 0), s.hi)
                 if v > 0 and v <= s.hi * 1.0001]
        orient, at = _legend_orient(plan_channels(plan, "size"), ct.legend_orient)
        lg = Legend("size", "size", size.title_text(),
                    [(v, lab) for v, lab in zip(ticks, sc.fmt.linear_tick_labels(ticks))], orient, "circle", at=at)
        out.append(lg)
    return out


def symbol_box(lg: Legend, scales: ChartScales, ct: ChartTheme) -> float:
    """The swatch's width."""
    if lg.kind == "size" and scales.size is not None:
        return max(ct.legend_symbol,
                   max(2 * math.sqrt(scales.size(v) / math.pi) for v, _ in lg.entries) if lg.entries else 0)
    if ct.legend_symbol_size is not None:  # config.legend.symbolSize: the swatch's area (a stroke's length²)
        return math.sqrt(ct.legend_symbol_size)
    if lg.symbol.startswith("line"):
        return ct.legend_symbol * 2
    return ct.legend_symbol


def symbol_height(lg: Legend, ct: ChartTheme, width: float) -> float:
    """The swatch's height: a path symbol's own aspect (matplotlib's bar handles are 2 × 0.7 em),
    else its width (a line swatch's row is as tall as it is long, as it has always been)."""
    if lg.symbol.startswith("line") and ct.legend_symbol_size is not None:
        # a stroke of the given length: its row as tall as its marker, not as the stroke is long
        marker = 2 * math.sqrt((lg.point_size or ct.line_point_size) / math.pi) if lg.symbol == "line-point" else 0.0
        return max(ct.legend_symbol, marker)
    path = custom_symbol(lg, ct)
    if path is None:
        return width
    box = path_bbox(parse_path(path))
    w, h = (box[2] - box[0], box[3] - box[1]) if box else (0.0, 0.0)
    return width * (h / w) if w > 0 else width


def custom_symbol(lg: Legend, ct: ChartTheme) -> str | None:
    """config.legend.symbolType's path data, where it gives one and the swatch is no line."""
    t = ct.legend_symbol_type
    if t is None or t in SYMBOL_NAMES or lg.symbol.startswith("line") or lg.kind != "symbol":
        return None
    return t


def measure_legend(lg: Legend, scales: ChartScales, ct: ChartTheme, max_width: float) -> None:
    fs = ct.legend_font_size
    row_h = max(fs * 1.25, ct.legend_symbol) + ct.legend_row_gap
    title_w = text_width(lg.title, fs, bold=True) if lg.title else 0.0
    if lg.kind == "gradient":
        bar_h = max(60.0, min(140.0, 8 * fs))
        lab_w = max((text_width(t, fs) for _, t in lg.gradient_ticks), default=0.0)
        lg.width = max(title_w, ct.legend_symbol + 4 + lab_w)
        lg.height = (fs * 1.4 if lg.title else 0) + bar_h
        return
    sym = symbol_box(lg, scales, ct)
    sym_h = symbol_height(lg, ct, sym)
    item_w = [sym + ct.legend_gap + text_width(lab, fs) for _, lab in lg.entries]
    if lg.orient in ("top", "bottom"):
        # one line: title then entries; wrap into rows when wider than the plot
        rows: list[list[int]] = [[]]
        x = title_w + (ct.legend_col_gap if lg.title else 0)
        start = x
        for i, w in enumerate(item_w):
            if rows[-1] and x + w > max_width:
                rows.append([])
                x = start
            rows[-1].append(i)
            x += w + ct.legend_col_gap
        lg.rows = rows
        widths = [sum(item_w[i] for i in r) + ct.legend_col_gap * (len(r) - 1) for r in rows]
        lg.width = start + max(widths, default=0.0)
        lg.height = len(rows) * max(row_h, sym_h + ct.legend_row_gap) - ct.legend_row_gap
    else:
        step = max(row_h, sym_h + ct.legend_row_gap)
        lg.width = max([title_w] + [w for w in item_w])
        lg.height = (fs * 1.4 if lg.title else 0) + len(lg.entries) * step - ct.legend_row_gap
