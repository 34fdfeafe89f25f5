"""A UML class diagram's open 'V' head touching the node it points at: the skeleton of one barb leaves a short
level piece between the line and the node, with the node's ink ahead of one end and the ring erased round the
line ahead of the other. Kept as a stub between two nodes (lines/stubs.py) it joined the line and turned the edge
round (issue 31: the dev figure's LogicManager -> Parser read as Parser -> LogicManager)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from crafteditor import convert
from crafteditor.lines.paths import Arrowhead, LinePath
from crafteditor.lines.stubs import stub_between
from crafter.spec.model import Edge, Node

CROP = Path(__file__).parent / "crops" / "addressbook_logic_class.png"


def _two_blocks() -> np.ndarray:
    shapes = np.zeros((40, 60), bool)
    shapes[5:35, 0:10] = True  # a node left of the stub
    shapes[5:35, 30:60] = True  # the node the head points at
    return shapes


def test_a_piece_of_an_arrowhead_is_no_stub():
    shapes = _two_blocks()
    piece = LinePath(points=[(20.5, 22.5), (15.5, 22.5)], width=1.0, color=(0, 0, 0))
    head = Arrowhead(tip=(29.0, 20.0), base=(19.0, 20.0), length=10.0, width=10.0, mask_box=(14, 11, 30, 29))
    line = LinePath(points=[(29.0, 20.0), (10.0, 20.0)], width=1.0, color=(0, 0, 0), head_start=head)
    assert not stub_between(piece, shapes, [line, piece])


def test_a_short_connector_between_blocks_is_still_a_stub():
    shapes = _two_blocks()
    stub = LinePath(points=[(20.5, 22.5), (15.5, 22.5)], width=1.0, color=(0, 0, 0))
    head = Arrowhead(tip=(29.0, 5.0), base=(19.0, 5.0), length=10.0, width=6.0, mask_box=(18, 1, 30, 9))
    other = LinePath(points=[(29.0, 5.0), (10.0, 5.0)], width=1.0, color=(0, 0, 0), head_start=head)
    assert stub_between(stub, shapes, [other, stub])


@pytest.mark.slow
def test_uml_open_head_keeps_its_direction():
    fig = convert(CROP.read_bytes()).figure
    names = {c.id: (c.label or "").replace("\n", " ") for c in fig.components if isinstance(c, Node)}
    pairs = {(names.get(e.source), names.get(e.target)) for e in fig.components if isinstance(e, Edge)}
    assert ("LogicManager", "Parser") in pairs, pairs
    assert ("Parser", "LogicManager") not in pairs, pairs
