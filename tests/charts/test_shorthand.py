"""The DSL's chart attributes (mark=, x=, y=, data=...) ↔ Vega-Lite: exact round trips, clear errors."""

from __future__ import annotations

import pytest
from charts_testlib import NAMES

from crafter.charts import chart_svg, check_chart, validate_vegalite
from crafter.spec import Chart
from crafter.spec.chart_shorthand import (
    ShorthandError,
    join_data,
    shorthand_from_spec,
    spec_from_shorthand,
    split_data,
)

COLS = {"model": ["ViT", "ResNet", "ViT", "ResNet"], "dataset": ["C10", "C10", "C100", "C100"],
        "accuracy": [98.1, 96.3, 91.2, 79.9], "sd": [0.2, 0.3, 0.4, 0.5]}


def test_grouped_bars_from_attributes():
    spec = spec_from_shorthand({"mark": "bar", "x": "model", "y": "accuracy", "color": "dataset", "xOffset": "dataset",
                                "data": COLS})
    assert spec["encoding"]["x"] == {"field": "model"} and spec["data"]["values"][3] == \
        {"model": "ResNet", "dataset": "C100", "accuracy": 79.9, "sd": 0.5}
    validate_vegalite(spec)
    chart = Chart(id="acc", kind="chart", spec=spec)
    assert check_chart(chart_svg(chart), chart) == []


@pytest.mark.parametrize("attrs", [
    {"mark": "line", "x": "step:Q", "y": "mean(loss)", "color": "model", "yscale": "log", "error": "stdev",
     "data": "loss_curves.tsv"},
    {"mark": "bar", "x": "model", "y": "accuracy", "error": "sd", "data": COLS},
    {"mark": "bar", "x": "dataset", "y": "count()", "data": COLS},
    {"mark": "bar", "x": "model", "y": "accuracy", "color": "dataset", "stack": "normalize", "data": COLS},
    {"mark": "point", "x": "accuracy", "y": "sd", "xscale": "symlog", "column": "dataset", "columns": "2", "data": COLS},
    {"mark": {"type": "point", "filled": True}, "x": {"field": "model", "sort": None}, "y": "accuracy", "data": COLS},
    {"mark": "rect", "x": "model", "y": "dataset", "color": "accuracy:Q", "data": {"values": [{"model": "a"}]}},
])
def test_attributes_round_trip(attrs):
    spec = spec_from_shorthand(attrs)
    validate_vegalite(spec)
    back = shorthand_from_spec(spec)
    assert back is not None and spec_from_shorthand(back) == spec


def test_every_test_chart_prints_losslessly(cases):
    """Each chart either has attributes that rebuild it exactly, or keeps spec= (with data= as columns)."""
    for name in NAMES:
        spec = cases[name].spec
        attrs = shorthand_from_spec(spec)
        if attrs is not None:
            assert spec_from_shorthand(attrs) == spec, name
        else:
            rest, data = split_data(spec)
            assert "data" not in rest and join_data(rest, data) == spec, name


@pytest.mark.parametrize("attrs,message", [
    ({"mark": "bar", "x": "a"}, "needs data="),
    ({"x": "a", "data": COLS}, "needs mark="),
    ({"mark": "bar", "x": "mean()", "data": COLS}, "'mean' needs a column"),
    ({"mark": "bar", "x": "median2(a)", "data": COLS}, "unknown aggregate 'median2'"),
    ({"mark": "bar", "x": "a", "xscale": "ln", "data": COLS}, "xscale must be linear, log or symlog"),
    ({"mark": "bar", "x": "a", "data": {"a": [1, 2], "b": [1]}}, "differ in length ('a' has 2, 'b' has 1)"),
    ({"mark": "bar", "x": "a", "data": {"a": 1}}, "'a' is not"),
    ({"mark": "bar", "x": "a", "colour": "b", "data": COLS}, "unknown chart attribute 'colour'"),
    ({"mark": "bar", "x": "a", "columns": "2", "data": COLS}, "columns= goes with column="),
    ({"mark": "bar", "x": "a", "error": "sd", "data": COLS}, "needs both x= and y="),
])
def test_errors(attrs, message):
    with pytest.raises(ShorthandError, match=message.replace("(", r"\(").replace(")", r"\)")):
        spec_from_shorthand(attrs)


def test_data_given_twice():
    with pytest.raises(ShorthandError, match="twice"):
        join_data({"data": {"values": []}, "mark": "bar"}, COLS)
