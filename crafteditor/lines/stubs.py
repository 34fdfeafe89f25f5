"""Stubs: what the rings erased round two nodes leave of a short connector between them.

A paper architecture stacks its blocks a few points apart (a transformer's Norm, attention and ⊕, joined by
lines 10-20 px long at screen resolution); with a ring erased round each node, 3-6 px of such a line remain,
under the floor below which a headless line is a speck (issue 31: every such edge of the ViT encoder was lost).
Such a stub is kept where it runs along an axis (:func:`axis_stub`, every traced point; :func:`stub_between`,
the two ends) and the nodes' ink lies just ahead of both its ends.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from crafteditor.lines.paths import LinePath, Pt

REACH = 12.0  # px: how far past each end of the stub a node's ink may lie (a ring and an anti-aliased rim)
STUB_MIN = 3.0  # px: the shortest straight piece kept as a line (others: 6 px, or 3 line widths)


def axis_stub(pts: list[Pt], length: float, lw: float) -> bool:
    """Whether a short piece is what the rings erased round two nodes left of a short connector between them:
    a straight run along an axis, at least :data:`STUB_MIN` long (a paper architecture's transformer block
    stacks Norm, attention and ⊕ a few points apart: the 15 px lines joining them kept 5 px, under the 6 px
    floor, and every such edge was lost). The edge pass keeps it only where both its ends reach a part."""
    x0, y0 = pts[0]
    column = all(abs(x - x0) <= 1.0 for x, _ in pts)
    row = all(abs(y - y0) <= 1.0 for _, y in pts)
    return (column or row) and length >= max(STUB_MIN, 1.5 * lw)  # a skeleton is about lw shorter than its stroke


def stub_between(ln: LinePath, shapes: np.ndarray, lines: Sequence[LinePath] = ()) -> bool:
    """Whether ``ln`` is a short axis-aligned stub with a shape (``shapes``: the shapes' pixel mask) just
    ahead of each end, along its axis, and not a piece of another of ``lines``' arrowheads (:func:`_in_a_head`)."""
    if ln.head_start is not None or ln.head_end is not None or len(ln.points) < 2:
        return False
    if _in_a_head(ln, lines):
        return False
    (x0, y0), (x1, y1) = ln.start, ln.end
    length = float(np.hypot(x1 - x0, y1 - y0))
    if length == 0 or min(abs(x1 - x0), abs(y1 - y0)) > 1.0 or length > REACH:
        return False
    dx, dy = (x1 - x0) / length, (y1 - y0) / length
    return _ahead(shapes, (x0, y0), (-dx, -dy)) and _ahead(shapes, (x1, y1), (dx, dy))


def _in_a_head(ln: LinePath, lines: Sequence[LinePath]) -> bool:
    """Whether both ends of ``ln`` lie in the box of another line's arrowhead: the skeleton of an open 'V' head's
    barb leaves a short level piece between the line and the node the head points at, with the node's ink ahead
    of one end and the line's own ring of erased ink ahead of the other (a UML class diagram's LogicManager ->
    Parser: kept as a stub it joined the line and turned the edge round)."""
    for other in lines:
        if other is ln:
            continue
        for head in (other.head_start, other.head_end):
            if head is None:
                continue
            x0, y0, x1, y1 = head.mask_box
            if all(x0 - 1 <= x <= x1 + 1 and y0 - 1 <= y <= y1 + 1 for x, y in (ln.start, ln.end)):
                return True
    return False


def _ahead(mask: np.ndarray, p: tuple[float, float], d: tuple[float, float]) -> bool:
    H, W = mask.shape
    for t in np.arange(1.0, REACH + 0.5, 1.0):
        x, y = int(round(p[0] + t * d[0])), int(round(p[1] + t * d[1]))
        if not (0 <= x < W and 0 <= y < H):
            return False
        if mask[y, x]:
            return True
    return False
