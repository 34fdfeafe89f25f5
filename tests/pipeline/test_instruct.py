"""Edits by instruction: common verbs by rule, fuzzy names, only what is named changes."""

from __future__ import annotations

from pathlib import Path

import pytest

from crafter.agents.instruct import find_components, interpret, split_clauses
from crafter.agents.issues import FIGURE
from crafter.agents.repair import changed_ids
from crafter.formats import load_figure

RAG = Path(__file__).resolve().parents[2] / "examples" / "rag_pipeline.dsl"


@pytest.fixture
def rag():
    return load_figure(RAG)


def test_split_clauses_keeps_quotes() -> None:
    assert split_clauses('make the encoder blue and rename Decoder to "Gen and Co"; delete X') == [
        "make the encoder blue", 'rename Decoder to "Gen and Co"', "delete X"]


def test_the_headline_example(rag) -> None:
    out = interpret(rag, 'make the LLM generator blue and rename Grounded answer to "Final answer"')
    assert out.unresolved == [] and out.model_issues == []
    assert out.figure.get("llm").fill == "blue"
    assert out.figure.get("ans").label == "Final answer"
    assert changed_ids(rag, out.figure) == {"llm", "ans"}


@pytest.mark.parametrize("instruction,changed,check", [
    ("rename the chunker to Splitter", {"chunk"}, lambda f: f.get("chunk").label == "Splitter"),
    ("make the vector index a hexagon", {"index"}, lambda f: f.get("index").shape == "hexagon"),
    ("turn the user query into an ellipse", {"q"}, lambda f: f.get("q").shape == "ellipse"),
    ("colour the arrow from the query encoder to the vector index red", {"e2"}, lambda f: f.get("e2").color == "red"),
    ("make the LLM generator's text white", {"llm"}, lambda f: f.get("llm").text_color == "white"),
    ("make the edge from chunker to index dotted", {"e4"}, lambda f: f.get("e4").style == "dotted"),
    ("make the query encoder bold", {"emb"}, lambda f: f.get("emb").bold),
    ("make the offline indexing group light blue", {"offline"}, lambda f: f.get("offline").fill == "lightblue"),
    ("fill rerank with #ffcc00", {"rerank"}, lambda f: f.get("rerank").fill == "#ffcc00"),
    ("add an arrow from the document corpus to the LLM generator labelled \"raw\"", {"docs_llm"},
     lambda f: (f.get("docs_llm").source, f.get("docs_llm").target, f.get("docs_llm").label) == ("docs", "llm", "raw")),
    ("connect Grounded answer to user query", {"ans_q"}, lambda f: f.get("ans_q").source == "ans"),
    ("make the layout vertical", {FIGURE}, lambda f: f.direction == "TB"),
    ('set the title to "RAG"', {FIGURE}, lambda f: f.title == "RAG"),
    ("make the re-ranker wider", {"rerank"}, lambda f: f.get("rerank").width is not None),
    ("reverse the arrow from the chunker to the index", {"e4"},
     lambda f: (f.get("e4").source, f.get("e4").target, f.get("e4").label) == ("index", "chunk", "embeddings")),
    ("turn the edge from the re-ranker around", {"e6"}, lambda f: (f.get("e6").source, f.get("e6").target) == ("llm", "rerank")),
    ("e8 should point the other way", {"e8"}, lambda f: (f.get("e8").source, f.get("e8").target) == ("ans", "llm")),
    ("flip the edge into Grounded answer", {"e8"}, lambda f: f.get("e8").source == "ans"),
])
def test_verbs_change_only_what_they_name(rag, instruction, changed, check) -> None:
    out = interpret(rag, instruction)
    assert not out.unresolved and not out.model_issues, (out.unresolved, out.model_issues)
    assert changed_ids(rag, out.figure) == changed
    assert check(out.figure)


def test_delete_takes_its_edges_and_group_membership(rag) -> None:
    out = interpret(rag, "delete the cross-encoder re-ranker")
    assert "rerank" not in out.figure.by_id()
    assert {"e5", "e6"}.isdisjoint(out.figure.by_id())
    assert "rerank" not in out.figure.get("online").members
    assert changed_ids(rag, out.figure) == {"rerank", "e5", "e6", "online"}


def test_add_a_node_between_two(rag) -> None:
    out = interpret(rag, 'add a node "Cache" between the query encoder and the vector index')
    f = out.figure
    assert f.get("cache").label == "Cache"
    assert f.get("e2").target == "cache" and f.get("cache_index").target == "index"


