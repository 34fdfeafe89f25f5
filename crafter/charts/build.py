"""Building chart components: a table plus a few field names → a Vega-Lite spec with inline data.

:func:`make_chart` writes explicit, schema-valid Vega-Lite with research-figure defaults
spelled out in the spec itself (so the Vega editor draws the same chart): categories in
the table's order, grouped bars via ``xOffset``, mean ± sd error bars over replicate rows,
error bars from a ``*_std`` column via ``yError``, non-zero axes for lines and scatters,
a log axis where the data span decades, the legend on top when it fits.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import replace
from typing import Any, Sequence

from crafter.base.text import text_width
from crafter.charts import stats
from crafter.charts.recommend import ChartChoice, base_field, recommend
from crafter.charts.schema import validate_vegalite
from crafter.charts.theme import chart_theme
from crafter.data import Table, read_table, table_from_records
from crafter.errors import InputError
from crafter.spec import Chart

MAX_INLINE_ROWS = 20_000  # a chart spec inlines its rows; beyond this, aggregate first
ERROR_COLOR = "#222222"
MARKS = ("bar", "line", "point", "circle", "square", "area", "rect", "boxplot", "errorbar", "errorband", "text",
         "tick", "rule")


def escape_field(name: str) -> str:
    """A column name as a Vega-Lite field (dots and brackets would mean nested access)."""
    return re.sub(r"([.\[\]\\])", r"\\\1", name)


_UNITS = {"ms": "ms", "s": "s", "sec": "s", "secs": "s", "seconds": "s", "min": "min", "h": "h", "hours": "h",
          "gb": "GB", "mb": "MB", "kb": "KB", "m": "M", "b": "B", "k": "k", "pct": "%", "percent": "%",
          "usd": "$", "gflops": "GFLOPs", "tflops": "TFLOPs", "w": "W", "j": "J"}


def axis_title(column: str) -> str:
    """A column name as an axis title: ``latency_ms`` → "latency (ms)", ``tokens_per_s`` → "tokens/s".

    Names with spaces or punctuation other than ``_`` are the user's own wording and stay as they are.
    """
    name = column.rsplit(".", 1)[-1] if "." in column and " " not in column else column
    if " " in name or "_" not in name:
        return name
    words = [w for w in name.split("_") if w]
    unit = None
    if len(words) > 1 and words[-1].lower() in _UNITS:
        unit = _UNITS[words.pop().lower()]
    text = " ".join(words)
    text = re.sub(r" per (\w+)$", r"/\1", text)
    if unit and len(words) >= 2 and words[-1] == "per":
        return " ".join(words[:-1]) + "/" + unit
    return f"{text} ({unit})" if unit else text


def as_table(data: Any) -> Table:
    if isinstance(data, Table):
        return data
    if isinstance(data, (str, os.PathLike)):
        return read_table(data)
    if isinstance(data, list):
        if not all(isinstance(r, dict) for r in data):
            raise InputError("chart data must be a table or a list of records ({column: value})")
        return table_from_records(data)
    try:  # a pandas DataFrame
        import pandas as pd  # heavy: 1.3 s to import; only a DataFrame argument needs it

        if isinstance(data, pd.DataFrame):
            return table_from_records(data.to_dict(orient="records"))
    except ImportError:  # pragma: no cover
        pass
    raise InputError(f"cannot make a chart from a {type(data).__name__}; give a Table, records or a file path")


class _Fields:
    """Field definitions for one table."""

    def __init__(self, table: Table, originals: dict[str, str] | None = None) -> None:
        self.table = table
        self.originals = originals or {}  # renamed column -> the user's name (for titles)

    def title(self, name: str) -> str:
        return axis_title(self.originals.get(name, name))

    def type_of(self, name: str) -> str:
        if name == "count()":
            return "quantitative"
        m = re.search(r":([QNOT])$", name, re.I)
        if m:
            return {"Q": "quantitative", "N": "nominal", "O": "ordinal", "T": "temporal"}[m.group(1).upper()]
        base = base_field(name)
        if base not in self.table:
            raise InputError(f"no column '{base}' in the table (columns: {', '.join(self.table.names)})",
                             file=self.table.source)
        if re.match(r"^\w+\(", name):
            return "quantitative"
        return self.table.column(base).type

    def order(self, name: str) -> list[Any] | None:
        """Categories in the table's order (ordinal: natural order) when that is not ascending."""
        col = self.table.column(base_field(name))
        values = col.distinct()
        try:
            if values == sorted(values):
                return None
        except TypeError:
            pass
        return values

    def define(self, name: str, *, title: Any = "__default__", **extra: Any) -> dict[str, Any]:
        d: dict[str, Any] = {}
        if name == "count()":
            d = {"aggregate": "count", "type": "quantitative", "title": "count"}
        else:
            m = re.match(r"^\s*(\w+)\((.+)\)\s*$", name)
            base = base_field(name)
            d["field"] = escape_field(base)
            if m:
                op = m.group(1)
                if op not in stats.AGGREGATES:
                    raise InputError(f"unknown aggregate '{op}' in '{name}'; "
                                     f"expected one of {', '.join(stats.AGGREGATES)}")
                d["aggregate"] = op
            d["type"] = self.type_of(name)
            if d["type"] in ("nominal", "ordinal") and base in self.table:
                order = self.order(name)
                if order is not None:
                    d["sort"] = order
            if self.title(base) != d["field"]:  # the field name is Vega-Lite's default title
                d["title"] = self.title(base)
        if title != "__default__" and (title != d.get("field") or "aggregate" in d):
            d["title"] = title
        d.update({k: v for k, v in extra.items() if v is not None})
        return d


