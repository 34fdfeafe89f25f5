"""Rendering a chart component into the figure's SVG: semantic groups, one element per mark.

Why our own renderer rather than vl-convert-python (measured on this machine with
``crafter bench chart``; numbers in the report of issue 3):

* speed (``crafter bench chart``: the same bar/line/scatter charts, one process, first call
  timed apart): per chart, this renderer 5–10 ms, vl-convert 155–195 ms, matplotlib's SVG
  backend 260–515 ms, on the shared 2-core machine under load ≈10 (quiet, earlier: ours
  ≈2.5 ms and vl-convert ≈24 ms for the bar chart; vl-convert's first call ≈0.47 s, ours
  ≈0.1–0.5 s for importing matplotlib.ticker);
* structure: vl-convert's SVG nests ``translate`` groups, draws bars as ``<path>``
  and carries no data; mapping its role classes to our groups would still leave
  every mark anonymous. Here each bar is a ``<rect>`` carrying its datum
  (``data-crafter-datum``), so the editor can name it and the fidelity check can read it;
* type: vl-convert measures text with its own fonts; we measure with the DejaVu Sans
  metrics the figure layout uses (crafter/render/text.py), so labels never clip.

What we do not hand-write: tick placement and number formatting (matplotlib.ticker and
matplotlib.dates, see scales.py / format.py), colour schemes (matplotlib colormaps,
the Okabe–Ito palette of the figure theme), statistics (numpy/scipy, stats.py).

Coordinates are absolute figure coordinates (no ``transform`` on groups), so a mark's
geometry reads back directly. Every id is prefixed with the chart id.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Sequence
from xml.sax.saxutils import escape, quoteattr

from crafter.base.svgpath import parse_path, path_bbox
from crafter.base.text import ASCENT, DESCENT, wrap
from crafter.base.text import text_width as _text_width
from crafter.base.theme import PX_PER_IN, Theme
from crafter.charts import scales as sc
from crafter.charts.compile import (
    _MISSING,
    Channel,
    ChartPlan,
    ChartSpecError,
    Item,
    LayerPlan,
    _discrete_domain,
    _label,
    compile_chart,
    datum_json,
)
from crafter.charts.theme import DOUBLE_COLUMN_IN, SYMBOL_NAMES, ChartTheme, chart_theme, configured_theme
from crafter.spec.colors import relative_luminance

BAND_MARKS = ("bar", "rect", "boxplot", "tick")
_UNSET = object()
BASELINE_SHIFT = 0.35  # of the font size: baseline below a label's visual centre (DejaVu digits/caps)


@lru_cache(maxsize=8192)
def text_width(text: str, font_size: float, *, bold: bool = False) -> float:
    """The figure's text measure (DejaVu Sans advances), cached: tick and legend labels repeat."""
    return _text_width(text, font_size, bold=bold)


def _f(v: float) -> str:
    """A coordinate: 2 decimals (0.01 px), trailing zeros dropped."""
    s = f"{v:.2f}"
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def slug(value: Any) -> str:
    s = re.sub(r"[^A-Za-z0-9]+", "-", _label(value)).strip("-").lower()
    return s[:32] or "x"


class _Ids:
    """Unique, readable element ids under the chart id."""

    def __init__(self, chart_id: str) -> None:
        self.chart_id = chart_id
        self.used: set[str] = set()

    def make(self, *parts: Any) -> str:
        base = "-".join([self.chart_id] + [str(p) for p in parts if p not in (None, "")])
        out, n = base, 2
        while out in self.used:
            out = f"{base}-{n}"
            n += 1
        self.used.add(out)
        return out


def as_chart_theme(theme: ChartTheme | Theme | str | None) -> ChartTheme:
    if isinstance(theme, ChartTheme):
        return theme
    return chart_theme(theme)


# ---------------------------------------------------------------------------------------
# Scales for a plan
# ---------------------------------------------------------------------------------------


def _chans(plan: ChartPlan, name: str) -> list[Channel]:
    return plan.channels.get(name) or []


def _scale_opt(chans: Sequence[Channel], key: str, default: Any = None) -> Any:
    for ch in chans:
        if key in ch.scale:
            return ch.scale[key]
    return default


def _axis_opt(chans: Sequence[Channel], key: str, default: Any = None) -> Any:
    for ch in chans:
        if ch.axis is not None and key in ch.axis:
            return ch.axis[key]
    return default


def _position_values(plan: ChartPlan, name: str) -> list[Any]:
    vals = []
    for layer in plan.layers:
        for it in layer.items:
            for v in (getattr(it, name), getattr(it, name + "2")):
                if v is not None:
                    vals.append(v)
    return vals


def _make_position_scale(plan: ChartPlan, name: str, ct: ChartTheme) -> sc.PositionScale | None:
    chans = _chans(plan, name) + _chans(plan, name + "2")
    if not chans:
        return None
    main = next((c for c in _chans(plan, name) if c.type is not None), chans[0])
    stype = _scale_opt(chans, "type")
    marks = {layer.mark for layer in plan.layers if name in layer.channels}
    if main.discrete and stype in (None, "band", "point"):
        domain = _discrete_domain(plan, name)
        reverse = bool(_scale_opt(chans, "reverse", False))
        if stype == "band" or (stype is None and marks & set(BAND_MARKS)):
            cells = "rect" in marks and not marks & {"bar", "boxplot", "tick"}  # heatmap cells touch
            pad = _scale_opt(chans, "paddingInner", _scale_opt(chans, "padding", 0.0 if cells else ct.bar_padding))
            outer = _scale_opt(chans, "paddingOuter", 0.0 if cells else None)
            return sc.BandScale(domain, float(pad), None if outer is None else float(outer), reverse=reverse)
        return sc.PointScale(domain, float(_scale_opt(chans, "padding", 0.5)), reverse=reverse)
    values = [v for v in _position_values(plan, name) if isinstance(v, (int, float))]
    kind = stype or ("time" if main.type == "temporal" else "linear")
    if kind not in ("linear", "log", "symlog", "time"):
        raise ChartSpecError(f"unsupported scale type '{kind}' (use linear, log, symlog, band or point)",
                             chart=plan.chart_id, path=f"encoding.{name}.scale.type")
    domain = _scale_opt(chans, "domain")
    explicit = isinstance(domain, list) and len(domain) == 2 and all(isinstance(d, (int, float)) for d in domain)
    if explicit:
        lo, hi = float(domain[0]), float(domain[1])
    else:
        if not values:
            values = [0.0, 1.0]
        lo, hi = min(values), max(values)
        dmin, dmax = _scale_opt(chans, "domainMin"), _scale_opt(chans, "domainMax")
        if isinstance(dmin, (int, float)):
            lo = float(dmin)
        if isinstance(dmax, (int, float)):
            hi = float(dmax)
    binned = any(c.bin is not None for c in chans)
    zero_default = kind in ("linear", "symlog") and not binned and main.type == "quantitative"
    zero = bool(_scale_opt(chans, "zero", zero_default))
    if any(layer.mark in ("bar", "area") and layer.value_axis == name for layer in plan.layers) and kind == "linear" \
            and _scale_opt(chans, "zero") is None:
        zero = True
    if kind == "log" and (lo <= 0 or hi <= 0):
        bad = next((v for v in values if v <= 0), lo)
        raise ChartSpecError(f"a log scale needs positive values, but '{main.key}' has {bad:g}; use scale type 'symlog'",
                             chart=plan.chart_id, path=f"encoding.{name}.scale.type")
    integer = all(float(v).is_integer() for v in values) and kind == "linear" and main.aggregate not in ("mean", "average", "median")
    fmt_ = _axis_opt(_chans(plan, name), "format") or main.format
    try:
        return sc.ContinuousScale(
            kind, lo, hi, zero=zero, nice=bool(_scale_opt(chans, "nice", kind != "time")), explicit=explicit,
            base=float(_scale_opt(chans, "base", 10)), constant=float(_scale_opt(chans, "constant", 1)),
            integer=integer, tick_count=_axis_opt(_chans(plan, name), "tickCount"),
            reverse=bool(_scale_opt(chans, "reverse", False)), label_format=fmt_,
            tick_values=_axis_values(plan, name),
        )
    except ValueError as e:
        raise ChartSpecError(str(e), chart=plan.chart_id, path=f"encoding.{name}.scale") from None


def _axis_values(plan: ChartPlan, name: str) -> list[float] | None:
    """The axis's own tick values (Vega-Lite ``axis.values``), when it lists them."""
    values = _axis_opt(_chans(plan, name), "values")
    if values is None:
        return None
    if not isinstance(values, list) or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        raise ChartSpecError("axis 'values' must be a list of numbers", chart=plan.chart_id,
                             path=f"encoding.{name}.axis.values")
    return [float(v) for v in values]


