"""Placing boxes where nothing else is: edge labels beside their route, annotations beside
what they annotate.

:class:`BoxIndex` is a uniform-grid spatial hash so "is this spot free?" stays cheap on a
5,000-node figure. The placers try candidate spots in order of preference and take the
first free one; when every candidate is taken they search outwards in rings, so a label
never lands on a node even in a crowded figure.
"""

from __future__ import annotations

import math
from typing import Hashable, Iterable, Sequence

from crafter.base.geometry import polyline_midpoint

Pt = tuple[float, float]
Rect = tuple[float, float, float, float]

LABEL_GAP = 3.0  # between a label and its line
LABEL_CLEARANCE = 2.0  # between a label and anything else


class BoxIndex:
    """Rectangles bucketed on a grid, for overlap queries."""

    def __init__(self, cell: float = 96.0) -> None:
        self.cell = cell
        self.rects: list[Rect] = []
        self.keys: list[Hashable] = []
        self.grid: dict[tuple[int, int], list[int]] = {}

    def _cells(self, r: Rect) -> Iterable[tuple[int, int]]:
        c = self.cell
        for gx in range(math.floor(r[0] / c), math.floor((r[0] + r[2]) / c) + 1):
            for gy in range(math.floor(r[1] / c), math.floor((r[1] + r[3]) / c) + 1):
                yield gx, gy

    def add(self, r: Rect, key: Hashable = None) -> None:
        k = len(self.rects)
        self.rects.append(r)
        self.keys.append(key)
        for cell in self._cells(r):
            self.grid.setdefault(cell, []).append(k)

    def hits(self, r: Rect, margin: float = 0.0, ignore: Iterable[Hashable] = ()) -> list[Hashable]:
        q = (r[0] - margin, r[1] - margin, r[2] + 2 * margin, r[3] + 2 * margin)
        skip = set(ignore)
        seen: set[int] = set()
        out = []
        for cell in self._cells(q):
            for k in self.grid.get(cell, ()):
                if k in seen:
                    continue
                seen.add(k)
                o = self.rects[k]
                if (q[0] < o[0] + o[2] and o[0] < q[0] + q[2] and q[1] < o[1] + o[3] and o[1] < q[1] + q[3]
                        and self.keys[k] not in skip):
                    out.append(self.keys[k])
        return out

    def free(self, r: Rect, margin: float = 0.0, ignore: Iterable[Hashable] = ()) -> bool:
        return not self.hits(r, margin, ignore)

    def query(self, r: Rect, margin: float = 0.0) -> list[tuple[Rect, Hashable]]:
        """(rect, key) of everything within ``margin`` of ``r``, in insertion order."""
        q = (r[0] - margin, r[1] - margin, r[2] + 2 * margin, r[3] + 2 * margin)
        found: set[int] = set()
        for cell in self._cells(q):
            for k in self.grid.get(cell, ()):
                o = self.rects[k]
                if q[0] < o[0] + o[2] and o[0] < q[0] + q[2] and q[1] < o[1] + o[3] and o[1] < q[1] + q[3]:
                    found.add(k)
        return [(self.rects[k], self.keys[k]) for k in sorted(found)]


def _route_candidates(route: Sequence[Pt], w: float, h: float, step: float) -> list[Rect]:
    """Label spots along a route: beside each segment, nearest the middle of the route first."""
    lengths = [math.hypot(q[0] - p[0], q[1] - p[1]) for p, q in zip(route, route[1:])]
    total = sum(lengths)
    spots: list[tuple[float, int, Rect]] = []
    s0 = 0.0
    for k, ((p, q), seg) in enumerate(zip(zip(route, route[1:]), lengths)):
        if seg <= 1e-9:
            continue
        horizontal = abs(q[1] - p[1]) <= abs(q[0] - p[0])
        n = max(1, int(seg // step))
        for m in range(n + 1):
            t = m / n if n else 0.5
            x, y = p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t
            dist = abs(s0 + seg * t - total / 2)
            if horizontal:
                rects = [(x - w / 2, y - LABEL_GAP - h), (x - w / 2, y + LABEL_GAP)]
            else:
                rects = [(x + LABEL_GAP, y - h / 2), (x - LABEL_GAP - w, y - h / 2)]
            rects.append((x - w / 2, y - h / 2))  # on the line: the renderer puts a plate behind it
            for rank, (rx, ry) in enumerate(rects):
                spots.append((dist + rank * 6.0, len(spots), (rx, ry, w, h)))
        s0 += seg
    spots.sort()
    return [r for _, _, r in spots]


def place_edge_label(route: Sequence[Pt], size: tuple[float, float], index: BoxIndex, *,
                     ignore: Iterable[Hashable] = (), step: float = 8.0) -> Rect:
    """A spot for an edge label next to its route, clear of everything in ``index``."""
    w, h = size
    ignore = list(ignore)
    for r in _route_candidates(route, w, h, step):
        if index.free(r, LABEL_CLEARANCE, ignore):
            return r

    (mx, my), _ = polyline_midpoint(route) if len(route) > 1 else (route[0], 0)
    return search_free((mx - w / 2, my - h / 2, w, h), index, ignore=ignore)


def search_free(r: Rect, index: BoxIndex, *, ignore: Iterable[Hashable] = (), step: float = 6.0,
                max_radius: float = 2000.0) -> Rect:
    """The nearest free spot to ``r`` on rings of growing radius (``r`` itself if all are taken)."""
    ignore = list(ignore)
    if index.free(r, LABEL_CLEARANCE, ignore):
        return r
    radius = step
    while radius <= max_radius:
        n = max(8, int(2 * math.pi * radius / step))
        for k in range(n):
            a = 2 * math.pi * k / n
            c = (r[0] + radius * math.cos(a), r[1] + radius * math.sin(a), r[2], r[3])
            if index.free(c, LABEL_CLEARANCE, ignore):
                return c
        radius += step
    return r


SIDE_ORDER = {
    "above": ("above", "below", "right", "left"),
    "below": ("below", "above", "right", "left"),
    "left": ("left", "right", "above", "below"),
    "right": ("right", "left", "above", "below"),
    "center": ("center",),
}


def beside(target: Rect, size: tuple[float, float], side: str, gap: float) -> Rect:
    """A box of ``size`` on ``side`` of ``target``, centred along that side."""
    x, y, w, h = target
    bw, bh = size
    if side == "above":
        return (x + (w - bw) / 2, y - gap - bh, bw, bh)
    if side == "below":
        return (x + (w - bw) / 2, y + h + gap, bw, bh)
    if side == "left":
        return (x - gap - bw, y + (h - bh) / 2, bw, bh)
    if side == "right":
        return (x + w + gap, y + (h - bh) / 2, bw, bh)
    return (x + (w - bw) / 2, y + (h - bh) / 2, bw, bh)


def place_annotation(target: Rect, size: tuple[float, float], side: str, index: BoxIndex, *, gap: float,
                     ignore: Iterable[Hashable] = ()) -> Rect:
    """An annotation's box: on its side of the target if free, else another side, else nearby."""
    ignore = list(ignore)
    if side == "center":
        return beside(target, size, "center", gap)
    for s in SIDE_ORDER[side]:
        r = beside(target, size, s, gap)
        if index.free(r, LABEL_CLEARANCE, ignore):
            return r
    return search_free(beside(target, size, side, gap), index, ignore=ignore)
