"""Vega-Lite export of a figure's charts (the ``.vl.json`` format).

One chart gives its Vega-Lite spec as is; several give one document with the charts
stacked in a ``vconcat`` (in the figure's order, each keeping its title), because an
export writes one file. :func:`chart_to_vegalite` gives any single chart on its own
(``crafter vegalite fig.dsl --chart acc -o acc.vl.json``). The spec comes from
``crafter.charts.vegalite.to_vegalite`` (schema-validated, the theme as ``config``);
without the charts package, from the chart's own spec plus ``$schema`` and title.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from crafter.errors import RenderError
from crafter.spec.model import Chart, Figure

SCHEMA_URL = "https://vega.github.io/schema/vega-lite/v5.json"


def chart_to_vegalite(chart: Chart, theme: str = "paper") -> dict[str, Any]:
    """One chart as a standalone Vega-Lite spec."""
    try:
        from crafter.charts.vegalite import to_vegalite
    except ImportError as e:
        if e.name is not None and not e.name.startswith("crafter.charts"):
            raise
        spec = copy.deepcopy(chart.spec)
        out: dict[str, Any] = {"$schema": SCHEMA_URL}
        if chart.title is not None:
            spec.pop("title", None)
            out["title"] = chart.title
        if chart.width is not None:
            spec.setdefault("width", chart.width)
        if chart.height is not None:
            spec.setdefault("height", chart.height)
        spec.pop("$schema", None)
        out.update(spec)
        return out
    return to_vegalite(chart, theme)


def figure_to_vegalite(fig: Figure) -> dict[str, Any]:
    """The figure's charts: one spec, or a ``vconcat`` of all of them."""
    charts: list[Chart] = fig.of_kind("chart")
    if not charts:
        raise RenderError("the figure has no charts to export as Vega-Lite; export .svg, .tex or .drawio instead")
    specs = [chart_to_vegalite(c, fig.theme) for c in charts]
    if len(specs) == 1:
        return specs[0]
    out: dict[str, Any] = {"$schema": specs[0].get("$schema", SCHEMA_URL)}
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
