"""The seq-real maker (seq13): real Mermaid sequence blocks translated to js-sequence-diagrams (its
napkin-like ``hand`` theme and its ``simple`` one); truth as the real set lists a sequence diagram's."""

from __future__ import annotations

import pytest

from craftbench.makers import seq_real
from craftbench.makers.seq_real import parse_mermaid, source, truth

# a KEP's block, as kubernetes/enhancements has it (aliases, an alt block, a note over two lifelines)
BLOCK = """sequenceDiagram
    participant api as kube-apiserver
    participant kms as kms_plugin
    alt DEK seed not cached
        Note over api,kms: see the seed diagram
        api->>+kms: decrypt request
        kms-->>-api: decrypted DEK seed<br/>(cached)
    end
    api->>api: generate DEK
    api-)etcd: store"""


def test_translates_a_real_block_and_keeps_its_truth():
    seq = parse_mermaid(BLOCK, "kubernetes/enhancements", "keps/x/README.md", "Apache-2.0")
    assert seq is not None
    assert seq.parts == ["kube-apiserver", "kms_plugin", "etcd"]
    t = truth(seq)
    # each participant twice (top and bottom); every message an edge, the self-call too
    assert t["nodes"] == seq.parts * 2
    assert t["edges"] == [["kube-apiserver", "kms_plugin"], ["kms_plugin", "kube-apiserver"],
                          ["kube-apiserver", "kube-apiserver"], ["kube-apiserver", "etcd"]]
    assert "decrypted DEK seed (cached)" in t["text"] and "see the seed diagram" in t["text"]
    src = source(seq).splitlines()
    # names quoted (a hyphen would end an unquoted one), the note where the source has it, dotted kept
    assert src[0] == 'participant "kube-apiserver"'
    assert src[3].startswith('Note over "kube-apiserver","kms_plugin"')
    assert src[5] == '"kms_plugin"-->"kube-apiserver": decrypted DEK seed (cached)'
    assert src[7] == '"kube-apiserver"->>"etcd": store'


def test_refuses_what_it_cannot_translate():
    assert parse_mermaid("sequenceDiagram\n    A->>B: hi", "r", "p", "MIT") is None  # one message: too small
    assert parse_mermaid("sequenceDiagram\n    A->>B: x\n    B->>A: y\n    ???", "r", "p", "MIT") is None


@pytest.mark.slow
def test_harvests_real_blocks_from_the_mirror():
    if not seq_real.MIRROR.is_dir():
        pytest.skip("no mirrored repositories here")
    seqs = seq_real.harvest()
    assert all(s.licence and s.repo in seq_real.REPOS for s in seqs)