@dataclass
class _Legend:
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


@dataclass
class _Scales:
    x: sc.PositionScale | None
    y: sc.PositionScale | None
    x_offset: sc.BandScale | None
    y_offset: sc.BandScale | None
    color: Any
    size: sc.SizeScale | None
    shape: dict[Any, str]
    dash: dict[Any, tuple[float, ...]]


def _color_scale(plan: ChartPlan, ct: ChartTheme) -> Any:
    ch = next((c for c in _chans(plan, "color") if c.is_field), None)
    if ch is None:
        return None
    if ch.discrete or ch.type is None:
        return sc.CategoricalColors(plan.color_domain(), ct.palette, ch.scale)
    vals = [it.color for layer in plan.layers for it in layer.items if isinstance(it.color, (int, float))]
    lo, hi = (min(vals), max(vals)) if vals else (0.0, 1.0)
    if ch.scale.get("zero") and lo > 0:
        lo = 0.0
    try:
        return sc.SequentialColors(lo, hi, ct.sequential_scheme, ch.scale)
    except ValueError as e:
        raise ChartSpecError(str(e), chart=plan.chart_id, path="encoding.color.scale.scheme") from None


def _build_scales(plan: ChartPlan, ct: ChartTheme) -> _Scales:
    x = _make_position_scale(plan, "x", ct)
    y = _make_position_scale(plan, "y", ct)
    offsets = {}
    for name in ("xOffset", "yOffset"):
        ch = next((c for c in _chans(plan, name) if c.is_field), None)
        offsets[name] = sc.BandScale(_discrete_domain(plan, name), float(ch.scale.get("paddingInner", ct.offset_padding)),
                                     0.0) if ch is not None else None
    size = None
    sch = next((c for c in _chans(plan, "size") if c.is_field), None)
    if sch is not None:
        vals = [it.size for layer in plan.layers for it in layer.items if isinstance(it.size, (int, float))]
        if vals:
            size = sc.SizeScale(min(vals), max(vals), ct.point_size * 0.25, ct.point_size * 5, sch.scale)
    shape_dom = _discrete_domain(plan, "shape")
    shch = next((c for c in _chans(plan, "shape") if c.is_field), None)
    shape_range = shch.scale.get("range") if shch is not None and isinstance(shch.scale.get("range"), list) else sc.SHAPES
    dash_dom = _discrete_domain(plan, "strokeDash")
    return _Scales(
        x=x, y=y, x_offset=offsets["xOffset"], y_offset=offsets["yOffset"], color=_color_scale(plan, ct), size=size,
        shape={_label(v): shape_range[i % len(shape_range)] for i, v in enumerate(shape_dom)},
        dash={_label(v): sc.DASHES[i % len(sc.DASHES)] for i, v in enumerate(dash_dom)},
    )


# ---------------------------------------------------------------------------------------
# Legends
# ---------------------------------------------------------------------------------------


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


def _legend_orient(chans: Sequence[Channel]) -> tuple[str, tuple[float, float] | None]:
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
    return "right", None


def _build_legends(plan: ChartPlan, scales: _Scales, ct: ChartTheme) -> list[_Legend]:
    out: list[_Legend] = []
    color = next((c for c in _chans(plan, "color") if c.is_field), None)
    shape = next((c for c in _chans(plan, "shape") if c.is_field), None)
    dash = next((c for c in _chans(plan, "strokeDash") if c.is_field), None)
    size = next((c for c in _chans(plan, "size") if c.is_field), None)
    color = next((c for c in _chans(plan, "color") if c.is_field and c.legend is not None), color)
    if color is not None and color.legend is not None:
        orient, at = _legend_orient(_chans(plan, "color"))
        if orient != "none":
            title = color.legend.get("title", color.title_text()) if color.legend else color.title_text()
            if color.discrete or color.type is None:
                entries = [(v, sc.fmt_category(v)) for v in plan.color_domain()]
                lg = _Legend("color", "symbol", title, entries, orient, _legend_symbol(plan, "color"), at=at)
                lg.shape_field = shape is not None and shape.field == color.field
                lg.dash_field = dash is not None and dash.field == color.field
                line = next((layer for layer in plan.layers if layer.mark == "line" and "color" in layer.channels), None)
                if line is not None:  # a line swatch is drawn as its lines are (Vega-Lite's legend too)
                    lg.stroke_width = line.props.get("strokeWidth")
                    pt = line.props.get("point")
                    lg.point_size = pt.get("size") if isinstance(pt, dict) else None
                out.append(lg)
            else:
                import matplotlib.ticker as mt

                cs = scales.color
                ticks = [float(v) for v in mt.MaxNLocator(nbins=4, steps=[1, 2, 2.5, 5, 10]).tick_values(cs.lo, cs.hi)
                         if cs.lo - 1e-9 <= v <= cs.hi + 1e-9]
                labels = sc.fmt.linear_tick_labels(ticks) if ticks else []
                lg = _Legend("color", "gradient", title, [], orient if orient in ("right", "left") else "right")
                lg.colors = cs
                lg.gradient_ticks = list(zip(ticks, labels))
                out.append(lg)
    for ch, name in ((shape, "shape"), (dash, "strokeDash")):
        if ch is None or ch.legend is None or (color is not None and ch.field == color.field):
            continue
        orient, at = _legend_orient(_chans(plan, name))
        if orient == "none":
            continue
        dom = _discrete_domain(plan, name)
        lg = _Legend(name, "symbol", ch.title_text(), [(v, sc.fmt_category(v)) for v in dom], orient,
                     "point" if name == "shape" else "line", at=at)
        lg.shape_field = name == "shape"
        lg.dash_field = name == "strokeDash"
        out.append(lg)
    if size is not None and size.legend is not None and scales.size is not None and size.type == "quantitative":
        import matplotlib.ticker as mt

        s = scales.size
        ticks = [float(v) for v in mt.MaxNLocator(nbins=3, steps=[1, 2, 2.5, 5, 10]).tick_values(max(s.lo, 0), s.hi)
                 if v > 0 and v <= s.hi * 1.0001]
        orient, at = _legend_orient(_chans(plan, "size"))
        lg = _Legend("size", "size", size.title_text(), [(v, lab) for v, lab in zip(ticks, sc.fmt.linear_tick_labels(ticks))],
                     orient, "circle", at=at)
        out.append(lg)
    return out


def _symbol_box(lg: _Legend, scales: _Scales, ct: ChartTheme) -> float:
    """The swatch's width."""
    if lg.kind == "size" and scales.size is not None:
        return max(ct.legend_symbol, max(2 * math.sqrt(scales.size(v) / math.pi) for v, _ in lg.entries) if lg.entries else 0)
    if ct.legend_symbol_size is not None:  # config.legend.symbolSize: the swatch's area (a stroke's length²)
        return math.sqrt(ct.legend_symbol_size)
    if lg.symbol.startswith("line"):
        return ct.legend_symbol * 2
    return ct.legend_symbol


def _symbol_height(lg: _Legend, ct: ChartTheme, width: float) -> float:
    """The swatch's height: a path symbol's own aspect (matplotlib's bar handles are 2 × 0.7 em),
    else its width (a line swatch's row is as tall as it is long, as it has always been)."""
    if lg.symbol.startswith("line") and ct.legend_symbol_size is not None:
        # a stroke of the given length: its row as tall as its marker, not as the stroke is long
        marker = 2 * math.sqrt((lg.point_size or ct.line_point_size) / math.pi) if lg.symbol == "line-point" else 0.0
        return max(ct.legend_symbol, marker)
    path = _custom_symbol(lg, ct)
    if path is None:
        return width
    box = path_bbox(parse_path(path))
    w, h = (box[2] - box[0], box[3] - box[1]) if box else (0.0, 0.0)
    return width * (h / w) if w > 0 else width


def _custom_symbol(lg: _Legend, ct: ChartTheme) -> str | None:
    """config.legend.symbolType's path data, where it gives one and the swatch is no line."""
    t = ct.legend_symbol_type
    if t is None or t in SYMBOL_NAMES or lg.symbol.startswith("line") or lg.kind != "symbol":
        return None
    return t


def _measure_legend(lg: _Legend, scales: _Scales, ct: ChartTheme, max_width: float) -> None:
    fs = ct.legend_font_size
    row_h = max(fs * 1.25, ct.legend_symbol) + ct.legend_row_gap
    title_w = text_width(lg.title, fs, bold=True) if lg.title else 0.0
    if lg.kind == "gradient":
        bar_h = max(60.0, min(140.0, 8 * fs))
        lab_w = max((text_width(t, fs) for _, t in lg.gradient_ticks), default=0.0)
        lg.width = max(title_w, ct.legend_symbol + 4 + lab_w)
        lg.height = (fs * 1.4 if lg.title else 0) + bar_h
        return
    sym = _symbol_box(lg, scales, ct)
    sym_h = _symbol_height(lg, ct, sym)
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


