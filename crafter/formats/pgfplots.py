"""Chart components as pgfplots axes with their data inline (used by the TikZ export).

A chart's spec is Vega-Lite vocabulary. The marks people put in papers translate
directly: ``bar`` (vertical or horizontal; grouped with ``xOffset``, stacked otherwise
when a ``color`` field splits the bars, as Vega-Lite does), ``line``, ``point`` and
``area``, with one series per ``color`` value, aggregates (``mean``, ``sum``…),
``log`` scales, axis titles, the title and a legend. Categories sit at integer
positions with their names as tick labels, so any label text is safe. Anything else
(layers, facets, box plots, heatmaps) becomes a framed placeholder with a comment
saying so: the chart is still in the SVG and PDF exports, and in the ``.vl.json`` one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Protocol

from crafter.base.theme import Theme
from crafter.charts.stats import aggregate
from crafter.spec.model import Box, Chart


class TikzContext(Protocol):
    """What a chart needs of the TikZ writer drawing its figure (:mod:`crafter.formats.tikz`)."""

    theme: Theme
    colors: Any  # the picture's colour table: .ref(colour) -> (name, definition)

    def tex(self, text: str, *, space: bool = False) -> str: ...

    def font(self, size_px: float, *, bold: bool = False, italic: bool = False) -> str: ...

SUPPORTED_MARKS = ("bar", "line", "point", "circle", "square", "area", "tick")
CATEGORICAL = ("nominal", "ordinal", "temporal")
# Room around the plot area for tick labels and titles, in px (the box is the whole chart).
PAD_LEFT, PAD_BOTTOM, PAD_TOP, PAD_RIGHT = 46.0, 38.0, 22.0, 10.0
LEGEND_W = 80.0  # the legend sits right of the plot, as in Vega-Lite


def chart_to_pgfplots(chart: Chart, box: Box, w: TikzContext) -> list[str]:
    """A chart as a pgfplots axis in a scope on its box, or a framed placeholder saying why it is not one."""
    spec = chart.spec or {}
    mark = spec.get("mark")
    mark_type = mark.get("type") if isinstance(mark, dict) else mark
    title = chart.title or _title_text(spec.get("title"))
    unsupported = next((k for k in ("layer", "facet", "hconcat", "vconcat", "concat", "repeat") if k in spec), None)
    if unsupported or mark_type not in SUPPORTED_MARKS:
        why = f"'{unsupported}' charts" if unsupported else f"mark '{mark_type}'"
        return _placeholder(chart, box, w, title, f"{why} are not translated to pgfplots")
    enc = spec.get("encoding") or {}
    x, y = enc.get("x") or {}, enc.get("y") or {}
    if not isinstance(x, dict) or not isinstance(y, dict) or not x.get("field") or not y.get("field"):
        return _placeholder(chart, box, w, title, "a chart needs x and y fields to become a pgfplots axis")
    p = _Plot.of(spec, mark, mark_type, enc, x, y)
    series = _series(p)
    colors = _series_colors(p, series, w)
    axis = _axis_options(p, series, box, title, w)

    # The axis sits in a scope shifted to the plot's lower left, with the picture's flipped
    # px units reset to plain points: pgfplots computes its own coordinates inside.
    out = [f"% chart data inline; mark '{mark_type}'" + (f", series by '{p.series_field}'" if p.series_field else ""),
           f"\\begin{{scope}}[shift={{({_n(box.x + PAD_LEFT)},{_n(box.y + box.h - PAD_BOTTOM)})}}, x=1pt, y=1pt]",
           "\\begin{axis}[", *[f"  {a}," for a in axis[:-1]], f"  {axis[-1]}]"]
    if p.series_field:  # the legend
        title = p.series_enc.get("title", p.series_field)
        if isinstance(title, str) and title:
            out += ["\\addlegendimage{empty legend}", f"\\addlegendentry{{\\textbf{{{w.tex(title, space=True)}}}}}"]
    for (s, pts), colour in zip(series, colors):
        style = _plot_style(mark_type, colour, p.mark)
        coords = " ".join(f"({_n(v)},{_n(q)})" if p.horizontal else f"({_n(q)},{_n(v)})" for q, v in pts)
        closing = " \\closedcycle" if mark_type == "area" else ""
        out.append(f"\\addplot[{style}] coordinates {{{coords}}}{closing};")
        if p.series_field:
            out.append(f"\\addlegendentry{{{w.tex(str(s), space=True)}}}")
    out += ["\\end{axis}", "\\end{scope}"]
    return out


@dataclass
class _Plot:
    """How a chart's encoding maps onto one pgfplots axis."""

    mark_type: str
    mark: dict[str, Any]  # the mark's properties ({} when the mark is a bare name)
    x: dict[str, Any]
    y: dict[str, Any]
    cat: dict[str, Any]  # the encoding along the category axis (y for horizontal bars)
    val: dict[str, Any]  # the encoding along the value axis
    values: list[dict[str, Any]]  # the data rows
    horizontal: bool
    grouped: bool  # bars side by side (xOffset/yOffset), not stacked
    categorical: bool
    categories: list[Any]  # in Vega-Lite's order; category i sits at position i
    series_enc: dict[str, Any]  # the color channel, which splits the data into series
    series_field: str | None

    @classmethod
    def of(cls, spec: dict[str, Any], mark: Any, mark_type: str, enc: dict[str, Any], x: dict[str, Any],
           y: dict[str, Any]) -> _Plot:
        values = [r for r in ((spec.get("data") or {}).get("values") or []) if isinstance(r, dict)]
        horizontal = mark_type == "bar" and x.get("type") == "quantitative" and y.get("type") in CATEGORICAL
        cat, val = (y, x) if horizontal else (x, y)
        series_enc = enc.get("color") if isinstance(enc.get("color"), dict) else {}
        grouped = isinstance(enc.get("xOffset" if not horizontal else "yOffset"), dict)
        categorical = cat.get("type") in CATEGORICAL or (mark_type == "bar" and cat.get("type") != "quantitative")
        # categories in order of first appearance (or the encoding's sort list)
        categories: list[Any] = []
        if categorical:
            categories = _sorted_domain(values, cat, val)
        return cls(mark_type=mark_type, mark=mark if isinstance(mark, dict) else {}, x=x, y=y, cat=cat, val=val,
                   values=values, horizontal=horizontal, grouped=grouped, categorical=categorical,
                   categories=categories, series_enc=series_enc, series_field=series_enc.get("field"))


