"""Vega-Lite semantics Crafter implements: aggregation, error extents, box statistics, stacking, sorting."""

from __future__ import annotations

import statistics

import numpy as np
import pytest

from crafter.charts import ChartSpecError, compile_chart
from crafter.charts.stats import box_stats, error_extent


def _plan(spec):
    return compile_chart(spec, chart_id="c")


def test_aggregate_mean_per_group():
    rows = [{"m": "a", "v": 1.0}, {"m": "a", "v": 3.0}, {"m": "b", "v": 5.0}]
    plan = _plan({"data": {"values": rows}, "mark": "bar",
                  "encoding": {"x": {"field": "m", "type": "nominal"}, "y": {"field": "v", "aggregate": "mean"}}})
    items = plan.layers[0].items
    assert {it.x: it.y for it in items} == {"a": 2.0, "b": 5.0}
    assert items[0].datum == {"m": "a", "mean_v": 2.0}


def test_error_extents_match_numpy_and_scipy():
    vals = [81.2, 80.4, 82.0, 79.9, 81.5]
    mean, lo, hi = error_extent(vals, "stdev")
    assert mean == pytest.approx(np.mean(vals)) and hi - mean == pytest.approx(statistics.stdev(vals))
    _, lo, hi = error_extent(vals, "stderr")
    assert hi - mean == pytest.approx(statistics.stdev(vals) / len(vals) ** 0.5)
    _, lo, hi = error_extent(vals, "ci")
    from scipy import stats as st

    ci = st.t.interval(0.95, len(vals) - 1, loc=np.mean(vals), scale=st.sem(vals))
    assert (lo, hi) == pytest.approx(ci)
    med, q1, q3 = error_extent(vals, "iqr")
    assert (med, q1, q3) == pytest.approx((np.median(vals), *np.percentile(vals, [25, 75])))


def test_box_stats_with_outliers():
    vals = [10, 11, 12, 12, 13, 14, 15, 40]
    s = box_stats(vals)
    q1, q3 = np.percentile(vals, [25, 75])
    assert s["q1"] == q1 and s["q3"] == q3 and s["outliers"] == [40.0] and s["upper"] == 15
    assert box_stats(vals, "min-max")["upper"] == 40


def test_stacking_separates_negative_values_and_follows_colour_order():
    rows = [{"x": "a", "c": "p", "v": 2.0}, {"x": "a", "c": "q", "v": -1.0}, {"x": "a", "c": "r", "v": 3.0}]
    plan = _plan({"data": {"values": rows}, "mark": "bar",
                  "encoding": {"x": {"field": "x", "type": "nominal"}, "y": {"field": "v", "type": "quantitative"},
                               "color": {"field": "c", "type": "nominal", "sort": ["r", "q", "p"]}}})
    by = {it.color: (it.y2, it.y) for it in plan.layers[0].items}
    assert by == {"r": (0.0, 3.0), "q": (0.0, -1.0), "p": (3.0, 5.0)}


def test_normalized_stack():
    rows = [{"x": "a", "c": "p", "v": 1.0}, {"x": "a", "c": "q", "v": 3.0}]
    plan = _plan({"data": {"values": rows}, "mark": "area",
                  "encoding": {"x": {"field": "x", "type": "nominal"},
                               "y": {"field": "v", "type": "quantitative", "stack": "normalize"},
                               "color": {"field": "c", "type": "nominal"}}})
    assert [(it.y2, it.y) for it in plan.layers[0].items] == [(0.0, 0.25), (0.25, 1.0)]


def test_grouped_bars_are_not_stacked():
    rows = [{"x": "a", "c": "p", "v": 1.0}, {"x": "a", "c": "q", "v": 3.0}]
    plan = _plan({"data": {"values": rows}, "mark": "bar",
                  "encoding": {"x": {"field": "x", "type": "nominal"}, "y": {"field": "v", "type": "quantitative"},
                               "color": {"field": "c", "type": "nominal"}, "xOffset": {"field": "c"}}})
    assert not plan.layers[0].stacked


