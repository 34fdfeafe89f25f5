"""A box the size of a participant under a participant's box is a note over its lifeline (not the participant
repeated at its foot) only where the lifeline runs on under it dashed, as PlantUML draws one: a state machine's
column of boxes joined by solid connectors had been read as a one-message sequence diagram (dev
C_cyclops_state-machine: nodes 0.79 -> 0.76, edges 0.36 -> 0.26, its frames and named boxes never looked for)."""

from __future__ import annotations

from pathlib import Path

from crafteditor import convert

CROPS = Path(__file__).parent / "crops"


def test_a_state_machines_column_of_boxes_is_no_sequence_diagram():
    conv = convert((CROPS / "cyclops_state_columns.png").read_bytes())
    assert conv.vectorized.stats.get("sequence_messages", 0) == 0
    labels = {c.label for c in conv.figure.components if getattr(c, "kind", "") == "node" and c.label}
    assert len(labels) >= 8, labels
