"""Round 14's review of the brief reader (links14): words ending "-ics" are nouns, passive steps chain only where the
order is said, words that say which one leave a label only after a determiner, and a pronoun after a clause that
linked nothing is that clause's subject anywhere in a brief."""

from __future__ import annotations

from crafter.agents.extract import figure_from_brief


def _read(text: str) -> tuple[set[str], set[tuple[str, str]]]:
    fig = figure_from_brief(text)
    labels = {n.id: n.label for n in fig.of_kind("node")}
    return set(labels.values()), {(labels[e.source], labels[e.target]) for e in fig.of_kind("edge")}


def test_a_word_ending_in_ics_is_a_noun_not_a_verb_the_lexicon_lacks() -> None:
    nodes, edges = _read("The web analytics events and server logs are sent to the warehouse.")
    assert ("Web analytics events", "Warehouse") in edges and "Web" not in nodes
    nodes, edges = _read("The lab metrics dashboards and alerts are fed by the collector.")
    assert ("Collector", "Lab metrics dashboards") in edges and "Lab" not in nodes


def test_two_agents_after_and_each_read_the_subject() -> None:
    _, edges = _read("The events are consumed by the dashboard and read by the archiver.")
    assert {("Events", "Dashboard"), ("Events", "Archiver")} <= edges
    assert ("Dashboard", "Archiver") not in edges
    _, edges = _read("Raw reads are trimmed by fastp and then aligned by BWA-MEM2.")  # a step word: a chain
    assert ("Fastp", "BWA-MEM2") in edges and ("Raw reads", "BWA-MEM2") not in edges
