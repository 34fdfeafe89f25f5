"""Filled areas: a paint filling the plot from a baseline (or from the area under it, stacked) up to a
curve (Vega-Lite's and Altair's ``mark_area``, density and cumulative plots, stacked areas; matplotlib's
``fill_between`` and ``stackplot``). Each column's fill is read as the value its top stands for: where the
fill stands on the baseline, the top's value; where it stands on another area, its thickness there, as a
stacked area's rows hold it. Before, such a fill was neither bars nor a line, and the chart was lost."""

from __future__ import annotations

import numpy as np

from crafteditor.charts.axes import Axis, x_of
from crafteditor.charts.series import Series

SOLID = 0.9  # the least share of a column's span from its top to its bottom the fill inks
SAMPLES = 120  # about how many columns a series is read at (the nearest to each true x is within half a step)


def area_series(m: np.ndarray, color: tuple[int, int, int], yaxis: Axis, xaxis: Axis, plot,
                base: float) -> Series | None:
    """The area paint ``m`` fills, read column by column, or None where ``m`` is no area: its columns are
    solid from top to bottom (``SOLID``), most of them thick (a line's stroke is a few pixels), and they
    run over a third of the plot's width or more. ``base``: the baseline's pixel row."""
    if xaxis.categories or yaxis.log:
        return None
    x0, y0, x1, y1 = (int(round(v)) for v in plot)
    sub = m[y0:y1 + 1, x0:x1 + 1]
    cols = np.flatnonzero(sub.any(axis=0))
    if cols.size < max(20, 0.33 * (x1 - x0)):
        return None
    tops = sub.argmax(axis=0)
    bottoms = sub.shape[0] - sub[::-1].argmax(axis=0)
    counts = sub.sum(axis=0)
    span = bottoms[cols] - tops[cols]
    solid = counts[cols] >= SOLID * span
    thick = span >= max(6.0, 0.06 * (y1 - y0))
    if solid.mean() < 0.9 or thick.mean() < 0.6 or np.median(span) < max(8.0, 0.1 * (y1 - y0)):
        return None
    # the fill runs on from column to column: no gaps wider than a few pixels (bars stand apart)
    if np.diff(cols).max(initial=1) > 3:
        return None
    if _staircase(tops[cols]):
        return None
    step = max(1, int(round(cols.size / SAMPLES)))
    keep = list(cols[::step]) + ([int(cols[-1])] if (cols.size - 1) % step else [])
    on_base = np.abs(bottoms[cols] + y0 - base) <= 3
    stacked = bool(on_base.mean() < 0.5)
    points = []
    # keep's places in cols (zip drops the last where keep has no tail); each column of cols is inked, its span
    # a pixel at least
    for j, c in zip([*range(0, cols.size, step), cols.size - 1], keep):
        if not solid[j]:
            continue
        top = float(tops[c] + y0)
        v = yaxis.value(top) if on_base[j] else yaxis.value(top) - yaxis.value(float(bottoms[c] + y0))
        points.append((x_of(xaxis, c + x0 + 0.5), float(v)))
    if len(points) < 5:
        return None
    return Series(color=color, kind="area", points=points, stacked=stacked)


def _staircase(tops: np.ndarray) -> bool:
    """A top edge flat from jump to jump, the rise all in jumps of a few pixels and more: touching
    histogram bins (the palmerpenguins flipper histogram's, drawn over each other), not a curve."""
    d = np.abs(np.diff(tops.astype(float)))
    total = float(d.sum())
    if total == 0:
        return True
    return bool(np.mean(d == 0) >= 0.8 and float(d[d > 3].sum()) >= 0.6 * total)
