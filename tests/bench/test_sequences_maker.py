"""The sequences maker (seq12): sequence diagrams in PlantUML's skins (handwritten and napkin among
them), short and long, and Mermaid's themes; truth as the real set lists a sequence diagram's."""

from __future__ import annotations

import random
import shutil

import pytest

from craftbench.makers import mermaid, plantuml, sequences
from craftbench.makers.sequences import draw, messages_only
from crafteditor import browser


def test_mermaid_sequence_truth_lists_messages_not_lifelines():
    for seed in range(20):
        d = mermaid.sequence(random.Random(seed))
        calls = [ln for ln in d.source.splitlines() if ":" in ln and ("->" in ln or "-)" in ln)]
        assert len(messages_only(d).edges) == len(calls), d.source


def test_plantuml_long_and_handwritten_sources():
    d = plantuml.sequence(random.Random(1), steps=(14, 24))
    assert len(d.edges) >= 8
    assert "skinparam handwritten true" in plantuml.source(d, "napkin", 150)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("plantuml") is None, reason="needs plantuml (Debian: apt-get install plantuml)")
def test_draws_plantuml_sequences(tmp_path):
    records = draw(tmp_path, n=3, seed=0)  # the Mermaid one only where Chromium and node_modules are here
    puml = [r for r in records if r["maker"] == "plantuml-sequence"]
    assert len(puml) == 2 and all((tmp_path / r["file"][5:]).is_file() for r in puml)
    assert all(r["edges"] for r in records)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("plantuml") is None, reason="needs plantuml (Debian: apt-get install plantuml)")
def test_draws_plantuml_sequences_without_a_browser(monkeypatch, tmp_path):
    monkeypatch.setattr(browser, "CHROMIUM", str(tmp_path / "no-chromium"))
    records = draw(tmp_path, n=3, seed=0)
    assert [r["maker"] for r in records] == ["plantuml-sequence"] * 2


def test_messages_only_leaves_its_argument_as_it_is():
    d = mermaid.sequence(random.Random(4))
    edges = [list(e) for e in d.edges]
    assert len(messages_only(d).edges) < len(edges) and d.edges == edges


def test_draw_goes_on_without_a_browser_but_not_past_a_refused_source(monkeypatch, tmp_path):
    monkeypatch.setattr(sequences, "_puml", lambda figs, n, rng: [])

    def missing(figs, n, rng):
        raise mermaid.MermaidMissingError("/usr/bin/chromium: no Chromium to draw Mermaid figures in")

    def refused(figs, n, rng):
        raise mermaid.MermaidMakerError("Mermaid refused a seq_mm_000_default source: Parse error")
    monkeypatch.setattr(sequences, "_mermaid", missing)
    assert draw(tmp_path, n=3) == []
    monkeypatch.setattr(sequences, "_mermaid", refused)
    with pytest.raises(mermaid.MermaidMakerError, match="refused"):
        draw(tmp_path, n=3)