def _vega_safe_names(table: Table) -> tuple[Table, dict[str, str]]:
    """Rename columns with '.', '[' or ']' (flattened JSON keys such as ``metrics.score``).

    Vega-Lite reads those as nested access; escaped they work in plain encodings but not in
    composite-mark aggregates (errorbar extents), so the inline data gets plain names.
    """
    renamed: dict[str, str] = {}
    names = set(table.names)
    for c in table.names:
        if re.search(r"[.\[\]]", c):
            new = re.sub(r"[.\[\]]+", "_", c).strip("_")
            while new in names:
                new += "_"
            names.add(new)
            renamed[c] = new
    if not renamed:
        return table, renamed
    cols = [replace(c, name=renamed.get(c.name, c.name)) for c in table.columns]
    return Table(cols, source=table.source, sheet=table.sheet, notes=list(table.notes)), renamed


def _legend_place(table: Table, color: str, theme: str, swatch: float = 1.0) -> tuple[str, bool]:
    """(orient, with title): one row on top when it fits over the plot (without its title if need
    be: the categories name themselves), else a column on the right. ``swatch``: symbol widths."""
    ct = chart_theme(theme)
    col = table.column(base_field(color))
    if col.type not in ("nominal", "ordinal"):
        return "right", True
    fs = ct.legend_font_size
    entries = sum(ct.legend_symbol * swatch + ct.legend_gap + text_width(str(v), fs) + ct.legend_col_gap
                  for v in col.distinct()) - ct.legend_col_gap
    room = ct.width - 50
    if text_width(col.name, fs, bold=True) + ct.legend_col_gap + entries <= room:
        return "top", True
    if entries <= room:
        return "top", False
    return "right", True


def _decimals(values: Sequence[float], limit: int = 3) -> int:
    for d in range(limit + 1):
        if all(abs(round(v, d) - v) < 1e-9 * max(1.0, abs(v)) for v in values):
            return d
    return limit


