"""Mermaid link labels read as nodes (issue 31, round 21): a plate with a third line end on it (a dotted
basis curve traced twice where it leaves the plate; a cross end's '×', ``--x``, read as a line of its own
beside it), and a grey plate on GitHub's dark page whose antialiased rim read as a thin outline. Each link
had stayed split in two at a node named like its label. Fixtures beside their sources
(``tests/crafteditor/mermaid/*.mmd``): ``flowchart_dark_plate_scraps`` is mermaid-wild's mw_011 at seed 21
(``craftbench makers mermaid-wild -n 40 --seed 21``: the dark theme at device scale 2),
``flowchart_gh_dark_plates`` mermaid-looks' ml_007 at seed 21 (``craftbench makers mermaid-looks -n 40 --seed 21``),
``flowchart_circle_end_plates`` mermaid-wild's mw_000 at seed 21 (a plate's rim read as a second head on the
piece between it and a circle end, ``--o``)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from crafteditor.convert import convert
from crafteditor.realset import _label
from crafter.spec.model import Edge, Node

HERE = Path(__file__).parent / "mermaid"


def _read(name: str) -> tuple[Counter, Counter, dict]:
    fig = convert(HERE / f"{name}.png", name=name).figure
    ends = {c.id: _label(c.label) for c in fig.components if isinstance(c, Node)}
    nodes = Counter(v for v in ends.values() if v)
    ends.update({c.id: _label(c.text) for c in fig.components if c.kind == "text"})
    edges = [e for e in fig.components if isinstance(e, Edge)]
    pairs = Counter((ends.get(e.source, "?"), ends.get(e.target, "?")) for e in edges)
    labels = {(ends.get(e.source, "?"), ends.get(e.target, "?")): _label(e.label) for e in edges}
    return nodes, pairs, labels


@pytest.fixture(scope="module")
def read() -> tuple[Counter, Counter, dict]:
    return _read("flowchart_dark_plate_scraps")


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


def test_a_grey_plate_on_a_dark_page_is_no_node():
    # 'email' and 'notify' on their grey plates, each rimmed 0.6-0.8 px darker than the plate, lighter than the page
    nodes, pairs, labels = _read("flowchart_gh_dark_plates")
    cache, retry = "cache valid notify event", "retry shipping"
    assert "email" not in nodes
    assert pairs[(cache, retry)] == 1
    assert labels[(cache, retry)] == "email"
    assert not any(n.startswith("notif") for n in nodes)


def test_a_plates_rim_on_a_piece_with_a_circle_end_is_no_head():
    # 'policy': the piece from its plate to 'Service shipping' ends in a ring ('--o'); the plate's rim on its
    # other end read as a head, and the link had stopped at a node 'policy'
    nodes, pairs, labels = _read("flowchart_circle_end_plates")
    assert "policy" not in nodes
    assert pairs[("cart", "service shipping")] == 1
    assert labels[("cart", "service shipping")] == "policy"
