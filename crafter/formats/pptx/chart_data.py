"""A PowerPoint chart's data, read back: for merging "Edit Data" changes into a chart
component's rows, and for importing a chart drawn in PowerPoint as a Vega-Lite spec.

PowerPoint keeps what "Edit Data" shows twice: in an embedded workbook and as caches in the
chart part (``c:strCache``/``c:numCache``), which it rewrites on every edit (as does
python-pptx's ``replace_data``). The caches are read here; the workbook is never opened.
"""

from __future__ import annotations

import copy
from typing import Any

from crafter.charts.compile.encoding import unescape_field
from crafter.formats.pptx.chart import ChartTable, category_label

C = "http://schemas.openxmlformats.org/drawingml/2006/chart"
A = "http://schemas.openxmlformats.org/drawingml/2006/main"
MAX_POINTS = 100_000
_KINDS = {"barChart": "bar", "bar3DChart": "bar", "lineChart": "line", "line3DChart": "line", "areaChart": "area",
          "area3DChart": "area", "scatterChart": "scatter", "bubbleChart": "scatter", "pieChart": "bar",
          "pie3DChart": "bar", "doughnutChart": "bar", "radarChart": "line", "ofPieChart": "bar"}


def c(tag: str) -> str:
    return f"{{{C}}}{tag}"


def read_chart_part(root: Any) -> ChartTable | None:
    """The first plot of a chart part (``c:chartSpace``) as a :class:`ChartTable`, None if it has none."""
    plot_area = root.find(f"{c('chart')}/{c('plotArea')}")
    if plot_area is None:
        return None
    plot = next((el for el in plot_area if isinstance(el.tag, str) and el.tag.rsplit("}", 1)[-1] in _KINDS), None)
    if plot is None:
        return None
    name = plot.tag.rsplit("}", 1)[-1]
    table = ChartTable(kind=_KINDS[name])
    bar_dir = plot.find(c("barDir"))
    table.horizontal = bar_dir is not None and bar_dir.get("val") == "bar"
    grouping = plot.find(c("grouping"))
    table.grouping = grouping.get("val", "standard") if grouping is not None else (
        "clustered" if table.kind == "bar" else "standard")
    for i, ser in enumerate(plot.iterfind(c("ser"))):
        sname = _text(ser.find(c("tx"))) or f"Series {i + 1}"
        if table.kind == "scatter":
            xs, ys = _values(ser.find(c("xVal"))), _values(ser.find(c("yVal")))
            pts = [(float(x), float(y)) for x, y in zip(xs, ys) if _is_num(x) and _is_num(y)]
            table.points.append((sname, pts))
            continue
        cats = [("" if v is None else str(v)) for v in _values(ser.find(c("cat")))]
        vals = [float(v) if _is_num(v) else None for v in _values(ser.find(c("val")))]
        if not table.categories:
            table.categories = cats or [str(k + 1) for k in range(len(vals))]
        table.series.append((sname, (vals + [None] * len(table.categories))[:len(table.categories)]))
    table.title = _title(root.find(f"{c('chart')}/{c('title')}"))
    for ax in plot_area:
        if ax.tag in (c("catAx"), c("valAx"), c("dateAx")):
            pos = ax.find(c("axPos"))
            horizontal_axis = pos is not None and pos.get("val") in ("b", "t")
            title = _title(ax.find(c("title")))
            if horizontal_axis:
                table.x_title = title
            else:
                table.y_title = title
    if table.horizontal:  # our tables name titles by role: x is the category axis, y the values
        table.x_title, table.y_title = table.y_title, table.x_title
    return table


def _text(el: Any) -> str | None:
    if el is None:
        return None
    v = el.find(f".//{c('v')}")
    if v is not None:
        return v.text
    return "".join(t.text or "" for t in el.iter(f"{{{A}}}t")) or None


def _title(el: Any) -> str | None:
    if el is None:
        return None
    paras = el.findall(f".//{{{A}}}p")
    text = "\n".join("".join(t.text or "" for t in para.iter(f"{{{A}}}t")) for para in paras).strip()
    return text or _text(el)


