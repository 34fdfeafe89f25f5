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


@pytest.fixture
def app():
    """A fresh app, run once."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(APP), default_timeout=APP_TIMEOUT)
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
def fake_pipeline(monkeypatch):
    """Stand-in for crafter.graph behind the app's service adapter: records calls, streams events."""
    from crafter.agents.backend import ModelUnavailable
    from crafter.spec import parse_dsl
    from crafter.ui import services

    calls: list[dict[str, Any]] = []

    def generate(brief, *, table=None, image=None, backend="craftlm", rounds=3, theme=None, width_in=None,
                 db_path=None, on_event=None):
        calls.append({"brief": brief, "table": table, "image": image, "backend": backend, "rounds": rounds})
        if "FAIL" in brief:
            raise ModelUnavailable("model backend 'craftlm' could not be loaded: weights missing")
        for ev in ({"node": "plan"}, {"node": "layout"}, {"node": "render"},
                   {"node": "critique", "issues_left": 1}, {"node": "repair", "round": 1, "issues_left": 0}):
            if on_event:
                on_event(ev)
        fig = parse_dsl(TWO_NODES)
        laid, svg = services.render(fig)
        return services.PipelineResult(laid, svg, [], {"rounds": 1}, "run-1")

    def edit(fig, instruction, *, backend="craftlm", rounds=3, db_path=None, on_event=None):
        calls.append({"instruction": instruction})
        data = fig.to_dict()
        for c in data["components"]:
            if c["id"] == "enc":
                c["fill"] = "#0072B2"
        laid, svg = services.render(type(fig).from_dict(data))
        return services.PipelineResult(laid, svg, [], {}, None)

    monkeypatch.setattr(services, "generate", generate)
    monkeypatch.setattr(services, "edit", edit)
    return calls
