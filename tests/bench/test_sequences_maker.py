"""The sequences maker (seq12): sequence diagrams in PlantUML's skins (handwritten and napkin among
them), short and long, and Mermaid's themes; truth as the real set lists a sequence diagram's."""

from __future__ import annotations

import random
import shutil

import pytest

from craftbench.makers import mermaid, plantuml
from craftbench.makers.sequences import draw, messages_only


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
    records = draw(tmp_path, n=3, seed=0)
    assert len(records) == 3 and all((tmp_path / r["file"][5:]).is_file() for r in records[:2])
    assert all(r["edges"] for r in records)
