"""Both Mermaid makers write a state diagram's transitions through one helper (craftbench.makers.mermaid
.state_transitions): every transition in the source is an edge of the truth, between two of its nodes,
and every transition label is in its text."""

from __future__ import annotations

import random
import re

from craftbench.makers import mermaid, mermaid_readme


def _check(d: mermaid.Diagram) -> None:
    names = dict(re.findall(r'state "([^"]+)" as (S\d+)', d.source))
    names = {v: k for k, v in names.items()}
    moves = re.findall(r"^    (S\d+) --> (S\d+)(?: : (.+))?$", d.source, re.M)
    assert moves
    for a, b, lab in moves:
        assert [names[a], names[b]] in d.edges and names[a] in d.nodes and names[b] in d.nodes
        assert not lab or lab in d.text


def test_state_transitions_are_the_truths_edges_in_both_makers():
    for seed in range(6):
        _check(mermaid.state(random.Random(seed)))
        _check(mermaid_readme.state(random.Random(seed), "default"))
