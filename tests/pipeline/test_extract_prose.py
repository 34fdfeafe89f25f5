"""The brief reader on prose: the paragraphs researchers actually write, across fields."""

from __future__ import annotations

import pytest

from crafter.agents.extract import figure_from_brief, read_brief
from crafter.agents.labels import normalise_label


def _graph(brief: str) -> tuple[set[str], set[tuple[str, str]]]:
    fig = figure_from_brief(brief)
    labels = {n.id: normalise_label(n.label) for n in fig.of_kind("node")}
    return set(labels.values()), {(labels[e.source], labels[e.target]) for e in fig.of_kind("edge")}


def _n(*labels: str) -> set[str]:
    return {normalise_label(x) for x in labels}


def _e(*pairs: tuple[str, str]) -> set[tuple[str, str]]:
    return {(normalise_label(a), normalise_label(b)) for a, b in pairs}


CASES = [
    ("An encoder feeds a latent code, which the decoder reads. A discriminator judges the decoder output.",
     ["Encoder", "Latent code", "Decoder", "Discriminator"],
     [("Encoder", "Latent code"), ("Latent code", "Decoder"), ("Decoder", "Discriminator")]),
    ("Images are split into patches, which are embedded by a linear projection. The embeddings pass through a "
     "transformer encoder; a classification head reads the CLS token.",
     ["Images", "Patches", "Linear projection", "Embeddings", "Transformer encoder", "CLS token", "Classification head"],
     [("Images", "Patches"), ("Patches", "Linear projection"), ("Linear projection", "Embeddings"),
      ("Embeddings", "Transformer encoder"), ("Transformer encoder", "CLS token"), ("CLS token", "Classification head")]),
    ("Figure 2: Our retrieval pipeline. The query is embedded and used to search a vector index; the top-k passages "
     "are re-ranked and given to the LLM, which writes the answer.",
     ["Query", "Vector index", "Top-k passages", "LLM", "Answer"],
     [("Query", "Vector index"), ("Vector index", "Top-k passages"), ("Top-k passages", "LLM"), ("LLM", "Answer")]),
    ("X and Y feed Z.", ["X", "Y", "Z"], [("X", "Z"), ("Y", "Z")]),
    ("A retriever fetches passages for the reader, which writes the answer.", ["Retriever", "Reader", "Answer"],
     [("Retriever", "Reader"), ("Reader", "Answer")]),  # "for the reader": the reader receives them
    ("The retriever fetches passages for each query.", ["Retriever", "Passages"], [("Passages", "Retriever")]),
    ("The router feeds both the cache and the database.", ["Router", "Cache", "Database"],
     [("Router", "Cache"), ("Router", "Database")]),
    ("The encoder sends features to the decoder via skip connections.", ["Encoder", "Decoder"], [("Encoder", "Decoder")]),
    ("DNA is transcribed into mRNA by RNA polymerase. The mRNA is translated into protein by the ribosome.",
     ["DNA", "mRNA", "Protein"], [("DNA", "mRNA"), ("mRNA", "Protein")]),
    ("The load balancer forwards requests to the web servers, which query the Postgres database.",
     ["Load balancer", "Web servers", "Postgres database"],  # a store queried answers back (the written corpus
     [("Load balancer", "Web servers"), ("Postgres database", "Web servers")]),  # draws every store query so)
    ("The prompt builder queries the language model, which writes the draft.",  # not a store: forward
     ["Prompt builder", "Language model", "Draft"],
     [("Prompt builder", "Language model"), ("Language model", "Draft")]),
    ("The actor sends actions to the environment, which returns a reward to the critic. The critic updates the actor.",
     ["Actor", "Environment", "Critic"], [("Actor", "Environment"), ("Environment", "Critic"), ("Critic", "Actor")]),
    ("Data flows from the sensor to the microcontroller.", ["Sensor", "Microcontroller"],
     [("Sensor", "Microcontroller")]),
    ("The generator produces fake images, and the discriminator judges them.",
     ["Generator", "Fake images", "Discriminator"], [("Generator", "Fake images"), ("Fake images", "Discriminator")]),
    ("Queries, keys and values are computed from the input embeddings.",
     ["Queries", "Keys", "Values", "Input embeddings"],
     [("Input embeddings", "Queries"), ("Input embeddings", "Keys"), ("Input embeddings", "Values")]),
    ("The decoder is fed by the encoder.", ["Encoder", "Decoder"], [("Encoder", "Decoder")]),
    ("The tokens are passed to the encoder. The decoder consumes the encoder output.",
     ["Tokens", "Encoder", "Decoder"], [("Tokens", "Encoder"), ("Encoder", "Decoder")]),
    ("The reader takes the retrieved passages and produces an answer.",
     ["Reader", "Retrieved passages", "Answer"], [("Retrieved passages", "Reader"), ("Reader", "Answer")]),
    ("The product stream flows into a distillation column.", ["Product stream", "Distillation column"],
     [("Product stream", "Distillation column")]),
    ("The laser beam passes through a beam splitter.", ["Laser beam", "Beam splitter"],
     [("Laser beam", "Beam splitter")]),
    ("The encoder is followed by a pooling layer, which feeds the classifier.",
     ["Encoder", "Pooling layer", "Classifier"], [("Encoder", "Pooling layer"), ("Pooling layer", "Classifier")]),
    ("The retriever reads from the vector index and writes to the cache.", ["Retriever", "Vector index", "Cache"],
     [("Vector index", "Retriever"), ("Retriever", "Cache")]),
]


