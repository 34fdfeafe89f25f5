"""The recovered series written as a Vega-Lite spec, the rows inline: encodings, the mark, and the
layers over it (bands, error bars, value labels), values rounded to the axis range's precision."""

from __future__ import annotations

import math
from typing import Any

from crafteditor.charts.axes import Axis
from crafteditor.charts.layers import ValueLabels
from crafteditor.charts.numbers import date_text, time_format
from crafteditor.charts.series import Series
from crafteditor.paint import to_hex
from crafter.charts.format import d3_format


def round_to_span(v: float, span: float) -> float:
    """Keep ~4 significant digits of the axis range: enough for 0.1% of it."""
    if span <= 0 or not math.isfinite(v):
        return v
    digits = max(0, 4 - int(math.floor(math.log10(span))))
    return round(v, digits)


def round_sig(v: float, digits: int = 4) -> float:
    """``digits`` significant digits: a log axis's values span decades (1.5e-05 rounded to the
    range's 4 decimals had become 0, and the chart could not be drawn on its log scale)."""
    if v == 0 or not math.isfinite(v):
        return v
    return round(v, digits - 1 - int(math.floor(math.log10(abs(v)))))


def chart_spec(series: list[Series], xaxis: Axis, yaxis: Axis, plot, title, x_title, y_title,
               error_color: str | None = None, value_labels: "ValueLabels | None" = None) -> dict[str, Any]:
    """The series as a Vega-Lite spec on the calibrated axes' domains: their rows inline, the
    encodings, the mark, and the layers over it (``error_color``: the error bars' colour)."""
    x0, y0, x1, y1 = plot
    ylo, yhi = sorted((yaxis.value(y1), yaxis.value(y0)))
    yspan = (math.log10(yhi) - math.log10(ylo)) if yaxis.log and ylo > 0 else (yhi - ylo)
    rows = _rows(series, xaxis, yaxis, plot, yspan)
    if len(series) == 1 and series[0].kind == "bar" and xaxis.categories and not yaxis.log \
            and ylo <= 0.02 * yspan and yhi > 0:
        # a category with no bar read has a bar too short to see: its value is the baseline's
        # (uv's 0.01 s beside 3.38 s)
        placed = {x for x, _ in series[0].points}
        rows += [{"x": name, "y": 0.0} for _, name in sorted(xaxis.categories) if name not in placed]
    shapes = [s.shape or "circle" for s in series]
    enc = _encoding(series, xaxis, yaxis, plot, x_title, y_title, (ylo, yhi, yspan), shapes)
    mark = _mark(series, shapes)
    spec: dict[str, Any] = {"data": {"values": rows}, "mark": mark, "encoding": enc}
    layers = _layers(rows, mark, error_color, value_labels)
    if any(s.fit for s in series):
        # the curves fitted through the scatters, over their points: each layer takes its own rows
        main = next(i for i, ly in enumerate(layers) if ly["mark"] is mark)
        layers[main]["transform"] = [{"filter": {"field": "fit", "equal": False}}]
        fit_mark: dict[str, Any] = {"type": "line"}
        if "color" in mark:
            fit_mark["color"] = mark["color"]
        layers.insert(main + 1, {"mark": fit_mark, "transform": [{"filter": {"field": "fit", "equal": True}}]})
    if len(layers) > 1:
        spec = {"data": {"values": rows}, "encoding": enc, "layer": layers}
    if title:
        spec["title"] = title
    return spec


def _rows(series: list[Series], xaxis: Axis, yaxis: Axis, plot, yspan: float) -> list[dict[str, Any]]:
    """One row per point: x, y, its series' name where there are several, its band's lo and hi,
    its error bar (symmetric, or upper and lower)."""
    x0, y0, x1, y1 = plot
    multi = _legend(series)
    fits = any(s.fit for s in series)
    rows = []
    for i, s in enumerate(series):
        name = s.name or (f"series {i + 1}" if multi else None)
        for k, (x, y) in enumerate([*s.points, *s.fit]):
            yv = round_sig(y) if yaxis.log else round_to_span(y, yspan)
            xv = x if xaxis.categories else (round_sig(x) if xaxis.log else round_to_span(x, abs(xaxis.b) * (x1 - x0)))
            if xaxis.time and not xaxis.categories:
                xv = date_text(x, abs(xaxis.b) * (x1 - x0))  # the date as ISO text, as Vega-Lite reads it
            row: dict[str, Any] = {"x": xv, "y": yv}
            if multi:
                row["series"] = name
            if fits:  # a vertex of the curve through the points (see Series.fit), or a point
                row["fit"] = k >= len(s.points)
            bnd = s.band[k] if k < len(s.band) else None
            if bnd is not None:
                row["lo"], row["hi"] = round_to_span(bnd[0], yspan), round_to_span(bnd[1], yspan)
            err = s.errors[k] if k < len(s.errors) else None
            if err is not None:
                down, up = err
                if abs(down - up) <= max(0.15 * max(down, up), 2.0 * abs(yaxis.b)):  # 2 px: one each end
                    row["y_err"] = round_to_span((down + up) / 2, yspan)
                else:  # asymmetric: Vega-Lite's yError is the upper, yError2 the (negative) lower
                    row["y_err"], row["y_err2"] = round_to_span(up, yspan), -round_to_span(down, yspan)
            rows.append(row)
    return rows


