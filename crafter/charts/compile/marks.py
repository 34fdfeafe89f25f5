"""One layer of a plain mark (bar, line, point, area, rect, rule, text, tick): rows binned and
aggregated, one item per mark, the fields a reader reads back, then stacking and series order."""

from __future__ import annotations

import math
from typing import Any

from crafter.charts import stats
from crafter.charts.compile.encoding import (
    MISSING,
    SERIES_CHANNELS,
    Channel,
    continuous_value,
    get_field,
    value_label,
)
from crafter.charts.compile.plan import Item, LayerPlan, sort_key
from crafter.charts.compile.stacking import STACKABLE, stack_layer
from crafter.charts.errors import ChartSpecError
from crafter.charts.format import d3_format, format_number

POSITION = ("x", "y")


def bin_edges(channels: dict[str, list[Channel]], rows: list[dict[str, Any]]) -> dict[str, list[float]]:
    """Bin edges per binned field, from all rows (so facets share bins). Nice steps via matplotlib."""
    from matplotlib.ticker import MaxNLocator  # heavy: 0.4 s to import; only binned channels need it

    out: dict[str, list[float]] = {}
    for chans in channels.values():
        for ch in chans:
            if ch.bin is None or ch.field is None or ch.field in out:
                continue
            vals = [float(v) for v in (get_field(r, ch.field) for r in rows) if isinstance(v, (int, float))]
            if not vals:
                out[ch.field] = [0.0, 1.0]
                continue
            if "step" in ch.bin:
                step = float(ch.bin["step"])
                lo = math.floor(min(vals) / step) * step
                edges = [lo]
                while edges[-1] <= max(vals):
                    edges.append(edges[-1] + step)
            else:
                lo, hi = min(vals), max(vals)
                if lo == hi:
                    lo, hi = lo - 0.5, hi + 0.5
                loc = MaxNLocator(nbins=int(ch.bin.get("maxbins", 10)), steps=[1, 2, 2.5, 5, 10])
                edges = [float(e) for e in loc.tick_values(lo, hi)]
                if edges[-1] <= hi:  # the top bin includes its upper edge
                    edges.append(edges[-1] + (edges[1] - edges[0]))
                while len(edges) > 2 and edges[1] <= lo:
                    edges.pop(0)
                while len(edges) > 2 and edges[-2] > hi:
                    edges.pop()
            out[ch.field] = edges
    return out


def _bin_of(v: float, edges: list[float]) -> tuple[float, float] | None:
    for a, b in zip(edges, edges[1:]):
        if a <= v < b:
            return a, b
    if v == edges[-1]:
        return edges[-2], edges[-1]
    return None


