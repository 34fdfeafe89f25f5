"""Box plots on a category axis: per category, the box (the longest run of rows whose ink spans 6 px
and a twelfth of the category's step or more: a filled box's, or an outlined box's two sides), its
median (the row inside it that differs most from the box's typical row: Vega-Lite's white tick on
a filled box, matplotlib's orange line, ggplot2's thick black one) and its whiskers (ink running
on up and down from the box's middle column). The chart becomes a Vega-Lite ``boxplot`` of five
rows per category (whisker ends, quartiles, median), which Crafter's box statistics give back."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from crafteditor.blobs import find_blobs
from crafteditor.charts.axes import Axis
from crafteditor.paint import to_hex


def read_boxes(rgb: np.ndarray, bg, xaxis: Axis, yaxis: Axis, plot,
               width: float = 0.0) -> list[tuple[str, list[float], Any]] | None:
    """(category, [lower whisker, Q1, median, Q3, upper whisker], box colour or None) per box,
    where most categories have one; else None. ``width``: the widest box in px, where known (a
    box as wide as its step, ggplot2's on a numeric axis, is looked for across all of it)."""
    cats = sorted(xaxis.categories)
    if len(cats) < 2 or yaxis.log:
        return None
    step = float(np.median(np.diff([c for c, _ in cats])))
    if width > 0:
        step = max(step, (width + 8) / 0.9)
    x0, y0, x1, y1 = (int(round(v)) for v in plot)
    region = rgb[y0 + 2:y1 - 1, x0 + 2:x1 - 1].astype(np.int16)
    if region.size == 0 or step < 8:
        return None
    ink = _box_ink(region, bg, whiskers_tall=width > 0)
    out = []
    for c, name in cats:
        box = _one_box(region, ink, c - x0 - 2, step)
        if box is not None:
            rows, colour = box
            out.append((name, [yaxis.value(r + y0 + 2.5) for r in rows], colour))
    if len(out) < 2 or len(out) < 0.6 * len(cats):
        return None
    return out


def _box_ink(region: np.ndarray, bg, whiskers_tall: bool = False) -> np.ndarray:
    """The plot's ink, far from the page's colour, without the gridlines and frames that run
    across the plot (no box edge does). With ``whiskers_tall`` (boxes on a numeric axis) a column
    is a gridline only where it runs nine tenths of the way: patchwork's gear-3 box, its whiskers
    four fifths of the plot high, had been cut in two down its middle; on a category axis a
    gridline hidden behind an opaque box face runs less than that and still goes."""
    ink = np.abs(region - np.asarray(bg, np.int16)).max(axis=2) > 50
    ink[ink.mean(axis=1) >= 0.6, :] = False
    ink[:, ink.mean(axis=0) >= (0.9 if whiskers_tall else 0.6)] = False
    return ink


def boxes_on_numbers(rgb: np.ndarray, bg, xaxis: Axis, yaxis: Axis, plot) -> list[tuple[str, list[float], Any]] | None:
    """Box plots on a numeric x axis (ggplot2's ``geom_boxplot(aes(gear, disp))`` with a number for
    the group: its axis reads 2.5 … 5.5, no category, so the boxes were read as a line through
    their corners): each box with its whiskers is one blob of ink; its centre's value names it.
    None where fewer than two boxes read."""
    if xaxis.categories or xaxis.log or yaxis.log:
        return None
    x0, y0, x1, y1 = (int(round(v)) for v in plot)
    region = rgb[y0 + 2:y1 - 1, x0 + 2:x1 - 1].astype(np.int16)
    if region.size == 0:
        return None
    ink = _box_ink(region, bg, whiskers_tall=True)
    n, _, stats, _ = find_blobs(ink)
    H, W = region.shape[:2]
    blobs = [st for st in stats[1:] if st[2] >= 8 and st[3] >= 16 and st[3] >= 0.8 * st[2] and st[0] > 0
             and st[0] + st[2] < W]
    # the boxes are nearly all the plot's ink (outliers aside): a smoother's band with its line
    # across the plot is no row of boxes
    if len(blobs) < 2 or sum(int(st[4]) for st in blobs) < 0.85 * int(ink.sum()):
        return None
    centres = [x0 + 2 + st[0] + st[2] / 2 for st in sorted(blobs, key=lambda st: st[0])]
    # named to a tenth of the boxes' spacing's decade (4.01 is the '4' drawn a pixel off)
    spacing = float(np.median(np.diff([xaxis.value(px) for px in centres])))
    if spacing <= 0:
        return None
    grain = 10.0 ** (math.floor(math.log10(spacing)) - 1)
    cats = [(px, f"{round(round(xaxis.value(px) / grain) * grain, 6):g}") for px in centres]
    named = Axis(xaxis.a, xaxis.b, False, cats)
    boxes = read_boxes(rgb, bg, named, yaxis, plot, max(float(st[2]) for st in blobs))
    if boxes is None or len(boxes) < len(cats):
        return None
    return boxes


def _one_box(region: np.ndarray, ink: np.ndarray, c: float, step: float) -> tuple[list[float], Any] | None:
    H, W = ink.shape
    a, b = max(0, int(c - 0.45 * step)), min(W, int(c + 0.45 * step) + 1)
    sub = ink[:, a:b]
    if sub.shape[1] < 6:
        return None
    has = sub.any(axis=1)
    first = np.where(has, sub.argmax(axis=1), 0)
    last = np.where(has, sub.shape[1] - 1 - sub[:, ::-1].argmax(axis=1), -1)
    wide = has & (last - first + 1 >= max(6.0, 0.08 * step))  # (Vega-Lite draws 14 px boxes however wide the step)
    # the longest run of wide rows is the box
    best, start = (0, 0), None
    for r in range(H + 1):
        if r < H and wide[r]:
            start = r if start is None else start
        elif start is not None:
            if r - start > best[1] - best[0]:
                best = (start, r)
            start = None
    r0, r1 = best
    if r1 - r0 < 4 or r1 >= H - 2:  # no box, or one standing on the axis (a bar)
        return None
    left, right = int(np.median(first[r0:r1])) + a, int(np.median(last[r0:r1])) + a
    if right - left < 6:
        return None
    inner = region[r0 + 2:r1 - 2, left + 2:right - 1].astype(np.float32)
    if inner.shape[0] < 1 or inner.shape[1] < 2:
        return None
    means = inner.mean(axis=1)
    typical = np.median(means, axis=0)
    dist = np.linalg.norm(means - typical, axis=1)
    if dist.max() < 40:
        return None  # a plain block: a bar, not a box
    strong = np.flatnonzero(dist >= 0.5 * dist.max())
    near = strong[np.abs(strong - strong[np.argmax(dist[strong])]) <= 3]
    median = r0 + 2 + float(near.mean())
    mid = (left + right) // 2
    column = ink[:, max(0, mid - 2):mid + 3].any(axis=1)
    top = r0
    while top > 0 and (column[top - 1] or (top > 1 and column[top - 2])):
        top -= 1
    bottom = r1 - 1
    while bottom < H - 1 and (column[bottom + 1] or (bottom < H - 2 and column[bottom + 2])):
        bottom += 1
    if top >= r0 - 1 and bottom <= r1:
        return None  # no whiskers: no box plot
    filled = float(np.median(np.abs(inner - typical).max(axis=2))) < 30 and \
        float(np.abs(typical - region[0, 0]).max()) > 40
    colour = to_hex(typical) if filled else None
    return [float(bottom), float(r1 - 1), median, float(r0), float(top)], colour


def box_spec(spec: dict[str, Any], boxes: list[tuple[str, list[float], Any]]) -> dict[str, Any]:
    """The chart's spec redone as box plots on its axes: five rows per category."""
    enc = spec.get("encoding") or {}
    numeric = (enc.get("x") or {}).get("type") == "quantitative"
    rows = [{"x": float(name) if numeric else name, "y": round(v, 6)} for name, vals, _ in boxes for v in vals]
    mark: dict[str, Any] = {"type": "boxplot", "extent": 1.5}
    colour = next((c for _, _, c in boxes if c), None)
    if colour:
        mark["color"] = colour
    out = {"data": {"values": rows}, "mark": mark,
           "encoding": {k: v for k, v in enc.items() if k in ("x", "y")}}
    if spec.get("title"):
        out["title"] = spec["title"]
    return out
