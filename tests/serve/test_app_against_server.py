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
