"""Chart plan: table + brief → one chart component whose data is the table itself.

The model's chart task (schema text + brief → a chart statement) chooses the mark and
which columns go on x, y and colour; the chart is then built by
:func:`crafter.charts.make_chart` from the real table, so the numbers come from the data
and never from the model. Fields the model names that the table lacks are dropped
(with a warning); without a model, or when its answer is unusable, the columns and mark
the brief mentions are used, and the charts' deterministic recommender fills the rest.
"""

from __future__ import annotations

import re
from typing import Any

from crafter.agents.backend import call_model, parse_component_lines
from crafter.charts import make_chart
from crafter.data import Column, Table, table_from_records
from crafter.errors import SpecError
from crafter.llm.prompts import chart_prompt
from crafter.spec.model import Chart

CHART_MAX_NEW_TOKENS = 160  # one chart statement without data is about 60 tokens
_MARK_WORDS = [
    (r"\bbox\s*(?:plot|and\s+whiskers)|\bboxplots?\b|\bdistribution", "boxplot"),
    (r"\bscatter|\bdots?\b|\bpoints?\b", "point"),
    (r"\barea\b|\bfilled\b", "area"),
    (r"\bline|\bcurves?\b|\btrend|\bover\s+(?:time|epochs?|steps?)|\bper\s+epoch", "line"),
    (r"\bbars?\b|\bhistogram|\bcolumn\s+chart", "bar"),
    (r"\bheat\s*map", "rect"),
]


def table_from_json(tj: dict[str, Any]):
    """The :class:`crafter.data.Table` stored in the run state by ingest."""
    return Table(columns=[Column(c["name"], c["type"], list(c["values"]), c.get("order")) for c in tj["columns"]],
                 source=tj.get("name"))


def schema_text(tj: dict[str, Any]) -> str:
    """The table schema in the form the chart task was trained on: ``table t.csv: a (nominal), b (quantitative)``."""
    return f"table {tj.get('name') or 'data'}: " + ", ".join(f"{c['name']} ({c['type']})" for c in tj["columns"])


def hints_from_brief(brief: str, tj: dict[str, Any]) -> dict[str, Any]:
    """Mark and fields a brief names: "line chart of accuracy over epoch, coloured by model"."""
    hints: dict[str, Any] = {}
    low = brief.lower()
    for pattern, mark in _MARK_WORDS:
        if re.search(pattern, low):
            hints["mark"] = mark
            break
    cols = {c["name"]: c["type"] for c in tj["columns"]}
    positions = []
    for name in cols:
        spoken = name.lower().replace("_", " ")
        for variant in (name.lower(), spoken):
            m = re.search(rf"(?<![\w]){re.escape(variant)}(?![\w])", low)
            if m:
                positions.append((m.start(), name))
                break
    positions.sort()
    named = [n for _, n in positions]
    colour = re.search(r"(?:colou?red|grouped|split|one\s+colou?r\s+per|hue\s*=?)\s+(?:by\s+)?(\w+)", low)
    if colour:
        for n in named:
            if n.lower() in (colour.group(1), colour.group(1).replace(" ", "_")):
                hints["color"] = n
    quant = [n for n in named if cols[n] == "quantitative" and n != hints.get("color")]
    other = [n for n in named if n not in quant and n != hints.get("color")]
    if quant:
        hints["y"] = quant[0]
    if other:
        hints["x"] = other[0]
    elif len(quant) > 1:
        hints["x"] = quant[1] if hints.get("mark") == "point" else None
    if hints.get("x") is None:
        hints.pop("x", None)
    hints.update(_explicit_fields(low, list(cols)))
    return hints


_CHANNEL_CUES = {
    "x": r"\bx(?:[\s-]*axis)?\s*(?:=|:|is)\s*",
    "y": r"\by(?:[\s-]*axis)?\s*(?:=|:|is)\s*",
    "color": r"\b(?:colou?r|hue)\s*(?:=|:)\s*|\bone\s+colou?r\s+per\s+|\bcolou?red\s+by\s+",
}
_AGAINST = r"\s+(?:against|vs\.?|versus|over|as\s+a\s+function\s+of)\s+"


def _explicit_fields(low: str, names: list[str]) -> dict[str, str]:
    """Fields a brief assigns outright: "x = params (M), y = latency (ms)", "latency against batch size".

    These win over the order in which columns happen to be mentioned.
    """
    def spoken(n: str) -> list[str]:
        return list(dict.fromkeys((n.lower(), n.lower().replace("_", " "))))

    def column_at(pos: int) -> str | None:
        rest = low[pos:]
        found = [n for n in names for v in spoken(n) if rest.startswith(v)]
        return max(found, key=len) if found else None

    out: dict[str, str] = {}
    for channel, cue in _CHANNEL_CUES.items():
        for m in re.finditer(cue, low):
            name = column_at(m.end())
            if name:
                out[channel] = name
                break
    if "x" not in out or "y" not in out:
        for y in names:
            for x in names:
                if x == y:
                    continue
                if any(re.search(re.escape(vy) + _AGAINST + re.escape(vx), low) for vy in spoken(y) for vx in spoken(x)):
                    out.setdefault("y", y)
                    out.setdefault("x", x)
    return out


