"""make_chart: explicit, schema-valid specs with research-figure defaults, and clear errors."""

from __future__ import annotations

import pytest

from crafter.charts import make_chart
from crafter.charts.build import MAX_INLINE_ROWS, axis_title, escape_field
from crafter.data import table_from_records
from crafter.errors import InputError


def test_grouped_bars_keep_table_order_and_put_the_legend_on_top(accuracy):
    c = make_chart(accuracy, x="model", y="top1_accuracy", color="dataset", id="acc", title="Accuracy")
    enc = c.spec["encoding"]
    assert c.spec["mark"] == "bar" and c.title == "Accuracy" and c.id == "acc"
    assert enc["x"]["sort"] == ["ResNet-50", "ViT-B/16", "ConvNeXt-T", "DeiT-S", "Swin-T"]
    assert enc["xOffset"]["field"] == "dataset" and enc["color"]["field"] == "dataset"
    assert enc["y"]["title"] == "top1 accuracy"
    assert c.spec["data"]["values"][0] == {"model": "ResNet-50", "dataset": "CIFAR-10", "top1_accuracy": 96.3}


def test_lines_do_not_start_at_zero_and_bars_do(accuracy, loss_curves):
    line = make_chart([r for r in loss_curves if r["seed"] == 0], x="step", y="train_loss", color="model", mark="line")
    assert line.spec["encoding"]["y"]["scale"] == {"zero": False}
    bar = make_chart(accuracy, x="model", y="top1_accuracy", mark="bar")
    assert "scale" not in bar.spec["encoding"]["y"]


def test_mean_and_sd_over_seeds_become_a_layer(ablation_runs):
    c = make_chart(ablation_runs, x="variant", y="metrics.score", color="task", horizontal=False)
    bar, err = c.spec["layer"]
    assert bar["encoding"]["y"]["aggregate"] == "mean"
    assert err["mark"]["type"] == "errorbar" and err["mark"]["extent"] == "stdev"
    assert bar["encoding"]["y"]["field"] == "metrics_score"  # dotted keys renamed (Vega-Lite reads dots as nesting)
    assert bar["encoding"]["y"]["title"] == "score"


def test_error_column_uses_yerror(ablation):
    c = make_chart(ablation, x="variant", y="accuracy", error="accuracy_std", horizontal=False)
    assert c.spec["layer"][1]["encoding"]["yError"] == {"field": "accuracy_std"}


def test_facets_and_columns(accuracy):
    c = make_chart(accuracy, x="model", y="top1_accuracy", column="dataset", mark="bar")
    assert c.spec["facet"]["field"] == "dataset" and c.spec["columns"] == 3 and "mark" in c.spec["spec"]


def test_aggregate_and_type_shorthands(accuracy):
    c = make_chart(accuracy, x="model", y="mean(top1_accuracy)", mark="bar")
    assert c.spec["encoding"]["y"]["aggregate"] == "mean"
    c = make_chart(accuracy, x="dataset", y="count()", mark="bar")
    assert c.spec["encoding"]["y"]["aggregate"] == "count"


def test_input_forms(accuracy, tmp_path):
    import pandas as pd
    from charts_testlib import EXAMPLES

    assert make_chart(EXAMPLES / "accuracy.csv").spec["data"]["values"] == accuracy
    assert make_chart(str(EXAMPLES / "accuracy.csv")).spec["data"]["values"] == accuracy
    assert make_chart(pd.DataFrame(accuracy)).spec["data"]["values"] == accuracy
    assert make_chart(table_from_records(accuracy)).spec["data"]["values"] == accuracy


def test_errors_are_clear(accuracy):
    with pytest.raises(InputError, match="no column 'acc'"):
        make_chart(accuracy, x="model", y="acc")
    with pytest.raises(InputError, match="unknown mark 'pie'"):
        make_chart(accuracy, mark="pie")
    with pytest.raises(InputError, match="unknown scale 'ln'"):
        make_chart(accuracy, yscale="ln")
    with pytest.raises(InputError, match="error must be a column"):
        make_chart(accuracy, x="model", y="top1_accuracy", error="sigma")
    with pytest.raises(InputError, match="too many to inline"):
        make_chart([{"a": i, "b": i} for i in range(MAX_INLINE_ROWS + 1)])
    with pytest.raises(InputError, match="list of records"):
        make_chart([1, 2, 3])


def test_axis_titles_and_field_escaping():
    assert axis_title("latency_ms") == "latency (ms)"
    assert axis_title("tokens_per_s") == "tokens/s"
    assert axis_title("peak_memory_gb") == "peak memory (GB)"
    assert axis_title("Top-1 (%)") == "Top-1 (%)"
    assert escape_field("a.b[0]") == "a\\.b\\[0\\]"
