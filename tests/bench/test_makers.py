"""`craftbench makers`: a maker's figures land with a manifest the real track reads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from craftbench.makers import MAKERS, MakerError, draw_makers
from crafteditor.realset import load_real

FAKE = '''
from PIL import Image

def draw(figs, n, seed):
    out = []
    for i in range(n):
        name = f"fake_{seed}_{i}.png"
        Image.new("RGB", (40, 30), "white").save(figs / name)
        out.append({"id": f"fake_{seed}_{i}", "file": f"figs/{name}", "kind": "diagram", "text": "A B",
                    "nodes": ["A", "B"], "edges": [["A", "B"]]})
    return out
'''


def test_a_makers_figures_load_as_the_real_track_reads_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "mods").mkdir()
    (tmp_path / "mods" / "fake_maker.py").write_text(FAKE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path / "mods"))
    monkeypatch.setitem(MAKERS, "fake", "fake_maker")
    manifest = draw_makers("fake", tmp_path / "out", n=3, seed=7)
    assert json.loads(manifest.read_text())["about"].startswith("drawn by")
    figs = load_real(tmp_path / "out", "all", manifest)
    assert [f.id for f in figs] == ["fake_7_0", "fake_7_1", "fake_7_2"]
    assert {f.split for f in figs} == {"drawn"}  # never mistaken for the real set's dev or test split
    assert load_real(tmp_path / "out", "test", manifest) == []


def test_an_unknown_maker_is_named_with_the_known_ones(tmp_path: Path) -> None:
    with pytest.raises(MakerError, match=r"unknown maker kind 'nope' \(known: .*charts"):
        draw_makers("nope", tmp_path)
