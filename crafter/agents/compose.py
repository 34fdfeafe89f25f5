"""Compose: the planners' parts → one figure.

A diagram alone or a chart alone is the figure. A diagram and a chart become a
two-panel figure: panel (a) holds the diagram's top-level components, panel (b) the
chart. A chart id that clashes with a diagram id is renamed. Where the brief's reader
already drew panels and one of them only describes a chart ("(b) Results: a grouped bar
chart of accuracy"), the chart takes that panel's place (its letter and title kept).
"""

from __future__ import annotations

import re
from typing import Any

from crafter.agents.labels import slug_id
from crafter.spec import Figure
from crafter.spec.model import Chart, Panel, parents

DIAGRAM, CHART = "diagram", "chart"
_CHART_WORDS = re.compile(r"\b(?:charts?|plots?|graphs?|histograms?|heatmaps?|scatter|curves?|bars?)\b", re.I)


def _chart_panel(fig: Figure) -> Panel | None:
    """A panel the brief's reader made of a chart's description: its members are boxes no edge
    touches, and one of them names a chart."""
    by_id = {c.id: c for c in fig.components}
    touched = {end for e in fig.of_kind("edge") for end in (e.source, e.target)}
    for panel in fig.of_kind("panel"):
        members = [by_id.get(m) for m in panel.members]
        if members and all(c is not None and c.kind == "node" and c.id not in touched for c in members) \
                and any(_CHART_WORDS.search(c.label or "") for c in members):
            return panel
    return None


def compose(parts: list[dict[str, Any]]) -> Figure:
    """Parts are ``{"role": "diagram", "figure": {...}}`` and ``{"role": "chart", "component": {...}}``."""
    diagrams = [Figure.from_dict(p["figure"]) for p in parts if p["role"] == DIAGRAM]
    charts = [Chart.model_validate(p["component"]) for p in parts if p["role"] == CHART]
    if not diagrams and not charts:
        raise ValueError("nothing to compose: no planner produced a part")
    if diagrams and not charts:
        return diagrams[0]
    if charts and not diagrams:
        title = charts[0].title
        return Figure(title=title, components=charts)
    fig = diagrams[0]
    used = {c.id for c in fig.components}
    comps = list(fig.components)
    chart_ids = []
    for ch in charts:
        cid = ch.id if ch.id not in used else slug_id(ch.id, used)
        used.add(cid)
        comps.append(ch.model_copy(update={"id": cid}))
        chart_ids.append(cid)
    described = _chart_panel(fig)
    if described is not None:  # the chart in the panel that asked for it
        gone = set(described.members)
        comps = [c.model_copy(update={"members": chart_ids}) if c.id == described.id else c
                 for c in comps if c.id not in gone]
        return Figure.from_dict({**fig.model_dump(exclude={"components"}),
                                 "components": [c.model_dump() for c in comps]})
    owner = parents(fig)
    existing_panels = [c for c in fig.components if isinstance(c, Panel)]
    if not existing_panels:
        top = [c.id for c in fig.components if c.id not in owner and c.kind in ("node", "group", "text")]
        comps.append(Panel(kind="panel", id=slug_id("panel_a", used), members=top))
    comps.append(Panel(kind="panel", id=slug_id("panel_b", used), members=chart_ids))
    return Figure.from_dict({**fig.model_dump(exclude={"components"}),
                             "components": [c.model_dump() for c in comps]})
