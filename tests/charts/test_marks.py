"""Every mark and scale of the issue, on research data: schema-valid, drawn, and read back within 0.5%."""

from __future__ import annotations

import pytest
from charts_testlib import NAMES, parse

from crafter.charts import chart_svg, check_chart, read_back, validate_vegalite
from crafter.formats import to_vegalite


@pytest.mark.parametrize("name", NAMES)
def test_chart_validates_renders_and_reads_back(cases, name):
    chart = cases[name]
    validate_vegalite(chart.spec, chart=chart.id)
    vl = to_vegalite(chart)  # validates the standalone export too
    assert vl["$schema"].startswith("https://vega.github.io/schema/vega-lite/v")
    svg = chart_svg(chart)
    parse(svg)  # well-formed XML
    report = read_back(svg, chart.id)
    assert report.marks, "no marks read back"
    assert report.problems == []
    assert report.max_error <= 0.005, report.summary()
    assert check_chart(svg, chart) == []


def test_scales_in_use(cases):
    """The cases cover linear, log (base 10 and 2), symlog, time, band and point scales."""
    from crafter.charts.compile.chart import plan_for
    from crafter.charts.render.plan_scales import build_scales as _build_scales
    from crafter.charts.theme import chart_theme

    kinds = set()
    for chart in cases.values():
        s = _build_scales(plan_for(chart), chart_theme("paper"))
        kinds |= {x.kind for x in (s.x, s.y) if x is not None}
    assert kinds >= {"linear", "log", "symlog", "time", "band", "point"}


def test_marks_in_use(cases):
    from crafter.charts.compile.chart import plan_for

    marks = {layer.mark for chart in cases.values() for layer in plan_for(chart).layers}
    assert marks >= {"bar", "line", "point", "area", "rect", "text", "boxplot", "errorbar", "errorband", "rule", "tick"}
