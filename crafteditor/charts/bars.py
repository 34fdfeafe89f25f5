"""Bars: filled rectangles standing on the baseline (or stacked on other bars), their heights to
a sub-pixel from the column coverage, the edge drawn round them, and gridlines drawn over them."""

from __future__ import annotations

import numpy as np

from crafteditor.blobs import find_blobs
from crafteditor.charts.axes import Axis, x_of
from crafteditor.charts.series import Series
from crafteditor.charts.style import strongest_color
from crafteditor.paint import Paints, to_hex

WHOLE_FILL = 0.97  # a blob filling this share of its box or more is one rectangle, no staircase of bins (staircase_rects)


def bar_series(rgb, color, bg, yaxis: Axis, xaxis: Axis, plot, floors: list[tuple[float, float, float]],
               comps: list, rects: list) -> Series | None:
    """A paint's blobs (``comps``: (label, stats); ``rects``: those that are filled rectangles) as
    bars, where most of them stand on the baseline; None where they do not.

    ``floors``: (left, right, top) of bars already read; a rectangle standing on one is a
    stacked segment, its value its own height (matplotlib's ``bottom=``, Vega-Lite's stack)."""
    baseline = baseline_px(yaxis, plot)
    # the plot's inner margin (3 px off the axis) clips a bar's foot: allow for it
    bars = [(i, s) for i, s in rects if abs((s[1] + s[3]) - baseline) <= 7 or abs(s[1] - baseline) <= 7]
    stacked = [(i, s) for i, s in rects if (i, s) not in bars and _on_floor(s, floors)] if floors else []
    # most blobs are bars, specks aside: value labels written over bars cut their fill into specks
    # (the counters of '0', '6', '9': flash-attention's green bars under their labels had made nine
    # blobs of five bars, and were read as a line), and white text over stacked segments leaves
    # specks of blended paint matching a series' (read as points)
    typical = float(np.median([s[4] for _, s in rects])) if rects else 0.0
    blobs = [c for c in comps if c[1][4] >= 0.05 * typical]
    if (bars or stacked) and len(bars) + len(stacked) >= 0.6 * len(blobs):
        pts = []
        spans: list[tuple[float, float]] = []
        tops: list[tuple[float, float, float]] = []
        for i, s in sorted(bars + stacked, key=lambda t: t[1][0]):
            x, y, w, h, _ = s
            top, bottom = _bar_extent(rgb, color, bg, x, y, w, h)
            on = _on_floor(s, floors) if floors else None
            if on is not None and not any(j == i for j, _ in bars):
                # its height, from the bar top it stands on
                pts.append((x_of(xaxis, x + w / 2), yaxis.value(top) - yaxis.value(on[2])))
            else:
                upward = abs(bottom - baseline) <= abs(top - baseline)
                edge = top if upward else bottom
                pts.append((x_of(xaxis, x + w / 2), yaxis.value(edge)))
            spans.append((float(x), float(x + w)))
            tops.append((float(x), float(x + w), float(y)))
        if not stacked:
            for x, w in _tail_slivers(rgb, color, spans, baseline, plot):
                top, _ = _bar_extent(rgb, color, bg, x, int(baseline) - 3, w, 3)
                pts.append((x_of(xaxis, x + w / 2), yaxis.value(top)))
                spans.append((float(x), float(x + w)))
                tops.append((float(x), float(x + w), top))
            for a, b in empty_bins(spans, plot, xaxis):
                pts.append((x_of(xaxis, (a + b) / 2), 0.0))
                spans.append((a, b))
                tops.append((a, b, baseline))
            order = sorted(range(len(pts)), key=lambda k: spans[k][0])
            pts, spans, tops = [pts[k] for k in order], [spans[k] for k in order], [tops[k] for k in order]
        return Series(color=color, kind="bar", points=pts, bar_spans=spans, floors=tops,
                      stacked=bool(stacked))
    return None


