"""A sequence diagram read twice (issue 31, seq12): the second reading, as a sketch, must keep the
sequence the first reading found, else the first reading is finished instead.

The auto preset reads a figure with rough outlines again as a sketch; a typeset sequence diagram has
them (the pockets its lifelines and messages fence in). Some such ladders come back better (dashed and
slanted messages mended), others lost every message (a test group: edges 0.00). And a long handwritten
PlantUML ladder lost its sequence to a chart: its dashed lifelines' segments read '1', a column of
ticks all reading one number, which calibrated a flat value axis whose plot hid the messages."""

from __future__ import annotations

import pytest

from crafteditor.assemble.seq_reread import KEPT_SHARE, lost_sequence
from crafteditor.charts.axes import fit_axis
from crafteditor.vectorizer import vectorize
from tests.crafteditor.test_sketch_decision import _ladder


def test_a_second_reading_that_lost_most_messages_gives_way_to_the_first():
    assert lost_sequence(10, {"sequence_messages": 0})
    assert lost_sequence(10, {})  # it found no sequence at all
    assert lost_sequence(10, {"sequence_messages": int(KEPT_SHARE * 10) - 1})
    assert not lost_sequence(10, {"sequence_messages": 9})  # a few fewer: it stands
    assert not lost_sequence(11, {"sequence_messages": 22})  # more (slanted creation messages mended)
    assert not lost_sequence(0, {"sequence_messages": 0})  # no sequence to lose
    assert not lost_sequence(1, {"sequence_messages": 0})


def test_a_typeset_ladder_read_once_keeps_its_messages():
    """With the second reading ruled out (it lost the sequence), the first reading, finished, joins
    the ladder's messages (eight, three self-calls among them) and reads nothing twice."""
    once = vectorize(_ladder(), reread=False)
    assert once.stats["sequence_messages"] >= 7
    assert "first reading" not in once.stats["cpu"]


@pytest.mark.slow
def test_a_typeset_ladder_read_by_the_auto_preset_keeps_its_messages():
    """Rough pockets: read again as a sketch, unless that lost the sequence."""
    assert vectorize(_ladder()).stats["sequence_messages"] >= 7


def test_ticks_that_all_read_one_number_are_no_axis():
    assert fit_axis([(163.0, "1"), (272.0, "1"), (848.0, "1"), (1050.0, "1")]) is None
    axis = fit_axis([(100.0, "0"), (50.0, "10"), (0.0, "20")])
    assert axis is not None and abs(axis.value(75.0) - 5.0) < 1e-6