def make_chart(
    data: Any,
    *,
    x: str | None = None,
    y: str | None = None,
    color: str | None = None,
    mark: str | None = None,
    column: str | None = None,
    size: str | None = None,
    shape: str | None = None,
    error: str | None = None,
    xscale: str | None = None,
    yscale: str | None = None,
    stack: bool | str | None = None,
    horizontal: bool | None = None,
    legend: str | None = None,
    id: str = "chart",
    title: str | None = None,
    width: float | None = None,
    height: float | None = None,
    theme: str = "paper",
    validate: bool = True,
):
    """A :class:`~crafter.spec.Chart` component from a table (a Table, records or a file path).

    Field names may carry an aggregate (``mean(accuracy)``, ``count()``) or a type
    (``epoch:O``). Anything left ``None`` is chosen by :func:`crafter.charts.recommend`.
    ``error`` is a column of ± errors or an extent computed from replicate rows
    (``stdev``, ``stderr``, ``ci``, ``iqr``). ``xscale``/``yscale``: linear, log, symlog.
    """
    table = as_table(data)
    if table.n_rows == 0:
        raise InputError("the table has no rows", file=table.source)
    if table.n_rows > MAX_INLINE_ROWS:
        raise InputError(f"{table.n_rows:,} rows is too many to inline in a chart (limit {MAX_INLINE_ROWS:,}); "
                         "aggregate the table first", file=table.source)
    if mark is not None and mark not in MARKS:
        raise InputError(f"unknown mark '{mark}'; expected one of {', '.join(MARKS)}")
    for s in (xscale, yscale):
        if s is not None and s not in ("linear", "log", "symlog"):
            raise InputError(f"unknown scale '{s}'; expected linear, log or symlog")
    choice = recommend(table, x=x, y=y, color=color, mark=mark, column=column)
    for attr, value in (("size", size), ("shape", shape), ("error", error), ("xscale", xscale), ("yscale", yscale)):
        if value is not None:
            setattr(choice, attr, value)
    if horizontal is not None:
        choice.horizontal = horizontal
    if stack is not None:
        choice.stack = bool(stack) if not isinstance(stack, str) else stack  # type: ignore[assignment]
    table, renamed = _vega_safe_names(table)
    for attr in ("x", "y", "color", "column", "size", "shape", "error"):
        value = getattr(choice, attr)
        if value:
            base = base_field(value)
            if base in renamed:
                setattr(choice, attr, value.replace(base, renamed[base]))
    spec = build_spec(table, choice, theme=theme, legend=legend, originals={v: k for k, v in renamed.items()})
    chart = Chart(id=id, kind="chart", spec=spec, title=title, width=width, height=height)
    if validate:
        validate_vegalite(spec, chart=id)
    return chart


def build_spec(table: Table, ch: ChartChoice, *, theme: str = "paper", legend: str | None = None,
               originals: dict[str, str] | None = None) -> dict[str, Any]:
    """The Vega-Lite spec for a :class:`ChartChoice` over ``table`` (data inlined)."""
    F = _Fields(table, originals)
    for name in (ch.x, ch.y, ch.color, ch.column, ch.size, ch.shape):
        if name:
            F.type_of(name)  # unknown columns fail here, naming the table's columns
    if ch.error and ch.error not in stats.ERROR_EXTENTS and ch.error not in table:
        raise InputError(f"error must be a column or one of {', '.join(stats.ERROR_EXTENTS)}; "
                         f"no column '{ch.error}' (columns: {', '.join(table.names)})", file=table.source)
    builder = {
        "bar": _bar, "line": _line, "area": _line, "point": _point, "circle": _point, "square": _point,
        "rect": _heatmap, "boxplot": _boxplot,
    }.get(ch.mark)
    if builder is None:
        builder = _generic
    view = builder(F, ch, theme, legend)
    data = {"values": table.to_records()}
    if ch.column:
        n = table.column(base_field(ch.column)).cardinality
        facet = F.define(ch.column, title=None)
        facet.pop("aggregate", None)
        return {"data": data, "facet": facet, "columns": n if n <= 4 else 3, "spec": view}
    return {"data": data, **view}


def _color(F: _Fields, ch: ChartChoice, theme: str, legend: str | None, **extra: Any) -> dict[str, Any]:
    swatch = 2.0 if ch.mark in ("line", "errorband") else 1.0
    orient, titled = (legend, True) if legend else _legend_place(F.table, ch.color, theme, swatch)  # type: ignore[arg-type]
    d = F.define(ch.color, **extra)  # type: ignore[arg-type]
    if orient == "none":
        d["legend"] = None
    else:
        d["legend"] = {"orient": orient}
        if not titled:
            d["legend"]["title"] = None
        elif F.title(base_field(ch.color)) != d.get("field"):  # type: ignore[arg-type]
            d["legend"]["title"] = F.title(base_field(ch.color))  # type: ignore[arg-type]
    return d


