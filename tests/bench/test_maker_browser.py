"""The browser makers (Mermaid, Excalidraw, draw.io) draw through one Chromium set-up
(craftbench.makers.browser over crafteditor.browser): without a browser each says which maker could not draw, in its own error."""

from __future__ import annotations

from pathlib import Path

import pytest

from craftbench.makers import drawio_real, excalidraw, mermaid
from crafteditor import browser


@pytest.mark.parametrize(("module", "error", "maker"), [(mermaid, mermaid.MermaidMakerError, "Mermaid"),
                                                        (excalidraw, excalidraw.ExcalidrawMakerError, "Excalidraw"),
                                                        (drawio_real, drawio_real.DrawioMakerError, "draw.io")])
def test_without_chromium_each_maker_says_so_in_its_own_error(monkeypatch, tmp_path, module, error, maker):
    pytest.importorskip("playwright")
    monkeypatch.setattr(browser, "CHROMIUM", str(tmp_path / "no-chromium"))
    monkeypatch.setattr(excalidraw, "_fonts_b64", lambda: {})  # the fonts are not what this test is about
    monkeypatch.setattr(excalidraw, "rough_js", lambda: Path("rough.js"))
    monkeypatch.setattr(mermaid, "mermaid_js", lambda: Path("mermaid.min.js"))
    monkeypatch.setattr(drawio_real, "viewer_js", lambda: tmp_path / "viewer.min.js")
    (tmp_path / "viewer.min.js").write_text("")
    with pytest.raises(error, match=f"the {maker} maker cannot draw: .*no Chromium"):
        module.render([])