def _tail_slivers(rgb, color, spans: list[tuple[float, float]], baseline: float, plot) -> list[tuple[int, int]]:
    """A histogram's bins too low to see but as a pixel or two of its paint on the baseline, each
    side of its bins (which touch: one bin width apart): (left, width) of each. The plot's inner
    margin, 3 px off the axis, had hidden them (Vega-Lite's tail bins of 5 and 4 on an axis to
    1,000, a row high, were lost)."""
    if len(spans) < 3:
        return []
    ordered = sorted(spans)
    widths = [b - a for a, b in ordered]
    width = float(np.median(widths))
    if width < 4 or not _tiled(ordered, width):
        return []  # bars apart: no histogram's bins
    y = int(round(baseline))
    rows = rgb[max(0, y - 3):y].astype(np.float32)
    if rows.size == 0:
        return []
    near = (np.linalg.norm(rows - np.asarray(color, np.float32), axis=2) <= 40).any(axis=0)
    free = np.ones(near.size, bool)
    free[:max(0, int(plot[0]) + 3)] = False
    free[int(plot[2]) - 2:] = False
    for a, b in ordered:
        free[max(0, int(a)):int(b) + 1] = False
    axis = rgb[y:y + 2].astype(np.float32)
    on_axis = (np.linalg.norm(axis - np.asarray(color, np.float32), axis=2) <= 40).any(axis=0) if axis.size else near
    if free.any() and float(on_axis[free].mean()) >= 0.6:
        return []  # the axis line is the bars' paint (black bars): no telling a sliver from it
    out = []
    for side, start in ((-1, ordered[0][0] - width), (1, ordered[-1][1])):
        x = start
        while plot[0] - 2 <= x and x + width <= plot[2] + 2:
            a, b = int(round(x)) + 2, int(round(x + width)) - 2
            if b <= a or float(near[a:b].mean()) < 0.8:
                break
            out.append((int(round(x)), int(round(width))))
            x += side * width
    return out


def _tiled(ordered: list[tuple[float, float]], width: float) -> bool:
    """Bins of one width side by side: each gap none, or whole bins left empty (most none)."""
    gaps = [(b[0] - a[1]) / width for a, b in zip(ordered, ordered[1:])]
    tol = max(2.0, 0.15 * width) / width
    touch = sum(abs(g) <= tol for g in gaps)
    return all(abs(g - round(g)) <= tol and g > -tol for g in gaps) and touch >= 0.6 * len(gaps)


def empty_bins(spans: list[tuple[float, float]], plot, xaxis: Axis | None) -> list[tuple[float, float]]:
    """A histogram's empty bins (a count of 0, no paint): the whole bins' slots between its bins
    and on to the plot's sides, (left, right) px; none where the bars are no histogram's (apart,
    or fewer than three). Vega-Lite bins the x axis's whole domain; its empty end bins had been
    read as no row at all. Side bins only out to an edge where a tick would sit (a round value of
    the axis, or a category's label): matplotlib pads the range by 5 %, a bin or more from some 20
    bins, and a categorical axis has no slot without its label."""
    if len(spans) < 3:
        return []
    ordered = sorted(spans)
    width = float(np.median([b - a for a, b in ordered]))
    if width < 4 or not _tiled(ordered, width):
        return []
    out = []
    for a, b in zip(ordered, ordered[1:]):
        k = int(round((b[0] - a[1]) / width))
        out += [(a[1] + j * width, a[1] + (j + 1) * width) for j in range(k)]
    # bins drawn with an edge of the page's paint stand a pitch apart, a little over their width
    near = [b[0] - a[0] for a, b in zip(ordered, ordered[1:]) if b[0] - a[1] <= 0.5 * width]
    pitch = float(np.median(near)) if near else width
    rim = (pitch - width) / 2
    for step in (-pitch, pitch):
        side: list[tuple[float, float]] = []
        x = (ordered[0][0] if step < 0 else ordered[-1][0]) + step
        while plot[0] - 0.1 * width <= x and x + width <= plot[2] + 0.1 * width:
            side.append((x, x + width))
            if _ticked(xaxis, x - rim if step < 0 else x + width + rim, x + width / 2, pitch, plot):
                out += side
                side = []
            x += step
    return out


def _ticked(xaxis: Axis | None, edge: float, centre: float, width: float, plot) -> bool:
    """Whether the bins were drawn out to ``edge`` px: a category's label at the bin's ``centre``, or,
    on a number axis, a round value there (a tick's: a multiple of the power of ten under a quarter
    of the axis's span)."""
    if xaxis is None:
        return False
    if xaxis.categories:
        return any(abs(c - centre) <= 0.3 * width for c, _ in xaxis.categories)
    if xaxis.log:
        return False
    span = abs(xaxis.value(float(plot[2])) - xaxis.value(float(plot[0])))
    if span <= 0:
        return False
    unit = 10.0 ** np.floor(np.log10(span / 4))
    v = xaxis.value(edge) / unit
    return abs(v - round(v)) * unit <= 0.1 * width * abs(xaxis.b)


