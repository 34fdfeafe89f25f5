"""The seq-real maker (seq13): real Mermaid sequence blocks translated to js-sequence-diagrams (its
napkin-like ``hand`` theme and its ``simple`` one); truth as the real set lists a sequence diagram's."""

from __future__ import annotations

import pytest
from mirror_helpers import bare_mirror

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
    if not seq_real.mirror_root().is_dir():
        pytest.skip("no mirrored repositories here")
    seqs = seq_real.harvest()
    assert all(s.licence and s.repo in seq_real.REPOS for s in seqs)


def test_a_hyphen_in_a_name_is_no_arrow():
    seq = parse_mermaid("sequenceDiagram\n    kube-xyz->>b: m\n    kube-apiserver--)etcd-x: n\n    b-xkube-xyz: o",
                        "r", "p", "MIT")
    assert seq is not None
    assert [m[:2] for m in seq.msgs] == [("kube-xyz", "b"), ("kube-apiserver", "etcd-x"), ("b", "kube-xyz")]


def test_heads_drawn_as_mermaid_draws_them_where_the_maker_can():
    block = "sequenceDiagram\n A->>B: filled\n A-)B: open\n A-->>B: dotted filled\n A--)B: dotted open\n A->B: none"
    seq = parse_mermaid(block, "r", "p", "MIT")
    assert [(m[3], m[4]) for m in seq.msgs] == [(False, False), (False, True), (True, False), (True, True),
                                                (False, True)]
    assert source(seq).splitlines()[2:4] == ['"A"->"B": filled', '"A"->>"B": open']


def test_a_typed_participant_is_named_by_its_alias():
    """Mermaid 11's participant types (a boundary, a database, a control icon) name the participant as any
    other: the messages between their ids are between their shown names (the id had been taken for a fourth
    participant of its own, every message's truth between ids no figure shows)."""
    block = ('sequenceDiagram\n    actor API@{ "type": "boundary" } as Public API\n'
             '    participant DB@{ "type": "database" }\n    API->>DB: query\n    DB-->>API: rows')
    seq = parse_mermaid(block, "r", "p", "MIT")
    assert seq is not None and seq.parts == ["Public API", "DB"]
    assert truth(seq)["edges"] == [["Public API", "DB"], ["DB", "Public API"]]


def test_escapes_read_and_a_bad_one_kept():
    seq = parse_mermaid("sequenceDiagram\n A->>B: #quot;hi#quot; #35;1\n B->>A: #99999999; #nope;", "r", "p", "MIT")
    assert [m[2] for m in seq.msgs] == ["'hi' #1", "#99999999; #nope;"]


def test_sources_a_real_set_figure_may_have_come_from_are_left_out(tmp_path, monkeypatch):
    import json

    work = tmp_path / "work"
    for path, parts in (("keps/1/README.md", "P,Q"), ("docs/seq.mmd", "R,S"), ("other/x.mmd", "Ann,Bob"),
                        ("other/y.mmd", "T,U")):
        (work / path).parent.mkdir(parents=True, exist_ok=True)
        a, b = parts.split(",")
        body = f"sequenceDiagram\n {a}->>{b}: hi\n {b}->>{a}: yo\n"
        (work / path).write_text(f"```mermaid\n{body}```\n" if path.endswith(".md") else body)
    bare_mirror(work, tmp_path / "mirror")
    monkeypatch.setattr(seq_real, "REPOS", {"o/r": "MIT"})
    manifest = tmp_path / "manifest.json"
    manifest.write_text(json.dumps({"figures": [
        {"repo": "o/r", "path": "keps/1/flow.png", "split": "test", "nodes": []},  # its directory
        {"repo": "o/r", "path": "img/seq.mmd.png", "split": "dev", "nodes": []},  # its name
        {"repo": "o/r", "path": "img/z.png", "split": "test", "nodes": ["Ann", "Bob", "Ann", "Bob"]},  # its names
        {"repo": "x/y", "path": "other/y.png", "split": "test", "nodes": []}]}))  # another repository's
    real = seq_real.RealSet(manifest)
    assert [s.path for s in seq_real.harvest(tmp_path / "mirror", real)] == ["other/y.mmd"]
    assert real.left_out == 3
    assert len(seq_real.harvest(tmp_path / "mirror")) == 4
