"""Compose: a chart goes into the panel the brief asked for it in, not a third panel."""

from __future__ import annotations

from crafter.agents.compose import CHART, DIAGRAM, compose
from crafter.agents.extract import figure_from_brief

CHART_PART = {"role": CHART, "component": {"kind": "chart", "id": "chart", "spec": {
    "mark": "bar", "data": {"values": [{"m": "A", "v": 1}, {"m": "B", "v": 2}]},
    "encoding": {"x": {"field": "m", "type": "nominal"}, "y": {"field": "v", "type": "quantitative"}}}}}


def test_the_chart_takes_the_panel_that_describes_it_with_its_letter_and_title() -> None:
    diagram = figure_from_brief("Two panels. (a) Method: Images → ViT Encoder → Projection Head. "
                                "(b) Results: a grouped bar chart of accuracy by model, from the attached table.")
    fig = compose([{"role": DIAGRAM, "figure": diagram.model_dump(mode="json")}, CHART_PART])
    panels = {p.label: p for p in fig.of_kind("panel")}
    assert set(panels) == {"(a)", "(b)"}
    assert panels["(b)"].title == "Results" and panels["(b)"].members == ["chart"]
    assert not any("chart" in (n.label or "").lower() for n in fig.of_kind("node"))  # the description is gone
    assert {n.label for n in fig.of_kind("node")} >= {"Images", "ViT Encoder", "Projection Head"}


def test_a_diagram_without_panels_gets_the_two_panel_layout_as_before() -> None:
    diagram = figure_from_brief("Images → ViT Encoder → Projection Head.")
    fig = compose([{"role": DIAGRAM, "figure": diagram.model_dump(mode="json")}, CHART_PART])
    assert len(fig.of_kind("panel")) == 2 and fig.of_kind("panel")[1].members == ["chart"]