# ---------------------------------------------------------------------------------------
# Layout
# ---------------------------------------------------------------------------------------


@dataclass
class _AxisLayout:
    channel: str
    scale: sc.PositionScale
    title: str | None
    show: bool
    grid: bool
    labels: bool
    angle: float = 0.0
    extent: float = 0.0  # px the axis needs outside the plot (labels + title)
    title_pad: float = 0.0  # tick labels to axis title (the channel's axis.titlePadding, else the theme's)


@dataclass
class ChartLayout:
    plan: ChartPlan
    ct: ChartTheme
    scales: _Scales
    width: float
    height: float
    pw: float  # plot (cell) width
    ph: float
    left: float  # plot origin of cell (0, 0)
    top: float
    gap_x: float
    gap_y: float
    legends: list[tuple[_Legend, float, float]]  # legend, x, y (chart-local)
    x_axis: _AxisLayout | None
    y_axis: _AxisLayout | None
    title_y: float = 0.0
    title_lines: list[str] = field(default_factory=list)
    header_h: float = 0.0

    def cell_origin(self, row: int, col: int) -> tuple[float, float]:
        return (self.left + col * (self.pw + self.gap_x), self.top + self.header_h + row * (self.ph + self.gap_y))


def _label_height(ax: _AxisLayout, ct: ChartTheme) -> float:
    fs = ct.tick_font_size
    if not ax.labels:
        return 0.0
    labels = [t.label for t in ax.scale.ticks if not t.minor]
    if ax.angle == 0:
        return fs * (ASCENT + DESCENT)
    w = max((text_width(lab, fs) for lab in labels), default=0.0)
    a = math.radians(abs(ax.angle))
    return w * math.sin(a) + fs * math.cos(a) * 0.8


def _x_axis_extent(ax: _AxisLayout, ct: ChartTheme) -> float:
    if not ax.show:
        return 0.0
    h = ct.tick_size + ct.tick_pad + _label_height(ax, ct)
    if ax.title:
        h += ax.title_pad + ct.label_font_size * (ASCENT + DESCENT)
    return h + 1.0


def _y_axis_extent(ax: _AxisLayout, ct: ChartTheme) -> float:
    if not ax.show:
        return 0.0
    fs = ct.tick_font_size
    w = ct.tick_size + ct.tick_pad
    if ax.labels:
        w += max((text_width(t.label, fs) for t in ax.scale.ticks if not t.minor), default=0.0)
    if ax.title:
        w += ax.title_pad + ct.label_font_size * (ASCENT + DESCENT)
    return w + 1.0


def _auto_angle(ax: _AxisLayout, ct: ChartTheme) -> float:
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


def _continuous_labels_fit(ax: _AxisLayout, ct: ChartTheme) -> bool:
    ticks = [t for t in ax.scale.ticks if not t.minor]
    fs = ct.tick_font_size
    for a, b in zip(ticks, ticks[1:]):
        need = (text_width(a.label, fs) + text_width(b.label, fs)) / 2 + fs * 0.6
        if abs(b.pos - a.pos) < need:
            return False
    return True


def _finalize_axis(plan: ChartPlan, name: str, scale: sc.PositionScale, length: float, ct: ChartTheme,
                   r0: float, r1: float) -> _AxisLayout:
    chans = _chans(plan, name)
    show = any(c.axis is not None for c in chans) if chans else False
    title: Any = next((c.axis["title"] for c in chans if c.axis is not None and "title" in c.axis), _UNSET)
    if title is _UNSET:
        explicit = [c for c in chans if c.title is not _MISSING]
        title = explicit[0].title_text() if explicit else next((c.title_text() for c in chans if c.is_field), None)
    grid_default = isinstance(scale, sc.ContinuousScale) and ct.grid is not False
    grid = bool(_axis_opt(chans, "grid", grid_default))
    labels = bool(_axis_opt(chans, "labels", True))
    scale.set_range(r0, r1)
    spacing = ct.tick_spacing if name == "x" else ct.tick_spacing * 0.8
    scale.finalize(length, spacing)
    ax = _AxisLayout(name, scale, title if isinstance(title, str) or title is None else str(title), show, grid, labels)
    pad = _axis_opt(chans, "titlePadding")
    ok = isinstance(pad, (int, float)) and not isinstance(pad, bool) and pad >= 0
    ax.title_pad = float(pad) if ok else ct.title_pad
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
        angle = _axis_opt(chans, "labelAngle")
        ax.angle = float(angle) if isinstance(angle, (int, float)) else _auto_angle(ax, ct)
        if ax.angle > 180:
            ax.angle -= 360
    return ax


def _plot_size_request(plan: ChartPlan, scales: _Scales, name: str, value: Any) -> float | None:
    if isinstance(value, (int, float)) and value > 0:
        return float(value)
    if isinstance(value, dict) and isinstance(value.get("step"), (int, float)):
        s = scales.x if name == "width" else scales.y
        n = len(s.domain) if isinstance(s, sc.BandScale) else 10
        return float(value["step"]) * max(1, n)
    return None


def layout_chart(plan: ChartPlan, ct: ChartTheme, width: float | None = None, height: float | None = None) -> ChartLayout:
    """Sizes and positions of every part; ``width``/``height`` fix the outer size (a layout box)."""
    ct = configured_theme(ct, plan.config, plan.chart_id)
    scales = _build_scales(plan, ct)
    legends = _build_legends(plan, scales, ct)
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

    def measure(pw: float, ph: float) -> tuple[_AxisLayout | None, _AxisLayout | None]:
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
        left = _y_axis_extent(ya, ct) if ya is not None else 2.0
        bottom = _x_axis_extent(xa, ct) if xa is not None else 2.0
        x_over = 0.0
        if xa is not None and xa.show and xa.labels and isinstance(xa.scale, sc.ContinuousScale) and xa.scale.ticks:
            last = [t for t in xa.scale.ticks if not t.minor][-1]
            x_over = max(0.0, text_width(last.label, ct.tick_font_size) / 2 - (pw - last.pos))
        if xa is not None and xa.angle and xa.angle not in (0, -90, 90):
            first = xa.scale.ticks[0] if xa.scale.ticks else None
            if first is not None:  # 45° labels hang left of their tick
                over = text_width(first.label, ct.tick_font_size) * math.cos(math.radians(abs(xa.angle))) - first.pos
                left = max(left, over + 2)
        right_legends = [lg for lg in legends if lg.orient in ("right",)]
        left_legends = [lg for lg in legends if lg.orient == "left"]
        for lg in legends:
            _measure_legend(lg, scales, ct, max_width=max(pw * ncol, 120.0))
        right = max(x_over, 3.0) + (max(lg.width for lg in right_legends) + ct.legend_pad if right_legends else 0.0)
        left += max((lg.width + ct.legend_pad for lg in left_legends), default=0.0)
        top_leg = sum(lg.height + ct.legend_pad * 0.6 for lg in legends if lg.orient == "top")
        bot_leg = sum(lg.height + ct.legend_pad * 0.6 for lg in legends if lg.orient == "bottom")
        top_over = ct.tick_font_size * 0.6 if ya is not None and isinstance(ya.scale, sc.ContinuousScale) else 2.0
        if title_lines and ct.title_offset is not None:
            # the title's last line sits title_offset px above the plot (Vega's title.offset)
            top = title_h - ct.title_pad * 1.5 + 1.0 + ct.title_offset + top_leg
        else:
            top = title_h + top_leg + max(top_over, 0.0)
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
    # legend positions (chart-local)
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
    layout.title_y = ct.title_font_size * ASCENT + 1.0
    layout.title_lines = title_lines
    return layout


def _title_lines(title: str | None, ct: ChartTheme, width: float) -> list[str]:
    """The chart title, wrapped to the chart's width (long titles would stick out)."""
    if not title:
        return []

    return wrap(title, ct.title_font_size, max(width - 4, ct.title_font_size * 4), bold=ct.title_weight == "bold")


def _title_width(layout: "ChartLayout") -> float:
    return max((text_width(t, layout.ct.title_font_size, bold=layout.ct.title_weight == "bold")
                for t in layout.title_lines), default=0.0)


def _default_height(pw: float, scales: _Scales, ct: ChartTheme) -> float:
    ph = min(ct.max_plot_height, max(ct.min_plot, pw * ct.aspect))
    if isinstance(scales.y, sc.BandScale):  # horizontal bars: one readable row per category
        ph = max(ph, len(scales.y.domain) * ct.tick_font_size * 1.9)
    return ph


