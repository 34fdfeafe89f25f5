"""The DSL's readable chart statement: ``key=value`` attributes ↔ a Vega-Lite spec.

```
acc  chart "Accuracy by model" mark=bar x=model y=accuracy color=dataset xOffset=dataset
     data={"model":["ViT","ResNet"],"dataset":["C10","C10"],"accuracy":[98.1,96.3]}
loss chart "Training loss" mark=line x=step y=train_loss color=model yscale=log data=loss.tsv
abl  chart mark=bar x=variant y=accuracy error=accuracy_std data=ablation.csv
```

Keys (all optional but ``mark`` and ``data``):

* ``mark`` — bar, line, point, area, rect, boxplot, errorbar, errorband, text, tick, rule.
* ``x y x2 y2 color size shape xOffset yOffset text detail strokeDash`` — a field, with an
  optional type (``step:Q``, ``size:O``; Q N O T) or aggregate (``mean(accuracy)``,
  ``count()``). Without a type, the renderer infers it from the data. Any channel may
  instead be a Vega-Lite channel object (``x={"field": "model", "sort": null}``), and
  ``mark`` a mark object (``mark={"type": "point", "filled": true}``).
* ``xscale yscale`` — linear, log, symlog. ``stack`` — zero, normalize, none.
* ``column`` (+ ``columns``) — one panel per value (facets).
* ``error`` — a column of ± errors (error bars, or a band for lines) or an extent computed
  over rows: stdev, stderr, ci, iqr.
* ``data`` — inline columns ``{"col": [...], ...}`` (token-cheap: names once), a Vega-Lite
  data object ``{"values": [...]}``, or a table file next to the figure (``results.csv``,
  ``runs.xlsx#sheet``), read at load time (see :mod:`crafter.charts.data_refs`).

:func:`shorthand_from_spec` gives the attributes only when :func:`spec_from_shorthand`
rebuilds exactly the same spec, so printing with the shorthand is lossless; any other
spec prints as ``spec={...}``.
"""

from __future__ import annotations

import re
from typing import Any

# Vega-Lite's aggregate ops that Crafter computes (crafter.charts.stats)
AGGREGATES = ("count", "sum", "mean", "average", "median", "min", "max", "stdev", "stderr", "variance",
              "q1", "q3", "distinct")

FIELD_KEYS = ("x", "y", "x2", "y2", "color", "size", "shape", "xOffset", "yOffset", "text", "detail", "strokeDash")
KEYS = ("mark", *FIELD_KEYS, "xscale", "yscale", "stack", "column", "columns", "error", "data")
_TYPES = {"Q": "quantitative", "N": "nominal", "O": "ordinal", "T": "temporal"}
_TYPE_LETTER = {v: k for k, v in _TYPES.items()}
_EXTENTS = ("stdev", "stderr", "ci", "iqr")
_AGG = re.compile(r"^(\w+)\((.*)\)$")
_NOTHING = object()


class ShorthandError(ValueError):
    """A chart attribute that cannot be turned into a spec (the DSL adds line and column)."""


def _field_def(text: Any, key: str) -> dict[str, Any]:
    if isinstance(text, dict):  # a whole channel definition: x={"field": "model", "sort": [...]}
        return dict(text)
    if not isinstance(text, str) or not text:
        raise ShorthandError(f"'{key}' needs a column name, e.g. {key}=accuracy")
    out: dict[str, Any] = {}
    m = re.match(r"^(.*):([QNOT])$", text)
    if m:
        text, out["type"] = m.group(1), _TYPES[m.group(2)]
    agg = _AGG.match(text)
    if agg:
        op, arg = agg.group(1), agg.group(2).strip()
        if op not in AGGREGATES:
            raise ShorthandError(f"unknown aggregate '{op}' in {key}={text}; expected one of {', '.join(AGGREGATES)}")
        if arg:
            out = {"field": arg, "aggregate": op, **out}
        elif op == "count":
            out = {"aggregate": "count", **out}
        else:
            raise ShorthandError(f"{key}={text}: '{op}' needs a column, e.g. {op}(accuracy)")
    else:
        out = {"field": text, **out}
    return out


