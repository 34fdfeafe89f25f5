"""Export: a chart component as a standalone Vega-Lite spec (opens in the Vega editor).

The component's spec already is Vega-Lite; export adds ``$schema``, the title, the plot
size the layout chose, and a ``config`` that carries the theme (DejaVu Sans, the
Okabe–Ito palette, font sizes, light grid) so the editor's rendering looks like ours.
"""

from __future__ import annotations

import copy
from typing import Any

from crafter.charts.render import as_chart_theme, layout_chart, plan_for
from crafter.charts.schema import schema_url, validate_vegalite
from crafter.charts.theme import ChartTheme
from crafter.render.theme import Theme


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


def to_vegalite(chart: Any, theme: ChartTheme | Theme | str | None = None, *, validate: bool = True) -> dict[str, Any]:
    """The chart as a standalone Vega-Lite spec (validated against the official schema)."""
    ct = as_chart_theme(theme)
    spec = copy.deepcopy(chart.spec)
    out: dict[str, Any] = {"$schema": schema_url()}
    title = chart.title if chart.title is not None else spec.pop("title", None)
    spec.pop("$schema", None)
    if title:
        out["title"] = title
    layout = layout_chart(plan_for(chart), ct)
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
