"""Vega-Lite out: a chart as a standalone spec, and a figure's charts as the ``.vl.json`` format.

A chart component's spec already is Vega-Lite; :func:`to_vegalite` adds ``$schema``, the
title, the plot size the layout chose, and a ``config`` that carries the theme (DejaVu
Sans, the Okabe–Ito palette, font sizes, light grid) so the Vega editor's rendering looks
like ours. :func:`figure_to_vegalite` gives one chart's spec as is, or several stacked in a
``vconcat`` (in the figure's order, each keeping its title), because an export writes one
file (``crafter vegalite fig.dsl --chart acc -o acc.vl.json`` picks one).
"""

from __future__ import annotations

import copy
import json
from typing import Any

from crafter.base.theme import Theme, figure_theme
from crafter.charts.compile.chart import plan_for
from crafter.charts.compile.encoding import get_field
from crafter.charts.compile.encoding import infer_type as _infer_type
from crafter.charts.render.chart_layout import layout_chart
from crafter.charts.schema import schema_url, validate_vegalite
from crafter.charts.theme import ChartTheme, as_chart_theme
from crafter.errors import RenderError
from crafter.spec.model import Chart, Figure


def theme_config(ct: ChartTheme) -> dict[str, Any]:
    """A Vega-Lite ``config`` mirroring a chart theme."""
    font = ct.font_family.split(",")[0].strip()
    return {
        "font": font,
        "view": {"stroke": None},
        "range": {"category": list(ct.palette)},
        "title": {"fontSize": ct.title_font_size, "fontWeight": "bold", "color": ct.text_color},
        "axis": {
            "labelFontSize": ct.tick_font_size, "titleFontSize": ct.label_font_size, "titleFontWeight": "normal",
            "labelColor": ct.text_color, "titleColor": ct.text_color, "domainColor": ct.axis_color,
            "tickColor": ct.axis_color, "gridColor": ct.grid_color, "tickSize": ct.tick_size,
        },
        "legend": {"labelFontSize": ct.legend_font_size, "titleFontSize": ct.legend_font_size,
                   "labelColor": ct.text_color, "titleColor": ct.text_color},
        "header": {"labelFontSize": ct.header_font_size, "titleFontSize": ct.header_font_size},
    }


# channels whose definitions take a "type" (secondary ones such as y2 and yError do not)
_TYPED_CHANNELS = frozenset({"x", "y", "color", "fill", "stroke", "size", "shape", "opacity", "strokeDash", "xOffset",
                             "yOffset", "text", "detail", "row", "column", "facet"})


def _fill_types(spec: dict[str, Any], plan: Any) -> None:
    """Write the measurement types the renderer inferred into channels that leave ``type`` out,
    so the Vega editor (which would assume nominal) draws the same chart."""
    types = {(name, ch.field): ch.type for name, chans in plan.channels.items() for ch in chans
             if ch.field is not None and ch.type is not None}
    rows = (spec.get("data") or {}).get("values") or []

    def visit(view: dict[str, Any]) -> None:
        for name, d in (view.get("encoding") or {}).items():
            if isinstance(d, dict) and "field" in d and "type" not in d and name in _TYPED_CHANNELS:
                t = types.get(("color" if name in ("fill", "stroke") else name, d["field"]))
                if t is None and name in ("row", "column", "facet"):
                    t = _infer_type([get_field(r, d["field"]) for r in rows])
                    t = "ordinal" if t == "quantitative" else t
                if t is not None:
                    d["type"] = t
        for sub in view.get("layer") or []:
            visit(sub)

    visit(spec)
    if isinstance(spec.get("spec"), dict):
        visit(spec["spec"])
    facet = spec.get("facet")
    if isinstance(facet, dict) and "field" in facet and "type" not in facet:
        t = _infer_type([get_field(r, facet["field"]) for r in rows])
        facet["type"] = "ordinal" if t == "quantitative" else t  # panels are categories


def to_vegalite(chart: Any, theme: ChartTheme | Theme | str | None = None, *, validate: bool = True) -> dict[str, Any]:
    """The chart as a standalone Vega-Lite spec (validated against the official schema)."""
    ct = as_chart_theme(theme)
    spec = copy.deepcopy(chart.spec)
    out: dict[str, Any] = {"$schema": schema_url()}
    title = chart.title if chart.title is not None else spec.pop("title", None)
    spec.pop("$schema", None)
    if title:
        out["title"] = title
    plan = plan_for(chart)
    _fill_types(spec, plan)
    layout = layout_chart(plan, ct)
    size = {"width": round(layout.pw, 1), "height": round(layout.ph, 1)}
    if "facet" in spec and isinstance(spec.get("spec"), dict):
        spec["spec"] = {**spec["spec"], **{k: v for k, v in size.items() if k not in spec["spec"]}}
    else:
        for k, v in size.items():
            spec.setdefault(k, v)
    out.update(spec)
    config = theme_config(ct)
    config.update(out.get("config") or {})
    out["config"] = config
    if validate:
        validate_vegalite(out, chart=chart.id)
    return out


def figure_to_vegalite(fig: Figure) -> dict[str, Any]:
    """The figure's charts: one spec, or a ``vconcat`` of all of them."""
    charts: list[Chart] = fig.of_kind("chart")
    if not charts:
        raise RenderError("the figure has no charts to export as Vega-Lite; export .svg, .tex or .drawio instead")
    specs = [to_vegalite(c, figure_theme(fig)) for c in charts]
    if len(specs) == 1:
        return specs[0]
    out: dict[str, Any] = {"$schema": specs[0].get("$schema", schema_url())}
    if fig.title:
        out["title"] = fig.title
    parts = []
    for s in specs:
        s = dict(s)
        s.pop("$schema", None)
        config = s.pop("config", None)  # config is only allowed at the top level
        if config is not None and "config" not in out:
            out["config"] = config
        parts.append(s)
    out["vconcat"] = parts
    return out


def vegalite_json(fig: Figure) -> str:
    return json.dumps(figure_to_vegalite(fig), indent=2, ensure_ascii=False) + "\n"