def _field_text(d: Any) -> str | None:
    """The inverse of :func:`_field_def` (None when the channel has more than field/type/aggregate)."""
    if not isinstance(d, dict) or set(d) - {"field", "type", "aggregate"}:
        return None
    f, agg, typ = d.get("field"), d.get("aggregate"), d.get("type")
    if agg is not None:
        text = f"{agg}({f or ''})"
        if f is None and agg != "count":
            return None
    elif isinstance(f, str):
        text = f
    else:
        return None
    if typ is not None:
        if typ not in _TYPE_LETTER:
            return None
        text += ":" + _TYPE_LETTER[typ]
    return text


def _data(value: Any) -> dict[str, Any]:
    if isinstance(value, str):
        return {"url": value}
    if not isinstance(value, dict):
        raise ShorthandError("data must be columns {\"col\": [...]}, {\"values\": [...]} or a table file name")
    if "url" in value and isinstance(value["url"], str) or (
            "values" in value and isinstance(value["values"], list)
            and all(isinstance(r, dict) for r in value["values"])):
        return value
    lengths = {k: len(v) for k, v in value.items() if isinstance(v, list)}
    if len(lengths) != len(value) or not value:
        bad = next((k for k, v in value.items() if not isinstance(v, list)), None)
        raise ShorthandError(f"data columns must be lists; '{bad}' is not" if bad else "data has no columns")
    if len(set(lengths.values())) > 1:
        detail = ", ".join(f"'{k}' has {n}" for k, n in lengths.items())
        raise ShorthandError(f"data columns differ in length ({detail})")
    names = list(value)
    return {"values": [dict(zip(names, row)) for row in zip(*value.values())]}


def _data_text(data: Any) -> Any:
    if not isinstance(data, dict):
        return None
    if set(data) == {"url"} and isinstance(data["url"], str):
        return data["url"]
    if set(data) == {"values"} and isinstance(data["values"], list) and data["values"] \
            and all(isinstance(r, dict) for r in data["values"]):
        keys = list(data["values"][0])
        if all(list(r) == keys for r in data["values"]) and keys:
            return {k: [r[k] for r in data["values"]] for k in keys}
    return data


def spec_from_shorthand(attrs: dict[str, Any]) -> dict[str, Any]:
    """A Vega-Lite spec from chart attributes (raises :class:`ShorthandError`)."""
    unknown = [k for k in attrs if k not in KEYS]
    if unknown:
        raise ShorthandError(f"unknown chart attribute '{unknown[0]}'; expected one of {', '.join(KEYS)}")
    if "data" not in attrs:
        raise ShorthandError("a chart needs data=: columns {\"col\": [...]} or a table file name")
    mark = attrs.get("mark")
    if not isinstance(mark, (str, dict)):
        raise ShorthandError("a chart needs mark= (bar, line, point, area, rect, boxplot, ...)")
    mark_type = mark.get("type") if isinstance(mark, dict) else mark
    enc: dict[str, Any] = {}
    for key in FIELD_KEYS:
        if key in attrs:
            enc[key] = _field_def(attrs[key], key)
    for axis in ("x", "y"):
        scale = attrs.get(f"{axis}scale")
        if scale is not None:
            if scale not in ("linear", "log", "symlog"):
                raise ShorthandError(f"{axis}scale must be linear, log or symlog, not '{scale}'")
            if axis not in enc:
                raise ShorthandError(f"{axis}scale needs {axis}=")
            enc[axis]["scale"] = {"type": scale}
    if "stack" in attrs:
        value_axis = "x" if "y" in enc and enc["y"].get("type") in ("nominal", "ordinal") else "y"
        stack = attrs["stack"]
        if stack not in ("zero", "normalize", "none"):
            raise ShorthandError(f"stack must be zero, normalize or none, not '{stack}'")
        enc[value_axis]["stack"] = None if stack == "none" else stack
    view: dict[str, Any] = {"mark": mark, "encoding": enc}
    error = attrs.get("error")
    if error is not None:
        view = {"layer": [view, _error_layer(str(mark_type), enc, error)]}
    data = _data(attrs["data"])
    if "column" in attrs:
        facet = _field_def(attrs["column"], "column")
        out: dict[str, Any] = {"data": data, "facet": facet}
        if "columns" in attrs:
            try:
                out["columns"] = int(attrs["columns"])
            except (TypeError, ValueError):
                raise ShorthandError(f"columns must be a whole number, not '{attrs['columns']}'") from None
        out["spec"] = view
        return out
    if "columns" in attrs:
        raise ShorthandError("columns= goes with column= (facets)")
    return {"data": data, **view}


