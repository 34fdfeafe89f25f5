"""Encoding channels: each ``encoding`` entry normalised, field access, value types and values.

A :class:`Channel` is one channel (``x``, ``color``...) with Vega-Lite's defaults resolved;
:func:`get_field` reads a field from a row as Vega-Lite does (``a.b`` nested, ``a\\.b`` flat);
:func:`continuous_value` turns a value into a number (dates into epoch milliseconds).
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass
from dataclasses import field as _field
from typing import Any

from crafter.charts import stats
from crafter.charts.errors import ChartSpecError
from crafter.spec.colors import is_css_color

MISSING = object()  # "not set", distinct from an explicit null

SUPPORTED_CHANNELS = frozenset({
    "x", "y", "x2", "y2", "theta", "radius", "xOffset", "yOffset", "color", "fill", "stroke", "size", "shape", "strokeDash",
    "detail", "text", "xError", "xError2", "yError", "yError2", "opacity", "fillOpacity", "order", "tooltip",
    "row", "column", "facet", "href", "description",
})
SERIES_CHANNELS = ("color", "strokeDash", "shape", "detail")


@dataclass
class Channel:
    """One encoding channel, normalised."""

    name: str
    field: str | None = None
    type: str | None = None  # quantitative, nominal, ordinal, temporal
    aggregate: str | None = None
    bin: dict[str, Any] | None = None
    title: Any = MISSING  # str, None (no title) or MISSING (default)
    scale: dict[str, Any] = _field(default_factory=dict)
    axis: dict[str, Any] | None = _field(default_factory=dict)  # None: axis hidden
    legend: dict[str, Any] | None = _field(default_factory=dict)  # None: legend hidden
    sort: Any = MISSING
    stack: Any = MISSING
    value: Any = MISSING  # a constant visual value
    datum: Any = MISSING  # a constant data value
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
        if self.title is MISSING:
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


def parse_channel(name: str, d: Any, chart: str | None, path: str) -> Channel:
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
            check_color(ch.value, chart, f"{path}.value")
    if name == "color" and isinstance(ch.scale.get("range"), list):
        for i, c in enumerate(ch.scale["range"]):
            if isinstance(c, str):
                check_color(c, chart, f"{path}.scale.range[{i}]")
    if "datum" in d:
        ch.datum = d["datum"]
    ch.format = d.get("format") or (ch.axis or {}).get("format")
    if ch.type is None:
        if ch.aggregate is not None or ch.bin is not None:
            ch.type = "quantitative"
        elif ch.field is not None and name not in ("detail", "tooltip", "text", "href", "description"):
            ch.type = None  # inferred from data below
    return ch


def check_color(value: str, chart: str | None, path: str) -> None:
    """A colour written into the SVG: a CSS colour (hex or name), never markup."""
    if not is_css_color(value):
        raise ChartSpecError(f"{value!r} is not a colour (expected #RRGGBB or a CSS colour name)",
                             chart=chart, path=path)


def infer_type(values: list[Any]) -> str:
    present = [v for v in values if v is not None]
    if present and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present):
        return "quantitative"
    if present and all(isinstance(v, str) and parse_time(v) is not None for v in present):
        return "temporal"
    return "nominal"


_TIME_RE = re.compile(r"^\d{4}-\d{2}(-\d{2})?([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+\-]\d{2}:?\d{2})?)?$")


def parse_time(v: Any) -> float | None:
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


def value_label(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def continuous_value(v: Any, ch: Channel, chart_id: str, path: str) -> Any:
    """A value for a continuous channel: numbers as float, temporal as epoch ms."""
    if v is None:
        return None
    if ch.type == "temporal":
        t = parse_time(v)
        if t is None:
            raise ChartSpecError(f"'{v}' in '{ch.key}' is not a date", chart=chart_id, path=path)
        return t
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        if isinstance(v, str):
            try:
                return float(v)
            except ValueError:
                pass
        raise ChartSpecError(f"'{v}' in '{ch.key}' is not a number (the channel is {ch.type})", chart=chart_id,
                             path=path)
    return float(v)
