"""The scales a compiled chart needs: position (band, point or continuous, from the channels'
``scale`` and ``axis`` options and the data), colour, size, shape and dash."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from crafter.charts import scales as sc
from crafter.charts.compile.encoding import Channel, value_label
from crafter.charts.compile.plan import ChartPlan, discrete_domain
from crafter.charts.errors import ChartSpecError
from crafter.charts.theme import ChartTheme

BAND_MARKS = ("bar", "rect", "boxplot", "tick")


def plan_channels(plan: ChartPlan, name: str) -> list[Channel]:
    return plan.channels.get(name) or []


def scale_option(chans: Sequence[Channel], key: str, default: Any = None) -> Any:
    for ch in chans:
        if key in ch.scale:
            return ch.scale[key]
    return default


def axis_option(chans: Sequence[Channel], key: str, default: Any = None) -> Any:
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
    chans = plan_channels(plan, name) + plan_channels(plan, name + "2")
    if not chans:
        return None
    main = next((c for c in plan_channels(plan, name) if c.type is not None), chans[0])
    stype = scale_option(chans, "type")
    marks = {layer.mark for layer in plan.layers if name in layer.channels}
    if main.discrete and stype in (None, "band", "point"):
        domain = discrete_domain(plan, name)
        reverse = bool(scale_option(chans, "reverse", False))
        if stype == "band" or (stype is None and marks & set(BAND_MARKS)):
            cells = "rect" in marks and not marks & {"bar", "boxplot", "tick"}  # heatmap cells touch
            pad = scale_option(chans, "paddingInner", scale_option(chans, "padding", 0.0 if cells else ct.bar_padding))
            outer = scale_option(chans, "paddingOuter", 0.0 if cells else None)
            return sc.BandScale(domain, float(pad), None if outer is None else float(outer), reverse=reverse)
        return sc.PointScale(domain, float(scale_option(chans, "padding", 0.5)), reverse=reverse)
    values = [v for v in _position_values(plan, name) if isinstance(v, (int, float))]
    kind = stype or ("time" if main.type == "temporal" else "linear")
    if kind not in ("linear", "log", "symlog", "time"):
        raise ChartSpecError(f"unsupported scale type '{kind}' (use linear, log, symlog, band or point)",
                             chart=plan.chart_id, path=f"encoding.{name}.scale.type")
    domain = scale_option(chans, "domain")
    explicit = isinstance(domain, list) and len(domain) == 2 and all(isinstance(d, (int, float)) for d in domain)
    if explicit:
        lo, hi = float(domain[0]), float(domain[1])
    else:
        if not values:
            values = [0.0, 1.0]
        lo, hi = min(values), max(values)
        dmin, dmax = scale_option(chans, "domainMin"), scale_option(chans, "domainMax")
        if isinstance(dmin, (int, float)):
            lo = float(dmin)
        if isinstance(dmax, (int, float)):
            hi = float(dmax)
    binned = any(c.bin is not None for c in chans)
    zero_default = kind in ("linear", "symlog") and not binned and main.type == "quantitative"
    zero = bool(scale_option(chans, "zero", zero_default))
    if any(layer.mark in ("bar", "area") and layer.value_axis == name for layer in plan.layers) and kind == "linear" \
            and scale_option(chans, "zero") is None:
        zero = True
    if kind == "log" and (lo <= 0 or hi <= 0):
        bad = next((v for v in values if v <= 0), lo)
        raise ChartSpecError(f"a log scale needs positive values, but '{main.key}' has {bad:g}; "
                             "use scale type 'symlog'", chart=plan.chart_id, path=f"encoding.{name}.scale.type")
    integer = all(float(v).is_integer() for v in values) and kind == "linear" \
        and main.aggregate not in ("mean", "average", "median")
    fmt_ = axis_option(plan_channels(plan, name), "format") or main.format
    try:
        return sc.ContinuousScale(
            kind, lo, hi, zero=zero, nice=bool(scale_option(chans, "nice", kind != "time")), explicit=explicit,
            base=float(scale_option(chans, "base", 10)), constant=float(scale_option(chans, "constant", 1)),
            integer=integer, tick_count=axis_option(plan_channels(plan, name), "tickCount"),
            reverse=bool(scale_option(chans, "reverse", False)), label_format=fmt_,
            tick_values=_axis_values(plan, name),
        )
    except ValueError as e:
        raise ChartSpecError(str(e), chart=plan.chart_id, path=f"encoding.{name}.scale") from None


def _axis_values(plan: ChartPlan, name: str) -> list[float] | None:
    """The axis's own tick values (Vega-Lite ``axis.values``), when it lists them."""
    values = axis_option(plan_channels(plan, name), "values")
    if values is None:
        return None
    if not isinstance(values, list) or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        raise ChartSpecError("axis 'values' must be a list of numbers", chart=plan.chart_id,
                             path=f"encoding.{name}.axis.values")
    return [float(v) for v in values]


@dataclass
class ChartScales:
    x: sc.PositionScale | None
    y: sc.PositionScale | None
    x_offset: sc.BandScale | None
    y_offset: sc.BandScale | None
    color: Any
    size: sc.SizeScale | None
    shape: dict[Any, str]
    dash: dict[Any, tuple[float, ...]]


def _color_scale(plan: ChartPlan, ct: ChartTheme) -> Any:
    ch = next((c for c in plan_channels(plan, "color") if c.is_field), None)
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


def build_scales(plan: ChartPlan, ct: ChartTheme) -> ChartScales:
    x = _make_position_scale(plan, "x", ct)
    y = _make_position_scale(plan, "y", ct)
    offsets = {}
    for name in ("xOffset", "yOffset"):
        ch = next((c for c in plan_channels(plan, name) if c.is_field), None)
        offsets[name] = sc.BandScale(discrete_domain(plan, name),
                                     float(ch.scale.get("paddingInner", ct.offset_padding)),
                                     0.0) if ch is not None else None
    size = None
    sch = next((c for c in plan_channels(plan, "size") if c.is_field), None)
    if sch is not None:
        vals = [it.size for layer in plan.layers for it in layer.items if isinstance(it.size, (int, float))]
        if vals:
            size = sc.SizeScale(min(vals), max(vals), ct.point_size * 0.25, ct.point_size * 5, sch.scale)
    shape_dom = discrete_domain(plan, "shape")
    shch = next((c for c in plan_channels(plan, "shape") if c.is_field), None)
    shape_range = shch.scale.get("range") if shch is not None and isinstance(shch.scale.get("range"), list) \
        else sc.SHAPES
    dash_dom = discrete_domain(plan, "strokeDash")
    return ChartScales(
        x=x, y=y, x_offset=offsets["xOffset"], y_offset=offsets["yOffset"], color=_color_scale(plan, ct), size=size,
        shape={value_label(v): shape_range[i % len(shape_range)] for i, v in enumerate(shape_dom)},
        dash={value_label(v): sc.DASHES[i % len(sc.DASHES)] for i, v in enumerate(dash_dom)},
    )
