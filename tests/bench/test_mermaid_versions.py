"""craftbench.makers.mermaid_versions: real Mermaid blocks from repositories, their truth from Mermaid 11's
parse, drawn by Mermaid 8/9/10/11 (npm aliases). The truth functions are checked on parses written out here;
the drawing (Chromium and the npm aliases) skips cleanly where they are not installed."""

from __future__ import annotations

from pathlib import Path

import pytest
from mirror_helpers import bare_mirror

from craftbench.makers import mermaid_versions as mv


def test_blocks_are_the_markdown_mermaid_fences_and_their_kinds():
    md = "# t\n```mermaid\ngraph LR\n  A-->B\n```\ntext\n```python\nx=1\n```\n~~~mermaid-example\nstateDiagram\n  a-->b\n~~~\n"
    got = mv.blocks(md, markdown=True)
    assert got == ["graph LR\n  A-->B", "stateDiagram\n  a-->b"]
    assert [mv.kind_of(b) for b in got] == ["flowchart", "state"]
    assert mv.kind_of("%%{init: {}}%%\nsequenceDiagram\n A->>B: x") is None
    assert mv.blocks("flowchart TD\n A-->B", markdown=False) == ["flowchart TD\n A-->B"]


def test_label_reads_a_box_as_drawn():
    assert mv.label("Result <br/> two") == "Result two"
    assert mv.label("`**Bold** word`") == "Bold word"
    assert mv.label("A #quot;quoted#quot; name") == 'A "quoted" name'
    assert mv.label("<b>x</b> &amp; y") == "x & y"


def test_flowchart_truth_leaves_out_subgraph_and_invisible_links():
    db = {"v": [{"id": "A", "text": "Hard edge"}, {"id": "B", "text": "Round<br>edge"}, {"id": "C", "text": "C"},
                {"id": "S", "text": "S"}],
          "e": [{"start": "A", "end": "B", "text": "go", "stroke": "normal"},
                {"start": "B", "end": "C", "text": "", "stroke": "dotted"},
                {"start": "C", "end": "A", "text": "", "stroke": "invisible"},
                {"start": "C", "end": "S", "text": "", "stroke": "normal"}],
          "s": [{"id": "S", "title": "Group"}]}
    t = mv.flow_truth(db)
    assert t["nodes"] == ["Hard edge", "Round edge", "C"]
    assert t["edges"] == [["Hard edge", "Round edge"], ["Round edge", "C"]]
    assert "go" in t["text"] and "Group" in t["text"]
    db["v"][2]["text"] = "Hard edge"  # two boxes read alike: an ambiguous truth, skipped
    assert mv.flow_truth(db) is None


def _rel(a, b, text=""):
    return {"stmt": "relation", "state1": {"stmt": "state", "id": a}, "state2": {"stmt": "state", "id": b},
            "description": text}


def test_state_truth_skips_dots_and_forks_and_reads_names_and_notes():
    root = {"id": "root", "doc": [
        {"stmt": "relation", "state1": {"stmt": "state", "id": "root_start", "start": True},
         "state2": {"stmt": "state", "id": "Still"}},
        _rel("Still", "Moving", "go"),
        {"stmt": "state", "id": "Moving", "type": "default", "description": "Long name"},
        {"stmt": "state", "id": "Crash", "type": "default", "doc": [_rel("a", "b")]},
        _rel("Moving", "Crash"),
        {"stmt": "state", "id": "f", "type": "fork"}, _rel("Crash", "f"), _rel("f", "a"),
        {"stmt": "state", "id": "b", "note": {"position": "right of", "text": "a note"}}]}
    t = mv.state_truth(root)
    assert set(t["nodes"]) == {"Still", "Long name", "Crash", "a", "b", "a note"}
    assert t["edges"] == [["Still", "Long name"], ["a", "b"], ["Long name", "Crash"]]
    assert "go" in t["text"]


