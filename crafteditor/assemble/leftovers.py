"""Leftovers: what is drawn but joins nothing (a free line with its arrowheads, one path) and
what no stage explained (traced paths, or an image patch)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from crafteditor.assemble.builder import FigureBuilder
from crafteditor.lines.paths import LinePath
from crafteditor.paint import to_hex
from crafteditor.trace import TracedObject
from crafter.spec.model import Box, Image, Path


def free_line(b: FigureBuilder, ln: LinePath, pts) -> list[Path]:
    """A line that joins nothing: one path, its arrowheads closed subpaths of it.

    One element an editor selects and moves whole (it was a stroked line plus a filled
    triangle per head). The path is filled and stroked in the line's colour: the line is
    traced out and back, so it encloses no area and only the heads are filled, and each
    head is inset by half the stroke, so with its mitred stroke it is as large as drawn.
    """
    w = round(max(0.3, ln.width * b.s), 2)
    line = [(x * b.s, y * b.s) for x, y in pts]
    heads = []
    for h in (ln.head_start, ln.head_end):
        if h is None:
            continue
        tip = np.array(h.tip)
        base = np.array(h.base)
        axis = tip - base
        n = np.linalg.norm(axis)
        if n < 1e-6:
            continue
        perp = np.array([-axis[1], axis[0]]) / n * h.width / 2
        heads.append(_inset_triangle([tuple(v * b.s) for v in (tip, base + perp, base - perp)], w / 2))

    def poly(points) -> str:
        return "M" + " L".join(f"{x:.2f},{y:.2f}" for x, y in points)

    color = to_hex(ln.color)
    if not heads:
        pid = b.new_id("p")
        b.free_points[pid] = [(float(f"{x:.2f}"), float(f"{y:.2f}")) for x, y in line]  # as written in d
        return [Path(kind="path", id=pid, d=poly(line), fill="none", stroke=color, stroke_width=w)]
    d = " ".join([poly(line + line[-2::-1])] + [poly(t) + " Z" for t in heads])
    return [Path(kind="path", id=b.new_id("p"), d=d, fill=color, stroke=color, stroke_width=w)]


def traced_components(b: FigureBuilder, obj: TracedObject) -> list[Any]:
    """A leftover as the trace stage read it: an image patch, or its traced paths."""
    x, y, w, h = obj.box
    if obj.href is not None:
        return [Image(kind="image", id=b.new_id("img"), href=obj.href,
                      box=Box(x=round(x, 2), y=round(y, 2), w=round(w, 2), h=round(h, 2)), pinned=True)]
    return [Path(kind="path", id=b.new_id("p"), d=p.d, fill=p.fill) for p in obj.paths]


def _inset_triangle(tri: list[tuple[float, float]], d: float) -> list[tuple[float, float]]:
    """The triangle whose sides lie ``d`` inside ``tri``'s (scaled about the incentre); ``tri``
    itself when it is too small to shrink."""
    (ax, ay), (bx, by), (cx, cy) = tri
    a, b, c = math.dist(tri[1], tri[2]), math.dist(tri[2], tri[0]), math.dist(tri[0], tri[1])
    per = a + b + c
    area = abs((bx - ax) * (cy - ay) - (cx - ax) * (by - ay)) / 2
    if per <= 0 or area <= 0:
        return tri
    r = 2 * area / per  # inradius
    if r <= 2 * d:
        return tri
    ix, iy = (a * ax + b * bx + c * cx) / per, (a * ay + b * by + c * cy) / per
    k = (r - d) / r
    return [(ix + (x - ix) * k, iy + (y - iy) * k) for x, y in tri]