def _values(el: Any) -> list[Any]:
    """A data reference's cached points in index order (gaps as None)."""
    if el is None:
        return []
    cache = next((x for x in el.iter() if isinstance(x.tag, str) and x.tag in (
        c("strCache"), c("numCache"), c("strLit"), c("numLit"), c("lvl"))), None)
    if cache is None:
        return []
    count_el = cache.find(c("ptCount"))
    count = int(count_el.get("val", 0)) if count_el is not None and count_el.get("val", "").isdigit() else 0
    out: dict[int, Any] = {}
    for pt in cache.iterfind(c("pt")):
        idx = pt.get("idx", "")
        v = pt.find(c("v"))
        if idx.isdigit() and int(idx) < MAX_POINTS:
            out[int(idx)] = v.text if v is not None else None
    n = min(max(count, max(out) + 1 if out else 0), MAX_POINTS)
    return [out.get(i) for i in range(n)]


def _is_num(v: Any) -> bool:
    try:
        float(v)
    except (TypeError, ValueError):
        return False
    return True


# =================================================================================
# Edits back into the spec
# =================================================================================


def merge_chart_data(spec: dict[str, Any], fields: dict[str, str | None], before: ChartTable,
                     after: ChartTable) -> tuple[dict[str, Any] | None, list[str]]:
    """The spec with the data edits ``before`` → ``after`` written into its inline rows, and
    notes of what changed (None and the reason when the rows cannot take them)."""
    rows = (spec.get("data") or {}).get("values") if isinstance(spec.get("data"), dict) else None
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        return None, ["its data is not inline rows"]
    out = copy.deepcopy(spec)
    rows = out["data"]["values"]
    f = {k: unescape_field(v) if v else None for k, v in fields.items()}
    if before.points or after.points:
        if not (f.get("x") and f.get("y")):
            return None, ["its points come from computed fields"]
        notes = _merge_points(rows, f, before, after)
    else:
        if not (f.get("category") and f.get("value")):
            return None, ["its bars or lines are aggregated or binned from several rows"]
        notes = _merge_cells(rows, f, before, after)
    return (out if notes else None), notes


def _cells(t: ChartTable) -> dict[tuple[str, str], float | None]:
    return {(cat, name): vals[i] for name, vals in t.series for i, cat in enumerate(t.categories)}


def _merge_cells(rows: list[dict[str, Any]], f: dict[str, str | None], before: ChartTable,
                 after: ChartTable) -> list[str]:
    cat_f, val_f, ser_f = f["category"], f["value"], f.get("series")
    single = ser_f is None
    old, new = _cells(before), _cells(after)
    if single:  # one series: its name is only a heading
        old = {(k[0], ""): v for k, v in old.items()}
        new = {(k[0], ""): v for k, v in new.items() if k[1] == (after.series[0][0] if after.series else k[1])}

    def matching(cat: str, name: str) -> list[dict[str, Any]]:
        return [r for r in rows if category_label(r.get(cat_f)) == cat
                and (single or category_label(r.get(ser_f)) == name)]

    notes: list[str] = []
    for key, value in new.items():
        if key in old and old[key] == value:
            continue
        hits = matching(*key)
        where = f"{key[0]}" + (f" / {key[1]}" if key[1] else "")
        if len(hits) > 1:
            notes.append(f"{where}: {len(hits)} rows share that cell; left as it was")
            continue
        if value is None:
            if hits:
                rows.remove(hits[0])
                notes.append(f"{where}: value removed")
            continue
        if hits:
            hits[0][val_f] = _number(value)
            notes.append(f"{where}: {_number(value)}")
        else:
            row = {cat_f: _typed(key[0], rows, cat_f), val_f: _number(value)}
            if not single:
                row[ser_f] = _typed(key[1], rows, ser_f)
            rows.append(row)
            notes.append(f"{where}: {_number(value)} (new)")
    for key in old:
        if key not in new:
            for r in matching(*key):
                rows.remove(r)
            notes.append(f"{key[0]}" + (f" / {key[1]}" if key[1] else "") + ": removed")
    return notes


