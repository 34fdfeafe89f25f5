"""Round 12's links of written briefs: list items a collective gathers ("All three readouts are stored in …")."""

from __future__ import annotations

from figure_labels import edge_labels, edge_texts

from crafter.agents.extract import figure_from_brief
from crafter.agents.reading import BriefReading, read_followed_by
from crafter.agents.wrapped import unwrap_lines


def test_list_items_gathered_by_a_named_collective_each_feed_its_target() -> None:
    fig = figure_from_brief("Each serum sample is measured three ways, which feed one store:\n"
                            "- Mass spec: protein abundances\n"
                            "- ELISA: cytokine levels\n"
                            "- Flow cytometry: cell counts\n"
                            "All three readouts are stored in the results database, which feeds the dashboard.")
    edges = edge_labels(fig)
    assert {("Mass spec", "Results database"), ("ELISA", "Results database"),
            ("Flow cytometry", "Results database"), ("Results database", "Dashboard")} <= edges
    # side by side, not a chain; and no box called "Three readouts"
    assert ("Mass spec", "ELISA") not in edges and ("ELISA", "Flow cytometry") not in edges
    assert not any("readouts" in n.label.lower() for n in fig.of_kind("node"))


def test_a_model_trained_on_data_reads_the_data() -> None:
    edges = edge_labels(figure_from_brief("The click logs are cleaned by a deduplicator. A ranking model is trained on "
                                     "the click logs and serves the search page."))
    assert ("Click logs", "Ranking model") in edges and ("Ranking model", "Click logs") not in edges


def test_a_passive_with_an_agent_and_a_target_goes_through_the_agent() -> None:
    edges = edge_labels(figure_from_brief("The reports are collected by the aggregator into one HTML report."))
    assert {("Reports", "Aggregator"), ("Aggregator", "HTML report")} <= edges
    assert ("Reports", "HTML report") not in edges
    # a producer's agent stays the source: "B is fed by A to C" keeps B -> C
    assert ("Decoder", "Output") in edge_labels(figure_from_brief("The decoder is fed by the encoder to the output."))


def test_a_nounish_verb_before_an_adverb_and_a_verb_is_the_noun() -> None:
    fig = figure_from_brief("The trimmer removes adapters. Clean reads then enter the assembler.")
    # (read whole, "Clean reads" is the data the trimmer hands on: the arrow's words, round 24)
    assert "Clean" not in {n.label for n in fig.of_kind("node")}
    assert edge_texts(fig).get(("Trimmer", "Assembler")) == "Clean reads"
    # a subject noun after its determiner stays the subject: two verbs joined by the adverb
    fig = figure_from_brief("The worker reads then writes results to the object store.")
    assert {n.label for n in fig.of_kind("node")} == {"Worker", "Object store"}
    assert ("Worker", "Object store") in edge_labels(fig)


def test_a_step_followed_by_the_next_one() -> None:
    edges = edge_labels(figure_from_brief("The profiling branch runs Kraken2 followed by Bracken re-estimation, while the "
                                     "assembly branch runs MEGAHIT."))
    assert ("Kraken2", "Bracken re-estimation") in edges
    edges = edge_labels(figure_from_brief("The encoder is a stack of convolutions followed by a pooling layer."))
    assert ("Pooling layer", "Stack of convolutions") not in edges
    assert ("Stack of convolutions", "Pooling layer") in edges
    # a time or an amount is no step
    fig = figure_from_brief("The sample is sent to the sequencer, followed by two hours of incubation.")
    assert "Hours" not in {n.label for n in fig.of_kind("node")}
    assert not any(b.startswith(("Hours", "Two hours")) for a, b in edge_labels(fig) if a == "Sequencer")


def test_followed_by_takes_the_longest_name_ending_there_and_no_amount() -> None:
    r = BriefReading(entities=["Images", "ResNet encoder", "Encoder"])
    read_followed_by("The images pass through a ResNet Encoder followed by a projection head.", r)
    assert r.relations == [("ResNet encoder", "Projection head")]
    r = BriefReading(entities=["Sample", "Sequencer"])
    read_followed_by("The sample is sent to the sequencer, followed by two hours of incubation.", r)
    assert r.relations == [] and r.entities == ["Sample", "Sequencer"]


def test_a_model_trained_on_hardware_reads_no_data() -> None:
    fig = figure_from_brief("The model is trained on 8 A100 GPUs.")
    assert not edge_labels(fig) and "8 A100 GPUs" not in {n.label for n in fig.of_kind("node")}
    assert not any(b == "Ranker" for _, b in edge_labels(figure_from_brief("The ranker is trained on TPUs and serves it.")))
    # data with a count is still data
    assert ("1,000 labelled images", "Classifier") in edge_labels(figure_from_brief(
        "The classifier is trained on 1,000 labelled images."))


def test_after_which_hands_on_to_the_next_name() -> None:
    # ", after which the loader …": the bucket the sorter wrote to is what the loader takes next
    fig = figure_from_brief("The sorter writes each batch to the staging bucket, after which the loader copies it "
                            "into the warehouse.")
    edges = edge_labels(fig)
    assert {("Sorter", "Staging bucket"), ("Staging bucket", "Loader"), ("Loader", "Warehouse")} <= edges


def test_a_docstring_wrapped_mid_sentence_is_read_as_its_sentences() -> None:
    # "… the encoder\n    passes …": one sentence wrapped at the docstring's width, not a line opening on "passes"
    brief = ('class Pipeline:\n    """Speech pipeline.\n\n    Each utterance is cut into frames; the acoustic '
             'encoder reads\n    the frames and passes its hidden states to the CTC decoder, which\n    writes the '
             'transcript to the results store.\n    """')
    edges = edge_labels(figure_from_brief(brief))
    assert ("Acoustic encoder", "CTC decoder") in edges
    assert ("CTC decoder", "Results store") in edges
    # lines that draw arrows stay lines
    lines = "raw reads → trimming with fastp and host removal with Bowtie2\nclean reads → assembly with MEGAHIT"
    assert unwrap_lines(lines) == lines