@pytest.mark.parametrize("brief,nodes,edges", CASES, ids=[c[0][:40] for c in CASES])
def test_prose_briefs(brief: str, nodes: list[str], edges: list[tuple[str, str]]) -> None:
    got_nodes, got_edges = _graph(brief)
    assert got_nodes == _n(*nodes)
    assert got_edges == _e(*edges)


def test_caption_becomes_the_title() -> None:
    assert figure_from_brief("Figure 2: Our retrieval pipeline. The query feeds the index.").title == "Retrieval pipeline"


def test_edge_label_from_the_object() -> None:
    fig = figure_from_brief("The actor sends actions to the environment.")
    assert [e.label for e in fig.of_kind("edge")] == ["actions"] or [e.label for e in fig.of_kind("edge")] == ["Actions"]


def test_groups() -> None:
    fig = figure_from_brief("Inside the encoder block, self-attention feeds a feed-forward layer.")
    (group,) = fig.of_kind("group")
    assert normalise_label(group.label) == "encoder block" and len(group.members) == 2
    fig = figure_from_brief(
        "Self-attention and a feed-forward layer form the encoder block. The encoder block feeds the decoder."
    )
    (group,) = fig.of_kind("group")
    assert len(group.members) == 2 and len(fig.of_kind("edge")) == 1  # the block's edge leaves from its last member


def test_a_verb_whose_object_is_nothing_draws_no_link() -> None:
    # "the camera sends nothing back to the state machine" had drawn camera -> state machine labelled "Nothing";
    # the name head's link between the two goes too, as for "never talks to"
    brief = ("A face camera records at 200 Hz, triggered by the Bpod. The camera sends nothing back to the state "
             "machine. The Bpod triggers the sound card.")
    head = {"node": ["Face camera", "Bpod", "State machine", "Sound card"],
            "links": [("bpod", "face camera"), ("face camera", "state machine"), ("bpod", "sound card")]}
    for names in (None, head):
        fig = figure_from_brief(brief, names=names)
        lab = {c.id: c.label for c in fig.components}
        drawn = {(lab[e.source], lab[e.target]) for e in fig.of_kind("edge")}
        assert ("Bpod", "Sound card") in drawn
        assert not any("camera" in a.lower() and "machine" in b.lower() for a, b in drawn), drawn
        assert not any((e.label or "").lower() == "nothing" for e in fig.of_kind("edge"))


def test_a_plural_noun_that_is_also_a_verb_heads_its_subject_before_are() -> None:
    r = read_brief("The CheckM2 reports are all collected by MultiQC into one HTML report.")
    assert ("CheckM2 reports", "MultiQC") in r.relations and ("MultiQC", "One HTML report") in r.relations
    r = read_brief("The bin reports are passed to MultiQC.")
    assert r.relations == [("Bin reports", "MultiQC")]
