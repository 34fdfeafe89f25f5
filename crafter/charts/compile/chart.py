"""Compiling a chart: a Vega-Lite spec with inline data → a :class:`ChartPlan` (no pixels yet).

The spec's data and ``filter`` transforms, its facets (one cell per value) and layers (nested
layers flattened, encodings inherited), each layer's mark and orientation; the layers
themselves are compiled by :mod:`~crafter.charts.compile.marks` and
:mod:`~crafter.charts.compile.composite`.
"""

from __future__ import annotations

import math
from typing import Any

from crafter.charts.compile.composite import compile_boxplot, compile_error_mark
from crafter.charts.compile.encoding import (
    SUPPORTED_CHANNELS,
    Channel,
    check_color,
    get_field,
    infer_type,
    parse_channel,
    unescape_field,
    value_label,
)
from crafter.charts.compile.marks import bin_edges, compile_plain
from crafter.charts.compile.plan import CellPlan, ChartPlan, LayerPlan, sorted_discrete
from crafter.charts.compile.stacking import resolve_series_order
from crafter.charts.errors import ChartSpecError

SUPPORTED_MARKS = ("bar", "line", "point", "circle", "square", "area", "rect", "rule", "text", "tick",
                   "errorbar", "errorband", "boxplot", "arc")


def compile_chart(spec: dict[str, Any], *, chart_id: str = "chart", title: str | None = None,
                  width: float | None = None, height: float | None = None) -> ChartPlan:
    """Turn a Vega-Lite spec with inline data into a :class:`ChartPlan`."""
    if not isinstance(spec, dict):
        raise ChartSpecError("the chart spec must be a JSON object", chart=chart_id)
    rows = _data_rows(spec, chart_id)
    rows = _apply_transforms(rows, spec.get("transform"), chart_id, "transform")
    facet_def, inner, facet_path = _facet_definition(spec, chart_id)
    spec_title = spec.get("title")
    if isinstance(spec_title, dict):
        spec_title = spec_title.get("text")
    if isinstance(spec_title, list):
        spec_title = " ".join(map(str, spec_title))
    layer_specs = _layer_specs(inner, chart_id, "" if facet_def is None else "spec.")
    if inner is not spec:
        rows = _apply_transforms(rows, inner.get("transform"), chart_id, "spec.transform")

    # facets: one cell per value of the facet field(s)
    cells_rows: list[tuple[str | None, list[dict[str, Any]], int, int]]
    n_rows = n_cols = 1
    facet_field = facet_title = None
    if facet_def is None:
        cells_rows = [(None, rows, 0, 0)]
    else:
        fch, wrap_cols, along = facet_def
        facet_field = fch.key
        facet_title = fch.title_text()
        if fch.field is None:
            raise ChartSpecError("a facet needs a 'field'", chart=chart_id, path=facet_path)
        if not any(get_field(r, fch.field) is not None for r in rows):
            raise ChartSpecError(f"no column '{unescape_field(fch.field)}' in the data", chart=chart_id,
                                 path=f"{facet_path}.field")
        fch.type = fch.type or infer_type([get_field(r, fch.field) for r in rows])
        values = sorted_discrete([get_field(r, fch.field) for r in rows], fch.sort, fch.type, None, None)
        n = len(values)
        if along == "row":
            n_rows, n_cols = n, 1
        elif along == "column":
            n_rows, n_cols = 1, n
        else:
            n_cols = min(n, wrap_cols) if wrap_cols else n
            n_rows = math.ceil(n / n_cols)
        cells_rows = []
        for i, v in enumerate(values):
            sub = [r for r in rows if get_field(r, fch.field) == v]
            cells_rows.append((value_label(v), sub, i // n_cols if along != "row" else i,
                               i % n_cols if along != "row" else 0))

    channels: dict[str, list[Channel]] = {}
    parsed_layers = []
    for li, (lspec, lpath) in enumerate(layer_specs):
        mark, props = _mark(lspec, chart_id, lpath)
        enc = _merged_encoding(inner, lspec, chart_id, lpath)
        for name, ch in enc.items():
            channels.setdefault(name, []).append(ch)
        parsed_layers.append((li, mark, props, enc, lpath, lspec))
    # channel types from all data (shared across cells)
    for name, chans in channels.items():
        for ch in chans:
            if ch.type is None and ch.field is not None:
                ch.type = infer_type([get_field(r, ch.field) for r in rows])
            if ch.field is not None and ch.aggregate is None and rows \
                    and all(get_field(r, ch.field) is None for r in rows):
                raise ChartSpecError(f"no column '{unescape_field(ch.field)}' in the data "
                                     f"(columns: {', '.join(list(rows[0])[:12])})", chart=chart_id,
                                     path=f"encoding.{name}.field")
    bins = bin_edges(channels, rows)

    cells: list[CellPlan] = []
    for ci, (header, crow, r, c) in enumerate(cells_rows):
        layers = []
        for li, mark, props, enc, lpath, lspec in parsed_layers:
            lrows = _apply_transforms(crow, lspec.get("transform"), chart_id, f"{lpath}transform") \
                if lspec is not inner else crow
            layers.append(_compile_layer(li, mark, props, enc, lrows, chart_id, lpath, bins))
        cells.append(CellPlan(index=ci, layers=layers, header=header, row=r, col=c))

    plan = ChartPlan(
        chart_id=chart_id, title=title if title is not None else spec_title, cells=cells, channels=channels,
        n_rows=n_rows, n_cols=n_cols, facet_field=facet_field, facet_title=facet_title,
        width=width if width is not None else inner.get("width", spec.get("width")),
        height=height if height is not None else inner.get("height", spec.get("height")),
        config=_config(spec, chart_id),
    )
    resolve_series_order(plan)
    return plan