def _series(p: _Plot) -> list[tuple[Any, list[tuple[float, float]]]]:
    """Each series' points: (position, value), the values at one position aggregated."""
    series_names = _sorted_domain(p.values, p.series_enc, None) if p.series_field else [None]
    op = p.val.get("aggregate") or ("sum" if p.mark_type == "bar" else None)
    series: list[tuple[Any, list[tuple[float, float]]]] = []
    for s in series_names:
        groups: dict[float, list[float]] = {}
        for r in p.values:
            if p.series_field and r.get(p.series_field) != s:
                continue
            pos = _position(r.get(p.cat["field"]), p.categories if p.categorical else None)
            v = _number(r.get(p.val["field"]))
            if pos is None or v is None:
                continue
            groups.setdefault(pos, []).append(v)
        pts = []
        for pos in sorted(groups):
            vs = groups[pos]
            agg = _aggregate(op, vs) if op else vs[0]
            if agg is not None and math.isfinite(agg):
                pts.append((pos, agg))
        series.append((s, pts))
    return series


def _series_colors(p: _Plot, series: list[tuple[Any, Any]], w: TikzContext) -> list[str | None]:
    """The picture's colour name for each series: the theme's palette, or the one colour the spec fixes."""
    palette = list(w.theme.palette)
    colors = []
    fixed = p.series_enc.get("value") if isinstance(p.series_enc.get("value"), str) else None
    fixed = fixed or p.mark.get("color")
    for i, _ in enumerate(series):
        colors.append(w.colors.ref(fixed if fixed and len(series) == 1 else palette[i % len(palette)])[0])
    return colors