def _encoding(series: list[Series], xaxis: Axis, yaxis: Axis, plot, x_title, y_title,
              y_range: tuple[float, float, float], shapes: list[str]) -> dict[str, Any]:
    """x and y on the axes' domains (``y_range``: low, high, and the span in the scale's own
    units), and the series' colours, bars' offsets and markers' shapes where there are several."""
    x0, y0, x1, y1 = plot
    ylo, yhi, yspan = y_range
    kind = series[0].kind
    multi = _legend(series)
    xenc: dict[str, Any] = {"field": "x", "type": "nominal" if xaxis.categories else "quantitative"}
    if xaxis.categories:
        xenc["sort"] = None
        names = [name for _, name in sorted(xaxis.categories, key=lambda c: c[0])]
        placed = {p[0] for s in series for p in s.points}
        if kind == "bar" and placed <= set(names) and set(names) - placed and len(set(names)) == len(names):
            # a category with no bar read (a value too small to see) keeps its place and label
            xenc["scale"] = {"domain": names}
    else:
        xlo, xhi = sorted((xaxis.value(x0), xaxis.value(x1)))
        dom = [round_sig(xlo), round_sig(xhi)] if xaxis.log else [round_to_span(xlo, xhi - xlo), round_to_span(xhi, xhi - xlo)]
        xenc["scale"] = {"domain": dom, "nice": False, "zero": False}
        if xaxis.log:
            xenc["scale"]["type"] = "log"
        if xaxis.time:
            span = xhi - xlo
            xenc["type"] = "temporal"
            xenc["scale"] = {"domain": [date_text(xlo, span), date_text(xhi, span)], "nice": False}
            # the figure's own ticks, at the dates read (epoch ms), written as it wrote them
            xenc["axis"] = {"values": [round(d * 86_400_000) for d, _ in xaxis.dates]}
            if (f := time_format(xaxis.dates)) is not None:
                xenc["axis"]["format"] = f
    xenc["title"] = x_title or None  # no title drawn: none re-drawn (Vega-Lite would show the field name)
    yscale: dict[str, Any] = {"domain": [round_to_span(ylo, yspan) if not yaxis.log else ylo,
                                         round_to_span(yhi, yspan) if not yaxis.log else yhi], "nice": False}
    if yaxis.log:
        yscale["type"] = "log"
    else:
        yscale["zero"] = False
    yenc: dict[str, Any] = {"field": "y", "type": "quantitative", "scale": yscale}
    yenc["title"] = y_title or None
    enc: dict[str, Any] = {"x": xenc, "y": yenc}
    names = [s.name or f"series {i + 1}" for i, s in enumerate(series)]
    # one legend entry a name: two series the reader named alike (translucent markers and their solid
    # line) had repeated it in the domain, listed twice in the legend; the name takes the look of its
    # series with the most points
    look: dict[str, int] = {}  # name -> its series' index, in the order the names come
    for i, n in enumerate(names):
        if n not in look or len(series[i].points) > len(series[look[n]].points):
            look[n] = i
    if multi:
        enc["color"] = {"field": "series", "type": "nominal", "title": series[0].legend_title,
                        "scale": {"domain": list(look), "range": [to_hex(series[i].color) for i in look.values()]}}
        if kind == "area":  # stacked where one stands on another (their rows are thicknesses), else overlaid
            yenc["stack"] = "zero" if any(s.stacked for s in series) else None
        elif kind == "bar" and any(s.stacked for s in series):
            yenc["stack"] = "zero"  # one on another, in the legend's order from the axis out
        elif kind == "bar" and len(series) > 1:
            # side by side in the order drawn, left to right (Vega-Lite would sort the names:
            # 'baseline' had moved left of 'ours')
            lefts = [min((a for a, _ in s.bar_spans), default=math.inf) for s in series]
            enc["xOffset"] = {"field": "series", "sort": [n for _, n in sorted(zip(lefts, names), key=lambda t: t[0])]}
    if kind in ("line", "point") and any(sh != "circle" for sh in shapes):
        if multi:
            enc["shape"] = {"field": "series", "type": "nominal", "title": series[0].legend_title,
                            "scale": {"domain": list(look), "range": [shapes[i] for i in look.values()]}}
    return enc


