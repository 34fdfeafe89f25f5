"""Vega-Lite export and validation against the official schema shipped by altair."""

from __future__ import annotations

import json

import pytest

from crafter.charts import VegaLiteSchemaError, make_chart, validate_vegalite
from crafter.charts.schema import schema_errors, vegalite_schema
from crafter.formats import to_vegalite
from crafter.spec import Chart


def test_export_is_standalone_and_valid(accuracy):
    chart = make_chart(accuracy, x="model", y="top1_accuracy", color="dataset", title="Accuracy")
    vl = to_vegalite(chart)
    assert vl["$schema"].startswith("https://vega.github.io/schema/vega-lite/v")
    assert vl["title"] == "Accuracy" and vl["width"] > 100 and vl["height"] > 80
    assert vl["config"]["font"] == "DejaVu Sans" and vl["config"]["range"]["category"][0] == "#0072B2"
    assert vl["data"]["values"] == chart.spec["data"]["values"]
    json.dumps(vl)  # plain JSON
    assert schema_errors(vl) == []


def test_facet_export_puts_the_size_in_the_inner_spec(accuracy):
    vl = to_vegalite(make_chart(accuracy, x="model", y="top1_accuracy", column="dataset"))
    assert "width" in vl["spec"] and "width" not in vl


def test_invalid_spec_names_the_path():
    bad = {"data": {"values": [{"a": 1}]}, "mark": "bar", "encoding": {"x": {"field": "a", "type": "quant"}}}
    with pytest.raises(VegaLiteSchemaError) as e:
        validate_vegalite(bad, chart="c1")
    assert "component 'c1'" in str(e.value) and "spec.encoding.x.type" in str(e.value)
    assert any(err.startswith("encoding.x.type") for err in schema_errors(bad))


def test_a_renderer_unsupported_spec_fails_with_the_chart_id():
    from crafter.charts import ChartSpecError, chart_svg

    chart = Chart(id="map", kind="chart", spec={"data": {"values": [{"a": 1}]}, "mark": "geoshape",
                                                "encoding": {"color": {"field": "a", "type": "quantitative"}}})
    with pytest.raises(ChartSpecError, match="chart 'map' at mark: unsupported mark 'geoshape'"):
        chart_svg(chart)


def test_schema_comes_from_altair():
    s = vegalite_schema()
    assert "TopLevelUnitSpec" in json.dumps(s["definitions"].get("TopLevelSpec", {})) or "definitions" in s
