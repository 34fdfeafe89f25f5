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


def test_an_arc_chart_draws_a_pie_slice_per_row_turned_by_its_theta_range():
    """Vega-Lite's pie (``arc``, theta stacked): a path per slice, the first beginning where the
    theta scale's range starts (12 o'clock by default, clockwise), a hole with ``innerRadius``."""
    import math
    import re

    from crafter.spec import Chart
    from crafter.spec.model import Box

    rows = [{"x": "apple", "y": 25}, {"x": "pear", "y": 25}, {"x": "plum", "y": 50}]
    spec = {"mark": {"type": "arc", "innerRadius": 20}, "data": {"values": rows},
            "encoding": {"theta": {"field": "y", "type": "quantitative", "scale": {"range": [math.pi / 2, 2.5 * math.pi]}},
                         "color": {"field": "x", "type": "nominal", "legend": None}}}
    svg = chart_svg(Chart(kind="chart", id="pie", spec=spec, box=Box(x=0, y=0, w=200, h=200)))
    paths = re.findall(r'<path id="[^"]*" d="M([-\d.]+),([-\d.]+)A', svg)
    assert len(paths) == 3
    # the first slice begins at 3 o'clock (pi/2 clockwise from 12), the second a quarter turn on, at 6
    (x0, y0), (x1, y1) = [(float(a), float(b)) for a, b in paths[:2]]
    assert x0 > x1 and y1 > y0 and abs(y0 - y1) == pytest.approx(abs(x0 - x1), rel=0.05)
    assert "crafter-chart-grid" not in svg
