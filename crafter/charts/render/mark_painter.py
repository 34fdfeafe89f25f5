"""Painting marks: bars, lines, points, areas, error bars and bands, rects, text, rules, ticks
and box plots, each item at its scales' positions in figure coordinates."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any
from xml.sax.saxutils import quoteattr

from crafter.base.markup import num
from crafter.charts import scales as sc
from crafter.charts.compile.encoding import value_label
from crafter.charts.compile.plan import Item, LayerPlan
from crafter.charts.errors import ChartSpecError
from crafter.charts.render.chart_layout import ChartLayout
from crafter.charts.render.svg_writer import ElementIds, SvgWriter, dash_array, datum_json, slug
from crafter.charts.render.text_measure import BASELINE_SHIFT
from crafter.spec.colors import relative_luminance


class MarkPainter:
    """The marks of a chart's cells: one ``_draw_<mark>`` method per mark, one SVG element per
    item (a line or an area: one per series), each carrying its datum."""

    def __init__(self, layout: ChartLayout, ids: ElementIds, svg: SvgWriter) -> None:
        self.L = layout
        self.ct = layout.ct
        self.S = layout.scales
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

    # -- marks ---------------------------------------------------------------------------
    def paint_cell(self, cell, cx: float, cy: float, pfx: str | None) -> None:
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
                attrs = dict(class_="crafter-chart-series", data_crafter_mark=layer.mark,
                             data_crafter_layer=layer.index, data_crafter_orient=layer.orient,
                             data_crafter_fields=datum_json(layer.fields))
                if layer.stacked:
                    attrs["data_crafter_stacked"] = "true"
                if label is not None:
                    attrs["data_crafter_series"] = value_label(label)
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
        size = layer.props.get("size")
        if layer.mark == "bar" and isinstance(size, (int, float)) and size > 0:
            return float(size)  # Vega-Lite's bar width on a continuous axis, in px
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
            extra = f' stroke={quoteattr(edge)} stroke-width="{num(edge_w if ok_w else 1.0)}"'
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
            svg.add(f'<rect id={quoteattr(self._mark_id(gid, it, layer))} x="{num(x)}" y="{num(y)}" width="{num(w)}" '
                    f'height="{num(h)}" fill="{self.color_of(layer, it)}"{extra}'
                    + (f' fill-opacity="{num(opacity)}"' if opacity is not None else "")
                    + f"{self._datum_attrs(it)}/>")

    def _xy(self, layer: LayerPlan, it: Item, cx: float, cy: float, which: str = "") -> tuple[float, float]:
        x = self._along(layer, it, "x", getattr(it, "x" + (which if layer.orient == "horizontal" else "")), self.L.pw)
        y = self._along(layer, it, "y", getattr(it, "y" + (which if layer.orient == "vertical" else "")), self.L.ph)
        return cx + x, cy + y

    def _along(self, layer: LayerPlan, it: Item, axis: str, value, span: float) -> float:
        """An item's position along ``axis`` in the plot: its value's, its band's middle, or the
        middle of the plot (``span`` long) where the axis has no scale."""
        scale = self.S.x if axis == "x" else self.S.y
        if scale is None:
            return span / 2
        if isinstance(scale, sc.BandScale):
            b0, bw = self._band(layer, it, axis)
            return b0 + bw / 2
        return scale(value)

    def _stroke_style(self, layer: LayerPlan, it: Item) -> str:
        ct = self.ct
        width = layer.props.get("strokeWidth", ct.line_width)
        dash = self.S.dash.get(value_label(it.dash)) if it.dash is not None else layer.props.get("strokeDash")
        out = (f' stroke="{self.color_of(layer, it)}" stroke-width="{num(width)}" fill="none" stroke-linejoin="round"'
               ' stroke-linecap="round"')
        if dash:
            out += f' stroke-dasharray="{dash_array(dash)}"'
        if layer.props.get("opacity") is not None:
            out += f' stroke-opacity="{num(layer.props["opacity"])}"'
        return out

    def _draw_line(self, layer: LayerPlan, items: list[Item], cx: float, cy: float, gid: str) -> None:
        svg = self.svg
        pts = [self._xy(layer, it, cx, cy) for it in items]
        d = "M" + "L".join(f"{num(x)},{num(y)}" for x, y in pts)
        svg.add(f'<path id={quoteattr(self.ids.make(gid.split(f"{self.ids.chart_id}-", 1)[1], "line"))} d="{d}"'
                f'{self._stroke_style(layer, items[0])}{self._datum_attrs(items)}/>')
        pt = layer.props.get("point")
        if pt:
            size = pt.get("size", self.ct.line_point_size) if isinstance(pt, dict) else self.ct.line_point_size
            fill_hollow = isinstance(pt, dict) and pt.get("filled") is False
            for it, (x, y) in zip(items, pts):
                color = self.color_of(layer, it)
                shape = self.S.shape.get(value_label(it.shape), "circle") if it.shape is not None else "circle"
                mid = self.ids.make(gid.split(f"{self.ids.chart_id}-", 1)[1], "point", it.index)
                fill = (f'fill="{self.ct.background}" stroke="{color}" stroke-width="1"' if fill_hollow
                        else f'fill="{color}"')
                if shape == "circle":
                    svg.add(f'<circle id={quoteattr(mid)} cx="{num(x)}" cy="{num(y)}" '
                            f'r="{num(math.sqrt(size / math.pi))}" {fill}{self._datum_attrs(it)}/>')
                else:
                    svg.add(f'<path id={quoteattr(mid)} transform="translate({num(x)},{num(y)})" '
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
            size = self.S.size(it.size) \
                if sch is not None and self.S.size is not None and isinstance(it.size, (int, float)) else size_const
            shape = self.S.shape.get(value_label(it.shape), default_shape) if it.shape is not None else default_shape
            paint = (f'fill="{color}" fill-opacity="{num(opacity)}" stroke="#FFFFFF" stroke-width="0.4"' if filled
                     else f'fill="none" stroke="{color}" stroke-width="1.1" stroke-opacity="{num(opacity)}"')
            mid = self.ids.make(gid.split(f"{self.ids.chart_id}-", 1)[1], it.index)
            if shape == "circle":
                svg.add(f'<circle id={quoteattr(mid)} cx="{num(x)}" cy="{num(y)}" r="{num(math.sqrt(size / math.pi))}" '
                        f'{paint}{self._datum_attrs(it)}/>')
            else:
                svg.add(f'<path id={quoteattr(mid)} transform="translate({num(x)},{num(y)})" '
                        f'd="{sc.symbol_path(shape, size)}" {paint}{self._datum_attrs(it)}/>')

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
        d = "M" + "L".join(f"{num(x)},{num(y)}" for x, y in top + bottom[::-1]) + "Z"
        opacity = layer.props.get("opacity", 0.75 if layer.stacked else 0.35)
        self.svg.add(f'<path id={quoteattr(self.ids.make(gid.split(f"{self.ids.chart_id}-", 1)[1], "area"))} d="{d}" '
                     f'fill="{self.color_of(layer, items[0])}" fill-opacity="{num(opacity)}"'
                     f'{self._datum_attrs(items)}/>')

    def _draw_errorband(self, layer: LayerPlan, items: list[Item], cx: float, cy: float, gid: str) -> None:
        lo = [self._xy(layer, it, cx, cy) for it in items]
        hi = [self._xy(layer, it, cx, cy, "2") for it in items]
        d = "M" + "L".join(f"{num(x)},{num(y)}" for x, y in hi + lo[::-1]) + "Z"
        opacity = layer.props.get("opacity", self.ct.band_opacity)
        self.svg.add(f'<path id={quoteattr(self.ids.make(gid.split(f"{self.ids.chart_id}-", 1)[1], "band"))} d="{d}" '
                     f'fill="{self.color_of(layer, items[0])}" fill-opacity="{num(opacity)}"'
                     f'{self._datum_attrs(items)}/>')

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
                d = f"M{num(x1)},{num(y1)}V{num(y2)}"
                if ticks:
                    d += f"M{num(x1 - cap)},{num(y1)}H{num(x1 + cap)}M{num(x2 - cap)},{num(y2)}H{num(x2 + cap)}"
            else:
                d = f"M{num(x1)},{num(y1)}H{num(x2)}"
                if ticks:
                    d += f"M{num(x1)},{num(y1 - cap)}V{num(y1 + cap)}M{num(x2)},{num(y2 - cap)}V{num(y2 + cap)}"
            self.svg.add(f'<path id={quoteattr(self._mark_id(gid, it, layer))} d="{d}" '
                         f'stroke="{self.color_of(layer, it)}" stroke-width="{num(width)}" fill="none"'
                         f'{self._datum_attrs(it)}/>')

    def _draw_rect(self, layer: LayerPlan, items: list[Item], cx: float, cy: float, gid: str) -> None:
        for it in items:
            x0, w = self._band(layer, it, "x") if self.S.x is not None else (0.0, self.L.pw)
            y0, h = self._band(layer, it, "y") if self.S.y is not None else (0.0, self.L.ph)
            self.svg.add(f'<rect id={quoteattr(self._mark_id(gid, it, layer))} x="{num(cx + x0)}" y="{num(cy + y0)}" '
                         f'width="{num(w)}" height="{num(h)}" fill="{self.color_of(layer, it)}"'
                         f'{self._datum_attrs(it)}/>')

    def _draw_arc(self, layer: LayerPlan, items: list[Item], cx: float, cy: float, gid: str) -> None:
        """A pie's (or, with ``innerRadius``, a donut's) slices: each item's stacked span (y2 to y)
        over the stack's total, clockwise from 12 o'clock as Vega-Lite draws them; with a ``radius``
        field (a radial chart), each slice out to its value on the radius scale (``_radius_scale``)."""
        total = max((float(it.y) for it in layer.items if isinstance(it.y, (int, float))), default=0.0)
        if total <= 0:
            return
        r_full = min(self.L.pw, self.L.ph) / 2
        inner = min(max(0.0, float(layer.props.get("innerRadius", 0.0))), 0.95 * r_full)
        ox, oy = cx + self.L.pw / 2, cy + self.L.ph / 2
        edge = layer.props.get("stroke")
        stroke = f' stroke="{edge}" stroke-width="{num(float(layer.props.get("strokeWidth", 1)))}"' \
            if isinstance(edge, str) else ""
        # the theta scale's range turns the pie (where the first slice begins) and, running down,
        # lays the slices anticlockwise
        ch = layer.channels.get("y")
        span = (ch.scale or {}).get("range") if ch is not None else None
        off, turn = 0.0, 1.0
        if isinstance(span, list) and len(span) == 2 and all(isinstance(v, (int, float)) for v in span):
            off, turn = float(span[0]), (1.0 if span[1] >= span[0] else -1.0)
        sweep = 1 if turn > 0 else 0
        radius_of = self._radius_scale(layer, r_full, inner)

        def at(a: float, rad: float) -> str:
            return f"{num(ox + rad * math.sin(a))},{num(oy - rad * math.cos(a))}"

        for it in items:
            f0, f1 = (2 * math.pi * float(v or 0.0) / total for v in (it.y2, it.y))
            r = radius_of(it)
            if f1 - f0 <= 0:
                continue
            big = 1 if f1 - f0 > math.pi else 0
            if f1 - f0 >= 2 * math.pi - 1e-9:  # one slice: the whole disc (an arc cannot close on itself)
                f1 = f0 + 2 * math.pi - 1e-4
            a0, a1 = off + turn * f0, off + turn * f1
            d = f"M{at(a0, r)}A{num(r)},{num(r)} 0 {big} {sweep} {at(a1, r)}"
            d += (f"L{at(a1, inner)}A{num(inner)},{num(inner)} 0 {big} {1 - sweep} {at(a0, inner)}Z" if inner > 0
                  else f"L{num(ox)},{num(oy)}Z")
            self.svg.add(f'<path id={quoteattr(self._mark_id(gid, it, layer))} d="{d}" '
                         f'fill="{self.color_of(layer, it)}"{stroke}{self._datum_attrs(it)}/>')

    def _radius_scale(self, layer: LayerPlan, r_full: float, inner: float) -> Callable[[Item], float]:
        """Each slice's radius from its ``radius`` field as Vega-Lite scales it: a linear, sqrt or pow
        scale (zero by default) of the chart's values onto ``range`` (``rangeMin``, ``rangeMax``; else
        0 to the full radius), clamped to the inner radius at least (a negative value or one under
        the domain is no slice, not one drawn mirrored). No ``radius`` field: every slice full."""
        ch = layer.channels.get("radius")
        key = ch.key if ch is not None and ch.is_field else ""
        if not key:
            return lambda it: r_full
        path = "encoding.radius"
        scale = ch.scale or {}

        def value(it: Item) -> float | None:
            v = it.datum.get(key)
            if v is None:
                return None
            if isinstance(v, bool) or not isinstance(v, (int, float, str)):
                raise ChartSpecError(f"radius field '{key}' needs numbers, not {v!r}", chart=self.ids.chart_id,
                                     path=path)
            try:
                x = float(v)
            except ValueError:
                raise ChartSpecError(f"radius field '{key}' needs numbers, not {v!r}", chart=self.ids.chart_id,
                                     path=path) from None
            if not math.isfinite(x):
                raise ChartSpecError(f"radius field '{key}' needs finite numbers, not {v!r}",
                                     chart=self.ids.chart_id, path=path)
            return x

        kind = scale.get("type", "linear")
        exponent = {"linear": 1.0, "sqrt": 0.5}.get(kind, scale.get("exponent", 1.0) if kind == "pow" else None)
        if not isinstance(exponent, (int, float)) or exponent <= 0:
            raise ChartSpecError(f"unsupported radius scale type '{kind}' (use linear, sqrt or pow)",
                                 chart=self.ids.chart_id, path=f"{path}.scale.type")
        values = [x for x in (value(it) for it in layer.items) if x is not None]  # the chart's, not this series'
        domain = scale.get("domain")
        if isinstance(domain, list) and len(domain) == 2 and all(isinstance(d, (int, float)) for d in domain):
            lo, hi = float(domain[0]), float(domain[1])
        else:
            lo, hi = min(values, default=0.0), max(values, default=0.0)
            if scale.get("zero", True):
                lo, hi = min(lo, 0.0), max(hi, 0.0)
        span = scale.get("range")
        r0, r1 = (float(span[0]), float(span[1])) if isinstance(span, list) and len(span) == 2 \
            and all(isinstance(v, (int, float)) for v in span) else (0.0, r_full)
        r0 = float(scale["rangeMin"]) if isinstance(scale.get("rangeMin"), (int, float)) else r0
        r1 = float(scale["rangeMax"]) if isinstance(scale.get("rangeMax"), (int, float)) else r1

        def power(x: float) -> float:
            return math.copysign(abs(x) ** exponent, x)

        def radius_of(it: Item) -> float:
            x = value(it)
            if x is None:
                return inner
            if power(hi) == power(lo):
                return max(0.0, inner, r1)
            t = (power(x) - power(lo)) / (power(hi) - power(lo))
            return max(0.0, inner, r0 + t * (r1 - r0))

        return radius_of

    def _draw_text(self, layer: LayerPlan, items: list[Item], cx: float, cy: float, gid: str) -> None:
        fs = float(layer.props.get("fontSize", self.ct.value_font_size))
        dx, dy = float(layer.props.get("dx", 0)), float(layer.props.get("dy", 0))
        anchor = {"left": "start", "center": "middle", "right": "end"}.get(layer.props.get("align", "center"), "middle")
        explicit_color = "color" in layer.channels or any(k in layer.props for k in ("color", "fill"))
        fills = self._cell_fills(layer) if not explicit_color else {}
        for it in items:
            x, y = self._xy(layer, it, cx, cy)
            color = self.color_of(layer, it)
            under = fills.get((value_label(it.x), value_label(it.y)))
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
                        out[(value_label(it.x), value_label(it.y))] = self.color_of(other, it)
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
            self.svg.add(f'<line id={quoteattr(self._mark_id(gid, it, layer))} x1="{num(x1)}" y1="{num(y1)}" '
                         f'x2="{num(x2)}" y2="{num(y2)}" stroke="{self.color_of(layer, it)}" '
                         f'stroke-width="{num(width)}"'
                         + (f' stroke-dasharray="{dash_array(dash)}"' if dash else "") + f"{self._datum_attrs(it)}/>")

    def _draw_tick(self, layer: LayerPlan, items: list[Item], cx: float, cy: float, gid: str) -> None:
        vert = layer.orient == "vertical"
        for it in items:
            x, y = self._xy(layer, it, cx, cy)
            b0, bw = self._band(layer, it, "x" if vert else "y")
            half = max(4.0, bw * 0.35)
            d = f"M{num(x - half)},{num(y)}H{num(x + half)}" if vert else f"M{num(x)},{num(y - half)}V{num(y + half)}"
            self.svg.add(f'<path id={quoteattr(self._mark_id(gid, it, layer))} d="{d}" '
                         f'stroke="{self.color_of(layer, it)}" stroke-width="{num(self.ct.error_width * 1.2)}"'
                         f'{self._datum_attrs(it)}/>')

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
                svg.add(f'<path d="M{num(c)},{num(p["lower"])}V{num(p["q1"])}M{num(c)},{num(p["q3"])}V{num(p["upper"])}'
                        f'M{num(c - w / 4)},{num(p["lower"])}H{num(c + w / 4)}'
                        f'M{num(c - w / 4)},{num(p["upper"])}H{num(c + w / 4)}" '
                        f'stroke="{color}" stroke-width="{num(ct.error_width)}" fill="none" class="whisker"/>')
                svg.add(f'<rect x="{num(c - w / 2)}" y="{num(min(p["q1"], p["q3"]))}" width="{num(w)}" '
                        f'height="{num(abs(p["q3"] - p["q1"]))}" fill="{color}" fill-opacity="0.3" stroke="{color}" '
                        f'stroke-width="{num(ct.error_width)}" class="box"/>')
                svg.add(f'<line x1="{num(c - w / 2)}" y1="{num(p["median"])}" x2="{num(c + w / 2)}" '
                        f'y2="{num(p["median"])}" '
                        f'stroke="{color}" stroke-width="{num(ct.error_width * 1.8)}" class="median"/>')
            else:
                svg.add(f'<path d="M{num(p["lower"])},{num(c)}H{num(p["q1"])}M{num(p["q3"])},{num(c)}H{num(p["upper"])}'
                        f'M{num(p["lower"])},{num(c - w / 4)}V{num(c + w / 4)}'
                        f'M{num(p["upper"])},{num(c - w / 4)}V{num(c + w / 4)}" '
                        f'stroke="{color}" stroke-width="{num(ct.error_width)}" fill="none" class="whisker"/>')
                svg.add(f'<rect x="{num(min(p["q1"], p["q3"]))}" y="{num(c - w / 2)}" '
                        f'width="{num(abs(p["q3"] - p["q1"]))}" '
                        f'height="{num(w)}" fill="{color}" fill-opacity="0.3" stroke="{color}" '
                        f'stroke-width="{num(ct.error_width)}" class="box"/>')
                svg.add(f'<line x1="{num(p["median"])}" y1="{num(c - w / 2)}" x2="{num(p["median"])}" '
                        f'y2="{num(c + w / 2)}" '
                        f'stroke="{color}" stroke-width="{num(ct.error_width * 1.8)}" class="median"/>')
            for o in st.get("outliers", []):
                po = (cy if vert else cx) + vs(o)
                ox, oy = (c, po) if vert else (po, c)
                svg.add(f'<circle cx="{num(ox)}" cy="{num(oy)}" r="1.8" fill="none" stroke="{color}" '
                        f'stroke-width="0.8" class="outlier"/>')
            svg.add("</g>")