def _axis_options(p: _Plot, series: list[tuple[Any, list[tuple[float, float]]]], box: Box, title: str | None,
                  w: TikzContext) -> list[str]:
    """The ``axis`` environment's options: size, fonts, titles, category ticks, scales, bar layout."""
    t = w.theme
    plot_w = max(box.w - PAD_LEFT - PAD_RIGHT - (LEGEND_W if p.series_field else 0.0), 20.0)
    plot_h = max(box.h - PAD_BOTTOM - (PAD_TOP if title else 8.0), 20.0)
    tick_font = w.font(t.small_font_size * 0.9)
    axis = [
        "at={(0,0)}", "anchor=south west",
        "scale only axis", f"width={_n(plot_w * 0.75)}pt", f"height={_n(plot_h * 0.75)}pt",
        f"tick label style={{font={tick_font}}}", f"label style={{font={w.font(t.small_font_size)}}}",
        "axis lines*=left", "axis line style={draw=gray}", "tick style={draw=gray}",
        f"{'y' if not p.horizontal else 'x'}majorgrids", "major grid style={draw=black!10}",
        f"legend style={{font={tick_font}, draw=none, fill=none, at={{(1.03,1)}}, anchor=north west, "
        "legend cell align=left}",
    ]
    if title:
        axis.append(f"title={{{w.tex(title, space=True)}}}")
        axis.append(f"title style={{font={w.font(t.font_size, bold=True)}}}")
    cat_axis, val_axis = ("y", "x") if p.horizontal else ("x", "y")
    cat_title = _axis_title(p.cat)
    val_title = _axis_title(p.val)
    if cat_title:
        axis.append(f"{cat_axis}label={{{w.tex(cat_title, space=True)}}}")
    if val_title:
        axis.append(f"{val_axis}label={{{w.tex(val_title, space=True)}}}")
    if p.categorical:
        ticks = ",".join(str(i) for i in range(len(p.categories)))
        labels = ",".join("{" + w.tex(str(c), space=True) + "}" for c in p.categories)
        axis += [f"{cat_axis}tick={{{ticks}}}", f"{cat_axis}ticklabels={{{labels}}}",
                 f"{cat_axis}tick style={{draw=none}}"]
        axis.append(f"enlarge {cat_axis} limits={{abs=0.6}}")
        if len(p.categories) > 6 and not p.horizontal:
            axis.append("x tick label style={rotate=45, anchor=east}")
    for field_enc, axis_name in ((p.x, "x"), (p.y, "y")):
        scale = field_enc.get("scale") if isinstance(field_enc.get("scale"), dict) else {}
        if scale.get("type") == "log":
            axis += [f"{axis_name}mode=log", "log ticks with fixed point"]
        if isinstance(scale.get("domain"), list) and len(scale["domain"]) == 2 \
                and all(isinstance(v, (int, float)) for v in scale["domain"]):
            axis += [f"{axis_name}min={scale['domain'][0]}", f"{axis_name}max={scale['domain'][1]}"]
    if p.mark_type == "bar":
        stacked = len(series) > 1 and not p.grouped
        kind = ("xbar" if p.horizontal else "ybar") + (" stacked" if stacked else "")
        bar_w = 0.7 / (len(series) if p.grouped else 1)
        axis += [kind, f"bar width={_n(bar_w)}", "bar shift auto" if p.grouped else "bar shift=0pt"]
        if not p.horizontal and not any(v < 0 for _, pts in series for _, v in pts) and "ymode=log" not in axis:
            axis.append("ymin=0")
        if p.horizontal and not any(v < 0 for _, pts in series for _, v in pts) and "xmode=log" not in axis:
            axis.append("xmin=0")
    return axis