def _legend(series: list[Series]) -> bool:
    """Series told apart by a legend: several, or one the legend names (a lone 'error' entry
    had been dropped with its word)."""
    return len(series) > 1 or bool(series and series[0].name)


def _mark(series: list[Series], shapes: list[str]) -> dict[str, Any]:
    """The series' mark: bars, a line (with points where it was drawn with markers), or points."""
    kind = series[0].kind
    multi = len(series) > 1
    mark: dict[str, Any]
    if kind == "bar":
        mark = {"type": "bar"}
    elif kind == "area":  # the paint as read, seen through nothing (Vega-Lite's areas default to 0.7)
        mark = {"type": "area", "opacity": 1}
    elif kind == "line":
        # points on the line where it was drawn with markers (a plain line had gained dots)
        mark = {"type": "line", "point": any(s.marker_areas for s in series)}
    else:
        mark = {"type": "point", "filled": not all(s.hollow for s in series)}
        if not multi and shapes[0] != "circle":
            mark["shape"] = shapes[0]
    if not multi:
        mark["color"] = to_hex(series[0].color)
    return mark


def _layers(rows: list[dict[str, Any]], mark: dict[str, Any], error_color: str | None,
            value_labels: "ValueLabels | None") -> list[dict[str, Any]]:
    """The mark's layer, with shaded bands behind it and error bars and value labels over it;
    the rows are completed for them in place."""
    with_err = sum("y_err" in r for r in rows)
    if with_err and with_err < 0.75 * len(rows):
        for r in rows:  # a stray stroke on a bar or two: not error bars
            r.pop("y_err", None)
            r.pop("y_err2", None)
    elif with_err:
        for r in rows:  # too small to see (under 3 px): none drawn is what was seen
            r.setdefault("y_err", 0.0)
            if any("y_err2" in q for q in rows):
                r.setdefault("y_err2", -r["y_err"])
    layers: list[dict[str, Any]] = [{"mark": mark}]
    if any("lo" in r for r in rows):
        # shaded bands behind the lines (fill_between): the band's edges at each point
        for r in rows:
            if "lo" not in r:
                r["lo"] = r["hi"] = r["y"]
        layers.insert(0, {"mark": {"type": "errorband"}, "encoding": {"y": {"field": "lo", "type": "quantitative"},
                                                                       "y2": {"field": "hi"}}})
    if any("y_err" in r for r in rows):
        # the bars, and their error bars over them (sharing the encoding: x, offset, y)
        err_enc: dict[str, Any] = {"yError": {"field": "y_err"}}
        if any("y_err2" in r for r in rows):
            err_enc["yError2"] = {"field": "y_err2"}
        if error_color:
            err_enc["color"] = {"value": error_color}
        layers.append({"mark": {"type": "errorbar", "ticks": True}, "encoding": err_enc})
    if value_labels is not None:
        # each bar's value written above it, from the data (the style sets its offset and size)
        text_mark: dict[str, Any] = {"type": "text", "baseline": "middle"}
        if value_labels.color:
            text_mark["color"] = value_labels.color
        text: dict[str, Any] = {"field": "y", "type": "quantitative", "format": f".{value_labels.decimals}f"}
        prefix, suffix = value_labels.affixes
        if prefix or suffix:
            # a unit around the number ('4.63s', '45%') no number format writes: each row holds its
            # label as written, its number in the labels' own decimals
            for r in rows:
                r["label"] = f"{prefix}{d3_format(text['format'], r['y'] / value_labels.unit)}{suffix}"
            text = {"field": "label", "type": "nominal"}
        layers.append({"mark": text_mark, "encoding": {"text": text}})
    return layers
