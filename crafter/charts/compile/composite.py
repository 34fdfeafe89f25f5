"""Composite marks: error bars and bands (from y2, from ±errors, or an extent over raw rows) and
box plots (quartiles, whiskers and outliers per group), each drawn item carrying its statistics."""

from __future__ import annotations

from typing import Any

from crafter.charts import stats
from crafter.charts.compile.encoding import Channel, continuous_value, get_field, unescape_field
from crafter.charts.compile.marks import assign_channel
from crafter.charts.compile.plan import Item, LayerPlan, sort_key
from crafter.charts.errors import ChartSpecError


def _group_rows(rows: list[dict[str, Any]], enc: dict[str, Channel],
                names: list[str]) -> dict[tuple[Any, ...], list[dict[str, Any]]]:
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for r in rows:
        key = tuple(get_field(r, enc[n].field) for n in names)
        groups.setdefault(key, []).append(r)
    return groups


def compile_error_mark(layer: LayerPlan, rows: list[dict[str, Any]], chart_id: str, path: str) -> None:
    """Error bars/bands: from y+y2, from y±yError, or aggregated from raw rows (extent)."""
    enc = layer.channels
    v, c = layer.value_axis, layer.category_axis
    vch = enc.get(v)
    if vch is None or vch.field is None:
        raise ChartSpecError(f"an {layer.mark} needs a quantitative '{v}' field", chart=chart_id,
                             path=f"{path}encoding.{v}")
    err1, err2 = enc.get(f"{v}Error"), enc.get(f"{v}Error2")
    v2 = enc.get(f"{v}2")
    group_names = [n for n, ch in enc.items()
                   if ch.field is not None and n not in (v, f"{v}2", f"{v}Error", f"{v}Error2") and n != "text"]
    base = unescape_field(vch.field)
    items = []
    if v2 is not None or err1 is not None:
        for r in rows:
            center = get_field(r, vch.field)
            if center is None:
                continue
            center = continuous_value(center, vch, chart_id, path)
            if v2 is not None:
                lo, hi = center, continuous_value(get_field(r, v2.field), v2, chart_id, path)
                datum = {base: center, unescape_field(v2.field): hi}
                keys = (base, unescape_field(v2.field))
            else:
                e1 = continuous_value(get_field(r, err1.field), err1, chart_id, path) if err1.field else 0.0
                if err2 is not None and err2.field:
                    e2 = continuous_value(get_field(r, err2.field), err2, chart_id, path)
                    lo, hi = center + min(e1, e2), center + max(e1, e2)
                else:
                    lo, hi = center - abs(e1), center + abs(e1)
                datum = {base: center, f"lower_{base}": lo, f"upper_{base}": hi}
                keys = (f"lower_{base}", f"upper_{base}")
            it = Item(index=0, datum=datum, stats={"center": center})
            for n in group_names:
                val = get_field(r, enc[n].field)
                datum[enc[n].key] = val
                assign_channel(it, n, val, enc[n], chart_id, path)
            setattr(it, v, min(lo, hi))
            setattr(it, f"{v}2", max(lo, hi))
            items.append(it)
        layer.fields = {v: keys[0], f"{v}2": keys[1]}
    else:
        extent = layer.props.get("extent", "stderr")
        if extent not in stats.ERROR_EXTENTS:
            raise ChartSpecError(f"unsupported extent {extent!r}; expected one of {', '.join(stats.ERROR_EXTENTS)}",
                                 chart=chart_id, path=f"{path}mark.extent")
        center_name = "median" if extent == "iqr" else "mean"
        for key, members in _group_rows(rows, enc, group_names).items():
            vals = [continuous_value(get_field(r, vch.field), vch, chart_id, path) for r in members
                    if get_field(r, vch.field) is not None]
            if not vals:
                continue
            center, lo, hi = stats.error_extent(vals, extent)
            datum = {f"{center_name}_{base}": center, f"lower_{base}": lo, f"upper_{base}": hi, "count": len(vals)}
            it = Item(index=0, datum=datum, stats={"center": center})
            for n, val in zip(group_names, key):
                datum[enc[n].key] = val
                assign_channel(it, n, val, enc[n], chart_id, path)
            setattr(it, v, lo)
            setattr(it, f"{v}2", hi)
            items.append(it)
        layer.fields = {v: f"lower_{base}", f"{v}2": f"upper_{base}"}
    if c in enc and enc[c].field is not None and c in group_names:
        layer.fields[c] = enc[c].key
    if layer.mark == "errorband":
        items.sort(key=lambda it: (sort_key(it.series), sort_key(getattr(it, c))))
    layer.items = items


def compile_boxplot(layer: LayerPlan, rows: list[dict[str, Any]], chart_id: str, path: str) -> None:
    enc = layer.channels
    v, c = layer.value_axis, layer.category_axis
    vch = enc.get(v)
    if vch is None or vch.field is None:
        raise ChartSpecError(f"a boxplot needs a quantitative '{v}' field", chart=chart_id, path=f"{path}encoding.{v}")
    extent = layer.props.get("extent", 1.5)
    group_names = [n for n, ch in enc.items() if ch.field is not None and n != v]
    base = unescape_field(vch.field)
    items = []
    for key, members in _group_rows(rows, enc, group_names).items():
        vals = [continuous_value(get_field(r, vch.field), vch, chart_id, path) for r in members
                if get_field(r, vch.field) is not None]
        if not vals:
            continue
        st = stats.box_stats(vals, extent)
        datum = {f"{k}_{base}": st[k] for k in ("lower", "q1", "median", "q3", "upper")}
        datum["outliers"] = st["outliers"]
        it = Item(index=0, datum=datum, stats=st)
        for n, val in zip(group_names, key):
            datum[enc[n].key] = val
            assign_channel(it, n, val, enc[n], chart_id, path)
        lo = min([st["lower"]] + st["outliers"])
        hi = max([st["upper"]] + st["outliers"])
        setattr(it, v, lo)
        setattr(it, f"{v}2", hi)
        items.append(it)
    layer.items = items
    layer.fields = {k: f"{k}_{base}" for k in ("lower", "q1", "median", "q3", "upper")}
    if c in enc and enc[c].field is not None:
        layer.fields[c] = enc[c].key
