"""Compose: the planners' parts → one figure.

A diagram alone or a chart alone is the figure. A diagram and a chart become a
two-panel figure: panel (a) holds the diagram's top-level components, panel (b) the
chart. A chart id that clashes with a diagram id is renamed.
"""

from __future__ import annotations

from typing import Any

from crafter.agents.labels import slug_id
from crafter.spec import Figure
from crafter.spec.model import Chart, Panel, parents

DIAGRAM, CHART = "diagram", "chart"


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
    owner = parents(fig)
    existing_panels = [c for c in fig.components if isinstance(c, Panel)]
    if not existing_panels:
        top = [c.id for c in fig.components if c.id not in owner and c.kind in ("node", "group", "text")]
        comps.append(Panel(kind="panel", id=slug_id("panel_a", used), members=top))
    comps.append(Panel(kind="panel", id=slug_id("panel_b", used), members=chart_ids))
    return Figure.from_dict({**fig.model_dump(exclude={"components"}),
                             "components": [c.model_dump() for c in comps]})
