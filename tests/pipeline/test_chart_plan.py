"""Chart planning: the model picks the encoding, the table supplies every number."""

from __future__ import annotations

import pytest

pytest.importorskip("crafter.charts")
from crafter import charts  # noqa: E402

if not hasattr(charts, "make_chart"):
    pytest.skip("crafter.charts.make_chart has not landed", allow_module_level=True)

from crafter.agents.chart_plan import chart_plan, hints_from_brief, rebuild_chart, schema_text  # noqa: E402
from crafter.agents.critique import critique  # noqa: E402
from crafter.agents.repair import repair_by_rule  # noqa: E402
from crafter.spec import Figure  # noqa: E402

TABLE = {"name": "results.csv", "columns": [
    {"name": "model", "type": "nominal", "values": ["ResNet", "ViT", "ConvNeXt"], "order": None},
    {"name": "accuracy", "type": "quantitative", "values": [76.1, 81.2, 82.1], "order": None},
    {"name": "params_m", "type": "quantitative", "values": [25.6, 86.6, 28.6], "order": None},
]}


def test_schema_text_matches_the_training_format() -> None:
    assert schema_text(TABLE) == "table results.csv: model (nominal), accuracy (quantitative), params_m (quantitative)"


def test_hints_from_the_brief() -> None:
    assert hints_from_brief("Bar chart of accuracy by model", TABLE) == {"mark": "bar", "y": "accuracy", "x": "model"}
    assert hints_from_brief("scatter params m against accuracy", TABLE)["mark"] == "point"


def _values(out):
    return out["component"]["spec"]["data"]["values"]


def test_the_model_chooses_and_the_table_fills_in(scripted) -> None:
    answer = 'c1 chart "Top-1" spec={"mark":"bar","encoding":{"x":{"field":"model","type":"nominal"},' \
             '"y":{"field":"accuracy","type":"quantitative"}}}'
    out = chart_plan(TABLE, "compare accuracy", scripted(chart=[answer]))
    assert out["source"] == "model" and out["component"]["title"] == "Top-1"
    assert [v["accuracy"] for v in _values(out)] == [76.1, 81.2, 82.1]  # the data, never the model's numbers


def test_columns_the_table_lacks_are_dropped_with_a_warning(scripted) -> None:
    answer = 'c1 chart spec={"mark":"bar","encoding":{"x":{"field":"architecture"},"y":{"field":"accuracy"}}}'
    out = chart_plan(TABLE, "bar chart of accuracy", scripted(chart=[answer]))
    assert out["source"] == "model" and "architecture" in out["warnings"][0]


@pytest.mark.parametrize("replies", [["garbage", "((("], [{"error": "server died"}], ["", ""]])
def test_bad_model_output_falls_back_to_the_recommender(scripted, replies) -> None:
    out = chart_plan(TABLE, "Bar chart of accuracy by model.", scripted(chart=replies))
    assert out["source"] == "rules" and "by rules" in out["warnings"][-1]
    assert out["component"]["spec"]["mark"] in ("bar", {"type": "bar"})


def test_no_model() -> None:
    out = chart_plan(TABLE, "", None)
    assert out["source"] == "rules" and out["calls"] == [] and _values(out)


def test_marks_that_do_not_read_back_are_rebuilt_from_the_data() -> None:
    from crafter.layout import layout_figure
    from crafter.render import figure_to_svg

    good = Figure.from_dict({"components": [chart_plan(TABLE, "bar chart of accuracy by model", None)["component"]]})
    good = layout_figure(good)
    # draw a chart whose bars disagree with the data it carries (as a bad edit would)
    wrong_values = [{**v, "accuracy": v["accuracy"] / 2} for v in good.components[0].spec["data"]["values"]]
    wrong = good.model_copy(deep=True)
    wrong.components[0].spec["data"]["values"] = wrong_values
    svg = figure_to_svg(wrong)
    [issue] = [i for i in critique(good, svg=svg) if i["code"] == "chart_readback"]
    assert issue["target"] == good.components[0].id and issue["severity"] == "error"
    # the rule redraws the chart from its data and encodings, dropping whatever distorted it
    distorted = good.model_copy(deep=True)
    distorted.components[0].spec["encoding"]["y"]["scale"] = {"domain": [0, 50]}
    fixed = repair_by_rule(distorted, issue["target"], [issue])
    assert fixed["ok"] and fixed["by"] == "rule"
    assert fixed["components"][0]["spec"] == good.components[0].spec
    assert rebuild_chart(good.components[0]).spec == good.components[0].spec