def make_chart_component(tj: dict[str, Any], *, x: str | None = None, y: str | None = None,
                         color: str | None = None, mark: str | None = None, chart_id: str = "chart",
                         title: str | None = None) -> Chart:
    """Build the chart from the table (inline data) with the charts' builder."""
    return make_chart(table_from_json(tj), x=x, y=y, color=color, mark=mark, id=chart_id, title=title)


def chart_plan(tj: dict[str, Any], brief: str, backend: Any, *, chart_id: str = "chart",
               max_attempts: int = 2) -> dict[str, Any]:
    """``{"component", "source", "warnings", "calls"}`` for the table and brief."""
    warnings: list[str] = []
    calls: list[dict[str, Any]] = []
    cols = {c["name"] for c in tj["columns"]}
    hints = hints_from_brief(brief, tj) if brief else {}
    title = _title_from_brief(brief)
    if backend is not None:
        prompt = chart_prompt(schema_text(tj), brief or "a chart of this table")
        reason = ""
        for attempt in range(1, max_attempts + 1):
            try:
                text, record = call_model(backend, "chart", prompt, max_new_tokens=CHART_MAX_NEW_TOKENS,
                                          temperature=0.0 if attempt == 1 else 0.7)
            except Exception as e:
                reason = f"the model failed ({e})"
                break
            calls.append(record)
            try:
                choice = _read_chart_answer(text)
            except SpecError as e:
                reason = f"the model's chart statement is invalid ({e})"
                if record.get("hit_length_limit"):
                    break
                continue
            dropped = [f for f in (choice.get(k) for k in ("x", "y", "color")) if f and f not in cols]
            for k in ("x", "y", "color"):
                if choice.get(k) not in cols:
                    choice.pop(k, None)
            if dropped:
                warnings.append(f"the model named column(s) {', '.join(dropped)} that the table lacks; "
                                "the chart builder chose instead")
            try:
                chart = make_chart_component(tj, chart_id=chart_id, title=choice.pop("title", None) or title,
                                             **{**hints, **choice})
            except Exception as e:
                reason = f"the model's chart choice cannot be drawn ({e})"
                continue
            return {"component": _dump(chart), "source": "model", "warnings": warnings, "calls": calls}
        warnings.append(f"{reason}; the chart was chosen from the table and brief by rules instead")
    try:
        chart = make_chart_component(tj, chart_id=chart_id, title=title, **hints)
    except Exception:
        if not hints:
            raise
        warnings.append("the chart the brief describes cannot be drawn from this table; the recommender chose one")
        chart = make_chart_component(tj, chart_id=chart_id, title=title)
    return {"component": _dump(chart), "source": "rules", "warnings": warnings, "calls": calls}


def _read_chart_answer(text: str) -> dict[str, Any]:
    """Mark, fields and title from the model's chart statement."""
    charts = [c for c in parse_component_lines(text) if isinstance(c, Chart)]
    if not charts:
        raise SpecError("no chart statement in the model output")
    c = charts[0]
    spec = c.spec if isinstance(c.spec, dict) else {}
    enc = spec.get("encoding", {}) if isinstance(spec.get("encoding"), dict) else {}
    out: dict[str, Any] = {}
    mark = spec.get("mark")
    if isinstance(mark, dict):
        mark = mark.get("type")
    if isinstance(mark, str):
        out["mark"] = mark
    for ch in ("x", "y", "color"):
        e = enc.get(ch)
        if isinstance(e, dict) and isinstance(e.get("field"), str):
            out[ch] = e["field"]
    if c.title:
        out["title"] = c.title
    return out


def _title_from_brief(brief: str | None) -> str | None:
    if not brief:
        return None
    m = re.search(r"\b(?:titled|title:?|caption(?:ed)?:?)\s+[\"“]([^\"”]{1,80})[\"”]", brief, re.I)
    return m.group(1) if m else None


def rebuild_chart(c: Chart) -> Chart:
    """The chart drawn again from its own inline data and encodings (the readback repair)."""
    spec = c.spec if isinstance(c.spec, dict) else {}
    values = (spec.get("data") or {}).get("values")
    if not values:
        raise ValueError(f"chart '{c.id}' has no inline data to rebuild from")
    table = table_from_records(values)
    tj = {"name": c.id, "columns": [{"name": col.name, "type": col.type, "values": col.values, "order": col.order}
                                    for col in table.columns]}
    enc = spec.get("encoding", {})
    fields = {ch: enc[ch].get("field") for ch in ("x", "y", "color") if isinstance(enc.get(ch), dict)}
    mark = spec.get("mark")
    mark = mark.get("type") if isinstance(mark, dict) else mark
    new = make_chart_component(tj, mark=mark, chart_id=c.id, title=c.title, **fields)
    return new.model_copy(update={"box": c.box, "pinned": c.pinned, "width": c.width, "height": c.height})


def _dump(c: Chart) -> dict[str, Any]:
    return c.model_dump(mode="json", exclude_defaults=True) | {"id": c.id, "kind": "chart"}
