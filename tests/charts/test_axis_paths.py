"""Axis ticks and gridlines as one path each: few elements per chart, values still read back."""

from __future__ import annotations

import json
import re

from charts_testlib import local, parse

from crafter.charts import chart_svg, make_chart, read_back


def _by_id(root):
    return {el.get("id"): el for el in root.iter() if el.get("id")}


def _subpath_starts(d: str) -> list[str]:
    return re.findall(r"M[-\d.]+,[-\d.]+", d)


def test_each_axis_draws_its_ticks_as_one_path_listing_their_values(accuracy):
    chart = make_chart(accuracy, x="model", y="top1_accuracy", color="dataset", id="acc")
    root = parse(chart_svg(chart))
    ids = _by_id(root)
    for axis in ("x", "y"):
        ticks = ids[f"acc-axis-{axis}-ticks"]
        assert local(ticks.tag) == "path"
        values = json.loads(ticks.get("data-crafter-values"))
        assert len(_subpath_starts(ticks.get("d"))) == len(values) >= 2
        assert not any(local(el.tag) == "line" for el in ids[f"acc-axis-{axis}"].iter()
                       if el.get("id") != f"acc-axis-{axis}-domain")
    x_values = json.loads(ids["acc-axis-x-ticks"].get("data-crafter-values"))
    assert x_values == list(dict.fromkeys(r["model"] for r in accuracy))  # categories, in path order
    y_values = json.loads(ids["acc-axis-y-ticks"].get("data-crafter-values"))
    assert all(isinstance(v, (int, float)) for v in y_values) and y_values == sorted(y_values)
    grid = ids["acc-grid-y"]
    assert local(grid.tag) == "path" and len(_subpath_starts(grid.get("d"))) == len(y_values)


def test_a_category_with_a_comma_survives_the_value_list():
    rows = [{"method": "ours, full", "score": 3.0}, {"method": "baseline", "score": 2.0}]
    chart = make_chart(rows, x="method", y="score", id="c")
    ticks = _by_id(parse(chart_svg(chart)))["c-axis-x-ticks"]
    assert json.loads(ticks.get("data-crafter-values")) == ["ours, full", "baseline"]


def test_read_back_fits_the_axes_from_the_tick_paths(accuracy):
    bars = make_chart(accuracy, x="model", y="top1_accuracy", color="dataset", id="acc")
    assert read_back(chart_svg(bars), "acc").max_error < 0.005
    rows = [{"step": s, "loss": 2000.0 / s ** 1.5} for s in (1, 2, 5, 10, 20, 50, 100)]
    log = make_chart(rows, x="step", y="loss", mark="line", yscale="log", id="lg")
    svg = chart_svg(log)
    ticks = _by_id(parse(svg))["lg-axis-y-ticks"]
    major = json.loads(ticks.get("data-crafter-values"))
    minor = json.loads(ticks.get("data-crafter-minor-values"))
    assert major and minor and not set(major) & set(minor)
    assert len(_subpath_starts(ticks.get("d"))) == len(major) + len(minor)  # minors follow majors in one path
    report = read_back(svg, "lg")
    assert report.max_error < 0.005 and not report.problems


def test_read_back_still_reads_ticks_drawn_as_one_line_each(accuracy):
    """SVGs written before ticks became one path (a <line data-crafter-value> per tick) still check."""
    chart = make_chart(accuracy, x="model", y="top1_accuracy", id="acc")
    svg = chart_svg(chart)

    def as_lines(m: re.Match) -> str:
        values = json.loads(m.group(3).replace("&quot;", '"'))
        lines = []
        for (x, y), v in zip(re.findall(r"M([-\d.]+),([-\d.]+)", m.group(2)), values):
            lines.append(f'<line x1="{x}" y1="{y}" x2="{x}" y2="{y}" data-crafter-value="{v}"/>')
        return f'<g id="{m.group(1)}">{"".join(lines)}</g>'

    old = re.sub(r'<path id="([^"]+-ticks)" d="([^"]+)"[^>]*?data-crafter-values=\'([^\']*)\'[^>]*/>', as_lines, svg)
    old = re.sub(r'<path id="([^"]+-ticks)" d="([^"]+)"[^>]*?data-crafter-values="([^"]*)"[^>]*/>', as_lines, old)
    assert not re.search(r'<path id="[^"]+-ticks"', old) and 'data-crafter-value="' in old
    assert read_back(old, "acc").max_error < 0.005
