"""The app's service layer, pointed at a model server by CRAFTER_MODEL_URL, makes its figures there."""

from __future__ import annotations

import httpx

from crafter.llm.backends import _CACHE
from crafter.ui import services
from crafter.ui.settings import Settings


def test_the_app_generates_a_figure_with_the_served_model(server, monkeypatch):
    monkeypatch.setenv("CRAFTER_MODEL_URL", server.url)
    assert "model server " + server.url in Settings.with_backend("craftlm").describe_backend()
    before = httpx.get(server.url + "/health").json()["completed"]
    result = services.generate("The encoder feeds the decoder, which writes to a cache.", backend="craftlm", rounds=1)
    assert result.figure is not None and {c.label for c in result.figure.components} >= {"encoder", "decoder", "cache"}
    assert httpx.get(server.url + "/health").json()["completed"] > before  # the model ran in the server
    _CACHE.pop(f"server:{server.url}", None)


def test_with_the_server_down_the_app_still_makes_the_figure_and_says_why(monkeypatch):
    from crafter.serve import free_port

    url = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    monkeypatch.setenv("CRAFTER_MODEL_URL", url)
    result = services.generate("The encoder feeds the decoder.", backend="craftlm", rounds=0)
    assert result.figure is not None  # the rule-based planner took over
    said = " ".join(str(w) for w in result.warnings)
    assert "cannot reach" in said and "crafter serve" in said, said
    _CACHE.pop(f"server:{url}", None)
