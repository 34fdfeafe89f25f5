"""Fixtures for the app tests: the AppTest harness, a private run store, recorded downloads,
and a spy on the pipeline calls the app makes (the real pipeline still runs)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from app_helpers import APP, APP_TIMEOUT  # noqa: E402


@pytest.fixture(autouse=True)
def run_store(tmp_path, monkeypatch):
    """Each test gets its own run store (and stashed uploads), never the user's."""
    path = tmp_path / "runs.sqlite"
    monkeypatch.setenv("CRAFTER_RUNS_DB", str(path))
    monkeypatch.delenv("CRAFTER_BACKEND", raising=False)
    return path


@pytest.fixture
def app():
    """A fresh app, run once, set to the rule-based pipeline (fast and deterministic)."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(APP), default_timeout=APP_TIMEOUT)
    at.session_state["set_backend"] = "none"
    at.run()
    assert not at.exception, at.exception
    return at


@pytest.fixture
def downloads(monkeypatch):
    """Every st.download_button call of a run: key -> (file name, data or a function making it)."""
    import streamlit as st
    from streamlit.elements.widgets.button import ButtonMixin

    seen: dict[str, tuple[str, Any]] = {}
    original = ButtonMixin.download_button
    original_st = st.download_button  # bound to the main container at import

    def recording(self, label, data, file_name=None, *args, **kwargs):
        seen[kwargs.get("key") or label] = (file_name, data)
        return original(self, label, data, file_name, *args, **kwargs)

    def recording_st(label, data, file_name=None, *args, **kwargs):
        seen[kwargs.get("key") or label] = (file_name, data)
        return original_st(label, data, file_name, *args, **kwargs)

    monkeypatch.setattr(ButtonMixin, "download_button", recording)
    monkeypatch.setattr(st, "download_button", recording_st)
    return seen


@pytest.fixture
def pipeline_calls(monkeypatch):
    """The keyword arguments of every pipeline run the app starts (the real pipeline still runs)."""
    from crafter import graph

    calls: list[dict[str, Any]] = []
    for name in ("iter_generate", "iter_edit"):
        original = getattr(graph, name)

        def spy(*args, _original=original, _name=name, **kwargs):
            calls.append({"fn": _name, "args": args, **kwargs})
            return _original(*args, **kwargs)

        monkeypatch.setattr(graph, name, spy)
    return calls
