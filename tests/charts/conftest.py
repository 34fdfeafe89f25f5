"""Shared fixtures: real-looking research tables and a render-and-parse helper."""

from __future__ import annotations

import pytest
from charts_testlib import EXAMPLES, HAND_SPECS, build_cases, records, spec_chart

from crafter.data import read_table


@pytest.fixture(scope="session")
def accuracy():
    """Top-1 accuracy per model per dataset."""
    return records("accuracy.csv")


@pytest.fixture(scope="session")
def loss_curves():
    """Training loss over steps, 3 models × 3 seeds."""
    return records("loss_curves.tsv")


@pytest.fixture(scope="session")
def ablation():
    """Ablation variants with mean and std columns."""
    return records("ablation.csv")


@pytest.fixture(scope="session")
def ablation_runs():
    """Ablation runs per seed (nested JSON)."""
    return read_table(EXAMPLES / "ablation_runs.json")


@pytest.fixture(scope="session")
def latency():
    """Latency vs accuracy per model, with parameter counts spanning decades."""
    return records("latency.csv")


@pytest.fixture(scope="session")
def request_latency():
    return records("request_latency.csv")


@pytest.fixture(scope="session")
def transfer():
    return records("transfer.csv")


@pytest.fixture(scope="session")
def deltas():
    """Accuracy change vs the baseline per method and benchmark: negative and positive bars."""
    vals = {"LoRA": (1.2, -0.4, 0.8), "Prefix": (-1.5, -2.2, 0.3), "Adapter": (0.6, 1.1, -0.9), "BitFit": (-2.8, -1.0, -0.2)}
    return [{"method": m, "benchmark": b, "delta_acc": v} for m, vs in vals.items()
            for b, v in zip(("MNLI", "SST-2", "QNLI"), vs)]


@pytest.fixture(scope="session")
def rewards():
    """RL episode returns crossing zero and spanning decades (symlog)."""
    out = []
    for algo, scale in (("PPO", 1.0), ("SAC", 1.6)):
        for ep in range(0, 200, 10):
            out.append({"episode": ep, "algorithm": algo, "return": round(-40 + scale * 3.2 * ep ** 1.45 / 10, 2)})
    return out


@pytest.fixture(scope="session")
def daily():
    """A metric over calendar days (temporal x)."""
    return [{"date": f"2024-03-{d:02d}", "benchmark": b, "pass_rate": round(0.4 + 0.01 * d + (0.05 if b == "B" else 0), 3)}
            for d in range(1, 29) for b in ("A", "B")]


@pytest.fixture(scope="session")
def token_usage():
    """Tokens per component over training stages (stacked area)."""
    return [{"stage": s, "source": src, "tokens_b": round(v * (1 + 0.3 * s), 2)}
            for s in range(6) for src, v in (("web", 40.0), ("code", 12.0), ("books", 6.0))]


@pytest.fixture(scope="session")
def cases(accuracy, loss_curves, ablation, ablation_runs, latency, request_latency, transfer, deltas, rewards, daily,
          token_usage):
    built = build_cases((accuracy, loss_curves, ablation, ablation_runs, latency, request_latency, transfer, deltas, rewards,
                    daily, token_usage))
    for name, spec in HAND_SPECS.items():
        built[name] = spec_chart(spec, id="c")
    return built