def _merge_points(rows: list[dict[str, Any]], f: dict[str, str | None], before: ChartTable,
                  after: ChartTable) -> list[str]:
    x_f, y_f, ser_f = f["x"], f["y"], f.get("series")
    old = dict(before.points)
    notes: list[str] = []
    for name, pts in after.points:
        if old.get(name) == pts:
            continue
        mine = [r for r in rows if _is_num(r.get(x_f)) and _is_num(r.get(y_f))
                and (ser_f is None or category_label(r.get(ser_f)) == name)]
        for r, (x, y) in zip(mine, pts):
            if (float(r[x_f]), float(r[y_f])) != (x, y):
                r[x_f], r[y_f] = _number(x), _number(y)
                notes.append(f"{name or 'point'}: ({_number(x)}, {_number(y)})")
        for x, y in pts[len(mine):]:
            row = {x_f: _number(x), y_f: _number(y)}
            if ser_f is not None:
                row[ser_f] = _typed(name, rows, ser_f)
            rows.append(row)
            notes.append(f"{name or 'point'}: ({_number(x)}, {_number(y)}) (new)")
        for r in mine[len(pts):]:
            rows.remove(r)
            notes.append(f"{name or 'point'}: a point removed")
    return notes


def _number(v: float) -> float | int:
    return int(v) if float(v).is_integer() and abs(v) < 2**53 else float(v)


def _typed(label: str, rows: list[dict[str, Any]], fld: str) -> Any:
    """A label typed in PowerPoint as the column's type (a number where the column holds numbers)."""
    values = [r.get(fld) for r in rows if r.get(fld) is not None]
    if values and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values) and _is_num(label):
        return _number(float(label))
    return label


# =================================================================================
# A chart drawn in PowerPoint
# =================================================================================


def chart_spec_from_table(t: ChartTable) -> dict[str, Any]:
    """A Vega-Lite spec (inline rows) drawing a PowerPoint chart's data."""
    if t.points:
        x_f, y_f = t.x_title or "x", t.y_title or "y"
        if y_f == x_f:
            y_f += " (y)"
        multi = len(t.points) > 1
        rows = [{x_f: _number(x), y_f: _number(y), **({"series": name} if multi else {})}
                for name, pts in t.points for x, y in pts]
        spec: dict[str, Any] = {"data": {"values": rows}, "mark": "line" if t.kind == "line" else "point",
                                "encoding": {"x": {"field": x_f, "type": "quantitative"},
                                             "y": {"field": y_f, "type": "quantitative"}}}
        if multi:
            spec["encoding"]["color"] = {"field": "series", "type": "nominal"}
    else:
        cat_f, val_f = t.x_title or "category", t.y_title or "value"
        if val_f == cat_f:
            val_f += " (value)"
        multi = len(t.series) > 1
        rows = [{cat_f: cat, val_f: _number(v), **({"series": name} if multi else {})}
                for name, vals in t.series for cat, v in zip(t.categories, vals) if v is not None]
        cat_enc = {"field": cat_f, "type": "nominal", "sort": None}
        val_enc: dict[str, Any] = {"field": val_f, "type": "quantitative"}
        if t.grouping == "percentStacked":
            val_enc["stack"] = "normalize"
        elif t.grouping == "standard" and t.kind == "area" and multi:
            val_enc["stack"] = None
        enc: dict[str, Any] = {"x": cat_enc, "y": val_enc} if not t.horizontal else {"y": cat_enc, "x": val_enc}
        if multi:
            enc["color"] = {"field": "series", "type": "nominal", "sort": None}
            if t.kind == "bar" and t.grouping == "clustered":
                enc["yOffset" if t.horizontal else "xOffset"] = {"field": "series", "sort": None}
        spec = {"data": {"values": rows}, "mark": t.kind, "encoding": enc}
    if t.title:
        spec["title"] = t.title
    return spec
