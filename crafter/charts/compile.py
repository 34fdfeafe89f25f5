"""Compiling a chart's Vega-Lite spec into marks in data space (no pixels yet).

This is the part of Vega-Lite's semantics Crafter implements itself: resolving layered
and faceted specs, field access, binning, aggregation, error-bar / error-band / box-plot
statistics, stacking, series and sort orders. The output, a :class:`ChartPlan`, is what
the renderer turns into geometry and what the fidelity check compares the geometry with.

Supported (anything else is a :class:`RenderError` naming the chart and the field):

* views: a single ``mark``+``encoding``; ``layer`` (with shared top-level ``encoding``);
  ``facet``+``spec`` (``field``, or ``row``/``column``; ``columns`` wraps); ``row``/
  ``column``/``facet`` encoding channels.
* marks: bar, line, point, circle, square, area, rect, rule, text, tick, errorbar,
  errorband, boxplot.
* channels: x, y, x2, y2, xOffset, yOffset, color, size, shape, strokeDash, detail,
  text, xError, xError2, yError, yError2, opacity (value only), order (ignored), tooltip
  (ignored); ``field``/``value``/``datum``, ``type``, ``aggregate``, ``bin``, ``sort``,
  ``stack``, ``scale``, ``axis``, ``legend``, ``title``, ``format``.
* ``transform``: ``filter`` with ``{"field", "equal"|"oneOf"|"range"}`` predicates.
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import re
from dataclasses import dataclass
from dataclasses import field as _field
from typing import Any

from crafter.charts import stats
from crafter.charts.format import d3_format, format_number
from crafter.errors import RenderError
from crafter.spec.colors import is_css_color

_MISSING = object()  # "not set", distinct from an explicit null

POSITION = ("x", "y")
SUPPORTED_MARKS = ("bar", "line", "point", "circle", "square", "area", "rect", "rule", "text", "tick",
                   "errorbar", "errorband", "boxplot")
SUPPORTED_CHANNELS = frozenset({
    "x", "y", "x2", "y2", "xOffset", "yOffset", "color", "fill", "stroke", "size", "shape", "strokeDash",
    "detail", "text", "xError", "xError2", "yError", "yError2", "opacity", "fillOpacity", "order", "tooltip",
    "row", "column", "facet", "href", "description",
})
SERIES_CHANNELS = ("color", "strokeDash", "shape", "detail")
STACKABLE = ("bar", "area")


class ChartSpecError(RenderError):
    """A chart spec Crafter cannot draw: names the chart id and the spec path."""

    def __init__(self, message: str, *, chart: str | None = None, path: str | None = None) -> None:
        where = " ".join(x for x in (f"chart '{chart}'" if chart else "", f"at {path}" if path else "") if x)
        super().__init__(f"{where}: {message}" if where else message)
        self.chart = chart
        self.path = path


# ---------------------------------------------------------------------------------------
# Channels
# ---------------------------------------------------------------------------------------


@dataclass
class Channel:
    """One encoding channel, normalised."""

    name: str
    field: str | None = None
    type: str | None = None  # quantitative, nominal, ordinal, temporal
    aggregate: str | None = None
    bin: dict[str, Any] | None = None
    title: Any = _MISSING  # str, None (no title) or _MISSING (default)
    scale: dict[str, Any] = _field(default_factory=dict)
    axis: dict[str, Any] | None = _field(default_factory=dict)  # None: axis hidden
    legend: dict[str, Any] | None = _field(default_factory=dict)  # None: legend hidden
    sort: Any = _MISSING
    stack: Any = _MISSING
    value: Any = _MISSING  # a constant visual value
    datum: Any = _MISSING  # a constant data value
    format: str | None = None

    @property
    def is_field(self) -> bool:
        return self.field is not None or self.aggregate == "count"

    @property
    def key(self) -> str:
        """The name of this channel's value in a mark's datum (Vega-Lite's output field names)."""
        base = unescape_field(self.field) if self.field else ""
        if self.aggregate == "count":
            return "count"
        if self.aggregate:
            return f"{self.aggregate}_{base}"
        if self.bin is not None:
            return f"bin_{base}"
        return base

    @property
    def discrete(self) -> bool:
        return self.type in ("nominal", "ordinal") and self.bin is None

    def default_title(self) -> str:
        base = unescape_field(self.field) if self.field else ""
        if self.aggregate == "count":
            return "Count of Records"
        if self.aggregate:
            names = {"mean": "Mean", "average": "Average", "sum": "Sum", "median": "Median", "min": "Min",
                     "max": "Max", "stdev": "Stdev", "stderr": "Stderr", "variance": "Variance",
                     "q1": "Q1", "q3": "Q3", "distinct": "Distinct of"}
            return f"{names.get(self.aggregate, self.aggregate.title())} of {base}"
        if self.bin is not None:
            return f"{base} (binned)"
        return base

    def title_text(self) -> str | None:
        if self.title is _MISSING:
            return self.default_title() or None
        return None if self.title is None else str(self.title)


def unescape_field(f: str) -> str:
    return f.replace("\\.", ".").replace("\\[", "[").replace("\\]", "]")


def get_field(row: dict[str, Any], f: str) -> Any:
    """Vega-Lite field access: ``a.b`` reads ``row['a']['b']``, ``a\\.b`` the flat key ``'a.b'``."""
    flat = unescape_field(f)
    if flat in row:
        return row[flat]
    parts = [unescape_field(p) for p in re.split(r"(?<!\\)\.", f)]
    cur: Any = row
    for p in parts:
        if not isinstance(cur, dict) or p not in cur:
            return None
        cur = cur[p]
    return cur


def _channel(name: str, d: Any, chart: str | None, path: str) -> Channel:
    if isinstance(d, list):  # tooltip / detail lists: only the first field matters here
        d = d[0] if d else {}
    if not isinstance(d, dict):
        raise ChartSpecError(f"an encoding channel must be an object, found {type(d).__name__}", chart=chart, path=path)
    ch = Channel(name=name)
    ch.field = d.get("field") if isinstance(d.get("field"), str) else None
    if "field" in d and not isinstance(d["field"], str):
        raise ChartSpecError("'field' must be a string (a column name)", chart=chart, path=f"{path}.field")
    ch.type = d.get("type")
    ch.aggregate = d.get("aggregate")
    if ch.aggregate is not None and ch.aggregate not in stats.AGGREGATES:
        raise ChartSpecError(f"unsupported aggregate {ch.aggregate!r}; expected one of {', '.join(stats.AGGREGATES)}",
                             chart=chart, path=f"{path}.aggregate")
    b = d.get("bin")
    if b is True:
        ch.bin = {}
    elif isinstance(b, dict):
        ch.bin = dict(b)
    elif b not in (None, False):
        raise ChartSpecError("'bin' must be true or an object", chart=chart, path=f"{path}.bin")
    if "title" in d:
        ch.title = d["title"] if not isinstance(d["title"], list) else " ".join(map(str, d["title"]))
    sc = d.get("scale", {})
    ch.scale = dict(sc) if isinstance(sc, dict) else {}
    ch.axis = None if "axis" in d and d["axis"] is None else dict(d.get("axis") or {})
    ch.legend = None if "legend" in d and d["legend"] is None else dict(d.get("legend") or {})
    if "sort" in d:
        ch.sort = d["sort"]
    if "stack" in d:
        ch.stack = d["stack"]
    if "value" in d:
        ch.value = d["value"]
        if name == "color" and isinstance(ch.value, str):
            _check_color(ch.value, chart, f"{path}.value")
    if name == "color" and isinstance(ch.scale.get("range"), list):
        for i, c in enumerate(ch.scale["range"]):
            if isinstance(c, str):
                _check_color(c, chart, f"{path}.scale.range[{i}]")
    if "datum" in d:
        ch.datum = d["datum"]
    ch.format = d.get("format") or (ch.axis or {}).get("format")
    if ch.type is None:
        if ch.aggregate is not None or ch.bin is not None:
            ch.type = "quantitative"
        elif ch.field is not None and name not in ("detail", "tooltip", "text", "href", "description"):
            ch.type = None  # inferred from data below
    return ch


def _infer_type(values: list[Any]) -> str:
    present = [v for v in values if v is not None]
    if present and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present):
        return "quantitative"
    if present and all(isinstance(v, str) and _parse_time(v) is not None for v in present):
        return "temporal"
    return "nominal"


