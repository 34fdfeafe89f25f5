"""Mermaid 8/9 exports, as repositories hold them (issue 31). The fixture
``tests/crafteditor/mermaid/flowchart_v8_plates.*`` is a real source (kubernetes/enhancements,
keps/.../55-coordinated-leader-election/README.md, Apache-2.0) drawn by Mermaid 8.14.0 at 1× by
``craftbench makers mermaid-versions`` (seed 1, its figure mv_000)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from handdrawn import box_shape as _box

from crafteditor.convert import convert
from crafteditor.realset import _label
from crafteditor.shapes.sketch import hand_drawn_outlines
from crafter.spec.model import Edge, Node

HERE = Path(__file__).parent / "mermaid"


def test_a_mermaid_8_flowchart_is_no_sketch_and_keeps_its_links_through_label_plates():
    """Mermaid 8's grey label plate, its link running under it, notches the plate's face (sides stray 0.13 px):
    the one plate had made the whole typeset flowchart a sketch, and the links into the plates were taken
    for pencil (Started → Candidate lost, its plate and Leader → Yield Leadership's read as nodes)."""
    fig = convert(HERE / "flowchart_v8_plates.png", name="flowchart_v8_plates").figure
    labels = {c.id: _label(c.label) for c in fig.components if isinstance(c, Node)}
    pairs = Counter((labels.get(e.source), labels.get(e.target)) for e in fig.components if isinstance(e, Edge))
    assert pairs[("started", "candidate")] == 1, pairs
    nodes = set(labels.values())
    assert {"started", "candidate", "leader", "yield leadership"} <= nodes
    assert not {"create leasecandidate lease", "better candidate available / leader lease expired"} & nodes  # plates
    # not yet: Leader -> Yield Leadership, its 1x head on a curve lost, is run on into the dotted link beside it


def test_one_unoutlined_wobbling_box_is_no_sketch_two_are():
    def plate(x):
        s = _box(x, 0, 160, 24, bow=2.0)
        s.stroke = None
        return s

    typeset = [_box(0, 100, 160, 80), _box(200, 100, 160, 80)]
    assert not hand_drawn_outlines([*typeset, plate(0)])[1]
    assert hand_drawn_outlines([*typeset, plate(0), plate(200)])[1]
    assert hand_drawn_outlines([*typeset, _box(400, 100, 160, 80, bow=3.0)])[1]  # an outlined box: a sign alone
