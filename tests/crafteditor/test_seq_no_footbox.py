"""PlantUML sequence diagrams drawn with ``hide footbox`` (participants only at the top), as cluster-api's proposals
draw them: a tall note right under a participant hid all but a few rows of its lifeline's top, so the note was read
as the participant; and a participant's name standing on a band with no box found around it took a line of a note
further down its lifeline, about its width, for its own name repeated at the foot, and its lifeline stopped there.
Either way the figure read with one lifeline or none and lost every message (edge F1 0, the drawn seq-puml set)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from ce_helpers import edge_pairs, noted_sequence_png

from crafteditor.assemble.sequences import _same_name
from crafteditor.convert import convert

CROPS = Path(__file__).parent / "crops"


def _tall_note_png() -> tuple[bytes, Counter]:
    """Two participants boxed at the top only over dashed lifelines, a four-line note right under the second (its
    lifeline shows 10 rows above it), then four messages with filled heads and labels above."""
    return noted_sequence_png([80, 360], (280, 55, 540, 140),
                              ("Watches configs and", "machines, requeues", "until the owner", "is set"),
                              (190, 240, 290, 350))


def test_a_tall_note_under_a_participant_hides_no_lifeline():
    png, want = _tall_note_png()
    assert edge_pairs(convert(png).figure) == want


def test_a_note_line_down_the_lifeline_is_no_foot_of_a_bare_name():
    """Real cluster-api source (machine-states-preboot Figure 4) drawn by PlantUML in its strict skin: grey bands,
    no foot boxes, the controller's box on its band not found as a shape; 11 messages, 7 between the two."""
    conv = convert((CROPS / "capi_preboot_fig4_strict.png").read_bytes())
    pairs = edge_pairs(conv.figure)
    between = sum(n for (a, b), n in pairs.items() if a != b)
    assert between >= 6, pairs
    assert {frozenset((a, b)) for (a, b) in pairs if a != b} == {frozenset(("API Server",
                                                                           "Kubeadm Bootstrap Controller"))}


def test_names_alike_but_for_ocr_slips():
    assert _same_name("Kubeadm Bootstrap Controller", "Kubeadm Bootstrap Contro11er")
    assert not _same_name("Kubeadm Bootstrap Controller", '-  Machine.Status.Phase is "Pending"')
    assert not _same_name("", "")