def _error_layer(mark: str, enc: dict[str, Any], error: Any) -> dict[str, Any]:
    if not isinstance(error, str):
        raise ShorthandError("error must be a column name or one of stdev, stderr, ci, iqr")
    horizontal = enc.get("y", {}).get("type") in ("nominal", "ordinal")
    v = "x" if horizontal else "y"
    c = "y" if horizontal else "x"
    if v not in enc or c not in enc:
        raise ShorthandError("error= needs both x= and y=")
    err_enc: dict[str, Any] = {c: enc[c]}
    raw = {k: val for k, val in enc[v].items() if k not in ("aggregate", "stack")}
    err_enc[v] = raw
    for off in ("xOffset", "yOffset", "color"):
        if off in enc and (off != "color" or mark in ("line", "area", "point")):
            err_enc[off] = enc[off]
    kind = "errorband" if mark in ("line", "area") else "errorbar"
    err_mark: dict[str, Any] = {"type": kind}
    if error in _EXTENTS:
        err_mark["extent"] = error
    else:
        err_enc[f"{v}Error"] = {"field": error}
    if kind == "errorbar":
        err_mark["ticks"] = True
    return {"mark": err_mark, "encoding": err_enc}


def shorthand_from_spec(spec: dict[str, Any]) -> dict[str, Any] | None:
    """Chart attributes that rebuild exactly ``spec``, or None (then the DSL prints ``spec={...}``)."""
    try:
        attrs = _guess(spec)
    except (KeyError, TypeError, AttributeError, IndexError):
        return None
    if attrs is None:
        return None
    try:
        return attrs if spec_from_shorthand(attrs) == spec else None
    except ShorthandError:
        return None


def _guess(spec: dict[str, Any]) -> dict[str, Any] | None:
    attrs: dict[str, Any] = {}
    view = spec
    if "facet" in spec:
        col = _field_text(spec["facet"])
        if col is None:
            return None
        attrs["column"] = col
        if "columns" in spec:
            attrs["columns"] = str(spec["columns"])
        view = spec["spec"]
    if "layer" in view:
        if len(view["layer"]) != 2:
            return None
        main, err = view["layer"]
        mark = err.get("mark", {})
        if not isinstance(mark, dict):
            return None
        enc_err = err.get("encoding", {})
        attrs["error"] = mark.get("extent") or next(
            (d.get("field") for k, d in enc_err.items() if k.endswith("Error")), None)
        view = main
    mark = view.get("mark")
    if not isinstance(mark, (str, dict)):
        return None
    attrs["mark"] = mark
    for key, original in view.get("encoding", {}).items():
        if key not in FIELD_KEYS:
            return None
        d = dict(original)
        scale = d.pop("scale", None)
        stack = d.pop("stack", _NOTHING)
        text = _field_text(d)
        simple_scale = scale is None or (set(scale) == {"type"} and key in ("x", "y"))
        if text is None or not simple_scale or (stack is not _NOTHING and key not in ("x", "y")):
            attrs[key] = dict(original)  # the channel verbatim, as a JSON object
            continue
        if scale is not None:
            attrs[f"{key}scale"] = scale["type"]
        if stack is not _NOTHING:
            attrs["stack"] = "none" if stack is None else stack
        attrs[key] = text
    data = _data_text(spec.get("data"))
    if data is None:
        return None
    attrs["data"] = data
    order = {k: i for i, k in enumerate(KEYS)}
    return dict(sorted(attrs.items(), key=lambda kv: order[kv[0]]))


def split_data(spec: dict[str, Any]) -> tuple[dict[str, Any], Any] | None:
    """For ``spec={...} data={...}``: the spec without its data, and the data attribute (columns)."""
    if not isinstance(spec, dict) or "data" not in spec:
        return None
    data = _data_text(spec["data"])
    if data is None:
        return None
    rest = {k: v for k, v in spec.items() if k != "data"}
    return (rest, data) if join_data(rest, data) == spec else None


def join_data(spec: dict[str, Any], data: Any) -> dict[str, Any]:
    """The inverse of :func:`split_data` (raises :class:`ShorthandError` for bad data)."""
    if "data" in spec:
        raise ShorthandError("data is given twice: in spec={...} and as data=")
    return {"data": _data(data), **spec}
