"""Helpers shared by the chart tests (imported by name: the tests folder is not a package)."""

from __future__ import annotations

import math
from pathlib import Path

from crafter.charts import make_chart, validate_vegalite
from crafter.data import read_table
from crafter.spec import Chart

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "data"


def records(name: str, **kw):
    return read_table(EXAMPLES / name, **kw).to_records()


def parse(svg: str):
    from defusedxml import ElementTree as ET

    return ET.fromstring(svg)


def local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def close(a: float, b: float, tol: float = 1e-6) -> bool:
    return math.isclose(a, b, rel_tol=tol, abs_tol=tol)


def spec_chart(spec, id="c", **kw):
    validate_vegalite(spec, chart=id)
    return Chart(id=id, kind="chart", spec=spec, **kw)


def build_cases(f):
    """(name, chart) pairs; built lazily from the fixtures."""
    acc, loss, abl, runs, lat, req, tr, deltas, rewards, daily, usage = f
    seed0 = [r for r in loss if r["seed"] == 0]
    return {
        "bar-vertical-grouped": make_chart(acc, x="model", y="top1_accuracy", color="dataset", mark="bar"),
        "bar-horizontal-error-column": make_chart(abl, x="variant", y="accuracy", error="accuracy_std", horizontal=True),
        "bar-stacked": make_chart(acc, x="model", y="top1_accuracy", color="dataset", mark="bar", stack=True),
        "bar-normalized": make_chart(usage, x="stage:O", y="tokens_b", color="source", mark="bar", stack="normalize"),
        "bar-negative": make_chart(deltas, x="method", y="delta_acc", color="benchmark", mark="bar"),
        "bar-negative-stacked": make_chart(deltas, x="method", y="delta_acc", color="benchmark", mark="bar", stack=True),
        "bar-mean-sd-over-seeds": make_chart(runs, x="variant", y="metrics.score", color="task", error="stdev",
                                             horizontal=False),
        "bar-ci": make_chart(runs, x="variant", y="metrics.score", color="task", error="ci", horizontal=False),
        "bar-stderr": make_chart(runs, x="variant", y="metrics.score", error="stderr", horizontal=True),
        "histogram": make_chart(req, x="latency_ms", y="count()", mark="bar"),
        "line-points": make_chart([r for r in seed0 if r["step"] % 2000 == 0], x="step", y="train_loss",
                                  color="model", mark="line"),
        "line-log-y": make_chart(seed0, x="step", y="train_loss", color="model", mark="line", yscale="log"),
        "line-mean-band-log": make_chart(loss, x="step", y="train_loss", color="model", mark="line", yscale="log"),
        "line-symlog": make_chart(rewards, x="episode", y="return", color="algorithm", mark="line", yscale="symlog"),
        "line-temporal": make_chart(daily, x="date", y="pass_rate", color="benchmark", mark="line"),
        "line-log2-x": make_chart(records_xlsx(), x="batch_size", y="tokens_per_s", color="engine", mark="line"),
        "scatter": make_chart(lat, x="latency_ms", y="top1_accuracy", color="family", mark="point"),
        "scatter-size-shape-logx": make_chart(lat, x="params_m", y="top1_accuracy", color="family", shape="family",
                                              size="latency_ms", mark="point", xscale="log"),
        "area-stacked": make_chart(usage, x="stage", y="tokens_b", color="source", mark="area"),
        "heatmap": make_chart(tr, x="train_domain", y="test_domain", color="accuracy", mark="rect"),
        "boxplot": make_chart(req, x="server", y="latency_ms", mark="boxplot"),
        "boxplot-horizontal": make_chart(req, x="server", y="latency_ms", mark="boxplot", horizontal=True),
        "facet-per-dataset": make_chart(acc, x="model", y="top1_accuracy", column="dataset", mark="bar"),
        "facet-lines": make_chart(loss, x="step", y="train_loss", color="model", column="seed:N", mark="line"),
    }


def records_xlsx():
    return read_table(EXAMPLES / "throughput.xlsx").to_records()


HAND_SPECS = {
    # errorbar and errorband from explicit lower/upper columns (y + y2), and a baseline rule
    "errorbar-y2-with-rule": {
        "data": {"values": [{"k": k, "lo": 70 + k, "hi": 74 + k * 1.5, "mean": 72 + k * 1.2} for k in (1, 2, 4, 8, 16)]},
        "layer": [
            {"mark": {"type": "errorbar", "ticks": True}, "encoding": {"x": {"field": "k", "type": "ordinal"},
                                                                       "y": {"field": "lo", "type": "quantitative",
                                                                             "scale": {"zero": False}},
                                                                       "y2": {"field": "hi"}}},
            {"mark": "point", "encoding": {"x": {"field": "k", "type": "ordinal"},
                                           "y": {"field": "mean", "type": "quantitative"}}},
            {"mark": {"type": "rule", "strokeDash": [4, 3]}, "encoding": {"y": {"datum": 75}}},
        ],
    },
    "errorband-from-column": {
        "data": {"values": [{"epoch": e, "acc": 50 + 4 * e ** 0.7, "sd": 1.5 / (1 + e * 0.1)} for e in range(1, 21)]},
        "layer": [
            {"mark": "errorband", "encoding": {"x": {"field": "epoch", "type": "quantitative"},
                                               "y": {"field": "acc", "type": "quantitative", "scale": {"zero": False}},
                                               "yError": {"field": "sd"}}},
            {"mark": "line", "encoding": {"x": {"field": "epoch", "type": "quantitative"},
                                          "y": {"field": "acc", "type": "quantitative"}}},
        ],
    },
    "errorbar-iqr-points": {
        "data": {"values": [{"g": g, "v": v} for g in ("a", "b", "c") for v in range(10 * ord(g) % 7, 30, 3)]},
        "mark": {"type": "errorbar", "extent": "iqr"},
        "encoding": {"x": {"field": "g", "type": "nominal"}, "y": {"field": "v", "type": "quantitative"}},
    },
    "tick-strip": {
        "data": {"values": [{"g": g, "v": (i * 37 % 11) + (3 if g == "b" else 0)} for g in "ab" for i in range(12)]},
        "mark": "tick", "encoding": {"x": {"field": "g", "type": "nominal"}, "y": {"field": "v", "type": "quantitative"}},
    },
    "encoding-facet-row": {
        "data": {"values": [{"m": m, "d": d, "v": i + j} for i, m in enumerate("ABC") for j, d in enumerate(("x", "y"))]},
        "mark": "bar",
        "encoding": {"row": {"field": "d", "type": "nominal"}, "x": {"field": "m", "type": "nominal"},
                     "y": {"field": "v", "type": "quantitative"}},
    },
}


NAMES = [
    "bar-vertical-grouped", "bar-horizontal-error-column", "bar-stacked", "bar-normalized", "bar-negative",
    "bar-negative-stacked", "bar-mean-sd-over-seeds", "bar-ci", "bar-stderr", "histogram", "line-points", "line-log-y",
    "line-mean-band-log", "line-symlog", "line-temporal", "line-log2-x", "scatter", "scatter-size-shape-logx",
    "area-stacked", "heatmap", "boxplot", "boxplot-horizontal", "facet-per-dataset", "facet-lines",
    *HAND_SPECS,
]