def staircase_rects(lab: np.ndarray, comps: list, baseline: float) -> list:
    """A histogram's bins drawn without gaps (Vega-Lite's binned bars, matplotlib's ``stepfilled``, a
    ggplot2 histogram without an edge colour) are one blob standing on the baseline, solid below a
    stepped top: cut into one rectangle per step, and a step as wide as several of the narrowest
    into that many (neighbouring bins of one count make one step). Returns ``(id, stats)`` rows
    like ``comps``'s, ids past the blobs'; none where no blob is such a staircase."""
    out: list = []
    next_id = int(lab.max()) + 1
    for i, st in comps:
        x, y, w, h, _ = (int(v) for v in st)
        # a low step beside a high one fills most of the box (Vega-Lite's 37 beside 55, 55 at scale 1:
        # 0.89, taken for one bar three bins wide): only a box filled whole is one rectangle
        if abs(y + h - baseline) > 7 or w < 12 or h < 6 or (is_rect(st) and st[4] >= WHOLE_FILL * w * h):
            continue
        blob = lab[y:y + h, x:x + w] == i
        has = blob.any(axis=0)
        tops = np.where(has, blob.argmax(axis=0), h)
        solid = blob.sum(axis=0) >= 0.9 * (h - tops)
        if has.mean() < 0.95 or solid.mean() < 0.9:
            continue
        runs: list[list[int]] = []  # [first column, last column, top]
        for c in range(w):
            if runs and abs(int(tops[c]) - runs[-1][2]) <= 1:
                runs[-1][1] = c
            else:
                runs.append([c, c, int(tops[c])])
        # the anti-aliased column or two between steps joins the step beside it
        runs = [r for r in runs if r[1] - r[0] >= 2]
        # a histogram's steps jump; a sloped area's top (a stacked area's lowest layer) creeps
        if len(runs) < 2 or float(np.median([abs(b[2] - a[2]) for a, b in zip(runs, runs[1:])])) < 4:
            continue
        for a, b in zip(runs, runs[1:]):
            a[1] = b[0] - 1
        runs[-1][1] = max(runs[-1][1], w - 1)
        narrowest = min(r[1] - r[0] + 1 for r in runs)
        for c0, c1, top in runs:
            width = c1 - c0 + 1
            k = max(1, round(width / narrowest))
            if abs(width - k * narrowest) > 1.5 * k:
                k = 1
            for j in range(k):
                a, b = c0 + round(j * width / k), c0 + round((j + 1) * width / k)
                out.append((next_id, np.array([x + a, y + top, b - a, h - top, (b - a) * (h - top)])))
                next_id += 1
    return out


def grown_to_baseline(m: np.ndarray, ink: np.ndarray, baseline: float) -> np.ndarray | None:
    """A paint's fill run on down to the baseline through the ink under it, where translucent
    bins overlap: under another series' bin a bin shows as the blend of the two, its own paint
    only above it (palmerpenguins' three species at alpha 0.5: the orange and teal bins stood
    on magenta and slate blends, were no rectangles on the baseline, and all their counts were
    lost). Each column of the paint is run down where the ink below its lowest pixel is
    unbroken to the baseline; None where the paint is no tall fill (a line's strokes are a
    few pixels high) or few columns stand on such ink."""
    rows = np.nonzero(ink.any(axis=1))[0]
    if rows.size == 0:
        return None
    # down to the baseline, or to the ink's last row where the plot's inner margin (3 px off the
    # axis) lies above it
    base = min(int(round(baseline)), int(rows[-1]) + 1)
    if base <= 0:
        return None
    sub = m[:base]
    cols = np.nonzero(sub.any(axis=0))[0]
    if cols.size < 6 or float(np.median(sub[:, cols].sum(axis=0))) < 6:
        return None
    lowest = base - 1 - np.argmax(sub[::-1, cols], axis=0)  # each column's lowest pixel of the paint
    grown = m.copy()
    stood = 0
    for c, r in zip(cols, lowest):
        below = ink[r + 1:base, c]
        if below.size == 0:
            continue
        if float(below.mean()) >= 0.9:
            grown[r + 1:base, c] = True
            stood += 1
    return grown if stood >= 0.2 * cols.size else None


def _on_floor(s, floors: list[tuple[float, float, float]]) -> tuple[float, float, float] | None:
    """The bar top a rectangle stands on (a stacked bar's segment), if any."""
    x, y, w, h = float(s[0]), float(s[1]), float(s[2]), float(s[3])
    for fx0, fx1, ftop in floors:
        overlap = min(x + w, fx1) - max(x, fx0)
        if abs((y + h) - ftop) <= 3 and overlap >= 0.8 * min(w, fx1 - fx0):
            return fx0, fx1, ftop
    return None