def _sorted_domain(values: list[dict[str, Any]], enc: dict[str, Any], val: dict[str, Any] | None) -> list[Any]:
    """A field's distinct values in Vega-Lite's order: ascending unless ``sort`` says otherwise."""
    field = enc.get("field")
    seen = list(dict.fromkeys(r.get(field) for r in values if r.get(field) is not None))
    sort = enc.get("sort", "ascending")
    if isinstance(sort, list):
        return [s for s in sort if s in seen] + [s for s in seen if s not in sort]
    if sort is None:
        return seen
    if isinstance(sort, str) and val is not None and sort.lstrip("-") in ("x", "y") and val.get("field"):
        totals: dict[Any, float] = {}
        for r in values:
            v = _number(r.get(val["field"]))
            if r.get(field) is not None and v is not None:
                totals[r.get(field)] = totals.get(r.get(field), 0.0) + v
        return sorted(seen, key=lambda k: totals.get(k, 0.0), reverse=sort.startswith("-"))
    return sorted(seen, key=lambda v: (0, v, "") if isinstance(v, (int, float)) else (1, 0, str(v)),
                  reverse=sort == "descending")


def _plot_style(mark_type: str, colour: str | None, mark: dict[str, Any]) -> str:
    c = colour or "black"
    if mark_type == "bar":
        return f"fill={c}, draw={c}"
    if mark_type == "area":
        return f"fill={c}, fill opacity=0.35, draw={c}"
    if mark_type in ("point", "circle", "square", "tick"):
        shape = "square*" if mark_type == "square" else "*"
        return f"only marks, mark={shape}, color={c}, mark size=1.8pt"
    with_points = bool(mark.get("point"))
    return f"color={c}, line width=0.9pt" + (", mark=*, mark size=1.5pt" if with_points else ", mark=none")


def _placeholder(chart: Chart, box: Box, w: TikzContext, title: str | None, why: str) -> list[str]:
    text = w.tex(title or "chart", space=True)
    return [f"% chart {chart.id}: {why}; the SVG, PDF and .vl.json exports carry it",
            f"\\node[draw=gray, dashed, inner sep=0pt, minimum width={_n(box.w * 0.75)}pt, "
            f"minimum height={_n(box.h * 0.75)}pt, align=center, font={w.font(w.theme.font_size)}] "
            f"({chart.id}) at ({_n(box.cx)},{_n(box.cy)}) {{{text}}};"]


def _title_text(title: Any) -> str | None:
    if isinstance(title, str):
        return title
    if isinstance(title, dict) and isinstance(title.get("text"), str):
        return title["text"]
    return None


def _axis_title(enc: dict[str, Any]) -> str | None:
    """Vega-Lite's default axis title: the field, with its aggregate ('Mean of acc')."""
    axis = enc.get("axis")
    if isinstance(axis, dict) and "title" in axis:
        return axis["title"] if isinstance(axis["title"], str) else None
    if "title" in enc:
        return enc["title"] if isinstance(enc["title"], str) else None
    field = enc.get("field")
    if not isinstance(field, str):
        return None
    agg = enc.get("aggregate")
    if isinstance(agg, str):
        return f"{agg.capitalize()} of {field}"
    return field


def _position(value: Any, categories: list[Any] | None) -> float | None:
    if categories is not None:
        try:
            return float(categories.index(value))
        except ValueError:
            return None
    return _number(value)


def _number(v: Any) -> float | None:
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, (int, float)):
        return float(v) if math.isfinite(v) else None
    try:
        f = float(str(v))
    except ValueError:
        return None
    return f if math.isfinite(f) else None


def _aggregate(op: str, values: list[float]) -> float | None:
    try:
        return aggregate(op, values)
    except (ValueError, KeyError):
        return values[0]  # an op the chart statistics do not know: the first value stands in


def _n(v: float) -> str:
    """A data value or pgfplots length: four decimals, and exponent notation beyond them.

    Not :func:`crafter.base.markup.num` (two decimals) on purpose: chart data spans every
    magnitude, and two decimals would flatten 0.004 and 0.001 to 0 and print 1e20 as 21 digits.
    """
    if abs(v) >= 1e15 or (v != 0 and abs(v) < 1e-4):
        return f"{v:.6g}"
    r = round(v, 4)
    return str(int(r)) if r == int(r) else f"{r:.4f}".rstrip("0")
