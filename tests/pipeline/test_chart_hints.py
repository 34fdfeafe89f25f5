"""The chart planner honours fields a brief assigns outright."""

from crafter.agents.chart_plan import hints_from_brief

LATENCY = {"columns": [{"name": "params (M)", "type": "quantitative"},
                       {"name": "latency (ms)", "type": "quantitative"},
                       {"name": "device", "type": "nominal"}]}


def test_explicit_assignments_win() -> None:
    hints = hints_from_brief("Chart: x = params (M), y = latency (ms), colour = device; data attached.", LATENCY)
    assert (hints["x"], hints["y"], hints["color"]) == ("params (M)", "latency (ms)", "device")


def test_y_against_x() -> None:
    hints = hints_from_brief("A scatter plot shows latency (ms) against params (M), one colour per device.", LATENCY)
    assert (hints["x"], hints["y"], hints["color"]) == ("params (M)", "latency (ms)", "device")