def test_move_pins_the_box(rag, laid_out) -> None:
    from crafter.layout import layout_figure

    fig = layout_figure(rag)
    out = interpret(fig, "move the user query down by 30 px")
    q0, q1 = fig.get("q"), out.figure.get("q")
    assert q1.pinned and q1.box.y == q0.box.y + 30 and q1.box.x == q0.box.x
    assert changed_ids(fig, out.figure) == {"q"}


def test_fuzzy_and_case_insensitive_names(rag) -> None:
    assert [c.id for c in find_components(rag, "the llm GENERATOR")] == ["llm"]
    assert [c.id for c in find_components(rag, "Chunker")] == ["chunk"]
    assert [c.id for c in find_components(rag, "rerank")] == ["rerank"]
    assert [c.id for c in find_components(rag, "the arrow from docs to chunker")] == ["e3"]
    assert len(find_components(rag, "all arrows")) == 8


def test_unknown_wording_goes_to_the_model_aimed_at_what_it_mentions(rag) -> None:
    out = interpret(rag, "make the vector index look more like a database with shards")
    assert out.figure == rag
    [issue] = out.model_issues
    assert issue["target"] == "index" and issue["code"] == "instruction"


def test_nothing_to_aim_at_is_reported_not_guessed(rag) -> None:
    out = interpret(rag, "make it pop")
    assert out.figure == rag and out.model_issues == [] and len(out.unresolved) == 1


def test_unknown_component_is_reported(rag) -> None:
    out = interpret(rag, "rename the flux capacitor to Engine")
    assert out.figure == rag and "flux capacitor" in out.unresolved[0]


def test_impossible_style_is_reported(rag) -> None:
    out = interpret(rag, "make the chunker dashed")
    assert out.figure == rag
    reasons = [i["reason"] for i in out.model_issues] + out.unresolved
    assert any("line style" in r for r in reasons)


# -- bug reports, as people (and CraftBench's repair and completion tracks) write them ----

def test_a_typo_report(rag) -> None:
    out = interpret(rag, "The box reading \u201cLLM generator\u201d has a typo: it should read \u201cLLM decoder\u201d.")
    assert out.figure.get("llm").label == "LLM decoder" and changed_ids(rag, out.figure) == {"llm"}


def test_a_missing_arrow_report(rag) -> None:
    out = interpret(rag, "The arrow from \u201cQuery encoder\u201d to \u201cLLM generator\u201d is missing; add it back.")
    assert out.unresolved == []
    [new] = changed_ids(rag, out.figure)
    assert (out.figure.get(new).source, out.figure.get(new).target) == ("emb", "llm")


def test_restore_a_hidden_step(rag) -> None:
    partial = interpret(rag, "delete the chunker").figure
    out = interpret(partial, "The greyed-out region hid the step \u201cChunker + embedder\u201d, fed by Document corpus "
                             "and feeding Vector index (FAISS). Restore it and its arrows; leave everything else as it is.")
    assert out.unresolved == [] and out.model_issues == []
    new = [c for c in out.figure.components if c.id not in partial.by_id()]
    node = next(c for c in new if c.kind == "node")
    assert node.label == "Chunker + embedder"
    assert {(e.source, e.target) for e in new if e.kind == "edge"} == {("docs", node.id), (node.id, "index")}


def _chart_fig():
    from crafter.spec import parse_dsl

    return parse_dsl('c chart "Accuracy" spec={"mark":"bar","encoding":{"x":{"field":"model"},"y":{"field":"acc"}},'
                     '"data":{"values":[{"model":"ViT","acc":81.2},{"model":"ResNet","acc":87.5}]}}')


def test_a_wrong_bar_report() -> None:
    fig = _chart_fig()
    out = interpret(fig, "In \u201cAccuracy\u201d the value for ResNet should be 76.1, not 87.5.")
    assert out.figure.get("c").spec["data"]["values"][1] == {"model": "ResNet", "acc": 76.1}


def test_a_masked_data_point() -> None:
    fig = _chart_fig()
    out = interpret(fig, "One mark of \u201cAccuracy\u201d was masked out: the data point (model = Swin, acc = 81.3). "
                         "Restore it.")
    assert out.figure.get("c").spec["data"]["values"][-1] == {"model": "Swin", "acc": 81.3}
    assert out.unresolved == []


def test_tidy_the_layout_widens_the_scope(rag) -> None:
    out = interpret(rag, "Two boxes overlap; tidy the layout without changing the content.")
    assert out.tidy and out.figure == rag and out.unresolved == []


def test_reversing_an_arrow_that_is_not_one_is_reported(rag) -> None:
    out = interpret(rag, "turn the edge from the user query around")  # two arrows leave it
    assert out.figure == rag and out.model_issues and "2 arrows leave" in out.model_issues[0]["reason"]
