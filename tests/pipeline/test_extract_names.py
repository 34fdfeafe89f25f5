"""Names and links the rule-based reader takes from written briefs: a list item's name cut at a whole
phrase, links across sentences, ends named in other words, groups inside groups."""

from __future__ import annotations

from crafter.agents.extract import figure_from_brief, read_brief


def _edges(fig):
    labels = {n.id: n.label for n in fig.of_kind("node")}
    return {(labels[e.source], labels[e.target]) for e in fig.of_kind("edge")}


def test_a_long_item_name_ends_on_a_whole_phrase() -> None:
    r = read_brief("1. Core the lake sediment from a floating platform with a piston corer.\n"
                   "2. Replicate to the N-1 successors in the ring.\n")
    assert r.strong[:2] == ["Core the lake sediment", "Replicate to the N-1 successors"]