# ---------------------------------------------------------------------------------------
# SVG
# ---------------------------------------------------------------------------------------


class _Svg:
    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, s: str) -> None:
        self.parts.append(s)

    def open(self, id_: str, **attrs: Any) -> None:
        self.parts.append(f"<g id={quoteattr(id_)}{_attrs(attrs)}>")

    def close(self) -> None:
        self.parts.append("</g>")

    def text(self, x: float, y: float, s: str, *, size: float | None = None, anchor: str | None = None,
             rotate: float = 0.0, id_: str | None = None, **attrs: Any) -> None:
        a = f' id={quoteattr(id_)}' if id_ else ""
        a += f' x="{_f(x)}" y="{_f(y)}"'
        if size is not None:
            a += f' font-size="{_f(size)}"'
        if anchor and anchor != "start":
            a += f' text-anchor="{anchor}"'
        if rotate:
            a += f' transform="rotate({_f(rotate)} {_f(x)} {_f(y)})"'
        self.parts.append(f"<text{a}{_attrs(attrs)}>{escape(s)}</text>")

    def result(self) -> str:
        return "".join(self.parts)


def _attrs(attrs: dict[str, Any]) -> str:
    out = []
    for k, v in attrs.items():
        if v is None or v is False:
            continue
        name = k.rstrip("_").replace("_", "-")
        out.append(f" {name}={quoteattr(str(v))}")
    return "".join(out)


def _dash(d: Sequence[float] | None) -> str | None:
    return ",".join(_f(x) for x in d) if d else None


