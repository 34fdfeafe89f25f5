"""Vega-Lite export: each chart on its own, several charts stacked in one spec."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crafter.errors import RenderError
from crafter.formats import figure_to_vegalite, to_vegalite
from crafter.formats.registry import export_figure
from crafter.spec import Figure


def validate(spec: dict) -> None:
    schema = pytest.importorskip("crafter.charts.schema")
    schema.validate_vegalite(spec, chart="test")


def test_one_chart_is_a_standalone_spec(chart_figure: Figure) -> None:
    acc = chart_figure.get("acc")
    spec = to_vegalite(acc)
    assert spec["$schema"].startswith("https://vega.github.io/schema/vega-lite/")
    assert spec["title"] == "Accuracy by model" and spec["mark"] == "bar"
    assert spec["data"]["values"] == acc.spec["data"]["values"]
    validate(spec)


def test_several_charts_are_stacked_in_a_vconcat(chart_figure: Figure) -> None:
    spec = figure_to_vegalite(chart_figure)
    assert [s["title"] for s in spec["vconcat"]] == ["Accuracy by model", "Loss curves"]
    assert all("$schema" not in s and "config" not in s for s in spec["vconcat"])
    validate(spec)


def test_export_by_suffix_writes_the_vl_json(chart_figure: Figure, tmp_path: Path) -> None:
    out = tmp_path / "results.vl.json"
    export_figure(chart_figure, out)
    assert json.loads(out.read_text())["vconcat"][1]["mark"]["type"] == "line"


def test_a_figure_without_charts_says_so(example: Figure) -> None:
    if example.of_kind("chart"):
        assert figure_to_vegalite(example)  # an example with a chart exports it
        return
    with pytest.raises(RenderError, match="no charts"):
        figure_to_vegalite(example)