def test_harvest_skips_sources_exported_beside_themselves(tmp_path, monkeypatch):
    """A ``.mmd`` with a picture of its own name beside it (``a.png``, mermaid-cli's ``c.mmd.svg``), or named as a
    real-set figure of its repository (pictures kept elsewhere), may be a real-set figure's source: never drawn."""
    import json

    work = tmp_path / "w"
    work.mkdir()
    (work / "a.mmd").write_text("graph LR\n A-->B\n B-->C\n")
    (work / "a.png").write_bytes(b"x")
    (work / "c.mmd").write_text("graph LR\n C-->D\n D-->E\n")
    (work / "c.mmd.svg").write_bytes(b"x")
    (work / "d-e.mmd").write_text("graph LR\n F-->G\n G-->H\n")
    (work / "b.mmd").write_text("graph LR\n X-->Y\n Y-->Z\n")
    (work / "README.md").write_text("```mermaid\nstateDiagram-v2\n s1-->s2\n```\n")
    bare_mirror(work, tmp_path / "mirror")
    monkeypatch.setattr(mv, "REPOS", {"o/r": "MIT"})
    manifest = tmp_path / "manifest.json"
    manifest.write_text(json.dumps({"figures": [
        {"repo": "o/r", "path": "img/D_E.mmd.png", "split": "test", "nodes": []},
        {"repo": "x/y", "path": "b.png", "split": "test", "nodes": []}]}))  # another repository's: no bar
    real = mv.RealSet(manifest)
    got = mv.harvest(tmp_path / "mirror", real)
    assert sorted((g["path"], g["kind"], g["licence"]) for g in got) == [("README.md", "state", "MIT"),
                                                                         ("b.mmd", "flowchart", "MIT")]
    assert real.left_out == 1


def test_real_set_leaves_out_a_source_sharing_most_labels_with_its_repository_figure(tmp_path):
    import json

    manifest = tmp_path / "manifest.json"
    manifest.write_text(json.dumps({"figures": [
        {"repo": "o/r", "path": "docs/img/flow.png", "split": "test", "nodes": ["Start", "Check<br>input", "Done"]},
        {"repo": "o/r", "path": "other.png", "split": "dev", "nodes": ["Start", "Other", "Third", "Fourth"]}]}))
    real = mv.RealSet(manifest)
    assert real.like("o/r", ["start", "Check input", "Done", "Extra"])  # 3 of the figure's 3, drawn from it
    assert not real.like("x/y", ["Start", "Check input", "Done"])  # another repository: its figures only
    assert not real.like("o/r", ["Start", "Left", "Right", "Up"])  # one label in common is no figure
    assert real.left_out == 1
    assert "Start" not in repr(real) and mv.RealSet(tmp_path / "none.json").like("o/r", ["Start", "Done"]) is False


@pytest.mark.slow
def test_mermaid_versions_draws_each_version(tmp_path, monkeypatch):
    pytest.importorskip("playwright")
    from crafteditor.browser import CHROMIUM

    if not Path(CHROMIUM).is_file():
        pytest.skip("no Chromium")
    try:
        for package in mv.VERSIONS:
            mv.mermaid_js(package)
    except mv.MermaidMakerError:
        pytest.skip("the mermaid8/9/10 npm aliases are not installed (npm install)")
    src = "graph TD\n  A[Start here] -->|yes| B(Then this)\n  B --> C{Pick one}\n  C -.-> D[Done]\n"
    monkeypatch.setattr(mv, "harvest", lambda mirror, real=None: [{"repo": "o/r", "path": "x.md", "licence": "MIT",
                                                         "kind": "flowchart", "source": src}] * 4)
    monkeypatch.setenv("CRAFTBENCH_MIRRORS", str(tmp_path))
    recs = mv.draw(tmp_path, n=4, seed=0)
    assert [r["mermaid_version"] for r in recs] == ["8.14.0", "9.4.3", "10.9.3", "11"]
    for r in recs:
        assert r["nodes"] == ["Start here", "Then this", "Pick one", "Done"] and len(r["edges"]) == 3
        assert (tmp_path / Path(r["file"]).name).stat().st_size > 1000
