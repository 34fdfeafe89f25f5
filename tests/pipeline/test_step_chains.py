"""Round 14's links of written briefs: passive step chains, a pronoun after a clause that ended nowhere, a verb the
lexicon lacks before a plural object, a subject noun that is also a verb, labels without "same" / "fresh", and a
list whose heading item is also a group's member (it used to crash the reader)."""

from __future__ import annotations

from figure_labels import edge_labels, node_labels

from crafter.agents.extract import figure_from_brief


def test_passive_steps_each_with_its_agent_chain_in_the_order_said() -> None:
    edges = edge_labels(figure_from_brief("Raw reads are trimmed by fastp, then aligned by BWA-MEM2 and finally sorted by "
                                     "samtools."))
    assert {("Raw reads", "Fastp"), ("Fastp", "BWA-MEM2"), ("BWA-MEM2", "Samtools")} <= edges
    assert ("Raw reads", "BWA-MEM2") not in edges and ("Raw reads", "Samtools") not in edges
    # a producer's agent stays the source, and the coordinated step reads the product
    edges = edge_labels(figure_from_brief("Embeddings are produced by the encoder and consumed by the ranker."))
    assert {("Encoder", "Embeddings"), ("Embeddings", "Ranker")} <= edges
    edges = edge_labels(figure_from_brief("Patches are embedded by a linear projection, then encoded by the ViT encoder."))
    assert edges == {("Patches", "Linear projection"), ("Linear projection", "ViT encoder")}


def test_a_pronoun_after_a_clause_that_ended_nowhere_is_that_clause_s_subject() -> None:
    fig = figure_from_brief("First, the images are resized; then a ViT encodes them; finally a linear head predicts "
                            "the class.")
    assert "ViT" in node_labels(fig)
    assert ("Images", "ViT") in edge_labels(fig)


def test_a_verb_the_lexicon_lacks_before_a_plural_object_ends_the_subject() -> None:
    fig = figure_from_brief("The crawler fetches pages. The parser extracts links. A Kafka topic buffers events; a "
                            "Flink job consumes them.")
    nodes = node_labels(fig)
    assert {"Parser", "Kafka topic"} <= nodes
    assert not any("extracts" in n or "buffers" in n for n in nodes)


def test_a_noun_that_is_also_a_verb_before_is_is_the_subject() -> None:
    fig = figure_from_brief("The final score is produced by a linear head.")
    assert node_labels(fig) == {"Final score", "Linear head"}
    assert edge_labels(fig) == {("Linear head", "Final score")}


def test_words_that_say_which_one_are_no_part_of_a_label() -> None:
    fig = figure_from_brief("Both views are encoded by the same ResNet backbone, and a separate projection head "
                            "reads its features.")
    nodes = node_labels(fig)
    assert {"ResNet backbone", "Projection head"} <= nodes
    assert not any(n.lower().startswith(("same", "separate")) for n in nodes)


def test_a_list_heading_that_another_item_holds_stays_a_box_and_the_figure_is_valid() -> None:
    # "Vetter" is a member of the "Tracker" item and heads a list item of its own: the figure used to carry an
    # edge to a box that was opened up into a group (SpecError: no component with id 'vetter')
    fig = figure_from_brief("Detectors (all read the same calibrated image stack, in parallel):\n"
                            "- Tracker: moving sources; its candidate faint streaks are also passed to Vetter\n"
                            "- Vetter: NEOs and TNOs\n"
                            "- Photometer: light curves\n"
                            "- Astrometer: positions\n"
                            "Downstream: MPCpost annotates the Vetter and Tracker lists. Photometer and Astrometer "
                            "output skips MPCpost entirely and goes straight into the nightly report.")
    ids = {c.id for c in fig.components}
    assert all(e.source in ids and e.target in ids for e in fig.of_kind("edge"))
    assert ("Vetter", "MPCpost") in edge_labels(fig)
