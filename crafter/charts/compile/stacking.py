"""Stacking: which bar and area layers stack (Vega-Lite's defaults and ``stack``), and each
item's start and end once the series order is known (zero, normalize, center)."""

from __future__ import annotations

from typing import Any

from crafter.charts.compile.encoding import MISSING, value_label
from crafter.charts.compile.plan import ChartPlan, Item, LayerPlan, sort_key
from crafter.charts.errors import ChartSpecError

STACKABLE = ("bar", "area", "arc")


def stack_layer(layer: LayerPlan, chart_id: str, path: str) -> None:
    enc = layer.channels
    vname = layer.value_axis
    cname = layer.category_axis
    vch = enc.get(vname)
    if vch is None or vch.discrete or vch.type == "temporal" or f"{vname}2" in enc:
        return
    if vch.scale.get("type") not in (None, "linear"):
        return
    stack = vch.stack
    offset = enc.get("xOffset" if cname == "x" else "yOffset")
    grouped_by = {offset.field} if offset is not None and offset.field else set()
    has_group = any(c in enc and enc[c].field is not None and enc[c].field not in grouped_by
                    for c in ("color", "detail", "strokeDash", "shape"))
    if stack is MISSING:
        stack = "zero" if has_group else None
    if stack in (None, False):
        return
    if stack is True:
        stack = "zero"
    if stack not in ("zero", "normalize", "center"):
        raise ChartSpecError(f"unsupported stack {stack!r} (use zero, normalize or null)", chart=chart_id,
                             path=f"{path}encoding.{vname}.stack")
    layer.stacked = True
    layer.props = {**layer.props, "_stack": stack}
    vkey = vch.key
    layer.fields[vname] = f"{vkey}_end"
    layer.fields[f"{vname}2"] = f"{vkey}_start"


def resolve_series_order(plan: ChartPlan) -> None:
    """Stack the stacked layers, in the colour domain's order (which may sort by other channels)."""
    color = plan.channel("color")
    dom = plan.color_domain() if color is not None and color.discrete else []
    rank = {value_label(v): i for i, v in enumerate(dom)}
    for layer in plan.layers:
        if layer.stacked:
            vname = layer.value_axis
            vkey = layer.channels[vname].key
            cname = layer.category_axis
            groups: dict[tuple[Any, ...], list[Item]] = {}
            for it in layer.items:
                groups.setdefault((sort_key(getattr(it, cname)), sort_key(getattr(it, f"{cname}2")),
                                   sort_key(it.offset)), []).append(it)
            mode = layer.props["_stack"]
            for members in groups.values():
                members.sort(key=lambda it: rank.get(value_label(it.color), 0) if dom else sort_key(it.series))
                vals = [it.datum.get(vkey) or 0.0 for it in members]
                total = sum(abs(x) for x in vals) or 1.0
                pos = neg = 0.0
                base = -total / 2 if mode == "center" else 0.0
                for it, v in zip(members, vals):
                    if mode == "normalize":
                        v = v / total
                    if mode == "center":
                        start, end = base, base + abs(v)
                        base = end
                    elif v >= 0:
                        start, end = pos, pos + v
                        pos = end
                    else:
                        start, end = neg, neg + v
                        neg = end
                    setattr(it, vname, end)
                    setattr(it, f"{vname}2", start)
                    it.datum[f"{vkey}_start"] = start
                    it.datum[f"{vkey}_end"] = end
