"""The mermaid-looks maker's sources carry their look (handDrawn, GitHub's dark page, themeVariables, the old
``graph`` keyword) and truth that matches the source: every node's label is in the source, every edge joins
two nodes, a concurrent composite's regions are edges between its states (no browser needed)."""

from __future__ import annotations

import re

from craftbench.makers import mermaid_looks


def test_each_look_is_in_its_source_and_the_truth_matches_it():
    seen = set()
    for fid, d, look, page, _scale in mermaid_looks.sources(36, seed=3):
        seen.add(look)
        first = d.source.split("\n")[0]
        assert first.startswith("%%{init:")
        assert ('"look": "handDrawn"' in first) == (look == "hand")
        assert (page == "#0d1117") == (look == "gh_dark")
        if look == "vars":
            assert '"themeVariables"' in first
        if look == "graph" and d.kind == "flowchart":
            assert re.search(r"^graph (LR|TD|TB)$", d.source, re.M) and "classDef em stroke:" in d.source
        for node in d.nodes:
            assert node in d.source, fid
        for a, b in d.edges:
            assert a in d.nodes and b in d.nodes, fid
        if "as R1 {" in d.source:  # each region's transitions are edges of the truth, between its states
            block = d.source.split("as R1 {", 1)[1].split("\n    }", 1)[0]
            assert "\n        --\n" in block
            names = dict(re.findall(r'state "([^"]+)" as (\w+)', d.source))
            names = {v: k for k, v in names.items()}
            for region in block.split("\n        --\n"):
                pairs = re.findall(r"^\s+(\w+) --> (\w+)", region, re.M)
                assert pairs, fid
                assert all([names[a], names[b]] in d.edges for a, b in pairs), fid
    assert seen == set(mermaid_looks.LOOKS)
