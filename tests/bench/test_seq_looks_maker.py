"""The seq-looks maker (seq15): one real Mermaid sequence block drawn by Mermaid as the repository holds it and
translated for PlantUML; truth as the real set lists a sequence diagram's (participants twice, notes as nodes,
messages as (sender, receiver), self-messages too)."""

from __future__ import annotations

import shutil

import pytest
from test_seq_real_maker import BLOCK

from craftbench.makers import MAKERS
from craftbench.makers.plantuml import PlantumlMakerError
from craftbench.makers.plantuml import render as plantuml_render
from craftbench.makers.seq_looks import LOOKS, puml_source, truth
from craftbench.makers.seq_real import parse_mermaid


def test_truth_lists_notes_as_nodes_and_every_message():
    seq = parse_mermaid(BLOCK, "kubernetes/enhancements", "keps/x/README.md", "Apache-2.0")
    assert seq is not None and seq.block == BLOCK  # Mermaid draws the block itself, frames and activations too
    t = truth(seq)
    assert t["nodes"] == [*seq.parts, "see the seed diagram", *seq.parts]
    assert t["edges"] == [["kube-apiserver", "kms_plugin"], ["kms_plugin", "kube-apiserver"],
                          ["kube-apiserver", "kube-apiserver"], ["kube-apiserver", "etcd"]]


def test_plantuml_source_keeps_names_heads_and_notes():
    seq = parse_mermaid(BLOCK, "kubernetes/enhancements", "keps/x/README.md", "Apache-2.0")
    src = puml_source(seq, "handwritten", 120).splitlines()
    assert src[:3] == ["@startuml", "skinparam dpi 120", "skinparam handwritten true"]
    assert 'participant "kube-apiserver" as P0' in src
    assert "note over P0, P1 : see the seed diagram" in src
    assert "P1 --> P0 : decrypted DEK seed (cached)" in src  # dotted, filled head
    assert "P0 ->> P2 : store" in src  # Mermaid's async ``-)``: the open head
    assert src[-1] == "@enduml"


def test_every_tool_and_theme_is_drawn_and_registered():
    assert {tool for tool, _ in LOOKS} == {"mermaid", "plantuml", "jsd"}
    assert {"dark", "forest", "neutral", "handwritten", "napkin", "hand", "simple"} <= {t for _, t in LOOKS}
    assert MAKERS["seq-looks"] == "craftbench.makers.seq_looks"


def test_text_from_a_repository_runs_nothing_in_plantumls_preprocessor():
    seq = parse_mermaid(BLOCK, "kubernetes/enhancements", "keps/x/README.md", "Apache-2.0")
    seq.msgs[0] = (*seq.msgs[0][:2], 'home is %getenv("HOME")', *seq.msgs[0][3:])
    src = puml_source(seq, "default", 96)
    assert "%getenv" not in src and 'home is <U+0025>getenv("HOME")' in src


@pytest.mark.skipif(shutil.which("plantuml") is None, reason="plantuml is not installed")
def test_a_source_plantuml_refuses_is_left_out_and_the_others_are_drawn(tmp_path):
    good = "@startuml\nA -> B : hello\n@enduml\n"
    bad = "@startuml\nA -> B : hello\n!unknowndirective\n@enduml\n"
    with pytest.raises(PlantumlMakerError):
        plantuml_render(tmp_path, [("good", good), ("bad", bad)])
    (tmp_path / "good.png").unlink()
    assert plantuml_render(tmp_path, [("good", good), ("bad", bad)], strict=False) == ["bad"]
    assert (tmp_path / "good.png").is_file()