def _config(spec: dict[str, Any], chart_id: str) -> dict[str, Any]:
    """The spec's Vega-Lite ``config``: an object of objects (axis, title, legend, view…)."""
    config = spec.get("config")
    if config is None:
        return {}
    if not isinstance(config, dict) or not all(isinstance(v, (dict, str, int, float, bool)) for v in config.values()):
        raise ChartSpecError("'config' must be an object (e.g. {\"axis\": {\"labelFontSize\": 10}})",
                             chart=chart_id, path="config")
    return config


def _data_rows(spec: dict[str, Any], chart_id: str) -> list[dict[str, Any]]:
    data = spec.get("data")
    if data is None and isinstance(spec.get("spec"), dict):
        data = spec["spec"].get("data")
    if data is None:
        raise ChartSpecError("the spec has no data; put the rows in data.values", chart=chart_id, path="data")
    if not isinstance(data, dict):
        raise ChartSpecError("data must be an object with 'values'", chart=chart_id, path="data")
    if "url" in data and "values" not in data:
        raise ChartSpecError(
            f"data.url '{data['url']}' was not resolved to rows; load the figure with crafter.spec.load_figure "
            "(or crafter.charts.resolve_data_urls) so the table next to it is read", chart=chart_id, path="data.url")
    values = data.get("values")
    if not isinstance(values, list):
        raise ChartSpecError("data.values must be a list of records", chart=chart_id, path="data.values")
    rows = []
    for i, r in enumerate(values):
        if isinstance(r, dict):
            rows.append(r)
        else:  # Vega-Lite wraps bare values as {"data": v}
            rows.append({"data": r})
    return rows


def _apply_transforms(rows: list[dict[str, Any]], transforms: Any, chart_id: str, path: str) -> list[dict[str, Any]]:
    if not transforms:
        return rows
    if not isinstance(transforms, list):
        raise ChartSpecError("transform must be a list", chart=chart_id, path=path)
    for i, t in enumerate(transforms):
        pred = t.get("filter") if isinstance(t, dict) else None
        if not isinstance(pred, dict) or "field" not in pred:
            raise ChartSpecError("only 'filter' transforms with a field predicate (equal, oneOf, range) are supported; "
                                 "put derived columns in the data instead", chart=chart_id, path=f"{path}[{i}]")
        f = pred["field"]
        if "equal" in pred:
            rows = [r for r in rows if get_field(r, f) == pred["equal"]]
        elif "oneOf" in pred:
            rows = [r for r in rows if get_field(r, f) in pred["oneOf"]]
        elif "range" in pred:
            lo, hi = pred["range"]
            rows = [r for r in rows if get_field(r, f) is not None
                    and (lo is None or get_field(r, f) >= lo) and (hi is None or get_field(r, f) <= hi)]
        else:
            raise ChartSpecError("a filter needs 'equal', 'oneOf' or 'range'", chart=chart_id,
                                 path=f"{path}[{i}].filter")
    return rows


def _facet_definition(spec: dict[str, Any],
                      chart_id: str) -> tuple[tuple[Channel, int | None, str] | None, dict[str, Any], str]:
    """(facet channel, wrap columns, 'row'|'column'|'wrap') and the inner unit/layer spec."""
    if "facet" in spec:
        inner = spec.get("spec")
        if not isinstance(inner, dict):
            raise ChartSpecError("a facet spec needs 'spec' (the chart drawn in each panel)", chart=chart_id,
                                 path="spec")
        f = spec["facet"]
        if isinstance(f, dict) and ("row" in f or "column" in f):
            if "row" in f and "column" in f:
                raise ChartSpecError("faceting by both row and column is not supported; use one field with 'columns'",
                                     chart=chart_id, path="facet")
            along = "row" if "row" in f else "column"
            return (parse_channel("facet", f[along], chart_id, f"facet.{along}"), None, along), inner, f"facet.{along}"
        return (parse_channel("facet", f, chart_id, "facet"), spec.get("columns"), "wrap"), inner, "facet"
    enc = spec.get("encoding") or {}
    for name in ("facet", "row", "column"):
        if name in enc:
            inner = {k: v for k, v in spec.items() if k not in ("data",)}
            inner["encoding"] = {k: v for k, v in enc.items() if k not in ("facet", "row", "column")}
            along = {"facet": "wrap", "row": "row", "column": "column"}[name]
            cols = enc[name].get("columns", spec.get("columns")) if isinstance(enc[name], dict) else None
            facet = parse_channel("facet", enc[name], chart_id, f"encoding.{name}")
            return (facet, cols, along), inner, f"encoding.{name}"
    return None, spec, ""