class _Painter:
    def __init__(self, layout: ChartLayout, ox: float, oy: float, ids: _Ids, svg: _Svg) -> None:
        self.L = layout
        self.ct = layout.ct
        self.S = layout.scales
        self.ox, self.oy = ox, oy  # chart origin in figure coordinates
        self.ids = ids
        self.svg = svg

    # -- positions -------------------------------------------------------------------
    def _pos(self, scale: sc.PositionScale, v: Any, center: bool = True) -> float:
        if isinstance(scale, sc.BandScale):
            return scale.center(v) if center else scale(v)
        return scale(v)

    def color_of(self, layer: LayerPlan, it: Item) -> str:
        ch = layer.channels.get("color")
        if ch is not None and ch.is_field and self.S.color is not None and it.color is not None:
            return self.S.color(it.color)
        if ch is not None and isinstance(ch.value, str):
            return ch.value
        # a filled mark's stroke is its edge, not its colour (a bar with stroke '#000' is not black)
        c = layer.props.get("color") or layer.props.get("fill") or (
            None if layer.mark in ("bar", "area", "rect", "arc") else layer.props.get("stroke"))
        if isinstance(c, str):
            return c
        if layer.mark in ("rule", "errorbar", "tick") and not (ch is not None and ch.is_field):
            return "#333333"
        if layer.mark == "text":
            return self.ct.text_color
        return self.ct.palette[0]

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
            svg.open(cell_id, class_="crafter-chart-cell", font_family=ct.font_family, data_crafter_cell=cell.index, data_crafter_row=cell.row,
                     data_crafter_col=cell.col, data_crafter_plot=f"{_f(cx)} {_f(cy)} {_f(L.pw)} {_f(L.ph)}",
                     data_crafter_header=cell.header)
            if facets and cell.header is not None:
                svg.open(self.ids.make(pfx, "header"), class_="crafter-chart-header", font_size=_f(ct.header_font_size),
                         fill=ct.text_color)
                svg.text(cx + L.pw / 2, cy - L.header_h + ct.header_font_size * ASCENT, cell.header, anchor="middle")
                svg.close()
            if ct.view_fill:
                svg.add(f'<rect id={quoteattr(self.ids.make(pfx, "view"))} class="crafter-chart-view" x="{_f(cx)}" '
                        f'y="{_f(cy)}" width="{_f(L.pw)}" height="{_f(L.ph)}" fill={quoteattr(ct.view_fill)}/>')
            if ct.axis_zindex >= 1:  # the grid over the marks (Vega-Lite's axis zindex)
                self._marks(cell, cx, cy, pfx)
                self._grid(cell, cx, cy, pfx)
            else:
                self._grid(cell, cx, cy, pfx)
                self._marks(cell, cx, cy, pfx)
            if ct.view_stroke:
                svg.add(f'<rect id={quoteattr(self.ids.make(pfx, "frame"))} class="crafter-chart-frame" x="{_f(cx)}" '
                        f'y="{_f(cy)}" width="{_f(L.pw)}" height="{_f(L.ph)}" fill="none" stroke="{ct.view_stroke}" '
                        f'stroke-width="{_f(ct.view_stroke_width)}"/>')
            below_missing = not any(c.row == cell.row + 1 and c.col == cell.col for c in L.plan.cells)
            if L.x_axis is not None and L.x_axis.show and below_missing:
                self._x_axis(L.x_axis, cx, cy, pfx)
            if L.y_axis is not None and L.y_axis.show and cell.col == 0:
                self._y_axis(L.y_axis, cx, cy, pfx)
            svg.close()
        for lg, lx, ly in L.legends:
            self._legend(lg, self.ox + lx, self.oy + ly)
        if L.plan.title:
            plot_w_all = L.plan.n_cols * L.pw + (L.plan.n_cols - 1) * L.gap_x
            svg.open(self.ids.make("title"), class_="crafter-chart-title", font_family=ct.font_family,
                     font_size=_f(ct.title_font_size),
                     font_weight=ct.title_weight, fill=ct.text_color)
            cx = self.ox + L.left + plot_w_all / 2
            cx = min(max(cx, self.ox + _title_width(L) / 2), self.ox + L.width - _title_width(L) / 2)
            for i, line in enumerate(L.title_lines):
                svg.text(cx, self.oy + L.title_y + i * ct.title_font_size * 1.2, line, anchor="middle")
            svg.close()

    # -- grid --------------------------------------------------------------------------
    def _grid(self, cell, cx: float, cy: float, pfx: str | None) -> None:
        L, ct, svg = self.L, self.ct, self.svg
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
                d = "".join(f"M{_f(cx)},{_f(cy + t.pos)}h{_f(L.pw)}" for t in major)
            else:
                d = "".join(f"M{_f(cx + t.pos)},{_f(cy)}v{_f(L.ph)}" for t in major)
            svg.add(f'<path id={quoteattr(self.ids.make(pfx, "grid", ax.channel))} class="crafter-chart-grid" d="{d}" '
                    f'stroke="{ct.grid_color}" stroke-width="{_f(ct.grid_width)}" fill="none"'
                    + (f' stroke-dasharray="{_dash(ct.grid_dash)}"' if ct.grid_dash else "")
                    + (f' stroke-opacity="{_f(min(1.0, ct.grid_opacity))}"' if ct.grid_opacity < 1 else "")
                    + f'{_tick_values_attrs(major, [])}/>')
        # a zero line where bars or areas cross zero
        for layer in cell.layers:
            if layer.mark not in ("bar", "area"):
                continue
            s = L.scales.y if layer.value_axis == "y" else L.scales.x
            if isinstance(s, sc.ContinuousScale) and s.kind != "log" and min(s.d0, s.d1) < 0 < max(s.d0, s.d1):
                p = s(0.0)
                if layer.value_axis == "y":
                    line = f'<line x1="{_f(cx)}" y1="{_f(cy + p)}" x2="{_f(cx + L.pw)}" y2="{_f(cy + p)}"/>'
                else:
                    line = f'<line x1="{_f(cx + p)}" y1="{_f(cy)}" x2="{_f(cx + p)}" y2="{_f(cy + L.ph)}"/>'
                svg.open(self.ids.make(pfx, "zero-line"), class_="crafter-chart-zero", stroke=ct.axis_color,
                         stroke_width=_f(ct.axis_width))
                svg.add(line)
                svg.close()
                break

    # -- axes --------------------------------------------------------------------------
    def _axis_attrs(self, ax: _AxisLayout) -> dict[str, Any]:
        s = ax.scale
        a: dict[str, Any] = {"data_crafter_axis": ax.channel, "data_crafter_scale": s.kind}
        if isinstance(s, sc.ContinuousScale):
            if s.kind == "log":
                a["data_crafter_base"] = _f(s.base)
            if s.kind == "symlog":
                a["data_crafter_constant"] = repr(s.constant)
            a["data_crafter_domain"] = f"{s.d0!r} {s.d1!r}"
        return a

    def _ticks(self, ax: _AxisLayout, pfx: str | None, segment: Any) -> None:
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
        d = "".join(segment(t, ct.tick_size) for t in major) + "".join(segment(t, ct.tick_size * 0.6) for t in minor)
        self.svg.add(f'<path id={quoteattr(self.ids.make(pfx, f"axis-{ax.channel}-ticks"))} d="{d}" '
                     f'stroke="{ct.axis_color}" stroke-width="{_f(ct.axis_width)}" fill="none"'
                     f'{_tick_values_attrs(major, minor)}/>')

    def _x_axis(self, ax: _AxisLayout, cx: float, cy: float, pfx: str | None) -> None:
        ct, svg, L = self.ct, self.svg, self.L
        y0 = cy + L.ph
        svg.open(self.ids.make(pfx, "axis-x"), class_="crafter-chart-axis", **self._axis_attrs(ax))
        if ct.domain:
            svg.add(f'<line id={quoteattr(self.ids.make(pfx, "axis-x-domain"))} x1="{_f(cx)}" y1="{_f(y0)}" '
                    f'x2="{_f(cx + L.pw)}" y2="{_f(y0)}" stroke="{ct.axis_color}" stroke-width="{_f(ct.axis_width)}"/>')
        self._ticks(ax, pfx, lambda t, ln: f"M{_f(cx + t.pos)},{_f(y0)}v{_f(ln)}")
        fs = ct.tick_font_size
        if ax.labels:
            svg.open(self.ids.make(pfx, "axis-x-labels"), font_size=_f(fs), fill=ct.label_color or ct.text_color)
            ly = y0 + ct.tick_size + ct.tick_pad
            for t in ax.scale.ticks:
                if t.minor or not t.label:
                    continue
                x = cx + t.pos
                if ax.angle == 0:
                    svg.text(x, ly + fs * ASCENT, t.label, anchor="middle")
                elif abs(ax.angle) == 90:
                    svg.text(x + fs * BASELINE_SHIFT, ly, t.label, anchor="end", rotate=ax.angle)
                else:
                    a = math.radians(abs(ax.angle))
                    svg.text(x + fs * 0.35 * math.sin(a), ly + fs * 0.35 * math.cos(a) + 1, t.label, anchor="end",
                             rotate=ax.angle)
            svg.close()
        if ax.title:
            ty = y0 + ct.tick_size + ct.tick_pad + _label_height(ax, ct) + ax.title_pad + ct.label_font_size * ASCENT
            svg.text(cx + L.pw / 2, ty, ax.title, size=ct.label_font_size, anchor="middle",
                     id_=self.ids.make(pfx, "axis-x-title"), fill=ct.axis_title_color or ct.text_color)
        svg.close()

    def _y_axis(self, ax: _AxisLayout, cx: float, cy: float, pfx: str | None) -> None:
        ct, svg, L = self.ct, self.svg, self.L
        svg.open(self.ids.make(pfx, "axis-y"), class_="crafter-chart-axis", **self._axis_attrs(ax))
        if ct.domain:
            svg.add(f'<line id={quoteattr(self.ids.make(pfx, "axis-y-domain"))} x1="{_f(cx)}" y1="{_f(cy)}" '
                    f'x2="{_f(cx)}" y2="{_f(cy + L.ph)}" stroke="{ct.axis_color}" stroke-width="{_f(ct.axis_width)}"/>')
        self._ticks(ax, pfx, lambda t, ln: f"M{_f(cx)},{_f(cy + t.pos)}h{_f(-ln)}")
        fs = ct.tick_font_size
        label_w = 0.0
        if ax.labels:
            svg.open(self.ids.make(pfx, "axis-y-labels"), font_size=_f(fs), fill=ct.label_color or ct.text_color)
            lx = cx - ct.tick_size - ct.tick_pad
            for t in ax.scale.ticks:
                if t.minor or not t.label:
                    continue
                label_w = max(label_w, text_width(t.label, fs))
                svg.text(lx, cy + t.pos + fs * BASELINE_SHIFT, t.label, anchor="end")
            svg.close()
        if ax.title:
            tx = cx - ct.tick_size - ct.tick_pad - label_w - ax.title_pad - ct.label_font_size * DESCENT
            ty = cy + L.ph / 2
            svg.text(tx, ty, ax.title, size=ct.label_font_size, anchor="middle", rotate=-90,
                     id_=self.ids.make(pfx, "axis-y-title"), fill=ct.axis_title_color or ct.text_color)
        svg.close()

    # -- legends -----------------------------------------------------------------------
    def _legend_symbol(self, lg: _Legend, value: Any, x: float, y: float, sym: float) -> str:
        """A legend swatch centred vertically at y, starting at x."""
        ct = self.ct
        color = ct.palette[0]
        if lg.channel == "color" and self.S.color is not None:
            color = self.S.color(value)
        elif lg.channel != "color":
            color = "#555555"
        shape = self.S.shape.get(_label(value), "circle") if lg.shape_field else "circle"
        dash = self.S.dash.get(_label(value)) if lg.dash_field else None
        if lg.kind == "size" and self.S.size is not None:
            r = math.sqrt(self.S.size(value) / math.pi)
            return (f'<circle cx="{_f(x + sym / 2)}" cy="{_f(y)}" r="{_f(r)}" fill="none" stroke="{ct.axis_color}" '
                    f'stroke-width="1"/>')
        if lg.symbol.startswith("line") or ct.legend_symbol_type == "stroke":
            width = lg.stroke_width if lg.stroke_width is not None else ct.line_width
            out = (f'<line x1="{_f(x)}" y1="{_f(y)}" x2="{_f(x + sym)}" y2="{_f(y)}" stroke="{color}" '
                   f'stroke-width="{_f(width)}"' + (f' stroke-dasharray="{_dash(dash)}"' if dash else "") + "/>")
            if lg.symbol == "line-point" or lg.shape_field:
                size = lg.point_size if lg.point_size is not None else ct.line_point_size
                out += (f'<path transform="translate({_f(x + sym / 2)},{_f(y)})" '
                        f'd="{sc.symbol_path(shape, size)}" fill="{color}"/>')
            return out
        path = _custom_symbol(lg, ct)
        if path is not None:  # the square −1…1 scaled to the swatch's width
            return (f'<path transform="translate({_f(x + sym / 2)},{_f(y)}) scale({_f(sym / 2)})" d="{path}" '
                    f'fill="{color}"/>')
        named = ct.legend_symbol_type if ct.legend_symbol_type in SYMBOL_NAMES else None
        if lg.symbol in ("point", "circle", "square") or named:
            shp = shape if lg.shape_field else named or ("square" if lg.symbol == "square" else "circle")
            area = ct.legend_symbol_size if ct.legend_symbol_size is not None else ct.point_size
            return (f'<path transform="translate({_f(x + sym / 2)},{_f(y)})" d="{sc.symbol_path(shp, area)}" '
                    f'fill="{color}"/>')
        return f'<rect x="{_f(x)}" y="{_f(y - sym / 2)}" width="{_f(sym)}" height="{_f(sym)}" fill="{color}"/>'

    def _legend(self, lg: _Legend, x: float, y: float) -> None:
        ct, svg = self.ct, self.svg
        fs = ct.legend_font_size
        lid = self.ids.make("legend" if lg.channel == "color" else f"legend-{lg.channel.lower()}")
        svg.open(lid, class_="crafter-chart-legend", data_crafter_legend=lg.channel, font_family=ct.font_family,
                 font_size=_f(fs), fill=ct.text_color)
        if lg.orient not in ("right", "left", "top", "bottom"):
            svg.add(f'<rect x="{_f(x - 4)}" y="{_f(y - 3)}" width="{_f(lg.width + 8)}" height="{_f(lg.height + 6)}" '
                    f'fill="{ct.background}" fill-opacity="0.85" stroke="{ct.grid_color}" stroke-width="0.6"/>')
        row_h = max(fs * 1.25, ct.legend_symbol) + ct.legend_row_gap
        sym = _symbol_box(lg, self.S, ct)
        sym_h = _symbol_height(lg, ct, sym)
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

    def _legend_item(self, lg: _Legend, lid: str, value: Any, label: str, x: float, cy: float, sym: float) -> None:
        ct, svg = self.ct, self.svg
        svg.open(self.ids.make(lid.split(f"{self.ids.chart_id}-", 1)[1], slug(value)), class_="crafter-legend-item",
                 data_crafter_value=_label(value))
        svg.add(self._legend_symbol(lg, value, x, cy, sym))
        svg.text(x + sym + ct.legend_gap, cy + ct.legend_font_size * BASELINE_SHIFT, label)
        svg.close()

    def _gradient_legend(self, lg: _Legend, x: float, y: float, lid: str) -> None:
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
        stops = "".join(f'<stop offset="{_f(i / 10 * 100)}%" stop-color="{cs(cs.lo + (cs.hi - cs.lo) * (1 - i / 10))}"/>'
                        for i in range(11))
        svg.add(f'<defs><linearGradient id={quoteattr(gid)} x1="0" y1="0" x2="0" y2="1">{stops}</linearGradient></defs>')
        svg.add(f'<rect x="{_f(x)}" y="{_f(yy)}" width="{_f(w)}" height="{_f(h)}" fill="url(#{gid})"/>')
        ticks = ""  # one path for all the ramp's ticks, like an axis's
        for v, label in lg.gradient_ticks:
            f = (v - cs.lo) / (cs.hi - cs.lo) if cs.hi != cs.lo else 0.5
            ty = yy + (1 - f) * h
            ticks += f"M{_f(x + w)},{_f(ty)}h3"
            svg.text(x + w + 4, ty + fs * BASELINE_SHIFT, label)
        if ticks:
            svg.add(f'<path d="{ticks}" stroke="{ct.axis_color}" stroke-width="0.8" fill="none"/>')

    # -- marks ---------------------------------------------------------------------------
    def _marks(self, cell, cx: float, cy: float, pfx: str | None) -> None:
        svg = self.svg
        svg.open(self.ids.make(pfx, "marks"), class_="crafter-chart-marks")
        counts: dict[str, int] = {}
        for layer in cell.layers:
            counts[layer.mark] = counts.get(layer.mark, 0) + 1
        seen: dict[str, int] = {}
        for layer in cell.layers:
            seen[layer.mark] = seen.get(layer.mark, 0) + 1
            lname = layer.mark if counts[layer.mark] == 1 else f"{layer.mark}{seen[layer.mark]}"
            draw = getattr(self, f"_draw_{layer.mark}", None)
            if draw is None:
                raise ChartSpecError(f"no painter for mark '{layer.mark}'", chart=self.ids.chart_id)
            groups: dict[tuple[Any, ...], list[Item]] = {}
            for it in layer.items:
                groups.setdefault(it.series, []).append(it)
            for series, items in groups.items():
                label = next((s for s in series if s is not None), None)
                gid = self.ids.make(pfx, lname, slug(label) if label is not None else None)
                attrs = dict(class_="crafter-chart-series", data_crafter_mark=layer.mark, data_crafter_layer=layer.index,
                             data_crafter_orient=layer.orient, data_crafter_fields=datum_json(layer.fields))
                if layer.stacked:
                    attrs["data_crafter_stacked"] = "true"
                if label is not None:
                    attrs["data_crafter_series"] = _label(label)
                svg.open(gid, **attrs)
                draw(layer, items, cx, cy, gid)
                svg.close()
        svg.close()

    def _datum_attrs(self, it: Item | list[Item]) -> str:
        if isinstance(it, list):
            return (f' data-crafter-datum={quoteattr(datum_json([i.datum for i in it]))}'
                    f' data-crafter-index="{" ".join(str(i.index) for i in it)}"')
        return f' data-crafter-datum={quoteattr(datum_json(it.datum))} data-crafter-index="{it.index}"'

    def _mark_id(self, gid: str, it: Item, layer: LayerPlan) -> str:
        cat = getattr(it, layer.category_axis, None)
        tail = slug(cat) if isinstance(cat, str) and cat else str(it.index)
        if it.offset is not None and it.offset not in it.series:  # the series already names the group
            tail += "-" + slug(it.offset)
        return self.ids.make(gid.split(f"{self.ids.chart_id}-", 1)[1], tail)

    def _band(self, layer: LayerPlan, it: Item, axis: str) -> tuple[float, float]:
        """(start, width) of an item's band along the category axis, including the offset sub-band."""
        s = self.S.x if axis == "x" else self.S.y
        off = self.S.x_offset if axis == "x" else self.S.y_offset
        v = getattr(it, axis)
        if isinstance(s, sc.BandScale):
            start, width = s(v), s.bandwidth
        elif isinstance(s, sc.ContinuousScale):
            v2 = getattr(it, axis + "2")
            if v2 is not None and layer.mark in ("bar", "rect"):
                a, b = s(v), s(v2)
                return min(a, b), abs(b - a)
            width = self._continuous_band(layer, axis)
            return s(v) - width / 2, width
        else:
            return s(v), 0.0
        offset_name = "xOffset" if axis == "x" else "yOffset"
        if off is not None and it.offset is not None and offset_name in layer.channels:
            off.set_range(0.0, width)
            return start + off(it.offset), off.bandwidth
        return start, width

    def _continuous_band(self, layer: LayerPlan, axis: str) -> float:
        s = self.S.x if axis == "x" else self.S.y
        ps = sorted({round(s(getattr(it, axis)), 3) for it in layer.items if getattr(it, axis) is not None})
        gaps = [b - a for a, b in zip(ps, ps[1:]) if b > a]
        return max(2.0, min(40.0, (min(gaps) if gaps else 20.0) * 0.8))

    def _baseline(self, s: sc.PositionScale) -> float:
        if isinstance(s, sc.ContinuousScale):
            if s.kind == "log":
                return s(min(s.d0, s.d1))
            return s(s.clamp(0.0))
        return 0.0

    def _draw_bar(self, layer: LayerPlan, items: list[Item], cx: float, cy: float, gid: str) -> None:
        svg = self.svg
        vert = layer.orient == "vertical"
        vs = self.S.y if vert else self.S.x
        binned = any(ch.bin is not None for ch in layer.channels.values())
        extra = f' stroke="{self.ct.background}" stroke-width="0.6"' if binned else ""
        edge, edge_w = layer.props.get("stroke"), layer.props.get("strokeWidth", 1.0)
        if isinstance(edge, str) and edge not in ("none", "transparent"):
            # the bars' edge (matplotlib's edgecolor); the colour was checked when the spec was read
            ok_w = isinstance(edge_w, (int, float)) and not isinstance(edge_w, bool) and edge_w >= 0
            extra = f' stroke={quoteattr(edge)} stroke-width="{_f(edge_w if ok_w else 1.0)}"'
        opacity = layer.props.get("opacity")
        for it in items:
            b0, bw = self._band(layer, it, "x" if vert else "y")
            v1 = vs(getattr(it, "y" if vert else "x"))
            v2 = getattr(it, "y2" if vert else "x2")
            v0 = vs(v2) if v2 is not None else self._baseline(vs)
            lo, hi = min(v0, v1), max(v0, v1)
            if vert:
                x, y, w, h = cx + b0, cy + lo, bw, hi - lo
            else:
                x, y, w, h = cx + lo, cy + b0, hi - lo, bw
            svg.add(f'<rect id={quoteattr(self._mark_id(gid, it, layer))} x="{_f(x)}" y="{_f(y)}" width="{_f(w)}" '
                    f'height="{_f(h)}" fill="{self.color_of(layer, it)}"{extra}'
                    + (f' fill-opacity="{_f(opacity)}"' if opacity is not None else "")
                    + f"{self._datum_attrs(it)}/>")

    def _xy(self, layer: LayerPlan, it: Item, cx: float, cy: float, which: str = "") -> tuple[float, float]:
        xs, ys = self.S.x, self.S.y
        xv = getattr(it, "x" + (which if layer.orient == "horizontal" else ""))
        yv = getattr(it, "y" + (which if layer.orient == "vertical" else ""))
        if xs is None:
            x = self.L.pw / 2
        elif isinstance(xs, sc.BandScale):
            b0, bw = self._band(layer, it, "x")
            x = b0 + bw / 2
        else:
            x = xs(xv)
        if ys is None:
            y = self.L.ph / 2
        elif isinstance(ys, sc.BandScale):
            b0, bw = self._band(layer, it, "y")
            y = b0 + bw / 2
        else:
            y = ys(yv)
        return cx + x, cy + y

    def _stroke_style(self, layer: LayerPlan, it: Item) -> str:
        ct = self.ct
        width = layer.props.get("strokeWidth", ct.line_width)
        dash = self.S.dash.get(_label(it.dash)) if it.dash is not None else layer.props.get("strokeDash")
        out = f' stroke="{self.color_of(layer, it)}" stroke-width="{_f(width)}" fill="none" stroke-linejoin="round" stroke-linecap="round"'
        if dash:
            out += f' stroke-dasharray="{_dash(dash)}"'
        if layer.props.get("opacity") is not None:
            out += f' stroke-opacity="{_f(layer.props["opacity"])}"'
        return out

    def _draw_line(self, layer: LayerPlan, items: list[Item], cx: float, cy: float, gid: str) -> None:
        svg = self.svg
        pts = [self._xy(layer, it, cx, cy) for it in items]
        d = "M" + "L".join(f"{_f(x)},{_f(y)}" for x, y in pts)
        svg.add(f'<path id={quoteattr(self.ids.make(gid.split(f"{self.ids.chart_id}-", 1)[1], "line"))} d="{d}"'
                f'{self._stroke_style(layer, items[0])}{self._datum_attrs(items)}/>')
        pt = layer.props.get("point")
        if pt:
            size = pt.get("size", self.ct.line_point_size) if isinstance(pt, dict) else self.ct.line_point_size
            fill_hollow = isinstance(pt, dict) and pt.get("filled") is False
            for it, (x, y) in zip(items, pts):
                color = self.color_of(layer, it)
                shape = self.S.shape.get(_label(it.shape), "circle") if it.shape is not None else "circle"
                mid = self.ids.make(gid.split(f"{self.ids.chart_id}-", 1)[1], "point", it.index)
                fill = f'fill="{self.ct.background}" stroke="{color}" stroke-width="1"' if fill_hollow else f'fill="{color}"'
                if shape == "circle":
                    svg.add(f'<circle id={quoteattr(mid)} cx="{_f(x)}" cy="{_f(y)}" r="{_f(math.sqrt(size / math.pi))}" '
                            f'{fill}{self._datum_attrs(it)}/>')
                else:
                    svg.add(f'<path id={quoteattr(mid)} transform="translate({_f(x)},{_f(y)})" '
                            f'd="{sc.symbol_path(shape, size)}" {fill}{self._datum_attrs(it)}/>')

    def _draw_point(self, layer: LayerPlan, items: list[Item], cx: float, cy: float, gid: str) -> None:
        svg = self.svg
        default_shape = {"circle": "circle", "square": "square"}.get(layer.mark, layer.props.get("shape", "circle"))
        filled = layer.props.get("filled", layer.mark in ("circle", "square"))
        opacity = layer.props.get("opacity", 0.85 if filled else 1.0)
        size_const = layer.props.get("size", self.ct.point_size)
        sch = layer.channels.get("size")
        for it in items:
            x, y = self._xy(layer, it, cx, cy)
            color = self.color_of(layer, it)
            size = self.S.size(it.size) if sch is not None and self.S.size is not None and isinstance(it.size, (int, float)) \
                else size_const
            shape = self.S.shape.get(_label(it.shape), default_shape) if it.shape is not None else default_shape
            paint = (f'fill="{color}" fill-opacity="{_f(opacity)}" stroke="#FFFFFF" stroke-width="0.4"' if filled
                     else f'fill="none" stroke="{color}" stroke-width="1.1" stroke-opacity="{_f(opacity)}"')
            mid = self.ids.make(gid.split(f"{self.ids.chart_id}-", 1)[1], it.index)
            if shape == "circle":
                svg.add(f'<circle id={quoteattr(mid)} cx="{_f(x)}" cy="{_f(y)}" r="{_f(math.sqrt(size / math.pi))}" '
                        f'{paint}{self._datum_attrs(it)}/>')
            else:
                svg.add(f'<path id={quoteattr(mid)} transform="translate({_f(x)},{_f(y)})" d="{sc.symbol_path(shape, size)}" '
                        f'{paint}{self._datum_attrs(it)}/>')

    _draw_circle = _draw_point
    _draw_square = _draw_point

    def _draw_area(self, layer: LayerPlan, items: list[Item], cx: float, cy: float, gid: str) -> None:
        vert = layer.orient == "vertical"
        vs = self.S.y if vert else self.S.x
        top, bottom = [], []
        for it in items:
            x, y = self._xy(layer, it, cx, cy)
            v2 = getattr(it, "y2" if vert else "x2")
            base = vs(v2) if v2 is not None else self._baseline(vs)
            top.append((x, y))
            bottom.append((x, cy + base) if vert else (cx + base, y))
        d = "M" + "L".join(f"{_f(x)},{_f(y)}" for x, y in top + bottom[::-1]) + "Z"
        opacity = layer.props.get("opacity", 0.75 if layer.stacked else 0.35)
        self.svg.add(f'<path id={quoteattr(self.ids.make(gid.split(f"{self.ids.chart_id}-", 1)[1], "area"))} d="{d}" '
                     f'fill="{self.color_of(layer, items[0])}" fill-opacity="{_f(opacity)}"{self._datum_attrs(items)}/>')

    def _draw_errorband(self, layer: LayerPlan, items: list[Item], cx: float, cy: float, gid: str) -> None:
        lo = [self._xy(layer, it, cx, cy) for it in items]
        hi = [self._xy(layer, it, cx, cy, "2") for it in items]
        d = "M" + "L".join(f"{_f(x)},{_f(y)}" for x, y in hi + lo[::-1]) + "Z"
        opacity = layer.props.get("opacity", self.ct.band_opacity)
        self.svg.add(f'<path id={quoteattr(self.ids.make(gid.split(f"{self.ids.chart_id}-", 1)[1], "band"))} d="{d}" '
                     f'fill="{self.color_of(layer, items[0])}" fill-opacity="{_f(opacity)}"{self._datum_attrs(items)}/>')

    def _draw_errorbar(self, layer: LayerPlan, items: list[Item], cx: float, cy: float, gid: str) -> None:
        ct = self.ct
        vert = layer.orient == "vertical"
        ticks = layer.props.get("ticks", False)
        cap = ct.error_tick / 2
        width = layer.props.get("thickness", layer.props.get("strokeWidth", ct.error_width))
        for it in items:
            x1, y1 = self._xy(layer, it, cx, cy)
            x2, y2 = self._xy(layer, it, cx, cy, "2")
            if vert:
                d = f"M{_f(x1)},{_f(y1)}V{_f(y2)}"
                if ticks:
                    d += f"M{_f(x1 - cap)},{_f(y1)}H{_f(x1 + cap)}M{_f(x2 - cap)},{_f(y2)}H{_f(x2 + cap)}"
            else:
                d = f"M{_f(x1)},{_f(y1)}H{_f(x2)}"
                if ticks:
                    d += f"M{_f(x1)},{_f(y1 - cap)}V{_f(y1 + cap)}M{_f(x2)},{_f(y2 - cap)}V{_f(y2 + cap)}"
            self.svg.add(f'<path id={quoteattr(self._mark_id(gid, it, layer))} d="{d}" stroke="{self.color_of(layer, it)}" '
                         f'stroke-width="{_f(width)}" fill="none"{self._datum_attrs(it)}/>')

    def _draw_rect(self, layer: LayerPlan, items: list[Item], cx: float, cy: float, gid: str) -> None:
        for it in items:
            x0, w = self._band(layer, it, "x") if self.S.x is not None else (0.0, self.L.pw)
            y0, h = self._band(layer, it, "y") if self.S.y is not None else (0.0, self.L.ph)
            self.svg.add(f'<rect id={quoteattr(self._mark_id(gid, it, layer))} x="{_f(cx + x0)}" y="{_f(cy + y0)}" '
                         f'width="{_f(w)}" height="{_f(h)}" fill="{self.color_of(layer, it)}"{self._datum_attrs(it)}/>')

    def _draw_text(self, layer: LayerPlan, items: list[Item], cx: float, cy: float, gid: str) -> None:
        fs = float(layer.props.get("fontSize", self.ct.value_font_size))
        dx, dy = float(layer.props.get("dx", 0)), float(layer.props.get("dy", 0))
        anchor = {"left": "start", "center": "middle", "right": "end"}.get(layer.props.get("align", "center"), "middle")
        explicit_color = "color" in layer.channels or any(k in layer.props for k in ("color", "fill"))
        fills = self._cell_fills(layer) if not explicit_color else {}
        for it in items:
            x, y = self._xy(layer, it, cx, cy)
            color = self.color_of(layer, it)
            under = fills.get((_label(it.x), _label(it.y)))
            if under is not None:
                color = "#FFFFFF" if relative_luminance(under) < 0.25 else "#1A1A1A"
            self.svg.text(x + dx, y + dy + fs * BASELINE_SHIFT, it.text or "", size=fs, anchor=anchor,
                          id_=self._mark_id(gid, it, layer), fill=color,
                          data_crafter_datum=datum_json(it.datum), data_crafter_index=it.index)

    def _cell_fills(self, layer: LayerPlan) -> dict[tuple[str, str], str]:
        """Heatmap cell colours under text marks (for black-or-white text)."""
        out = {}
        for cell in self.L.plan.cells:
            if layer not in cell.layers:
                continue
            for other in cell.layers:
                if other.mark == "rect":
                    for it in other.items:
                        out[(_label(it.x), _label(it.y))] = self.color_of(other, it)
        return out

    def _draw_rule(self, layer: LayerPlan, items: list[Item], cx: float, cy: float, gid: str) -> None:
        width = layer.props.get("strokeWidth", self.ct.axis_width * 1.2)
        dash = layer.props.get("strokeDash")
        for it in items:
            xs, ys = self.S.x, self.S.y
            has_x = it.x is not None and xs is not None
            has_y = it.y is not None and ys is not None
            if has_x and not has_y:
                x = cx + self._pos(xs, it.x)
                x1, y1, x2, y2 = x, cy, x, cy + self.L.ph
                if it.y2 is not None:
                    pass
            elif has_y and not has_x:
                y = cy + self._pos(ys, it.y)
                x1, y1, x2, y2 = cx, y, cx + self.L.pw, y
            else:
                x1, y1 = self._xy(layer, it, cx, cy)
                x2 = cx + self._pos(xs, it.x2) if it.x2 is not None else x1
                y2 = cy + self._pos(ys, it.y2) if it.y2 is not None else y1
            self.svg.add(f'<line id={quoteattr(self._mark_id(gid, it, layer))} x1="{_f(x1)}" y1="{_f(y1)}" x2="{_f(x2)}" '
                         f'y2="{_f(y2)}" stroke="{self.color_of(layer, it)}" stroke-width="{_f(width)}"'
                         + (f' stroke-dasharray="{_dash(dash)}"' if dash else "") + f"{self._datum_attrs(it)}/>")

    def _draw_tick(self, layer: LayerPlan, items: list[Item], cx: float, cy: float, gid: str) -> None:
        vert = layer.orient == "vertical"
        for it in items:
            x, y = self._xy(layer, it, cx, cy)
            b0, bw = self._band(layer, it, "x" if vert else "y")
            half = max(4.0, bw * 0.35)
            d = f"M{_f(x - half)},{_f(y)}H{_f(x + half)}" if vert else f"M{_f(x)},{_f(y - half)}V{_f(y + half)}"
            self.svg.add(f'<path id={quoteattr(self._mark_id(gid, it, layer))} d="{d}" stroke="{self.color_of(layer, it)}" '
                         f'stroke-width="{_f(self.ct.error_width * 1.2)}"{self._datum_attrs(it)}/>')

    def _draw_boxplot(self, layer: LayerPlan, items: list[Item], cx: float, cy: float, gid: str) -> None:
        ct, svg = self.ct, self.svg
        vert = layer.orient == "vertical"
        vs = self.S.y if vert else self.S.x
        for it in items:
            st = it.stats or {}
            b0, bw = self._band(layer, it, "x" if vert else "y")
            size = layer.props.get("size")
            w = float(size) if isinstance(size, (int, float)) else max(4.0, min(bw * 0.6, 48.0))
            c = (cx if vert else cy) + b0 + bw / 2
            color = self.color_of(layer, it)
            p = {k: (cy if vert else cx) + vs(st[k]) for k in ("lower", "q1", "median", "q3", "upper")}
            mid = self._mark_id(gid, it, layer)
            svg.add(f'<g id={quoteattr(mid)} class="crafter-box"{self._datum_attrs(it)}>')
            if vert:
                svg.add(f'<path d="M{_f(c)},{_f(p["lower"])}V{_f(p["q1"])}M{_f(c)},{_f(p["q3"])}V{_f(p["upper"])}'
                        f'M{_f(c - w / 4)},{_f(p["lower"])}H{_f(c + w / 4)}M{_f(c - w / 4)},{_f(p["upper"])}H{_f(c + w / 4)}" '
                        f'stroke="{color}" stroke-width="{_f(ct.error_width)}" fill="none" class="whisker"/>')
                svg.add(f'<rect x="{_f(c - w / 2)}" y="{_f(min(p["q1"], p["q3"]))}" width="{_f(w)}" '
                        f'height="{_f(abs(p["q3"] - p["q1"]))}" fill="{color}" fill-opacity="0.3" stroke="{color}" '
                        f'stroke-width="{_f(ct.error_width)}" class="box"/>')
                svg.add(f'<line x1="{_f(c - w / 2)}" y1="{_f(p["median"])}" x2="{_f(c + w / 2)}" y2="{_f(p["median"])}" '
                        f'stroke="{color}" stroke-width="{_f(ct.error_width * 1.8)}" class="median"/>')
            else:
                svg.add(f'<path d="M{_f(p["lower"])},{_f(c)}H{_f(p["q1"])}M{_f(p["q3"])},{_f(c)}H{_f(p["upper"])}'
                        f'M{_f(p["lower"])},{_f(c - w / 4)}V{_f(c + w / 4)}M{_f(p["upper"])},{_f(c - w / 4)}V{_f(c + w / 4)}" '
                        f'stroke="{color}" stroke-width="{_f(ct.error_width)}" fill="none" class="whisker"/>')
                svg.add(f'<rect x="{_f(min(p["q1"], p["q3"]))}" y="{_f(c - w / 2)}" width="{_f(abs(p["q3"] - p["q1"]))}" '
                        f'height="{_f(w)}" fill="{color}" fill-opacity="0.3" stroke="{color}" '
                        f'stroke-width="{_f(ct.error_width)}" class="box"/>')
                svg.add(f'<line x1="{_f(p["median"])}" y1="{_f(c - w / 2)}" x2="{_f(p["median"])}" y2="{_f(c + w / 2)}" '
                        f'stroke="{color}" stroke-width="{_f(ct.error_width * 1.8)}" class="median"/>')
            for o in st.get("outliers", []):
                po = (cy if vert else cx) + vs(o)
                ox, oy = (c, po) if vert else (po, c)
                svg.add(f'<circle cx="{_f(ox)}" cy="{_f(oy)}" r="1.8" fill="none" stroke="{color}" stroke-width="0.8" '
                        f'class="outlier"/>')
            svg.add("</g>")


