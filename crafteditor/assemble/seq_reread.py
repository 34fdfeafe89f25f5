"""Whether a sequence diagram's second reading as a sketch kept what its first reading had.

The auto preset reads a figure again with the sketch preset where its first reading found rough
outlines (:func:`crafteditor.shapes.sketch.looks_rough`). A typeset sequence diagram has them: the
pockets of paper its lifelines, messages and activation bars fence in, PlantUML's shadowed boxes,
sequencediagram.org's dashed creation messages. Re-read as a sketch, some such ladders came back
better (a sequencediagram.org one, edges 0.65 -> 0.98), others lost their lifelines: the pockets
read as boxes, the messages as lines between them, no sequence found (a test group of two: edges
0.00). Which one a figure is cannot be told before the second reading; its outcome can: the first
reading's shapes already show its lifelines and messages (:func:`first_messages`, read off the
pixels as :func:`~crafteditor.assemble.sequences.find_sequence` reads them at assembly, ~0.1 CPU-s),
and the second reading says how many messages it joined (its stats' ``sequence_messages``).
Where it lost most of them, the first reading is finished instead (:func:`lost_sequence`)."""

from __future__ import annotations

import numpy as np

from crafteditor.assemble.sequences import find_sequence
from crafteditor.ocr.runs import TextRun
from crafteditor.shapes.detect import DetectedShape

# the second reading must keep this share of the first's messages (a re-read that finds more, or
# a few fewer, stands: it mends dashed and slanted messages the first reading misses)
KEPT_SHARE = 0.6


def first_messages(rgb: np.ndarray, background: tuple[int, int, int], shapes: list[DetectedShape],
                   runs: list[TextRun]) -> int:
    """How many messages the first reading's ``shapes`` hang a sequence from (0: no sequence)."""
    seq = find_sequence(rgb, background, shapes, runs)
    return len(seq.messages) if seq is not None and len(seq.lifelines) >= 2 else 0


def lost_sequence(first: int, stats: dict) -> bool:
    """Whether a second reading (its ``stats``) lost the sequence whose ``first`` messages the first
    reading had: it joined fewer than :data:`KEPT_SHARE` of them (none where it found no sequence)."""
    return first >= 2 and stats.get("sequence_messages", 0) < KEPT_SHARE * first
