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


def one_per_bundle(edges: list[tuple[Edge, LinePath]]) -> tuple[list[tuple[Edge, LinePath]], list[tuple[Edge, LinePath]]]:
    """(the edges kept, the bundle strands to draw as free paths).

    A bundle: two or more edges with the same source and target (not a self-loop), the same ends (head,
    tail, dash style), no label, all coming into the target within :data:`MAX_TURN_DEG` of one direction
    (a stack's back copies bend their strands round the copies' outlines, but all come in side by side). The
    darkest strand stays the edge (the middle one of strands alike). Edges with a label, coming in from other
    sides or with other ends are never merged: two labelled arrows between two boxes are two messages.
    Sequence diagrams are not passed here (their messages between two lifelines are all meant)."""
    groups: dict[tuple, list[int]] = defaultdict(list)
    for i, (e, _) in enumerate(edges):
        if e.source == e.target or e.label or _arrival(e.route) is None:
            continue
        groups[(e.source, e.target, e.head, e.tail, e.style)].append(i)
    strands: set[int] = set()
    for members in groups.values():
        if len(members) < 2:
            continue
        angles = [a for a in (_arrival(edges[i][0].route) for i in members) if a is not None]
        ref = angles[0]
        if any(_turn(a, ref) > MAX_TURN_DEG for a in angles):
            continue
        # the darkest strand stays the edge (a stack's front copy is drawn darker than those behind it);
        # among strands alike, the middle one across the bundle
        nx, ny = -math.sin(math.radians(ref)), math.cos(math.radians(ref))
        across = sorted(members, key=lambda i: edges[i][0].route[-1].x * nx + edges[i][0].route[-1].y * ny)
        mid = (len(across) - 1) / 2
        keep = min(range(len(across)), key=lambda k: (round(sum(edges[across[k]][1].color) / 24), abs(k - mid)))
        keep = across[keep]
        strands.update(i for i in members if i != keep)
    kept = [pair for i, pair in enumerate(edges) if i not in strands]
    return kept, [pair for i, pair in enumerate(edges) if i in strands]
