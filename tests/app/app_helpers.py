"""Helpers shared by the app tests (a plain module: several test folders have a conftest.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "app.py"
APP_TIMEOUT = 120  # seconds per AppTest run: the first run imports the whole stack

TWO_NODES = """figure "Encoder decoder"
enc node "Encoder" shape=round
dec node "Decoder"
e1 edge enc -> dec "latent"
"""


def data_of(entry: tuple[str, Any]) -> bytes:
    """The bytes a recorded download button offers (made now if it defers them)."""
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
