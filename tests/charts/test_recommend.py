"""The recommender: the same table always gives the same, sensible chart, with a reason."""

from __future__ import annotations

import pytest
from charts_testlib import EXAMPLES

from crafter.charts import make_chart, recommend
from crafter.data import read_table, table_from_records
from crafter.errors import InputError


@pytest.mark.parametrize("name,expect", [
    ("accuracy.csv", dict(mark="bar", x="model", y="top1_accuracy", color="dataset")),
    ("loss_curves.tsv", dict(mark="line", x="step", y="train_loss", color="model", aggregate="mean", error="stdev")),
    ("ablation.csv", dict(mark="bar", x="variant", y="accuracy", error="accuracy_std", horizontal=True)),
    ("ablation_runs.json", dict(mark="bar", x="variant", y="metrics.score", color="task", error="stdev")),
    ("latency.csv", dict(mark="point", x="latency_ms", y="top1_accuracy", color="family")),
    ("request_latency.csv", dict(mark="boxplot", x="server", y="latency_ms")),
    ("transfer.csv", dict(mark="rect", x="train_domain", y="test_domain", color="accuracy")),
    ("throughput.xlsx", dict(mark="line", x="batch_size", y="tokens_per_s", color="engine", xscale="log")),
])
def test_examples(name, expect):
    choice = recommend(read_table(EXAMPLES / name))
    for k, v in expect.items():
        assert getattr(choice, k) == v, (k, choice)
    assert choice.reason
    assert recommend(read_table(EXAMPLES / name)) == choice  # deterministic


def test_user_fields_are_kept_and_the_rest_filled():
    t = read_table(EXAMPLES / "accuracy.csv")
    c = recommend(t, x="dataset")
    assert c.x == "dataset" and c.y == "top1_accuracy" and c.color == "model" and c.mark == "bar"
    assert recommend(t, mark="point", x="top1_accuracy", y="top1_accuracy").mark == "point"


def test_histogram_and_counts():
    t = table_from_records([{"latency": v} for v in (1.5, 2.5, 2.0, 7.0)])
    c = recommend(t)
    assert (c.mark, c.x, c.y) == ("bar", "latency", "count()")
    assert "one metric ('latency'): a histogram" in c.reasons
    t = table_from_records([{"label": v} for v in "aabbbc"])
    c = recommend(t)
    assert (c.mark, c.x, c.y) == ("bar", "label", "count()")
    assert "only categories: counts of 'label'" in c.reasons


def test_log_axis_for_losses_spanning_decades():
    rows = [{"step": s, "loss": 10 * 0.5 ** (s / 100)} for s in range(0, 1000, 50)]
    c = recommend(table_from_records(rows))
    assert c.mark == "line" and c.yscale == "log"


def test_unknown_column_and_nothing_to_chart():
    t = read_table(EXAMPLES / "accuracy.csv")
    with pytest.raises(InputError, match="no column 'acc'.*columns: model, dataset, top1_accuracy"):
        recommend(t, y="acc")
    with pytest.raises(InputError, match="no column to chart"):
        recommend(table_from_records([{"id": f"r{i}"} for i in range(20)]))


def test_recommended_charts_validate_and_read_back():
    from crafter.charts import chart_svg, check_chart

    for name in ("accuracy.csv", "ablation.csv", "latency.csv", "transfer.csv"):
        chart = make_chart(EXAMPLES / name)
        assert check_chart(chart_svg(chart), chart) == []
