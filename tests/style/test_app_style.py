"""The app's Settings: drop figures, see the learned style as swatches and a sample, keep it, pick it,
and apply it to the figure being edited."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "app"))

from app_helpers import APP, APP_TIMEOUT, open_dsl  # noqa: E402


@pytest.fixture
def app(tmp_path, monkeypatch):
    from streamlit.testing.v1 import AppTest

    monkeypatch.setenv("CRAFTER_RUNS_DB", str(tmp_path / "runs.sqlite"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    at = AppTest.from_file(str(APP), default_timeout=APP_TIMEOUT)
    at.session_state["set_backend"] = "none"
    at.run()
    assert not at.exception, at.exception
    return at


def test_learn_keep_pick_and_apply_a_house_style(app, svg_sets) -> None:
    files = [(p.name, p.read_bytes(), "image/svg+xml") for p in svg_sets["lab"][:3]]
    app.file_uploader(key="style_files").set_value(files).run()
    app.text_input(key="style_name").set_value("ourlab").run()
    app.button(key="learn_style").click().run()
    assert not app.exception, app.exception
    learned = app.session_state["learned_style"]
    assert learned["name"] == "ourlab" and learned["palette"]["node_fill"]["value"] == "#FFF4E0"
    assert any("ourlab" in c.value and "3 figure(s)" in c.value for c in app.caption)  # beside the swatches
    assert services_previews_work(learned)
    app.button(key="keep_style").click().run()
    assert app.session_state["set_style"] == "ourlab"
    assert "ourlab" in app.selectbox(key="set_style").options
    open_dsl(app)
    app.button(key="apply_look").click().run()
    fig = app.session_state["ws"].figure
    assert fig.style is not None and fig.style.name == "ourlab" and fig.style.node_fill == "#FFF4E0"


def services_previews_work(style: dict) -> bool:
    from crafter.ui import services

    swatches, sample = services.style_previews(style)
    return swatches[:4] == b"\x89PNG" and sample[:4] == b"\x89PNG"