def _bar(F: _Fields, ch: ChartChoice, theme: str, legend: str | None) -> dict[str, Any]:
    if ch.y == "count()" and F.type_of(ch.x) == "quantitative":  # histogram
        return {"mark": "bar", "encoding": {
            "x": F.define(ch.x, bin={"maxbins": 20}),
            "y": {"aggregate": "count", "type": "quantitative", "title": "count"},
        }}
    cat_axis, val_axis = ("y", "x") if ch.horizontal else ("x", "y")
    off = "yOffset" if ch.horizontal else "xOffset"
    cat = F.define(ch.x, axis={"title": None} if ch.color and ch.color == ch.x else None)
    val_name = ch.y if ch.y == "count()" or "(" in (ch.y or "") or not ch.aggregate else f"{ch.aggregate}({ch.y})"
    val = F.define(val_name, title=F.title(base_field(ch.y)))  # type: ignore[arg-type]
    enc: dict[str, Any] = {cat_axis: cat, val_axis: val}
    grouped = ch.color is not None and ch.color != ch.x and not ch.stack
    if ch.color:
        enc["color"] = _color(F, ch, theme, legend if ch.color != ch.x else legend or "none")
        if grouped:
            enc[off] = {k: v for k, v in F.define(ch.color).items() if k in ("field", "type", "sort")}
        if ch.stack == "normalize":
            val["stack"] = "normalize"
    bar = {"mark": "bar", "encoding": enc}
    if not ch.error or ch.y == "count()":
        return bar
    err_enc: dict[str, Any] = {cat_axis: {k: v for k, v in cat.items() if k != "axis"}}
    if grouped:
        err_enc[off] = enc[off]
    raw = F.define(base_field(ch.y), title=F.title(base_field(ch.y)))  # type: ignore[arg-type]
    if ch.error in stats.ERROR_EXTENTS:
        err_mark = {"type": "errorbar", "extent": ch.error, "ticks": True, "color": ERROR_COLOR}
        err_enc[val_axis] = raw
    else:
        err_mark = {"type": "errorbar", "ticks": True, "color": ERROR_COLOR}
        err_enc[val_axis] = raw
        err_enc[f"{val_axis}Error"] = {"field": escape_field(ch.error)}
    if ch.stack:  # error bars on stacked bars would not sit on their segments
        return bar
    return {"layer": [bar, {"mark": err_mark, "encoding": err_enc}]}


def _line(F: _Fields, ch: ChartChoice, theme: str, legend: str | None) -> dict[str, Any]:
    xt = F.type_of(ch.x)  # type: ignore[arg-type]
    x = F.define(ch.x)  # type: ignore[arg-type]
    if xt == "quantitative":
        x["scale"] = {"type": ch.xscale} if ch.xscale in ("log", "symlog") else {"zero": False}
        xs = F.table.column(base_field(ch.x)).present if base_field(ch.x) in F.table else []  # type: ignore[arg-type]
        if ch.xscale == "log" and xs and all(v > 0 and math.log2(v).is_integer() for v in xs):
            x["scale"]["base"] = 2  # batch sizes, sequence lengths: 1 2 4 8 ... ticks
    y_name = ch.y if not ch.aggregate or "(" in (ch.y or "") else f"{ch.aggregate}({ch.y})"
    y = F.define(y_name, title=F.title(base_field(ch.y)))  # type: ignore[arg-type]
    if ch.mark == "line":
        y["scale"] = {"type": ch.yscale} if ch.yscale in ("log", "symlog") else {"zero": False}
    elif ch.yscale in ("log", "symlog"):
        y["scale"] = {"type": ch.yscale}
    enc: dict[str, Any] = {"x": x, "y": y}
    if ch.color:
        enc["color"] = _color(F, ch, theme, legend)
    n_x = F.table.column(base_field(ch.x)).cardinality if base_field(ch.x) in F.table else 99  # type: ignore[arg-type]
    mark: dict[str, Any] = {"type": ch.mark}
    if ch.mark == "line" and n_x <= 15:
        mark["point"] = True
    main = {"mark": mark if len(mark) > 1 else ch.mark, "encoding": enc}
    if not ch.error or ch.mark != "line":
        return main
    band_enc: dict[str, Any] = {"x": x}
    if ch.color:
        band_enc["color"] = {**enc["color"], "legend": None}
    raw = F.define(base_field(ch.y), title=F.title(base_field(ch.y)))  # type: ignore[arg-type]
    if "scale" in y:
        raw["scale"] = y["scale"]
    band_enc["y"] = raw
    band_mark: dict[str, Any] = {"type": "errorband"}
    if ch.error in stats.ERROR_EXTENTS:
        band_mark["extent"] = ch.error
        if ch.yscale == "log" and not _band_positive(F.table, ch):
            return main  # mean − sd below zero cannot be drawn on a log axis
    else:
        band_enc["yError"] = {"field": escape_field(ch.error)}
    return {"layer": [{"mark": band_mark, "encoding": band_enc}, main]}


