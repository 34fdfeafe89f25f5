"""Blocks stacked a few points apart and joined by short lines (a transformer encoder: attention, ⊕, Norm, MLP):
at screen resolution the lines are 10-16 px long, and with a ring erased round each node a few pixels remain,
under the floor below which a headless line is a speck; every such edge was lost (issue 31: the ViT figure's
encoder). On a crop of that dev figure (crops/README.md: its provenance)."""

from __future__ import annotations

from pathlib import Path

from crafteditor import convert
from crafter.spec.model import Edge, Node

CROP = Path(__file__).parent / "crops" / "vit_encoder_stack.png"


def test_short_lines_between_stacked_blocks_are_edges():
    fig = convert(CROP.read_bytes()).figure
    names = {c.id: (c.label or "").replace("\n", " ") for c in fig.components if isinstance(c, Node)}
    pairs = {frozenset((names.get(e.source), names.get(e.target))) for e in fig.components if isinstance(e, Edge)}
    assert frozenset(("Multi-Head Attention", "+")) in pairs, pairs  # a 16 px line
    assert frozenset(("MLP", "+")) in pairs, pairs
    assert frozenset(("Norm", "MLP")) in pairs, pairs  # an arrow between two blocks, as before
