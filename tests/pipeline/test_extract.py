"""The rule-based brief reader: the fallback planner and the critic's entity list."""

from __future__ import annotations

import pytest

from crafter.agents.extract import brief_entities, describes_diagram, figure_from_brief, read_brief
from crafter.agents.labels import labels_match


def _edges(fig):
    labels = {n.id: n.label for n in fig.of_kind("node")}
    return [(labels[e.source], labels[e.target]) for e in fig.of_kind("edge")]


def test_arrow_chain() -> None:
    fig = figure_from_brief("Input image -> CNN backbone → feature pyramid -> detection head")
    assert _edges(fig) == [("Input image", "CNN backbone"), ("CNN backbone", "Feature pyramid"),
                           ("Feature pyramid", "Detection head")]


def test_numbered_list_is_a_chain() -> None:
    fig = figure_from_brief("Steps:\n1. Tokenizer: splits text\n2. Embedding layer\n3. Transformer encoder")
    assert [n.label for n in fig.of_kind("node")] == ["Tokenizer", "Embedding layer", "Transformer encoder"]
    assert len(fig.of_kind("edge")) == 2


def test_flow_verbs_and_relative_pronoun() -> None:
    r = read_brief("An encoder feeds a latent space, which is passed to the decoder.")
    assert r.relations == [("Encoder", "Latent space"), ("Latent space", "Decoder")]


def test_backward_verbs() -> None:
    r = read_brief("The retriever reads from the vector index.")
    assert ("Vector index", "Retriever") in r.relations


def test_quoted_names_keep_their_case_and_are_certain() -> None:
    brief = 'Draw a box "ViT-B/16 encoder" that feeds "MLP head".'
    assert brief_entities(brief) == ["ViT-B/16 encoder", "MLP head"]
    assert _edges(figure_from_brief(brief)) == [("ViT-B/16 encoder", "MLP head")]


def test_prose_names_are_not_certain() -> None:
    # verb-pattern names are guesses: the critic must not ask for them
    assert brief_entities("The actor sends actions to the environment.") == []


@pytest.mark.parametrize("brief", ["", "   ", "Un encodeur transforme l'image, puis un décodeur la reconstruit.",
                                   "グラフを描いてください", "!!!"])
def test_never_fails_on_text(brief: str) -> None:
    fig = figure_from_brief(brief)
    assert fig.components  # always something to edit


def test_labels_match() -> None:
    assert labels_match("the Encoder", "encoder")
    assert labels_match("CNN backbones", "CNN backbone")
    assert labels_match("Encoder", "Transformer encoder")
    assert not labels_match("Encoder", "Decoder")


def test_describes_diagram() -> None:
    assert describes_diagram("A feeds B, which is passed to C. Also plot the accuracy.")
    assert not describes_diagram("Bar chart of accuracy by model.")


def test_members_that_sit_inside_a_labelled_box_are_a_group():
    from crafter.agents.extract import read_brief

    r = read_brief("The Query Encoder sends the question to the Vector Index, which returns passages to the "
                   "Reranker. The Vector Index and the Reranker sit inside a box labelled Retrieval.")
    assert ("Retrieval", ["Vector Index", "Reranker"]) in r.groups
    assert not any("sit" in e.split() for e in r.entities)  # not a node "Reranker sit"
    r = read_brief('Encoder feeds Decoder. Encoder and Decoder are placed in a group called "Backbone".')
    assert ("Backbone", ["Encoder", "Decoder"]) in r.groups