def _tick_values_attrs(major: Sequence[sc.Tick], minor: Sequence[sc.Tick]) -> str:
    """``data-crafter-values`` (and ``data-crafter-minor-values``): the ticks' values as a JSON list.

    JSON rather than a comma-separated list because category names and dates may hold commas;
    numbers stay numbers.
    """
    import json

    def values(ticks: Sequence[sc.Tick]) -> str:
        return json.dumps([_tick_json(t) for t in ticks], ensure_ascii=False, separators=(",", ":"))

    out = f" data-crafter-values={quoteattr(values(major))}"
    if minor:
        out += f" data-crafter-minor-values={quoteattr(values(minor))}"
    return out


def _tick_json(t: sc.Tick) -> Any:
    """A tick's value for JSON: numbers as numbers (numpy's too), anything else as its label."""
    import numpy as np

    v = t.value
    if isinstance(v, bool):
        return _label(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        return float(v)
    return _label(v)


# ---------------------------------------------------------------------------------------
# Public entry points
# ---------------------------------------------------------------------------------------


def plan_for(chart: Any) -> ChartPlan:
    """Compile a :class:`~crafter.spec.Chart` (its spec, title and size)."""
    return compile_chart(chart.spec, chart_id=chart.id, title=chart.title, width=chart.width, height=chart.height)


def chart_size(chart: Any, theme: ChartTheme | Theme | str | None = None) -> tuple[float, float]:
    """The natural (width, height) in px of a chart: plot size plus axes, legend and title."""
    layout = layout_chart(plan_for(chart), as_chart_theme(theme))
    return layout.width, layout.height


def chart_svg_fragment(chart: Any, box: Any, theme: ChartTheme | Theme | str | None = None) -> str:
    """SVG elements for ``chart`` filling ``box`` (figure coordinates); no outer ``<svg>``.

    The caller wraps them in the chart's ``<g id=… data-crafter-kind="chart">``.
    """
    ct = as_chart_theme(theme)
    layout = layout_chart(plan_for(chart), ct, width=box.w, height=box.h)
    svg = _Svg()
    _Painter(layout, box.x, box.y, _Ids(chart.id), svg).paint()
    return svg.result()


def chart_svg(chart: Any, theme: ChartTheme | Theme | str | None = None, *, margin: float = 4.0) -> str:
    """A standalone SVG document holding one chart (for the CLI, tests and benchmarks)."""
    ct = as_chart_theme(theme)
    layout = layout_chart(plan_for(chart), ct)  # natural size: laid out once, painted as is
    w, h = layout.width, layout.height
    svg = _Svg()
    _Painter(layout, margin, margin, _Ids(chart.id), svg).paint()
    body = svg.result()
    W, H = w + 2 * margin, h + 2 * margin
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(W)}" height="{_f(H)}" viewBox="0 0 {_f(W)} {_f(H)}" '
            f'font-family={quoteattr(ct.font_family)}>'
            f'<rect width="100%" height="100%" fill="{ct.background}"/>'
            f'<g id={quoteattr(chart.id)} data-crafter-kind="chart">{body}</g></svg>')