def test_sort_orders():
    from crafter.charts.compile.plan import discrete_domain as _discrete_domain

    rows = [{"m": m, "v": v} for m, v in (("b", 1), ("a", 3), ("c", 2))]
    enc = {"y": {"field": "v", "type": "quantitative"}}
    for sort, order in ((None, ["b", "a", "c"]), ("ascending", ["a", "b", "c"]), ("descending", ["c", "b", "a"]),
                        ("-y", ["a", "c", "b"]), (["c", "a"], ["c", "a", "b"])):
        x = {"field": "m", "type": "nominal", "sort": sort}
        plan = _plan({"data": {"values": rows}, "mark": "bar", "encoding": {**enc, "x": x}})
        assert _discrete_domain(plan, "x") == order, sort
    plan = _plan({"data": {"values": rows}, "mark": "bar", "encoding": {**enc, "x": {"field": "m", "type": "nominal"}}})
    assert _discrete_domain(plan, "x") == ["a", "b", "c"]  # Vega-Lite's default: ascending


def test_missing_positions_are_dropped_and_filters_apply():
    rows = [{"s": 1, "v": 1.0}, {"s": 2, "v": None}, {"s": 3, "v": 2.0}, {"s": 4, "v": 9.0}]
    plan = _plan({"data": {"values": rows}, "transform": [{"filter": {"field": "s", "range": [None, 3]}}],
                  "mark": "line", "encoding": {"x": {"field": "s", "type": "quantitative"},
                                               "y": {"field": "v", "type": "quantitative"}}})
    assert [it.x for it in plan.layers[0].items] == [1.0, 3.0]


@pytest.mark.parametrize("spec,match", [
    ({"mark": "bar"}, "no data"),
    ({"data": {"values": [{"a": 1}]}, "mark": "geoshape"}, "unsupported mark 'geoshape'"),
    ({"data": {"values": [{"a": 1}]}, "mark": "bar", "encoding": {"x": {"field": "b", "type": "nominal"},
                                                                   "y": {"field": "a", "type": "quantitative"}}},
     "no column 'b'"),
    ({"data": {"values": [{"a": 1}]}, "hconcat": []}, "'hconcat' is not supported"),
    ({"data": {"values": [{"a": 1}]}, "mark": "bar", "transform": [{"calculate": "1", "as": "b"}]},
     "only 'filter' transforms"),
    ({"data": {"values": [{"a": 0, "b": 1}]}, "mark": "point",
      "encoding": {"x": {"field": "a", "type": "quantitative", "scale": {"type": "log"}},
                   "y": {"field": "b", "type": "quantitative"}}}, "log scale needs positive values"),
])
def test_unsupported_or_wrong_specs_name_the_chart(spec, match):
    from crafter.charts import chart_svg
    from crafter.spec import Chart

    with pytest.raises(ChartSpecError) as e:
        chart_svg(Chart(id="c", kind="chart", spec=spec))
    assert match in str(e.value) and "chart 'c'" in str(e.value)


def test_an_explicit_category_domain_that_misses_a_data_category_is_a_clear_error():
    """A band whose domain does not name a category the data uses has nowhere to draw it: an error naming
    the chart and the path, not a KeyError from the renderer (CraftEditor had written such a spec)."""
    from crafter.charts.errors import ChartSpecError
    from crafter.render import figure_to_svg
    from crafter.spec import Figure

    spec = {"data": {"values": [{"x": "1", "y": 3}, {"x": "2", "y": 5}]}, "mark": "bar",
            "encoding": {"x": {"field": "x", "type": "nominal", "scale": {"domain": ["2", ""]}},
                         "y": {"field": "y", "type": "quantitative"}}}
    fig = Figure.model_validate({"components": [{"id": "c1", "kind": "chart", "spec": spec}]})
    with pytest.raises(ChartSpecError, match=r"encoding.x.scale.domain .*'1'") as err:
        figure_to_svg(fig)
    assert "c1" in str(err.value)
    spec["encoding"]["x"]["scale"]["domain"] = ["2", "1", "3"]  # a category with no bar keeps its place
    assert "crafter-chart" in figure_to_svg(Figure.model_validate({"components": [{"id": "c1", "kind": "chart",
                                                                                    "spec": spec}]}))