_TIME_RE = re.compile(r"^\d{4}-\d{2}(-\d{2})?([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+\-]\d{2}:?\d{2})?)?$")


def _parse_time(v: Any) -> float | None:
    """A temporal value as epoch milliseconds (Vega's representation); UTC when no zone is given."""
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, (_dt.datetime, _dt.date)):
        s = v.isoformat()
    else:
        s = str(v).strip()
    if not _TIME_RE.match(s):
        return None
    if len(s) == 7:
        s += "-01"
    try:
        t = _dt.datetime.fromisoformat(s.replace("Z", "+00:00"))
    except ValueError:
        return None
    if t.tzinfo is None:
        t = t.replace(tzinfo=_dt.timezone.utc)
    return t.timestamp() * 1000.0


# ---------------------------------------------------------------------------------------
# Plans
# ---------------------------------------------------------------------------------------


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
        return _discrete_domain(self, "color")

    def discrete_domain(self, name: str) -> list[Any]:
        """A discrete channel's values in drawing order (x categories, offsets…); [] for none."""
        return _discrete_domain(self, name)


# ---------------------------------------------------------------------------------------
# Compile
# ---------------------------------------------------------------------------------------


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
        fch.type = fch.type or _infer_type([get_field(r, fch.field) for r in rows])
        values = _sorted_discrete([get_field(r, fch.field) for r in rows], fch.sort, fch.type, None, None)
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
            cells_rows.append((_label(v), sub, i // n_cols if along != "row" else i, i % n_cols if along != "row" else 0))

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
                ch.type = _infer_type([get_field(r, ch.field) for r in rows])
            if ch.field is not None and ch.aggregate is None and rows and all(get_field(r, ch.field) is None for r in rows):
                raise ChartSpecError(f"no column '{unescape_field(ch.field)}' in the data "
                                     f"(columns: {', '.join(list(rows[0])[:12])})", chart=chart_id,
                                     path=f"encoding.{name}.field")
    bins = _bin_params(channels, rows)

    cells: list[CellPlan] = []
    for ci, (header, crow, r, c) in enumerate(cells_rows):
        layers = []
        for li, mark, props, enc, lpath, lspec in parsed_layers:
            lrows = _apply_transforms(crow, lspec.get("transform"), chart_id, f"{lpath}transform") if lspec is not inner else crow
            layers.append(_compile_layer(li, mark, props, enc, lrows, chart_id, lpath, bins))
        cells.append(CellPlan(index=ci, layers=layers, header=header, row=r, col=c))

    plan = ChartPlan(
        chart_id=chart_id, title=title if title is not None else spec_title, cells=cells, channels=channels,
        n_rows=n_rows, n_cols=n_cols, facet_field=facet_field, facet_title=facet_title,
        width=width if width is not None else inner.get("width", spec.get("width")),
        height=height if height is not None else inner.get("height", spec.get("height")),
        config=_config(spec, chart_id),
    )
    _resolve_series_order(plan)
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
            raise ChartSpecError("a filter needs 'equal', 'oneOf' or 'range'", chart=chart_id, path=f"{path}[{i}].filter")
    return rows


def _facet_definition(spec: dict[str, Any], chart_id: str) -> tuple[tuple[Channel, int | None, str] | None, dict[str, Any], str]:
    """(facet channel, wrap columns, 'row'|'column'|'wrap') and the inner unit/layer spec."""
    if "facet" in spec:
        inner = spec.get("spec")
        if not isinstance(inner, dict):
            raise ChartSpecError("a facet spec needs 'spec' (the chart drawn in each panel)", chart=chart_id, path="spec")
        f = spec["facet"]
        if isinstance(f, dict) and ("row" in f or "column" in f):
            if "row" in f and "column" in f:
                raise ChartSpecError("faceting by both row and column is not supported; use one field with 'columns'",
                                     chart=chart_id, path="facet")
            along = "row" if "row" in f else "column"
            return (_channel("facet", f[along], chart_id, f"facet.{along}"), None, along), inner, f"facet.{along}"
        return (_channel("facet", f, chart_id, "facet"), spec.get("columns"), "wrap"), inner, "facet"
    enc = spec.get("encoding") or {}
    for name in ("facet", "row", "column"):
        if name in enc:
            inner = {k: v for k, v in spec.items() if k not in ("data",)}
            inner["encoding"] = {k: v for k, v in enc.items() if k not in ("facet", "row", "column")}
            along = {"facet": "wrap", "row": "row", "column": "column"}[name]
            cols = enc[name].get("columns", spec.get("columns")) if isinstance(enc[name], dict) else None
            return (_channel("facet", enc[name], chart_id, f"encoding.{name}"), cols, along), inner, f"encoding.{name}"
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


def _check_color(value: str, chart: str | None, path: str) -> None:
    """A colour written into the SVG: a CSS colour (hex or name), never markup."""
    if not is_css_color(value):
        raise ChartSpecError(f"{value!r} is not a colour (expected #RRGGBB or a CSS colour name)",
                             chart=chart, path=path)


def _mark(spec: dict[str, Any], chart_id: str, path: str) -> tuple[str, dict[str, Any]]:
    m = spec.get("mark")
    props = dict(m) if isinstance(m, dict) else {"type": m}
    mark = props.get("type")
    if mark not in SUPPORTED_MARKS:
        raise ChartSpecError(f"unsupported mark {mark!r}; Crafter draws {', '.join(SUPPORTED_MARKS)}",
                             chart=chart_id, path=f"{path}mark")
    for key in ("color", "fill", "stroke"):
        if isinstance(props.get(key), str):
            _check_color(props[key], chart_id, f"{path}mark.{key}")
    return mark, props


def _merged_encoding(parent: dict[str, Any], layer: dict[str, Any], chart_id: str, path: str) -> dict[str, Channel]:
    enc: dict[str, Any] = {}
    if layer is not parent:
        enc.update(parent.get("encoding") or {})
    enc.update(layer.get("encoding") or {})
    out = {}
    for name, d in enc.items():
        if name not in SUPPORTED_CHANNELS:
            raise ChartSpecError(f"unsupported encoding channel '{name}'", chart=chart_id, path=f"{path}encoding.{name}")
        if name in ("tooltip", "order", "href", "description"):
            continue
        if name == "fill" or name == "stroke":
            name = "color"
        if name in ("row", "column", "facet"):
            continue
        out[name] = _channel(name, d, chart_id, f"{path}encoding.{name}")
    return out


# ---------------------------------------------------------------------------------------
# One layer
# ---------------------------------------------------------------------------------------


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


def _label(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def _num(v: Any, ch: Channel, chart_id: str, path: str) -> Any:
    """A value for a continuous channel: numbers as float, temporal as epoch ms."""
    if v is None:
        return None
    if ch.type == "temporal":
        t = _parse_time(v)
        if t is None:
            raise ChartSpecError(f"'{v}' in '{ch.key}' is not a date", chart=chart_id, path=path)
        return t
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        if isinstance(v, str):
            try:
                return float(v)
            except ValueError:
                pass
        raise ChartSpecError(f"'{v}' in '{ch.key}' is not a number (the channel is {ch.type})", chart=chart_id, path=path)
    return float(v)


def _bin_params(channels: dict[str, list[Channel]], rows: list[dict[str, Any]]) -> dict[str, list[float]]:
    """Bin edges per binned field, from all rows (so facets share bins). Nice steps via matplotlib."""
    from matplotlib.ticker import MaxNLocator

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


def _compile_layer(index: int, mark: str, props: dict[str, Any], enc: dict[str, Channel],
                   rows: list[dict[str, Any]], chart_id: str, path: str, bins: dict[str, list[float]]) -> LayerPlan:
    orient = _orient(mark, props, enc)
    layer = LayerPlan(index=index, mark=mark, props=props, channels=enc, orient=orient, items=[])
    if mark in ("errorbar", "errorband"):
        _compile_error(layer, rows, chart_id, path)
    elif mark == "boxplot":
        _compile_boxplot(layer, rows, chart_id, path)
    else:
        _compile_plain(layer, rows, chart_id, path, bins)
    for i, it in enumerate(layer.items):
        it.index = i
    return layer


def _compile_plain(layer: LayerPlan, rows: list[dict[str, Any]], chart_id: str, path: str,
                   bins: dict[str, list[float]]) -> None:
    enc = layer.channels
    mark = layer.mark
    for name in ("x", "y"):
        if name not in enc and mark in ("bar", "line", "area", "point", "circle", "square", "rect", "tick") \
                and not (mark in ("bar", "tick", "rect") and any(c in enc for c in POSITION)):
            raise ChartSpecError(f"a {mark} chart needs an '{name}' encoding", chart=chart_id, path=f"{path}encoding.{name}")
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
                    vals = [None if v is None else _num(v, Channel(n, type="quantitative"), chart_id, path) for v in vals]
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
                if ch.datum is not _MISSING and name in ("x", "y", "x2", "y2"):
                    setattr(it, name, ch.datum if ch.discrete or isinstance(ch.datum, str) and ch.type != "temporal"
                            else _num(ch.datum, ch, chart_id, path))
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
            _assign(it, name, v, ch, chart_id, f"{path}encoding.{name}")
        items.append(it)
    layer.items = [it for it in items if _complete(it, layer)]
    # 4. series order, stacking
    layer.fields = _readback_fields(layer)
    if mark in STACKABLE:
        _stack(layer, chart_id, path)
    if mark in ("line", "area"):
        xkey = "x" if layer.orient == "vertical" else "y"
        layer.items.sort(key=lambda it: (_sort_key(it.series), _sort_key(getattr(it, xkey))))


def _assign(it: Item, name: str, v: Any, ch: Channel, chart_id: str, path: str) -> None:
    if name in ("x", "y", "x2", "y2"):
        if ch.discrete:  # categories keep their value (numbers sort as numbers); scales key them by label
            setattr(it, name, v)
        else:
            setattr(it, name, _num(v, ch, chart_id, path))
    elif name == "color":
        it.color = _num(v, ch, chart_id, path) if ch.type in ("quantitative", "temporal") else v
    elif name == "size":
        it.size = _num(v, ch, chart_id, path) if ch.type in ("quantitative", "temporal") else v
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
    return _label(v)


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


def _sort_key(v: Any) -> tuple[int, Any]:
    if v is None:
        return (2, "")
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return (0, v)
    if isinstance(v, tuple):
        return (1, tuple(_sort_key(x) for x in v))
    return (1, str(v))


def _stack(layer: LayerPlan, chart_id: str, path: str) -> None:
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
    if stack is _MISSING:
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


def _group_rows(rows: list[dict[str, Any]], enc: dict[str, Channel], names: list[str]) -> dict[tuple[Any, ...], list[dict[str, Any]]]:
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for r in rows:
        key = tuple(get_field(r, enc[n].field) for n in names)
        groups.setdefault(key, []).append(r)
    return groups


def _compile_error(layer: LayerPlan, rows: list[dict[str, Any]], chart_id: str, path: str) -> None:
    """Error bars/bands: from y+y2, from y±yError, or aggregated from raw rows (extent)."""
    enc = layer.channels
    v, c = layer.value_axis, layer.category_axis
    vch = enc.get(v)
    if vch is None or vch.field is None:
        raise ChartSpecError(f"an {layer.mark} needs a quantitative '{v}' field", chart=chart_id, path=f"{path}encoding.{v}")
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
            center = _num(center, vch, chart_id, path)
            if v2 is not None:
                lo, hi = center, _num(get_field(r, v2.field), v2, chart_id, path)
                datum = {base: center, unescape_field(v2.field): hi}
                keys = (base, unescape_field(v2.field))
            else:
                e1 = _num(get_field(r, err1.field), err1, chart_id, path) if err1.field else 0.0
                if err2 is not None and err2.field:
                    e2 = _num(get_field(r, err2.field), err2, chart_id, path)
                    lo, hi = center + min(e1, e2), center + max(e1, e2)
                else:
                    lo, hi = center - abs(e1), center + abs(e1)
                datum = {base: center, f"lower_{base}": lo, f"upper_{base}": hi}
                keys = (f"lower_{base}", f"upper_{base}")
            it = Item(index=0, datum=datum, stats={"center": center})
            for n in group_names:
                val = get_field(r, enc[n].field)
                datum[enc[n].key] = val
                _assign(it, n, val, enc[n], chart_id, path)
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
            vals = [_num(get_field(r, vch.field), vch, chart_id, path) for r in members if get_field(r, vch.field) is not None]
            if not vals:
                continue
            center, lo, hi = stats.error_extent(vals, extent)
            datum = {f"{center_name}_{base}": center, f"lower_{base}": lo, f"upper_{base}": hi, "count": len(vals)}
            it = Item(index=0, datum=datum, stats={"center": center})
            for n, val in zip(group_names, key):
                datum[enc[n].key] = val
                _assign(it, n, val, enc[n], chart_id, path)
            setattr(it, v, lo)
            setattr(it, f"{v}2", hi)
            items.append(it)
        layer.fields = {v: f"lower_{base}", f"{v}2": f"upper_{base}"}
    if c in enc and enc[c].field is not None and c in group_names:
        layer.fields[c] = enc[c].key
    if layer.mark == "errorband":
        items.sort(key=lambda it: (_sort_key(it.series), _sort_key(getattr(it, c))))
    layer.items = items


def _compile_boxplot(layer: LayerPlan, rows: list[dict[str, Any]], chart_id: str, path: str) -> None:
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
        vals = [_num(get_field(r, vch.field), vch, chart_id, path) for r in members if get_field(r, vch.field) is not None]
        if not vals:
            continue
        st = stats.box_stats(vals, extent)
        datum = {f"{k}_{base}": st[k] for k in ("lower", "q1", "median", "q3", "upper")}
        datum["outliers"] = st["outliers"]
        it = Item(index=0, datum=datum, stats=st)
        for n, val in zip(group_names, key):
            datum[enc[n].key] = val
            _assign(it, n, val, enc[n], chart_id, path)
        lo = min([st["lower"]] + st["outliers"])
        hi = max([st["upper"]] + st["outliers"])
        setattr(it, v, lo)
        setattr(it, f"{v}2", hi)
        items.append(it)
    layer.items = items
    layer.fields = {k: f"{k}_{base}" for k in ("lower", "q1", "median", "q3", "upper")}
    if c in enc and enc[c].field is not None:
        layer.fields[c] = enc[c].key


# ---------------------------------------------------------------------------------------
# Orders
# ---------------------------------------------------------------------------------------


def _sorted_discrete(values: list[Any], sort: Any, type_: str | None, plan: ChartPlan | None, name: str | None) -> list[Any]:
    """Vega-Lite's sort for a discrete domain: ascending by default; null keeps data order."""
    seen: dict[Any, None] = {}
    for v in values:
        if v is not None:
            seen.setdefault(v, None)
    distinct = list(seen)
    if sort is None:
        return distinct
    if isinstance(sort, list):
        listed = [v for v in sort if v in seen or _label(v) in {_label(x) for x in distinct}]
        by_label = {_label(v): v for v in distinct}
        ordered = [by_label.get(_label(v), v) for v in listed]
        rest = [v for v in distinct if _label(v) not in {_label(x) for x in ordered}]
        return ordered + rest
    if sort is _MISSING or sort in ("ascending", "descending"):
        out = sorted(distinct, key=_sort_key)
        return out[::-1] if sort == "descending" else out
    if isinstance(sort, dict) and "field" not in sort and "encoding" not in sort and "order" in sort:
        out = sorted(distinct, key=_sort_key)
        return out[::-1] if sort["order"] == "descending" else out
    if plan is not None and name is not None and (isinstance(sort, str) or isinstance(sort, dict)):
        return _sort_by_other(plan, name, distinct, sort)
    return sorted(distinct, key=_sort_key)


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


def _discrete_domain(plan: ChartPlan, name: str) -> list[Any]:
    chans = plan.channels.get(name) or []
    ch = next((c for c in chans if c.field is not None), None)
    if ch is None:
        return []
    if ch.scale.get("domain") and isinstance(ch.scale["domain"], list) and ch.discrete:
        return list(ch.scale["domain"])
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
    sort = next((c.sort for c in chans if c.sort is not _MISSING), _MISSING)
    return _sorted_discrete(values, sort, ch.type, plan, name)


def _resolve_series_order(plan: ChartPlan) -> None:
    """Stack the stacked layers, in the colour domain's order (which may sort by other channels)."""
    color = plan.channel("color")
    dom = plan.color_domain() if color is not None and color.discrete else []
    rank = {_label(v): i for i, v in enumerate(dom)}
    for layer in plan.layers:
        if layer.stacked:
            vname = layer.value_axis
            vkey = layer.channels[vname].key
            cname = layer.category_axis
            groups: dict[tuple[Any, ...], list[Item]] = {}
            for it in layer.items:
                groups.setdefault((_sort_key(getattr(it, cname)), _sort_key(getattr(it, f"{cname}2")),
                                   _sort_key(it.offset)), []).append(it)
            mode = layer.props["_stack"]
            for members in groups.values():
                members.sort(key=lambda it: rank.get(_label(it.color), 0) if dom else _sort_key(it.series))
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


def datum_json(datum: Any) -> str:
    """A datum as compact JSON for ``data-crafter-datum`` (floats at full precision)."""
    return json.dumps(datum, ensure_ascii=False, separators=(",", ":"), default=str, allow_nan=False)
