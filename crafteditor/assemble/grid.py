"""A uniform grid over points: which line ends lie near a point or in a box, without looking
at every other line (a hand-drawn figure has ~1,000 line pieces: pairwise tests over them,
restarted after every join, took minutes). The groups that pairs of items join:
:func:`crafteditor.blobs.joined_groups`."""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Hashable, Iterator


class PointGrid:
    """Points under keys, bucketed in square cells of ``cell`` pixels."""

    def __init__(self, cell: float) -> None:
        self.cell = max(float(cell), 1.0)
        self._cells: dict[tuple[int, int], set[Hashable]] = defaultdict(set)
        self._where: dict[Hashable, tuple[int, int]] = {}
        self._pts: dict[Hashable, tuple[float, float]] = {}

    def _key(self, x: float, y: float) -> tuple[int, int]:
        return math.floor(x / self.cell), math.floor(y / self.cell)

    def add(self, key: Hashable, p: tuple[float, float]) -> None:
        self.remove(key)
        c = self._key(*p)
        self._cells[c].add(key)
        self._where[key] = c
        self._pts[key] = p

    def remove(self, key: Hashable) -> None:
        c = self._where.pop(key, None)
        if c is not None:
            self._cells[c].discard(key)
            del self._pts[key]

    def point(self, key: Hashable) -> tuple[float, float]:
        """The point under ``key``."""
        return self._pts[key]

    def in_box(self, x0: float, y0: float, x1: float, y1: float) -> Iterator[Hashable]:
        """Keys whose point lies in the box (edges included)."""
        cx0, cy0 = self._key(x0, y0)
        cx1, cy1 = self._key(x1, y1)
        if (cx1 - cx0 + 1) * (cy1 - cy0 + 1) > 4 * len(self._cells) + 16:  # a box larger than the grid
            cells = [c for c in self._cells if cx0 <= c[0] <= cx1 and cy0 <= c[1] <= cy1]
        else:
            cells = [(cx, cy) for cx in range(cx0, cx1 + 1) for cy in range(cy0, cy1 + 1)]
        for c in cells:
            for k in self._cells.get(c, ()):
                x, y = self._pts[k]
                if x0 <= x <= x1 and y0 <= y <= y1:
                    yield k

    def near(self, p: tuple[float, float], r: float) -> Iterator[Hashable]:
        """Keys whose point lies within ``r`` of p."""
        for k in self.in_box(p[0] - r, p[1] - r, p[0] + r, p[1] + r):
            if math.dist(self._pts[k], p) <= r:
                yield k
