"""Dash rows: the dashes of a dashed line that the line finder left apart, as one path.

A sparse dash pattern (dashes 15 px long, gaps of 22: MLP-Mixer's dashed 'Mixer Layer' frame)
has gaps wider than the line finder chains across, so each dash came back as a free line of its
own: 215 of that figure's 482 elements, each an object an editor selects alone. The dashes of one
straight row (the same stroke, width and axis, short, alike in length, evenly near one another)
are one dashed line: one path of one subpath per dash, drawn exactly as before.
"""

from __future__ import annotations

from typing import Any

from crafter.spec.model import Path

MIN_DASHES = 3  # a row of fewer is no pattern
ALIGN = 1.0  # user units two dashes of a row may stand apart across it
DASH_MAX_WIDTHS = 12.0  # a dash is at most this many stroke widths long (plus 12: chains.chain_dashes' 'short')
GAP_MAX_DASHES = 2.5  # and the gap to the next at most this many dashes long
LENGTH_RATIO = 2.0  # dashes of a row differ at most this much in length


def dash_rows(comps: list[Any], free_points: dict[str, list[tuple[float, float]]]) -> list[Any]:
    """``comps`` with each row of dashes (free straight strokes, see the module) replaced by one
    path in the first dash's place; everything else as it was, in its order. ``free_points``: the
    points of the free lines drawn as one open stroke, by path id (``FigureBuilder.free_points``)."""
    rows: dict[tuple, list[tuple[float, float, float, int]]] = {}  # key -> (start, end, across, index)
    for i, c in enumerate(comps):
        seg = _dash(c, free_points)
        if seg is None:
            continue
        (x0, y0), (x1, y1) = seg
        if abs(y1 - y0) <= 0.01 and abs(x1 - x0) > 0.01:
            axis, lo, hi, across = "h", min(x0, x1), max(x0, x1), y0
        elif abs(x1 - x0) <= 0.01 and abs(y1 - y0) > 0.01:
            axis, lo, hi, across = "v", min(y0, y1), max(y0, y1), x0
        else:
            continue
        if hi - lo > DASH_MAX_WIDTHS * c.stroke_width + 12:
            continue
        rows.setdefault((axis, c.stroke, c.stroke_width), []).append((lo, hi, across, i))
    merged: dict[int, Path] = {}  # index of a row's first dash -> the row's path
    dropped: set[int] = set()
    for (axis, _, _), dashes in rows.items():
        for run in _runs(dashes):
            first = min(i for *_, i in run)
            d = " ".join(comps[i].d for *_, i in sorted(run))
            merged[first] = comps[first].model_copy(update={"d": d})
            dropped |= {i for *_, i in run} - {first}
    return [merged.get(i, c) for i, c in enumerate(comps) if i not in dropped]


def _dash(c: Any, free_points: dict[str, list[tuple[float, float]]]) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """A free line's one straight stroke (leftovers.free_line, two points, no heads), or None."""
    if not isinstance(c, Path) or c.fill != "none" or not c.stroke or not c.stroke_width:
        return None
    pts = free_points.get(c.id)
    if pts is None or len(pts) != 2:
        return None
    return pts[0], pts[1]


def _runs(dashes: list[tuple[float, float, float, int]]) -> list[list[tuple[float, float, float, int]]]:
    """The rows of ``dashes`` (one stroke and axis): dashes across-aligned within ALIGN, taken
    along the axis, a row broken where the gap or a length does not fit the pattern."""
    out = []
    lines: list[list[tuple[float, float, float, int]]] = []
    for dash in sorted(dashes, key=lambda t: t[2]):  # across, then cluster
        if lines and abs(dash[2] - lines[-1][0][2]) <= ALIGN:
            lines[-1].append(dash)
        else:
            lines.append([dash])
    for line in lines:
        line.sort()
        run = [line[0]]
        for prev, cur in zip(line, line[1:]):
            la, lb = prev[1] - prev[0], cur[1] - cur[0]
            if 0 < cur[0] - prev[1] <= GAP_MAX_DASHES * max(la, lb) and max(la, lb) <= LENGTH_RATIO * min(la, lb):
                run.append(cur)
                continue
            if len(run) >= MIN_DASHES:
                out.append(run)
            run = [cur]
        if len(run) >= MIN_DASHES:
            out.append(run)
    return out
