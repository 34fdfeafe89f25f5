"""Round 12's links of written briefs: list items a collective gathers ("All three readouts are stored in …")."""

from __future__ import annotations

from crafter.agents.extract import figure_from_brief


def _edges(fig):
    labels = {n.id: n.label for n in fig.of_kind("node")}
    return {(labels[e.source], labels[e.target]) for e in fig.of_kind("edge")}


def test_list_items_gathered_by_a_named_collective_each_feed_its_target() -> None:
    fig = figure_from_brief("Each serum sample is measured three ways, which feed one store:\n"
                            "- Mass spec: protein abundances\n"
                            "- ELISA: cytokine levels\n"
                            "- Flow cytometry: cell counts\n"
                            "All three readouts are stored in the results database, which feeds the dashboard.")
    edges = _edges(fig)
    assert {("Mass spec", "Results database"), ("ELISA", "Results database"),
            ("Flow cytometry", "Results database"), ("Results database", "Dashboard")} <= edges
    # side by side, not a chain; and no box called "Three readouts"
    assert ("Mass spec", "ELISA") not in edges and ("ELISA", "Flow cytometry") not in edges
    assert not any("readouts" in n.label.lower() for n in fig.of_kind("node"))


def test_a_model_trained_on_data_reads_the_data() -> None:
    edges = _edges(figure_from_brief("The click logs are cleaned by a deduplicator. A ranking model is trained on "
                                     "the click logs and serves the search page."))
    assert ("Click logs", "Ranking model") in edges and ("Ranking model", "Click logs") not in edges



def test_a_passive_with_an_agent_and_a_target_goes_through_the_agent() -> None:
    edges = _edges(figure_from_brief("The reports are collected by the aggregator into one HTML report."))
    assert {("Reports", "Aggregator"), ("Aggregator", "HTML report")} <= edges
    assert ("Reports", "HTML report") not in edges
    # a producer's agent stays the source: "B is fed by A to C" keeps B -> C
    assert ("Decoder", "Output") in _edges(figure_from_brief("The decoder is fed by the encoder to the output."))


def test_a_nounish_verb_before_an_adverb_and_a_verb_is_the_noun() -> None:
    fig = figure_from_brief("The trimmer removes adapters. Clean reads then enter the assembler.")
    assert "Clean reads" in {n.label for n in fig.of_kind("node")}
    assert ("Clean reads", "Assembler") in _edges(fig)


def test_a_step_followed_by_the_next_one() -> None:
    edges = _edges(figure_from_brief("The profiling branch runs Kraken2 followed by Bracken re-estimation, while the "
                                     "assembly branch runs MEGAHIT."))
    assert ("Kraken2", "Bracken re-estimation") in edges
    edges = _edges(figure_from_brief("The encoder is a stack of convolutions followed by a pooling layer."))
    assert ("Pooling layer", "Convolutions") not in edges
