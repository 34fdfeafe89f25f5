"""Arrowheads as the IR keeps them: each edge's head size (``Edge.head_size``, the head's length
along the line) from the heads' measured lengths, shared across a figure, and a hollow head read
as an open 'V' told apart from UML's hollow triangle ('triangle_open') by its closed back."""

from __future__ import annotations

import numpy as np

from crafteditor.config import THEME
from crafteditor.lines.paths import Arrowhead, LinePath
from crafter.render.markers import default_head_size
from crafter.spec.model import Edge

HEAD_NOISE = 3.0  # px: how far a small head's measured length strays (anti-aliasing, a notched back)
MAX_HEAD = 200.0  # px: Edge.head_size's bound; a "head" measured longer is a misreading, drawn at the theme's size


def closed_back(head: Arrowhead, width: float) -> float | None:
    """Where a hollow head read as an open 'V' has its back, px behind the tip, if it is a hollow
    triangle (UML's inheritance): its last wide slices (the back) are ink straight across, and its
    middle is clear where a V's line runs on to the tip; else None. Slices are taken across the
    head's axis, back from its tip."""
    if len(head.pixels) < 12:
        return None
    tip, base = np.asarray(head.tip, float), np.asarray(head.base, float)
    d = np.asarray(head.pointing, float) if head.pointing is not None else tip - base
    n = float(np.hypot(*d))
    if n < 1e-6:
        return None
    d = d / n
    rel = head.pixels - tip
    back = -(rel @ d)  # distance behind the tip
    side = rel @ np.array([-d[1], d[0]])
    half = float(np.abs(side).max())
    if half < 2.5:
        return None
    rows = np.round(back)
    wide = [t for t in np.unique(rows) if np.abs(side[rows == t]).max() >= 0.6 * half]
    t_back = float(max(wide))  # the line behind the head is narrow: the last wide slice is the back
    if t_back < 4:
        return None
    band = (back >= t_back - 2.0) & (back <= t_back + 0.5)
    inner = min(width + 1.5, 0.4 * half)  # the line's own pixels meet the back in the middle
    one_side = np.arange(inner, 0.7 * half + 1e-6, 1.0)
    bins = np.concatenate([one_side, -one_side])
    covered = [bool(np.any(np.abs(side[band] - s) <= 0.75)) for s in bins]
    middle = (back >= 0.3 * t_back) & (back <= 0.7 * t_back) & (np.abs(side) <= max(1.0, width / 2))
    closed = len(covered) >= 2 and float(np.mean(covered)) >= 0.8 and not middle.any()
    return t_back if closed else None


def share_head_sizes(edges: list[Edge]) -> None:
    """Head sizes within 20 % (or HEAD_NOISE px) of each other made one, their median: a figure draws
    its heads at one size or a few, and each size is a marker of its own in the SVG. Heads left at the
    renderer's size (None) count at that size; a shared size that near it is left to the renderer."""
    def width(e: Edge) -> float:
        return THEME.edge_width if e.stroke_width is None else e.stroke_width

    headed = sorted(((e.head_size or default_head_size(width(e)), e) for e in edges if (e.head, e.tail) != ("none", "none")),
                    key=lambda t: t[0])
    i = 0
    while i < len(headed):
        j = i
        while j + 1 < len(headed) and headed[j + 1][0] <= max(1.2 * headed[i][0], headed[i][0] + HEAD_NOISE):
            j += 1
        size = round(float(np.median([v for v, _ in headed[i:j + 1]])), 1)
        for _, e in headed[i:j + 1]:
            e.head_size = None if _renderer_sized(size, width(e)) else size
        i = j + 1


# a head's drawn length along the line in units of the renderer's head size (crafter.render.markers)
HEAD_EXTENT = {"arrow": 1.0, "open": 0.86, "diamond": 1.5, "circle": 0.8, "triangle_open": 1.0}


def head_size(ln: LinePath, scale: float, width: float) -> float | None:
    """The edge's head_size from its heads' measured lengths (a V's is not measured well enough to
    say: its arms' ends read short); None where it is within 20 % (or HEAD_NOISE px) of the renderer's
    own size for the line's width (5 + 3 x width)."""
    sizes = []
    for h in (ln.head_start, ln.head_end):
        if h is None or h.kind not in HEAD_EXTENT or h.length <= 0:
            continue
        if h.kind == "open":
            back = closed_back(h, ln.width)
            if back is not None:  # a hollow triangle: tip to back
                sizes.append(max(h.length, back))
            continue
        sizes.append(h.length / HEAD_EXTENT[h.kind])
    if not sizes:
        return None
    size = round(float(np.median(sizes)) * scale, 1)
    return size if not _renderer_sized(size, width) and size <= MAX_HEAD else None


def _renderer_sized(size: float, width: float) -> bool:
    """``size`` is within 20 % (or HEAD_NOISE px) of the renderer's own head size for ``width``."""
    default = default_head_size(width)
    return abs(size - default) <= max(0.2 * default, HEAD_NOISE)
