"""Bundles: several unlabelled arrows from one box into the same other box, side by side, are one
connection drawn as several strokes (MLP-Mixer's nine token arrows into 'Global Average Pooling', SAM's
three prompt arrows into its mask decoder, the stacked copies of a multi-head block whose fainter arrows
run beside the front one). One of them stays the edge; the others are kept as drawn, as free paths, so
the picture is unchanged but the graph holds one link per pair (each had been an edge of its own: 8 to 17
duplicate links per such figure)."""

from __future__ import annotations

import math
from collections import defaultdict

from crafteditor.lines.paths import LinePath
from crafter.spec.model import Edge, Point

MAX_TURN_DEG = 12.0  # strands of one bundle come into their target within this angle of one another
APPROACH_PX = 10.0  # the stretch before the target over which a strand's direction is taken
GAP_WIDTHS, GAP_PX = 16.0, 32.0  # neighbouring strands end within this many stroke widths (+ px) across the bundle...
ALIKE_LENGTH = 0.25  # ...or are alike: leaving the source as one, their lengths within this share of one another


def _arrival(route: list[Point] | None) -> float | None:
    """The direction (degrees) in which a route comes into its target, over its last :data:`APPROACH_PX`
    (the whole route where shorter); None for a route of no length."""
    if not route or len(route) < 2:
        return None
    z = route[-1]
    a = next((p for p in route[-2::-1] if math.hypot(z.x - p.x, z.y - p.y) >= APPROACH_PX), route[0])
    if math.hypot(z.x - a.x, z.y - a.y) < 1e-6:
        return None
    return math.degrees(math.atan2(z.y - a.y, z.x - a.x))


def _turn(a: float, b: float) -> float:
    d = abs(a - b) % 360.0
    return min(d, 360.0 - d)


def _length(route: list[Point]) -> float:
    return sum(math.hypot(b.x - a.x, b.y - a.y) for a, b in zip(route, route[1:]))


def _alike(a: list[Point], b: list[Point]) -> bool:
    """Whether two routes are copies of one course side by side: they leave their source within
    :data:`MAX_TURN_DEG` of one direction and their lengths are within :data:`ALIKE_LENGTH` of one another
    (MLP-Mixer's token arrows, 130 px apart; not a straight arrow and a detour round to the same box)."""
    da, db = _arrival(a[::-1]), _arrival(b[::-1])
    la, lb = _length(a), _length(b)
    if da is None or db is None:
        return False
    return _turn(da, db) <= MAX_TURN_DEG and abs(la - lb) <= ALIKE_LENGTH * max(la, lb)


def one_per_bundle(edges: list[tuple[Edge, LinePath]], scale: float = 1.0,
                   background: tuple[int, int, int] | None = None
                   ) -> tuple[list[tuple[Edge, LinePath]], list[tuple[Edge, LinePath]]]:
    """(the edges kept, the bundle strands to draw as free paths). ``scale``: route units per image
    pixel (the strands' widths are in pixels); ``background``: the page's colour (white where None).

    A bundle: two or more edges with the same source and target (not a self-loop), the same ends (head,
    tail, dash style), no label, all coming into the target within :data:`MAX_TURN_DEG` of one direction,
    their ends side by side: neighbours across the bundle end within :data:`GAP_WIDTHS` stroke widths of
    one another (a stack's back copies bend their strands round the copies' outlines, leaving sideways) or
    farther apart are alike (:func:`_alike`); a straight arrow and a detour into the far side of the same box
    are two links. The strand standing out most from the page stays the edge (the middle one of strands
    alike). Edges with a label, coming in from other sides or with other ends are never merged: two
    labelled arrows between two boxes are two messages. Sequence diagrams are not passed here (their
    messages between two lifelines are all meant)."""
    page = background if background is not None else (255, 255, 255)
    arrival = [_arrival(e.route) for e, _ in edges]
    groups: dict[tuple, list[int]] = defaultdict(list)
    for i, (e, _) in enumerate(edges):
        if e.source == e.target or e.label or arrival[i] is None:
            continue
        groups[(e.source, e.target, e.head, e.tail, e.style)].append(i)
    strands: set[int] = set()
    for members in groups.values():
        if len(members) < 2:
            continue
        angles = [arrival[i] for i in members]
        ref = angles[0]
        if any(_turn(a, ref) > MAX_TURN_DEG for a in angles):
            continue
        nx, ny = -math.sin(math.radians(ref)), math.cos(math.radians(ref))
        across = sorted(members, key=lambda i: edges[i][0].route[-1].x * nx + edges[i][0].route[-1].y * ny)
        at = [edges[i][0].route[-1].x * nx + edges[i][0].route[-1].y * ny for i in across]
        gap = scale * (GAP_WIDTHS * max(edges[i][1].width for i in across) + GAP_PX)
        if any(b - a > gap and not _alike(edges[i][0].route or [], edges[j][0].route or [])
               for a, b, i, j in zip(at, at[1:], across, across[1:])):
            continue
        # the strand standing out most from the page stays the edge (a stack's front copy is drawn darker,
        # on a dark page lighter, than those behind it); among strands alike, the middle one across the bundle
        mid = (len(across) - 1) / 2
        keep = min(range(len(across)), key=lambda k: (-round(math.dist(edges[across[k]][1].color, page) / 8),
                                                      abs(k - mid)))
        keep = across[keep]
        strands.update(i for i in members if i != keep)
    kept = [pair for i, pair in enumerate(edges) if i not in strands]
    return kept, [pair for i, pair in enumerate(edges) if i in strands]