def compile_plain(layer: LayerPlan, rows: list[dict[str, Any]], chart_id: str, path: str,
                   bins: dict[str, list[float]]) -> None:
    enc = layer.channels
    mark = layer.mark
    for name in ("x", "y"):
        if name not in enc and mark in ("bar", "line", "area", "point", "circle", "square", "rect", "tick") \
                and not (mark in ("bar", "tick", "rect") and any(c in enc for c in POSITION)):
            raise ChartSpecError(f"a {mark} chart needs an '{name}' encoding", chart=chart_id,
                                 path=f"{path}encoding.{name}")
    # 1. one record per row: binned and raw channel values
    recs: list[dict[str, Any]] = []
    for r in rows:
        rec: dict[str, Any] = {}
        skip = False
        for name, ch in enc.items():
            if ch.field is None:
                continue
            v = get_field(r, ch.field)
            if ch.bin is not None and ch.aggregate is None:
                if v is None:
                    skip = True
                    break
                b = _bin_of(float(v), bins[ch.field])
                if b is None:
                    skip = True
                    break
                rec[ch.key], rec[ch.key + "_end"] = b
            else:
                rec[("raw", name)] = v
        if not skip:
            recs.append(rec)
    # 2. aggregation: group by every non-aggregated field channel
    aggregated = [n for n, ch in enc.items() if ch.aggregate is not None]
    if aggregated:
        group_ch = [n for n, ch in enc.items() if ch.field is not None and ch.aggregate is None]
        groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
        for rec in recs:
            key = tuple(rec.get(("raw", n), rec.get(enc[n].key)) for n in group_ch)
            groups.setdefault(key, []).append(rec)
        out = []
        for key, members in groups.items():
            rec = {}
            for n in group_ch:
                ch = enc[n]
                if ch.bin is not None:
                    rec[ch.key], rec[ch.key + "_end"] = members[0][ch.key], members[0][ch.key + "_end"]
                else:
                    rec[("raw", n)] = members[0][("raw", n)]
            for n in aggregated:
                ch = enc[n]
                vals = [m.get(("raw", n)) for m in members]
                if ch.aggregate not in ("count", "distinct"):
                    vals = [None if v is None else continuous_value(v, Channel(n, type="quantitative"), chart_id, path)
                            for v in vals]
                rec[("raw", n)] = stats.aggregate(ch.aggregate, vals)
            out.append(rec)
        recs = out
    # 3. items
    items: list[Item] = []
    for rec in recs:
        datum: dict[str, Any] = {}
        it = Item(index=0, datum=datum)
        for name, ch in enc.items():
            if ch.field is None and ch.aggregate != "count":
                if ch.datum is not MISSING and name in ("x", "y", "x2", "y2"):
                    setattr(it, name, ch.datum if ch.discrete or isinstance(ch.datum, str) and ch.type != "temporal"
                            else continuous_value(ch.datum, ch, chart_id, path))
                continue
            if ch.bin is not None and ch.aggregate is None:
                lo, hi = rec[ch.key], rec[ch.key + "_end"]
                datum[ch.key], datum[ch.key + "_end"] = lo, hi
                if name in ("x", "y"):
                    setattr(it, name, lo)
                    setattr(it, name + "2", hi)
                continue
            v = rec.get(("raw", name))
            datum[ch.key] = v
            assign_channel(it, name, v, ch, chart_id, f"{path}encoding.{name}")
        items.append(it)
    layer.items = [it for it in items if _complete(it, layer)]
    # 4. series order, stacking
    layer.fields = _readback_fields(layer)
    if mark in STACKABLE:
        stack_layer(layer, chart_id, path)
    if mark in ("line", "area"):
        xkey = "x" if layer.orient == "vertical" else "y"
        layer.items.sort(key=lambda it: (sort_key(it.series), sort_key(getattr(it, xkey))))


def assign_channel(it: Item, name: str, v: Any, ch: Channel, chart_id: str, path: str) -> None:
    if name in ("x", "y", "x2", "y2"):
        if ch.discrete:  # categories keep their value (numbers sort as numbers); scales key them by label
            setattr(it, name, v)
        else:
            setattr(it, name, continuous_value(v, ch, chart_id, path))
    elif name == "color":
        it.color = continuous_value(v, ch, chart_id, path) if ch.type in ("quantitative", "temporal") else v
    elif name == "size":
        it.size = continuous_value(v, ch, chart_id, path) if ch.type in ("quantitative", "temporal") else v
    elif name == "shape":
        it.shape = v
    elif name == "strokeDash":
        it.dash = v
    elif name in ("xOffset", "yOffset"):
        it.offset = v
    elif name == "text":
        it.text = format_text(v, ch.format, ch.type)
    elif name in ("xError", "yError", "xError2", "yError2"):
        pass
    if name in SERIES_CHANNELS:
        s = dict(zip(SERIES_CHANNELS, it.series)) if it.series else {}
        s[name] = v
        it.series = tuple(s.get(c) for c in SERIES_CHANNELS)


def format_text(v: Any, fmt: str | None, type_: str | None) -> str:
    if v is None:
        return ""
    if fmt and isinstance(v, (int, float)) and not isinstance(v, bool):
        return d3_format(fmt, float(v))
    if isinstance(v, float):
        return format_number(v)
    return value_label(v)


def _complete(it: Item, layer: LayerPlan) -> bool:
    """Vega-Lite drops marks whose position is missing (null/NaN)."""
    for name in ("x", "y"):
        ch = layer.channels.get(name)
        if ch is not None and (ch.field is not None or ch.aggregate == "count") and getattr(it, name) is None:
            return False
    return True


def _readback_fields(layer: LayerPlan) -> dict[str, str]:
    out = {}
    for name in ("x", "y", "x2", "y2", "text"):
        ch = layer.channels.get(name)
        if ch is not None and (ch.field is not None or ch.aggregate == "count"):
            out[name] = ch.key
            if ch.bin is not None and name in ("x", "y"):
                out[name + "2"] = ch.key + "_end"
    return out
