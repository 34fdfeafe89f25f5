"""Plots framed by no axis lines: a tinted panel (ggplot's and seaborn's grey, bmh's), whose edges
frame the plot, and plots framed by their gridlines alone (fivethirtyeight, a despined
seaborn whitegrid, W&B's horizontal ones). A panel's tint is made page so the plot reads as drawn on the page."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from crafteditor.charts.labels import typical_font
from crafteditor.charts.numbers import parse_number
from crafteditor.ocr.runs import TextRun
from crafteditor.paint import Paints, blend_position


@dataclass
class Panel:
    """A plot drawn on a tinted rectangle (ggplot's and seaborn's grey, bmh's): its edges, the
    pixels' bounds (x0, y0, x1, y1, end exclusive), and its paint."""

    x0: int
    y0: int
    x1: int
    y1: int
    color: np.ndarray  # RGB
    bars_only: bool = False  # framed by vertical gridlines alone: read only as horizontal bars


def find_panels(paints: Paints) -> list[Panel]:
    """Plots drawn on a tinted panel: a large rectangle filled with one pale paint that is not
    the page's, its gridlines (white or grey) and marks inside it, page around it.

    ggplot draws no axis lines (the panel's edge is the axis), so no chart is found by its axes;
    the panel's own edges frame the plot instead."""
    labels = paints.labels
    H, W = labels.shape
    page = labels == paints.background
    inked: np.ndarray | None = None
    out: list[Panel] = []
    for p in range(len(paints.colors)):
        if p == paints.background:
            continue
        col = paints.colors[p].astype(np.float32)
        # a tint, not a dark fill or a heatmap's cell; or ggplot2's theme_dark, a mid grey
        # (grey50) with lighter gridlines, which had framed no plot and left the scatter on it a
        # diagram of grey boxes
        if float(col.mean()) < 150 and not (float(col.mean()) >= 100 and float(col.max() - col.min()) <= 12):
            continue
        m = labels == p
        if m.sum() < 0.05 * H * W:
            continue
        # gridlines cut the panel's paint into cells: closing bridges them (at 300 dpi a 0.8 pt
        # white line with its anti-aliasing is ~5 px)
        k = max(7, int(round(0.01 * max(H, W)))) | 1
        closed = cv2.morphologyEx(m.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
        n, lab, stats, _ = cv2.connectedComponentsWithStats(closed, connectivity=4)
        if inked is None:
            # no page inside a panel once its thin page-coloured lines are closed (Solarize's
            # gridlines run on between two bars, where the panel's own paint is not)
            inked = cv2.morphologyEx((~page).astype(np.uint8), cv2.MORPH_CLOSE, np.ones((k, k), np.uint8)) > 0
        for i in range(1, n):  # one panel per subplot
            pn = _panel_of(lab, i, stats[i], page, inked, m, paints.colors[p])
            if pn is not None:
                out += _facets(pn, page, labels, p)
    return out


def _facets(pn: Panel, page: np.ndarray, labels: np.ndarray, paint: int) -> list[Panel]:
    """A panel cut at the page-coloured gaps running across all of it (ggplot2's facets side by
    side, 5.5 pt apart, bridged by the closing; its white gridlines are thinner), each piece
    without the strip of another tint along its top (the facet's title)."""
    H, W = page.shape
    gap = max(4, int(round(0.006 * W)))
    cols = np.flatnonzero(page[pn.y0:pn.y1, pn.x0:pn.x1].mean(axis=0) >= 0.98)
    cuts = [(int(g[0]) + pn.x0, int(g[-1]) + 1 + pn.x0) for g in np.split(cols, np.flatnonzero(np.diff(cols) > 1) + 1)
            if g.size >= gap and g[0] > 0 and g[-1] < pn.x1 - pn.x0 - 1] if cols.size else []
    if not cuts:
        return [pn]
    edges = [pn.x0] + [v for c in cuts for v in c] + [pn.x1]
    pieces = [(a, b) for a, b in zip(edges[::2], edges[1::2])]
    if any(b - a < 60 for a, b in pieces):
        return [pn]
    out = []
    for a, b in pieces:
        y0 = pn.y0
        # a strip: rows of one paint across the piece that is neither the panel's nor the page's
        while y0 < pn.y1 - 60:
            row = labels[y0, a:b]
            vals, counts = np.unique(row, return_counts=True)
            top = vals[counts.argmax()]
            if counts.max() < 0.9 * (b - a) or page[y0, a + (b - a) // 2] or int(top) == paint:
                break
            y0 += 1
        out.append(Panel(a, y0, b, pn.y1, pn.color.copy(), pn.bars_only))
    return out


def _panel_of(lab: np.ndarray, i: int, stat, page: np.ndarray, inked: np.ndarray, m: np.ndarray,
              color: np.ndarray) -> "Panel | None":
    """Component ``i`` of a tint's closed mask as a panel: a filled rectangle with page round it."""
    H, W = page.shape
    x, y, w, h, _ = (int(v) for v in stat)
    if w * h < 0.04 * H * W or min(w, h) < 60:
        return None
    # the rectangle: the rows and columns that are no page across its middle (bars standing
    # on the panel's edge cover its paint there, but not with page; white gridlines are
    # page colour, bridged by the closing)
    filled = _holes_filled(inked | (lab == i), x, y, w, h)
    ys, xs = slice(y + h // 4, y + 3 * h // 4), slice(x + w // 4, x + 3 * w // 4)
    cols = np.flatnonzero(filled[ys, :].mean(axis=0) >= 0.97)
    rows = np.flatnonzero(filled[:, xs].mean(axis=1) >= 0.97)
    cols = _run_around(cols, x + w // 2)
    rows = _run_around(rows, y + h // 2)
    if cols is None or rows is None:
        return None
    # no further than the tint itself reaches (ggplot2's facets in rows: the ink closed across
    # the few px between a panel and the strip of the one below had made one column of them all)
    cols, rows = cols[(cols >= x - 2) & (cols < x + w + 2)], rows[(rows >= y - 2) & (rows < y + h + 2)]
    x0, x1, y0, y1 = int(cols[0]), int(cols[-1]) + 1, int(rows[0]), int(rows[-1]) + 1
    # (the tint's pale fringes round the tick labels under a facet, closed onto it, may reach
    # a few rows past its bottom)
    if (x1 - x0) * (y1 - y0) < 0.04 * H * W or abs((x1 - x0) - w) > 0.05 * w or not 0.9 * h <= y1 - y0 <= 1.05 * h:
        return None
    rect = filled[y0:y1, x0:x1]
    if rect.mean() < 0.97 or m[y0:y1, x0:x1].mean() < 0.25:
        return None
    # nothing drawn on it, no gridline nor mark, its edge aside: a bar (MultiQC's lone pale bar,
    # numbered by the axis below it, had been taken for the plot's panel and wiped)
    inner = m[y0 + 3:y1 - 3, x0 + 3:x1 - 3]
    if inner.size and inner.mean() >= 0.999:
        return None
    # page all round it (tick marks and labels aside), or but for a facet's strip along its top
    # (ggplot2's facet_wrap: wide short panels, their strips a third of the ring)
    top = page[max(0, y0 - 4):y0 - 1, x0:x1].ravel()
    sides = np.concatenate([page[y1 + 1:y1 + 4, x0:x1].ravel(), page[y0:y1, max(0, x0 - 4):x0 - 1].ravel(),
                            page[y0:y1, x1 + 1:x1 + 4].ravel()])
    ring = np.concatenate([top, sides])
    if ring.size == 0 or (ring.mean() < 0.6 and not (sides.size and sides.mean() >= 0.6 and y0 >= 5
                                                     and _strip_above(lab, page, m, x0, x1, y0))):
        return None
    return Panel(x0, y0, x1, y1, color.copy())


def _holes_filled(filled: np.ndarray, x: int, y: int, w: int, h: int) -> np.ndarray:
    """``filled`` with the page-coloured holes enclosed inside the box ``(x, y, w, h)`` filled: the
    white faces of a box plot's boxes drawn on the panel (ggplot2's geom_boxplot on theme_grey had
    cut the panel's middle rows and columns, no panel was found, and the boxes were read as a
    diagram of grey cells)."""
    sub = np.pad(filled[y:y + h, x:x + w], 1, constant_values=False)
    outside = (~sub).astype(np.uint8)
    cv2.floodFill(outside, None, (0, 0), 2)
    out = filled.copy()
    out[y:y + h, x:x + w] |= (outside == 1)[1:-1, 1:-1]
    return out


def _strip_above(lab: np.ndarray, page: np.ndarray, m: np.ndarray, x0: int, x1: int, y0: int) -> bool:
    """Rows just above a panel that are neither page nor the panel's paint across most of its
    width: a facet's strip (its title on a darker tint)."""
    band = ~page[max(0, y0 - 4):y0 - 1, x0:x1] & ~m[max(0, y0 - 4):y0 - 1, x0:x1]
    return band.size > 0 and float(band.mean()) >= 0.7


def grid_frames(hlines, vlines, H: int, W: int, page: np.ndarray, ink: np.ndarray | None = None,
                runs: list[TextRun] = ()) -> list[Panel]:
    """Plots framed by their gridlines alone: two or more horizontal lines with the same ends
    and two or more vertical ones with the same ends, crossing each other. Their ends are the
    plot's edges (a plot with axis lines has them there too; it is found by its axes first)."""

    frames = []
    for hg in _same_ends([h for h in hlines if h[3] - h[1] <= 4], 0, 2, 2):
        x0, x1 = int(np.median([h[0] for h in hg])), int(np.median([h[2] for h in hg]))
        for vg in _same_ends([v for v in vlines if v[2] - v[0] <= 4], 1, 3, 2):
            y0, y1 = int(np.median([v[1] for v in vg])), int(np.median([v[3] for v in vg]))
            if x1 - x0 < 0.25 * W or y1 - y0 < 0.2 * H:
                continue
            if all(x0 - 3 <= v[0] <= x1 + 3 for v in vg) and all(y0 - 3 <= h[1] <= y1 + 3 for h in hg):
                frames.append(Panel(x0, y0, x1, y1, page.copy()))
    if ink is not None:
        frames += _bar_grid_frames(vlines, hlines, ink, page, list(runs))
    frames += _row_grid_frames(hlines, vlines, list(runs), H, W, page)
    # the largest first; one per plot
    frames.sort(key=lambda f: -(f.x1 - f.x0) * (f.y1 - f.y0))
    out: list[Panel] = []
    for f in frames:
        if not any(on_panel((f.x0, f.y0, f.x1, f.y1), g) for g in out):
            out.append(f)
    return out


def _bar_grid_frames(vlines, hlines, ink: np.ndarray, page: np.ndarray, runs: list[TextRun]) -> list[Panel]:
    """Plots framed by vertical gridlines alone (horizontal bars on a whitegrid: ggplot's
    theme_minimal with only x gridlines, MultiQC, Vega): three or more vertical lines, evenly
    spaced, with one end the same as the longest's, that no horizontal gridline crosses. The longest's ends are
    the plot's top and bottom, the first its left edge; the right edge is the last, or the end
    of the longest bar where it runs past it (within a spacing, short of another vertical line)."""
    H, W = ink.shape
    font = typical_font(runs)
    out = []
    # one end the same: a value label or a bar drawn over a gridline can cut it short
    groups: list[list[tuple[int, int, int, int]]] = []
    for v in sorted(vlines, key=lambda v: v[1] - v[3]):
        g = next((g for g in groups if abs(g[0][1] - v[1]) <= 3 or abs(g[0][3] - v[3]) <= 3), None)
        if g is None:
            groups.append([v])
        elif v[3] - v[1] >= 0.5 * (g[0][3] - g[0][1]):
            g.append(v)
    for g in groups:
        if len(g) < 3:
            continue
        xs = sorted((v[0] + v[2]) / 2 for v in g)
        gaps = np.diff(xs)
        # evenly spaced, where a label drawn over one may have hidden it: each gap a whole
        # number of the smallest
        steps = gaps / max(gaps.min(), 1.0)
        if gaps.min() < 8 or np.abs(steps - np.round(steps)).max() > 0.12:
            continue
        y0, y1 = g[0][1], g[0][3]
        # gridlines on the left hidden under bars drawn over them: a tick number a whole
        # spacing on below the plot
        while any(abs(r.cx - (xs[0] - gaps.min())) <= 0.2 * gaps.min() and y1 - 2 <= r.y <= y1 + 3 * font
                  and r.angle == 0 and parse_number(r.text) is not None for r in runs):
            xs.insert(0, xs[0] - gaps.min())
        beyond = [v[0] for v in vlines if v[0] > xs[-1] + 3 and v not in g]
        reach = int(min([xs[-1] + gaps.min(), W - 1] + [b - 2 for b in beyond]))
        # each row's run of ink from the left edge on: the longest is the longest bar
        band = ink[y0:y1, int(xs[0]) + 3:reach]
        x1 = max(int(xs[-1]), int(xs[0]) + 4 + int(np.cumprod(band, axis=1).sum(axis=1).max(initial=0)))
        if x1 - xs[0] < 0.25 * W or y1 - y0 < 0.2 * H:
            continue
        if not any(h[0] <= xs[0] + 3 and h[2] >= xs[-1] - 3 and y0 < h[1] < y1 for h in hlines):
            out.append(Panel(int(xs[0]), y0, x1, y1, page.copy(), bars_only=True))
    return out


def _row_grid_frames(hlines, vlines, runs: list[TextRun], H: int, W: int, page: np.ndarray) -> list[Panel]:
    """Plots framed by horizontal gridlines alone, no axis line, no vertical gridline (a W&B
    card, a despined plot with ``grid(axis='y')``): three or more horizontal lines with the same
    ends, each with a number at its left end, centred on it (its y tick). Their ends are the
    plot's left and right; the top line its top; its bottom the lowest line, or, where numbers
    stand in a row below that (the x ticks; W&B's plot runs on below its last gridline), just
    above them."""
    font = typical_font(runs)
    out = []
    for g in _same_ends([h for h in hlines if h[3] - h[1] <= 4], 0, 2, 3):
        x0, x1 = int(np.median([h[0] for h in g])), int(np.median([h[2] for h in g]))
        if x1 - x0 < 0.25 * W or any(x0 + 3 < (v[0] + v[2]) / 2 < x1 - 3 for v in vlines):
            continue
        ys = sorted((h[1] + h[3]) / 2 for h in g)
        ticked = [y for y in ys if any(r.angle == 0 and x0 - 6 * font <= r.right <= x0 + 2 and abs(r.cy - y) <= 0.5 * font
                                       and parse_number(r.text) is not None for r in runs)]
        if len(ticked) < 3 or len(ticked) < 0.75 * len(ys):
            continue
        step = float(np.median(np.diff(ys)))
        below = [r for r in runs if r.angle == 0 and ys[-1] < r.y <= ys[-1] + step + 2 * font
                 and x0 - 2 * font <= r.cx <= x1 + 2 * font and parse_number(r.text) is not None]
        rows = sorted(r.y for r in below)
        y1 = int(rows[len(rows) // 2] - 0.3 * font) if len(below) >= 2 else int(ys[-1]) + 1
        y0 = int(ys[0])
        if y1 - y0 >= 0.2 * H:
            out.append(Panel(x0, y0, x1, max(y1, int(ys[-1]) + 1), page.copy()))
    return out


def _same_ends(lines, a: int, b: int, least: int) -> list[list[tuple[int, int, int, int]]]:
    """``lines`` grouped by their ends (coordinates ``a`` and ``b`` within 3 px), groups of
    ``least`` or more."""
    out: list[list[tuple[int, int, int, int]]] = []
    for ln in sorted(lines, key=lambda v: (v[a], v[b])):
        g = next((g for g in out if abs(g[0][a] - ln[a]) <= 3 and abs(g[0][b] - ln[b]) <= 3), None)
        if g is None:
            out.append([ln])
        else:
            g.append(ln)
    return [g for g in out if len(g) >= least]


def numbered(pn: "Panel", runs: list[TextRun]) -> bool:
    """Tick numbers beside the panel: two or more just left of it or just below it (a diagram's
    large pale group frame is no plot, and is left as it is)."""
    font = typical_font(runs)
    left = sum(1 for r in runs if r.angle == 0 and pn.x0 - 6 * font <= r.right <= pn.x0 + 2
               and pn.y0 - font <= r.cy <= pn.y1 + font and parse_number(r.text) is not None)
    below = sum(1 for r in runs if r.angle == 0 and pn.y1 - 2 <= r.y <= pn.y1 + 3 * font
                and pn.x0 - 2 * font <= r.cx <= pn.x1 + 2 * font and parse_number(r.text) is not None)
    return left >= 2 or below >= 2


def _run_around(idx: np.ndarray, centre: int) -> np.ndarray | None:
    """The run of consecutive indices holding ``centre``."""
    if idx.size == 0:
        return None
    runs = np.split(idx, np.flatnonzero(np.diff(idx) > 1) + 1)
    return next((r for r in runs if r[0] <= centre <= r[-1]), None)


def unpanel(rgb: np.ndarray, panels: list[Panel], page: np.ndarray, tolerance: float = 14.0) -> np.ndarray:
    """A copy of ``rgb`` with each panel's tint, and its blends towards the page colour (white
    gridlines, a legend's half-transparent face), made page: the plot reads as drawn on the page.
    Grey gridlines stay, as on any plain chart."""
    out = rgb.copy()
    for pn in panels:
        sub = out[pn.y0:pn.y1, pn.x0:pn.x1]
        _, d = blend_position(sub, pn.color, page)
        gone = d <= tolerance
        tint = pn.color.astype(np.float32)
        if float(tint.mean()) < 150:
            # a mid-grey panel (theme_dark): its gridlines are greys a little darker or lighter
            # than it, dark enough to pass for marks once the panel is page
            px = sub.astype(np.float32)
            neutral = px.max(axis=2) - px.min(axis=2) <= 12
            gone |= neutral & (np.abs(px.mean(axis=2) - float(tint.mean())) <= 45)
        sub[gone] = page
    return out


def on_panel(plot, pn: Panel) -> bool:
    """The plot is the panel's (its axes or frame run along the panel's edges)."""
    return max(abs(plot[0] - pn.x0), abs(plot[1] - pn.y0), abs(plot[2] - pn.x1), abs(plot[3] - pn.y1)) <= 8
