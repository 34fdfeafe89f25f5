"""Shared fixtures for the pipeline tests: a run store per test, laid-out figures, scripted models."""

from __future__ import annotations

from pathlib import Path

import pytest

from crafter.agents.testing import ScriptedBackend
from crafter.spec import Figure, parse_dsl

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A fresh run store file."""
    return tmp_path / "runs.sqlite"


@pytest.fixture(autouse=True)
def _no_default_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Never write to the user's real run store from a test."""
    monkeypatch.setenv("CRAFTER_RUNS_DB", str(tmp_path / "default-runs.sqlite"))


def _laid_out(dsl: str) -> Figure:
    from crafter.layout import layout_figure

    return layout_figure(parse_dsl(dsl))


@pytest.fixture
def laid_out():
    """laid_out(dsl) -> the figure after layout."""
    return _laid_out


@pytest.fixture
def scripted():
    """scripted(plan=[...], repair=[...], rules=[...]) -> a ScriptedBackend with per-task reply queues."""

    def make(rules=None, **replies) -> ScriptedBackend:
        return ScriptedBackend(replies={k: list(v) for k, v in replies.items()}, rules=rules)

    return make


@pytest.fixture
def pipeline_dsl() -> str:
    return PIPELINE_DSL


PIPELINE_DSL = """figure "Pipeline"
tok node "Tokenizer"
enc node "Encoder"
dec node "Decoder"
head node "Classifier head"
e1 edge tok -> enc
e2 edge enc -> dec
e3 edge dec -> head "logits"
"""
