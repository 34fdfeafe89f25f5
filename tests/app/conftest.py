"""Shared fixtures for the app tests: the AppTest harness, recorded downloads, figures.

While parts of Crafter the app calls are not installed yet (the layout engine, the
pipeline), stand-ins take their place here so the app's own behaviour stays tested.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "app.py"
sys.path.insert(0, str(Path(__file__).parent))

import stand_in_layout  # noqa: E402

stand_in_layout.install_if_missing()

APP_TIMEOUT = 120  # seconds per AppTest run: the first run imports the whole stack

TWO_NODES = """figure "Encoder decoder"
enc node "Encoder" shape=round
dec node "Decoder"
e1 edge enc -> dec "latent"
"""


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


def data_of(entry: tuple[str, Any]) -> bytes:
    data = entry[1]
    data = data() if callable(data) else data
    return data.encode() if isinstance(data, str) else data


def errors(at) -> list[str]:
    return [e.value for e in at.error]


def open_dsl(at, text: str = TWO_NODES, name: str = "fig.dsl"):
    """Open a figure through the Open tab's uploader (what a user does)."""
    at.file_uploader(key="open_upload").set_value((name, text.encode(), "text/plain"))
    at.run()
    assert not at.exception, at.exception
    return at


def current_svg(at) -> str:
    return at.session_state["ws"].svg


@pytest.fixture
def pipeline_calls(monkeypatch):
    """The keyword arguments of every pipeline run the app starts (the real pipeline still runs)."""
    import crafter.graph as graph

    calls: list[dict[str, Any]] = []
    for name in ("iter_generate", "iter_edit"):
        original = getattr(graph, name)

        def spy(*args, _original=original, _name=name, **kwargs):
            calls.append({"fn": _name, "args": args, **kwargs})
            return _original(*args, **kwargs)

        monkeypatch.setattr(graph, name, spy)
    return calls
