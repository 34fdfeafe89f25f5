"""Flowchart links that ended on nameless parts (issue 31, flow23): a link entering a subgraph through its
centred title, and a link label's plate whose short words went unread. Read before, each link stopped at
the frame or the plate (an edge to a nameless group, the other half one-ended)."""

from __future__ import annotations

from pathlib import Path

from ce_helpers import edge_pairs

from crafteditor.convert import convert
from crafter.spec.model import Group

CROPS = Path(__file__).parent / "crops"


def test_a_link_entering_a_subgraph_through_its_title_joins_the_node_past_the_title():
    fig = convert((CROPS / "subgraph_title_entry.png").read_bytes()).figure
    pairs = edge_pairs(fig)
    assert pairs[("Compile", "Unit tests")] == 1, pairs
    # no edge ends on a frame
    groups = {c.id for c in fig.components if isinstance(c, Group)}
    assert not [c for c in fig.components if c.kind == "edge" and {c.source, c.target} & groups]


def test_links_through_unread_label_plates_join_the_decision_to_the_boxes_below():
    fig = convert((CROPS / "capi_pinned_unread_plates.png").read_bytes()).figure
    pairs = edge_pairs(fig)
    ends = {(a.split()[-1], b.split()[0]) for a, b in pairs}
    assert ("pinned?", "Cluster-managed") in ends, pairs
    assert ("pinned?", "Pinned") in ends, pairs
    assert not [c for c in fig.components if isinstance(c, Group)]  # the plates are no frames


def test_a_link_through_an_unread_dark_plate_joins_the_decision_to_the_box_below():
    """Mermaid 9's dark theme at 1x: 'Yes' light on a grey plate, unread; the curve comes in at the plate's
    side and leaves at its foot, bent by the glyphs traced with its ends."""
    fig = convert((CROPS / "k8s_zero_value_dark_plates.png").read_bytes()).figure
    pairs = edge_pairs(fig)
    # the plate cuts the curve's head off: the link is joined, whichever way it reads
    joined = {frozenset((a.split("\n")[0], b.split("\n")[0])) for a, b in pairs}
    assert frozenset(("Is the zero value a valid user choice?", "USE: Pointer + omitempty")) in joined, pairs