def _bar_extent(rgb, color, bg, x, y, w, h) -> tuple[float, float]:
    """Sub-pixel top and bottom of a bar from the coverage of its middle columns."""
    H = rgb.shape[0]
    y0, y1 = max(0, y - 2), min(H, y + h + 2)
    cols = rgb[y0:y1, x + max(1, w // 4):x + w - max(1, w // 4)].astype(np.float32)
    if cols.size == 0:
        return float(y), float(y + h)
    c = np.asarray(color, np.float32)
    span = max(1.0, float(np.linalg.norm(c - np.asarray(bg, np.float32))))
    cov = np.clip(1 - np.linalg.norm(cols - c, axis=2) / span, 0, 1).mean(axis=1)
    rows = np.nonzero(cov > 0.5)[0]
    if rows.size == 0:
        return float(y), float(y + h)
    r0, r1 = rows[0], rows[-1]
    # the partly covered row above the solid part holds the fractional top
    top = y0 + r0 - (cov[r0 - 1] if r0 > 0 else 0.0)
    bottom = y0 + r1 + 1 + (cov[r1 + 1] if r1 + 1 < len(cov) else 0.0)
    return float(top), float(bottom)


def baseline_px(yaxis: Axis, plot) -> float:
    """The pixel row of the value axis's 0 (bars stand on it), else the plot's bottom."""
    x0, y0, x1, y1 = plot
    if not yaxis.log:
        p = yaxis.pixel(0.0)
        if y0 - 2 <= p <= y1 + 2:
            return p
    return y1


def is_rect(st) -> bool:
    """A connected component's stats: a filled rectangle (a bar, a stacked segment)."""
    return st[4] >= 4 and st[4] >= 0.85 * st[2] * st[3] and st[2] >= 3 and st[3] >= 2


def has_rects(m: np.ndarray) -> bool:
    n, _, stats, _ = find_blobs(m)
    return any(is_rect(stats[i]) for i in range(1, n))


def bar_edge(paints: Paints, sr: "Series", fills: list[tuple[int, int, int]],
             baseline: float) -> tuple[tuple[int, int, int], float] | None:
    """The edge drawn round a series' bars (``edgecolor='k'``): one paint, not the page's nor a
    series', lining the top and both sides of every bar, and how many px wide it is. An edge
    too thin to be a series of its own is found here rather than by
    :func:`crafteditor.charts.marks._drop_outlines`."""
    labels = paints.labels
    H, W = labels.shape
    fill_ids = {p for p in range(len(paints.colors)) if tuple(int(v) for v in paints.colors[p]) in fills}
    found: list[int] = []
    widths: list[float] = []
    for left, right, top in sr.floors:
        l, r, t, b = int(round(left)), int(round(right)), int(round(top)), int(round(baseline))
        if r - l < 6 or b - t < 6 or t < 4 or l < 4 or r + 4 > W:
            return None
        bands = [labels[t - 4:t, l + 2:r - 2], labels[t + 2:b - 2, l - 4:l].T, labels[t + 2:b - 2, r:r + 4].T]
        ids = np.concatenate([band.ravel() for band in bands])
        ids = ids[(ids >= 0) & (ids != paints.background) & ~np.isin(ids, list(fill_ids))]
        if ids.size == 0:
            return None
        q = int(np.bincount(ids).argmax())
        # along every side, in every column of it (a gridline crossing is one row of one column)
        if any(float((band == q).any(axis=0).mean()) < 0.9 for band in bands if band.size):
            return None
        found.append(q)
        widths.append(float(np.median((bands[0] == q).sum(axis=0) + 0.5 * (bands[0] < 0).sum(axis=0))))
    if not found or len(set(found)) != 1:
        return None
    return tuple(int(v) for v in paints.colors[found[0]]), float(np.median(widths))


def grid_over_bars(rgb: np.ndarray, page: np.ndarray, bars: list["Series"], rows: list[float], baseline: float,
                   grid_hex: str) -> tuple[str, float] | None:
    """Gridlines drawn over the bars (matplotlib's default: the grid lies above patches): their
    paint and opacity, from the line as seen over the page and over each bar's fill. Over the
    page it is α·G + (1 − α)·page, over a fill F α·G + (1 − α)·F, so the two differ by
    (1 − α)·(page − F). None where the bars hide the grid."""
    c_bg = np.array([int(grid_hex[i:i + 2], 16) for i in (1, 3, 5)], np.float32)
    w = page.astype(np.float32)
    H = rgb.shape[0]
    devs, alphas = [], []
    for sr in bars:
        if sr.stacked:
            continue
        for left, right, top in sr.floors:
            l, r = int(round(left)) + 3, int(round(right)) - 3
            for row in rows:
                y = int(round(row))
                if r - l < 4 or not top + 6 < y < baseline - 6 or not 7 <= y < H - 7:
                    continue
                fill = np.median(np.concatenate([rgb[y - 6:y - 3, l:r], rgb[y + 4:y + 7, l:r]]).reshape(-1, 3), axis=0)
                c_bar = strongest_color(rgb[y - 2:y + 3, l:r], fill)
                devs.append(float(np.linalg.norm(c_bar - fill)))
                seg = w - fill
                if float(seg @ seg) > 400:
                    alphas.append(1.0 - float(((c_bg - c_bar) @ seg) / (seg @ seg)))
    if not devs or np.median(devs) < 8 or not alphas:
        return None
    alpha = float(np.clip(np.median(alphas), 0.05, 1.0))
    g = np.clip((c_bg - (1 - alpha) * w) / alpha, 0, 255)
    return to_hex(g), alpha