def _band_positive(table: Table, ch: ChartChoice) -> bool:
    keys = [base_field(n) for n in (ch.x, ch.color, ch.column) if n]
    groups: dict[tuple[Any, ...], list[float]] = {}
    ycol = table.column(base_field(ch.y))  # type: ignore[arg-type]
    for i, v in enumerate(ycol.values):
        if v is not None:
            groups.setdefault(tuple(table.column(k).values[i] for k in keys), []).append(v)
    for vals in groups.values():
        _, lo, _ = stats.error_extent(vals, ch.error)  # type: ignore[arg-type]
        if lo <= 0:
            return False
    return True


def _point(F: _Fields, ch: ChartChoice, theme: str, legend: str | None) -> dict[str, Any]:
    enc: dict[str, Any] = {}
    for axis, scale in (("x", ch.xscale), ("y", ch.yscale)):
        d = F.define(getattr(ch, axis))
        if d["type"] == "quantitative":
            d["scale"] = {"type": scale} if scale in ("log", "symlog") else {"zero": False}
        enc[axis] = d
    if ch.color:
        enc["color"] = _color(F, ch, theme, legend)
    if ch.size:
        enc["size"] = F.define(ch.size)
    if ch.shape:
        enc["shape"] = F.define(ch.shape)
        if ch.shape == ch.color:
            enc["shape"]["legend"] = enc["color"].get("legend")
    return {"mark": {"type": "point", "filled": True}, "encoding": enc}


def _heatmap(F: _Fields, ch: ChartChoice, theme: str, legend: str | None) -> dict[str, Any]:
    color_name = ch.color or "count()"
    color = F.define(color_name)
    vals = [v for v in F.table.column(base_field(color_name)).present] if color_name != "count()" else []
    diverging = bool(vals) and min(vals) < 0 < max(vals)
    color["scale"] = {"scheme": "redblue", "domainMid": 0} if diverging else {"scheme": "viridis"}
    color["legend"] = {"title": F.title(base_field(color_name))}
    x, y = F.define(ch.x), F.define(ch.y)  # type: ignore[arg-type]
    rect = {"mark": "rect", "encoding": {"x": x, "y": y, "color": color}}
    n_cells = len(set(zip(F.table.column(base_field(ch.x)).values, F.table.column(base_field(ch.y)).values)))  # type: ignore[arg-type]
    if color_name == "count()" or n_cells > 120:
        return rect
    d = _decimals([float(v) for v in vals], 2)
    text = {"mark": "text", "encoding": {"x": x, "y": y, "text": {"field": color["field"], "type": "quantitative",
                                                                       "format": f".{d}f"}}}
    return {"layer": [rect, text]}


def _boxplot(F: _Fields, ch: ChartChoice, theme: str, legend: str | None) -> dict[str, Any]:
    cat_axis, val_axis = ("y", "x") if ch.horizontal else ("x", "y")
    val = F.define(base_field(ch.y), title=F.title(base_field(ch.y)))  # type: ignore[arg-type]
    val["scale"] = {"zero": False}
    enc = {cat_axis: F.define(ch.x), val_axis: val}  # type: ignore[arg-type]
    if ch.color and ch.color != ch.x:
        enc["color"] = _color(F, ch, theme, legend)
    else:
        enc["color"] = {**F.define(ch.x), "legend": None}  # type: ignore[arg-type]
    return {"mark": {"type": "boxplot", "extent": 1.5}, "encoding": enc}


def _generic(F: _Fields, ch: ChartChoice, theme: str, legend: str | None) -> dict[str, Any]:
    enc: dict[str, Any] = {}
    for axis in ("x", "y"):
        if getattr(ch, axis):
            enc[axis] = F.define(getattr(ch, axis))
    if ch.color:
        enc["color"] = _color(F, ch, theme, legend)
    mark: Any = ch.mark
    if ch.mark in ("errorbar", "errorband") and ch.error in stats.ERROR_EXTENTS:
        mark = {"type": ch.mark, "extent": ch.error}
    elif ch.mark in ("errorbar", "errorband") and ch.error:
        enc["yError"] = {"field": escape_field(ch.error)}
    return {"mark": mark, "encoding": enc}


__all__ = ["MAX_INLINE_ROWS", "as_table", "build_spec", "escape_field", "make_chart"]
