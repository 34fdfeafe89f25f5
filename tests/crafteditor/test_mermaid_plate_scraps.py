"""Mermaid link labels whose plate has a third line end on it (issue 31, round 21): a dotted basis curve
traced twice where it leaves the plate, and a cross end's '×' (``--x``) read as a line of its own beside the
plate. Each link had stayed split in two at a node named like its label. Fixture beside its source
(``tests/crafteditor/mermaid/flowchart_dark_plate_scraps.mmd``): mermaid-wild's mw_011 at seed 21
(``craftbench makers mermaid-wild -n 40 --seed 21``), the dark theme at device scale 2."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from crafteditor.convert import convert
from crafteditor.realset import _label
from crafter.spec.model import Edge, Node

HERE = Path(__file__).parent / "mermaid"


@pytest.fixture(scope="module")
def read() -> tuple[Counter, Counter, dict]:
    fig = convert(HERE / "flowchart_dark_plate_scraps.png", name="plate_scraps").figure
    ends = {c.id: _label(c.label) for c in fig.components if isinstance(c, Node)}
    nodes = Counter(v for v in ends.values() if v)
    ends.update({c.id: _label(c.text) for c in fig.components if c.kind == "text"})
    edges = [e for e in fig.components if isinstance(e, Edge)]
    pairs = Counter((ends.get(e.source, "?"), ends.get(e.target, "?")) for e in edges)
    labels = {(ends.get(e.source, "?"), ends.get(e.target, "?")): _label(e.label) for e in edges}
    return nodes, pairs, labels


def test_a_curve_traced_twice_under_its_plate_is_one_labelled_link(read):
    nodes, pairs, labels = read
    assert not any(n.startswith("parse") for n in nodes)
    assert pairs[("rule", "invoice")] == 1
    assert labels[("rule", "invoice")].startswith("parse")


def test_a_cross_ends_stroke_beside_a_plate_leaves_one_labelled_link(read):
    nodes, pairs, labels = read
    worker, monitor = "policy config worker", "payment monitor"
    assert "route router model" not in nodes
    assert pairs[(worker, monitor)] == 1
    assert labels[(worker, monitor)] == "route router model"
