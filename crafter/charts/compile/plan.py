"""The compiled chart: a :class:`ChartPlan` of cells, layers and items in data units, and the
orders of its discrete domains (Vega-Lite's sort: ascending, listed, or by another channel)."""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as _field
from typing import Any

from crafter.charts import stats
from crafter.charts.compile.encoding import MISSING, Channel, value_label
from crafter.charts.errors import ChartSpecError


@dataclass
class Item:
    """One drawn mark (a bar, a point, a vertex of a line...) in data units."""

    index: int
    datum: dict[str, Any]
    x: Any = None
    y: Any = None
    x2: Any = None
    y2: Any = None
    color: Any = None
    size: Any = None
    shape: Any = None
    dash: Any = None
    offset: Any = None
    text: str | None = None
    stats: dict[str, Any] | None = None
    series: tuple[Any, ...] = ()


@dataclass
class LayerPlan:
    index: int
    mark: str
    props: dict[str, Any]
    channels: dict[str, Channel]
    orient: str  # "vertical": categories/x along x, values along y; "horizontal": swapped
    items: list[Item]
    stacked: bool = False
    fields: dict[str, str] = _field(default_factory=dict)  # read-back channel -> datum key

    @property
    def value_axis(self) -> str:
        return "y" if self.orient == "vertical" else "x"

    @property
    def category_axis(self) -> str:
        return "x" if self.orient == "vertical" else "y"


@dataclass
class CellPlan:
    index: int
    layers: list[LayerPlan]
    header: str | None = None  # facet header text
    row: int = 0
    col: int = 0


@dataclass
class ChartPlan:
    chart_id: str
    title: str | None
    cells: list[CellPlan]
    channels: dict[str, list[Channel]]  # every layer's channel, by name (for scales, axes, legends)
    n_rows: int = 1
    n_cols: int = 1
    facet_field: str | None = None
    facet_title: str | None = None
    width: Any = None  # plot width requested by the spec (number or {"step": n})
    height: Any = None
    config: dict[str, Any] = _field(default_factory=dict)  # Vega-Lite "config" (chart theme overrides)

    @property
    def layers(self) -> list[LayerPlan]:
        return [layer for cell in self.cells for layer in cell.layers]

    def channel(self, name: str) -> Channel | None:
        chans = self.channels.get(name) or []
        return chans[0] if chans else None

    def color_domain(self) -> list[Any]:
        return discrete_domain(self, "color")

    def discrete_domain(self, name: str) -> list[Any]:
        """A discrete channel's values in drawing order (x categories, offsets…); [] for none."""
        return discrete_domain(self, name)


def sort_key(v: Any) -> tuple[int, Any]:
    if v is None:
        return (2, "")
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return (0, v)
    if isinstance(v, tuple):
        return (1, tuple(sort_key(x) for x in v))
    return (1, str(v))


def sorted_discrete(values: list[Any], sort: Any, type_: str | None, plan: ChartPlan | None,
                    name: str | None) -> list[Any]:
    """Vega-Lite's sort for a discrete domain: ascending by default; null keeps data order."""
    seen: dict[Any, None] = {}
    for v in values:
        if v is not None:
            seen.setdefault(v, None)
    distinct = list(seen)
    if sort is None:
        return distinct
    if isinstance(sort, list):
        listed = [v for v in sort if v in seen or value_label(v) in {value_label(x) for x in distinct}]
        by_label = {value_label(v): v for v in distinct}
        ordered = [by_label.get(value_label(v), v) for v in listed]
        rest = [v for v in distinct if value_label(v) not in {value_label(x) for x in ordered}]
        return ordered + rest
    if sort is MISSING or sort in ("ascending", "descending"):
        out = sorted(distinct, key=sort_key)
        return out[::-1] if sort == "descending" else out
    if isinstance(sort, dict) and "field" not in sort and "encoding" not in sort and "order" in sort:
        out = sorted(distinct, key=sort_key)
        return out[::-1] if sort["order"] == "descending" else out
    if plan is not None and name is not None and (isinstance(sort, str) or isinstance(sort, dict)):
        return _sort_by_other(plan, name, distinct, sort)
    return sorted(distinct, key=sort_key)


def _sort_by_other(plan: ChartPlan, name: str, distinct: list[Any], sort: Any) -> list[Any]:
    """``sort: "-y"`` (by another channel's value) or ``{"field", "op", "order"}``."""
    if isinstance(sort, str):
        desc = sort.startswith("-")
        other = sort.lstrip("-")
        totals: dict[Any, float] = {}
        for layer in plan.layers:
            for it in layer.items:
                k = getattr(it, name, None) if name in ("x", "y") else it.color
                val = getattr(it, other, None)
                if isinstance(val, (int, float)):
                    v2 = getattr(it, f"{other}2", None) if layer.stacked else None
                    totals[k] = totals.get(k, 0.0) + (val - v2 if isinstance(v2, (int, float)) else val)
        return sorted(distinct, key=lambda v: totals.get(v, 0.0), reverse=desc)
    desc = sort.get("order") == "descending"
    f, op = sort.get("field"), sort.get("op", "sum")
    vals: dict[Any, list[float]] = {}
    for layer in plan.layers:
        for it in layer.items:
            k = getattr(it, name, None) if name in ("x", "y") else it.color
            if f and f in it.datum and isinstance(it.datum[f], (int, float)):
                vals.setdefault(k, []).append(it.datum[f])
    agg = {k: stats.aggregate(op if op != "count" else "count", v) or 0.0 for k, v in vals.items()}
    return sorted(distinct, key=lambda v: agg.get(v, 0.0), reverse=desc)


def _check_listed(plan: ChartPlan, name: str, domain: list[Any]) -> None:
    """An explicit category domain names every category the data places on it (a value it does not
    name has no band to be drawn in: Vega-Lite drops such a mark without a word)."""
    listed = {value_label(v) for v in domain}
    missing = [v for layer in plan.layers for it in layer.items for v in (getattr(it, name),)
               if v is not None and value_label(v) not in listed]
    if missing:
        raise ChartSpecError(f"encoding.{name}.scale.domain lists the categories to draw but not {missing[0]!r}, "
                             f"which {len(missing)} data row(s) place on it: add it to the domain or drop the domain",
                             chart=plan.chart_id, path=f"encoding.{name}.scale.domain")


def discrete_domain(plan: ChartPlan, name: str) -> list[Any]:
    chans = plan.channels.get(name) or []
    ch = next((c for c in chans if c.field is not None), None)
    if ch is None:
        return []
    if ch.scale.get("domain") and isinstance(ch.scale["domain"], list) and ch.discrete:
        domain = list(ch.scale["domain"])
        if name in ("x", "y"):
            _check_listed(plan, name, domain)
        return domain
    values: list[Any] = []
    for layer in plan.layers:
        for it in layer.items:
            if name in ("x", "y"):
                values.append(getattr(it, name))
                v2 = getattr(it, f"{name}2")
                if v2 is not None and isinstance(v2, str):
                    values.append(v2)
            elif name == "color":
                values.append(it.color)
            elif name == "shape":
                values.append(it.shape)
            elif name == "strokeDash":
                values.append(it.dash)
            elif name in ("xOffset", "yOffset"):
                values.append(it.offset)
            elif name == "size":
                values.append(it.size)
    sort = next((c.sort for c in chans if c.sort is not MISSING), MISSING)
    return sorted_discrete(values, sort, ch.type, plan, name)
