"""Route: which planner a request needs.

``vectorize`` when an image is given; ``two_panel`` when a table comes with a brief that
also describes a diagram (a diagram panel next to a chart panel); ``chart`` when a table
comes alone or with a brief about the chart only; ``plan`` for a brief alone; ``edit``
when the request is an instruction on an existing figure.
"""

from __future__ import annotations

from typing import Any

from crafter.agents.extract import describes_diagram

ROUTES = ("plan", "chart", "two_panel", "vectorize", "edit")


def route(state: dict[str, Any]) -> str:
    """The label of the planner for this state (see :data:`ROUTES`)."""
    if state.get("instruction") is not None:
        return "edit"
    if state.get("image"):
        return "vectorize"
    if state.get("table"):
        brief = state.get("brief") or ""
        return "two_panel" if brief and describes_diagram(brief) else "chart"
    return "plan"
