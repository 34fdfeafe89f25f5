"""Links leaving a Mermaid subgraph nested in another cross both frames' bottoms; two crossing there close
a face between the inner frame's side and the outer one's. Read as an unlabelled parallelogram node, it took
the links' ends, and every link out of the nested subgraph was lost. The fixture
(``tests/crafteditor/mermaid/flowchart_nested_wedge.png`` beside its source) was drawn by
``craftbench.makers.mermaid_looks`` (the old ``graph LR`` keyword with ``classDef`` strokes, theme neutral)."""

from __future__ import annotations

from pathlib import Path

import pytest

from crafteditor.convert import convert
from crafteditor.realset import _label
from crafter.spec.model import Edge, Group, Node

FIG = Path(__file__).parent / "mermaid" / "flowchart_nested_wedge.png"


@pytest.mark.slow
def test_links_out_of_a_nested_subgraph_run_on_through_the_frames():
    fig = convert(FIG, name="nested_wedge").figure
    nodes = [c for c in fig.components if isinstance(c, Node)]
    outer = max((c for c in fig.components if isinstance(c, Group)), key=lambda g: g.box.w * g.box.h)
    bottom = outer.box.y + outer.box.h
    # no nameless node sits on the outer frame's bottom, between the two frames
    assert not [n for n in nodes if not _label(n.label) and n.box.y - 30 < bottom < n.box.y + n.box.h + 30]
    labels = {n.id: _label(n.label) for n in nodes}
    pairs = {frozenset((labels.get(e.source, "?"), labels.get(e.target, "?"))) for e in fig.components
             if isinstance(e, Edge)}
    assert frozenset(("filter store parse batch", "worker alert database idle monitor report reject")) in pairs