def _layer_specs(spec: dict[str, Any], chart_id: str, prefix: str) -> list[tuple[dict[str, Any], str]]:
    if "layer" in spec:
        layers = spec["layer"]
        if not isinstance(layers, list) or not layers:
            raise ChartSpecError("'layer' must be a non-empty list of views", chart=chart_id, path=f"{prefix}layer")
        out = []
        for i, l in enumerate(layers):
            if not isinstance(l, dict):
                raise ChartSpecError("each layer must be an object", chart=chart_id, path=f"{prefix}layer[{i}]")
            if "layer" in l:  # nested layers: flatten, inheriting encodings
                for sub, p in _layer_specs(l, chart_id, f"{prefix}layer[{i}]."):
                    merged = dict(sub)
                    merged["encoding"] = {**(l.get("encoding") or {}), **(sub.get("encoding") or {})}
                    out.append((merged, p))
            else:
                out.append((l, f"{prefix}layer[{i}]."))
        return out
    for key in ("hconcat", "vconcat", "concat", "repeat"):
        if key in spec:
            raise ChartSpecError(f"'{key}' is not supported; make one chart component per view and put them in a panel",
                                 chart=chart_id, path=f"{prefix}{key}")
    if "mark" not in spec:
        raise ChartSpecError("the spec has no 'mark' (or 'layer')", chart=chart_id, path=f"{prefix}mark")
    return [(spec, prefix)]


def _mark(spec: dict[str, Any], chart_id: str, path: str) -> tuple[str, dict[str, Any]]:
    m = spec.get("mark")
    props = dict(m) if isinstance(m, dict) else {"type": m}
    mark = props.get("type")
    if mark not in SUPPORTED_MARKS:
        raise ChartSpecError(f"unsupported mark {mark!r}; Crafter draws {', '.join(SUPPORTED_MARKS)}",
                             chart=chart_id, path=f"{path}mark")
    for key in ("color", "fill", "stroke"):
        if isinstance(props.get(key), str):
            check_color(props[key], chart_id, f"{path}mark.{key}")
    return mark, props


def _merged_encoding(parent: dict[str, Any], layer: dict[str, Any], chart_id: str, path: str) -> dict[str, Channel]:
    enc: dict[str, Any] = {}
    if layer is not parent:
        enc.update(parent.get("encoding") or {})
    enc.update(layer.get("encoding") or {})
    out = {}
    for name, d in enc.items():
        if name not in SUPPORTED_CHANNELS:
            raise ChartSpecError(f"unsupported encoding channel '{name}'", chart=chart_id,
                                 path=f"{path}encoding.{name}")
        if name in ("tooltip", "order", "href", "description"):
            continue
        if name == "fill" or name == "stroke":
            name = "color"
        if name in ("row", "column", "facet"):
            continue
        if name == "theta":  # a pie's angle: its values stacked as a bar's are, drawn round (no axis)
            name, d = "y", {**d, "axis": None} if isinstance(d, dict) else d
        out[name] = parse_channel(name, d, chart_id, f"{path}encoding.{name}")
    return out


def _orient(mark: str, props: dict[str, Any], enc: dict[str, Channel]) -> str:
    if props.get("orient") in ("vertical", "horizontal"):
        return props["orient"]
    x, y = enc.get("x"), enc.get("y")
    x_disc = x is not None and (x.discrete or x.type == "temporal" and mark in ("boxplot", "errorbar"))
    y_disc = y is not None and (y.discrete or y.type == "temporal" and mark in ("boxplot", "errorbar"))
    if mark in ("bar", "area", "errorbar", "errorband", "boxplot", "line", "tick"):
        if y_disc and not x_disc:
            return "horizontal"
        if y is None and x is not None:
            return "horizontal"
        if x is not None and y is not None and x.aggregate and not y.aggregate and mark != "line":
            return "horizontal"
    return "vertical"


def _compile_layer(index: int, mark: str, props: dict[str, Any], enc: dict[str, Channel],
                   rows: list[dict[str, Any]], chart_id: str, path: str, bins: dict[str, list[float]]) -> LayerPlan:
    orient = _orient(mark, props, enc)
    layer = LayerPlan(index=index, mark=mark, props=props, channels=enc, orient=orient, items=[])
    if mark in ("errorbar", "errorband"):
        compile_error_mark(layer, rows, chart_id, path)
    elif mark == "boxplot":
        compile_boxplot(layer, rows, chart_id, path)
    else:
        compile_plain(layer, rows, chart_id, path, bins)
    for i, it in enumerate(layer.items):
        it.index = i
    return layer


def plan_for(chart: Any) -> ChartPlan:
    """Compile a :class:`~crafter.spec.Chart` (its spec, title and size)."""
    return compile_chart(chart.spec, chart_id=chart.id, title=chart.title, width=chart.width, height=chart.height)
