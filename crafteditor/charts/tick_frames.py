"""Plots drawn with no axis lines, no gridlines and no tinted panel (Vega-Lite themes whose domain
line is white or off, a transparent PNG whose white axis vanished on the page, despined
matplotlib): nothing long and straight frames them, yet their tick labels do. A column of
numbers with aligned right edges, evenly spaced and evenly stepped, is a y axis; the row of
labels just below its lowest number is the x axis's. Their edges frame the plot, which is then
read as a framed one (:func:`crafteditor.charts.detect.detect_charts`).

A table's column of numbers is no axis: its rows carry other cells to the right, on the same
line, where a plot carries marks, not text.
"""

from __future__ import annotations

import numpy as np

from crafteditor.charts.labels import typical_font
from crafteditor.charts.numbers import parse_number
from crafteditor.charts.panels import Panel
from crafteditor.ocr.runs import TextRun


def tick_frames(runs: list[TextRun], ink: np.ndarray, page: np.ndarray,
                taken: list[tuple[float, float, float, float]]) -> list[Panel]:
    """Frames of plots found by their tick labels alone, none overlapping a box in ``taken``."""
    font = typical_font(runs)
    H, W = ink.shape
    nums = [k for k, r in enumerate(runs) if r.angle == 0 and parse_number(r.text) is not None]
    out: list[Panel] = []
    seen: set[int] = set()
    for k in sorted(nums, key=lambda k: runs[k].cy):
        if k in seen:
            continue
        # right-aligned; a tick mark read with its label ('40 −') runs a tick's length further
        col = [j for j in nums if j not in seen and runs[j].cy >= runs[k].cy
               and abs(runs[j].right - runs[k].right) <= 1.5 * font]
        col.sort(key=lambda j: runs[j].cy)
        # the run of even steps down from this number: the x axis's own '0' at the corner, or the y
        # numbers of a plot stacked below, share the right edge but break the spacing or the fall
        col = _even_run(runs, col, font)
        seen.update(col if len(col) >= 3 else [k])
        frame = _frame(runs, col, [runs[j] for j in nums], font, ink, page, H, W)
        if frame is None:
            continue
        box = (frame.x0, frame.y0, frame.x1, frame.y1)
        if any(_overlap(box, t) for t in taken + [(f.x0, f.y0, f.x1, f.y1) for f in out]):
            continue
        out.append(frame)
    return out


def _even_run(runs: list[TextRun], col: list[int], font: float) -> list[int]:
    """The leading numbers of ``col`` (top down) that stay evenly spaced, their values falling on
    one straight line; cut where the next breaks either."""
    out = col[:1]
    for j in col[1:]:
        cys = np.array([runs[i].cy for i in out + [j]])
        vals = np.array([parse_number(runs[i].text) for i in out + [j]], dtype=float)
        if not _even(cys, vals, font):
            break
        out.append(j)
    return out


def _even(cys: np.ndarray, vals: np.ndarray, font: float) -> bool:
    """Evenly spaced (a label OCR missed leaves a gap of two), the values falling down the page on
    one straight line."""
    gaps = np.diff(cys)
    units = gaps / max(gaps.min(), 1.0)
    if gaps.min() < 0.8 * font or np.abs(units - np.round(units)).max() > 0.12 or (np.diff(vals) >= 0).any():
        return False
    if len(cys) < 3:
        return True
    slope, icept = np.polyfit(cys, vals, 1)
    return bool(np.abs(vals - (slope * cys + icept)).max() <= 0.01 * (vals.max() - vals.min()))


def _frame(runs: list[TextRun], col: list[int], numbers: list[TextRun], font: float, ink: np.ndarray,
           page: np.ndarray, H: int, W: int) -> Panel | None:
    """The plot right of a y-tick column (evenly spaced and stepped: :func:`_even_run`), or None where
    the column is no axis."""
    if len(col) < 3:
        return None
    cys = np.array([runs[j].cy for j in col])
    gaps = np.diff(cys)
    x0 = max(runs[j].right for j in col) + 0.3 * font
    # a table's column: its rows carry other cells to the right, on the same line
    beside = sum(any(r is not runs[j] and abs(r.cy - runs[j].cy) <= 0.4 * font and x0 < r.x < x0 + 8 * font
                     for r in runs) for j in col)
    if beside > 1:
        return None
    low = float(cys[-1])
    # the x labels: the row of runs just below the lowest y number (a step below where the lowest
    # number, 0 at the corner, was lost or read with the first x label), right of the column
    below = [r for r in runs if r.angle == 0 and r.x >= x0 - font and low + 0.3 * font <= r.y <= low + gaps.min() + 2.5 * font]
    # the first row of two labels or more: a lone run above it is the x axis's title set in the
    # plot's corner (W&B's 'Step') or a note, not the labels
    row_top = min((r.y for r in below if sum(abs(q.y - r.y) <= 0.6 * font for q in below) >= 2), default=None)
    if row_top is None:
        return None
    row = _row(sorted((r for r in below if r.y <= row_top + 0.6 * font), key=lambda r: r.x),
               numbers, x0, float(cys[0]) - font, low, font)
    if len(row) < 2:
        return None
    x1 = min(float(W - 1), max(r.right for r in row) + 0.3 * font)
    if x1 - x0 < 6 * font:
        return None
    # the baseline: up from the x labels past the sparse tick marks under it, no higher than
    # the lowest y number (a bar's foot fills its row, a tick mark does not)
    y = int(row_top) - 1
    xa, xb = int(x0), int(x1)
    while y > low and ink[y, xa:xb].mean() < 0.05:
        y -= 1
    y1 = int(max(y, low))
    y0 = int(max(0.0, cys[0] - 0.5 * font))
    if y1 - y0 < 3 * font:
        return None
    return Panel(int(x0), y0, int(x1), y1, page.copy())


def _row(row: list[TextRun], numbers: list[TextRun], x0: float, top: float, low: float,
         font: float) -> list[TextRun]:
    """The x labels of this plot alone (``row`` left to right): up to the next plot's y numbers to
    the right, or a gap of over two label spacings (a plot side by side)."""
    right = min((r.x for r in numbers if r.x > x0 + font and top <= r.cy <= low), default=float("inf"))
    out: list[TextRun] = []
    for r in row:
        if r.right > right:
            break
        if len(out) >= 2:
            # the usual spacing: Vega-Lite sets its first label flush with the axis's end, nearer the
            # second, and a label OCR lost after it (ggplot2's theme: '2.5' read with the axis title below
            # it) had been a gap of over twice the least spacing, the plot cut there
            step = float(np.median([b.cx - a.cx for a, b in zip(out, out[1:])]))
            if r.cx - out[-1].cx > 2.5 * max(step, font):
                break
        out.append(r)
    return out


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
