"""Heatmaps (a confusion matrix, an attention map): a plot filled with a grid of coloured cells,
one per x and y category; the values from the numbers in the cells or, without them, from a
colour bar, and the colour scheme that matches the cells."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from crafteditor.charts.axes import robust_fit
from crafteditor.charts.component import ChartResult, box_mask
from crafteditor.charts.hanging import read_hanging
from crafteditor.charts.labels import find_titles, label_text, typical_font
from crafteditor.charts.numbers import parse_number
from crafteditor.charts.style import ChartStyle
from crafteditor.charts.vegalite import round_to_span
from crafteditor.config import Config
from crafteditor.ocr.engine import get_engine
from crafteditor.paint import to_hex
from crafter.charts.scales import colormap

# sequential schemes a heatmap's colours are matched against (Vega names; matplotlib's maps)
_HEATMAP_SCHEMES = ("blues", "greens", "greys", "oranges", "purples", "reds", "viridis", "magma", "inferno",
                    "plasma", "cividis", "yellowgreenblue", "yelloworangered", "orangered", "bluepurple",
                    "purplered", "redblue", "redyellowblue", "spectral")


def read_heatmap(rgb, paints, runs, used, ax, ay, right, top, config: Config | None = None) -> ChartResult | None:
    """An annotated heatmap (a confusion matrix): a plot filled with a grid of coloured cells,
    one per x and y category label, each with its number written in it. The numbers are the
    data; the cells' colours pick the colour scheme (the best of the sequential schemes, or the
    drawn colours as the scale's range). A colour bar beside it is its legend."""
    if top is None:
        return None
    font = typical_font(runs)
    spare: list[int] = []  # runs that are garbled readings of the column labels
    labels = _category_labels(runs, used, ax, ay, right, top, font)
    if labels is None:
        labels, spare = _slanted_columns(rgb, runs, used, ax, ay, right, top, font) or (None, [])
    if labels is None and config is not None and config.ocr:
        labels = _rotated_columns(rgb, paints, runs, used, ax, ay, right, top, font, config)
    if labels is None:
        return None
    left, below = labels
    nx, ny = len(below), len(left)
    cw, ch = (right - ax) / nx, (ay - top) / ny
    cells: dict[tuple[int, int], np.ndarray] = {}
    for j in range(ny):
        for i in range(nx):
            x0, x1 = int(ax + (i + 0.2) * cw), int(ax + (i + 0.8) * cw)
            y0, y1 = int(top + (j + 0.2) * ch), int(top + (j + 0.8) * ch)
            cells[(i, j)] = np.median(rgb[y0:y1, x0:x1].reshape(-1, 3), axis=0)
    # a heatmap's cells differ: more than two colours among them
    distinct = {tuple(int(v) // 8 for v in c) for c in cells.values()}
    if len(distinct) < 3:
        return None
    taken = {k for _, k in left} | {k for _, k in below} | set(spare)
    values, texts = _cell_numbers(runs, used, taken, ax, ay, right, top, cw, ch)
    missing = [(i, j) for j in range(ny) for i in range(nx) if (i, j) not in values]
    if missing and len(values) >= 0.3 * nx * ny and config is not None and config.ocr:
        for cell, v, text in _read_missing(rgb, cells, missing, ax, top, cw, ch, font, config):
            values[cell] = v
            texts.append(text)
    H, W = paints.labels.shape
    # the colour bar stands right of the row labels where they are on the right (MultiQC's)
    side = max([right] + [runs[k].right for _, k in left if runs[k].x > right])
    bar_box, bar_ticks = _colorbar_ticks(runs, used, taken, ay, side, top, font)
    annotated = len(values) >= 0.8 * nx * ny
    domain = None
    if not annotated:
        # no numbers in the cells: each cell's value is where its colour lies on the colour bar
        read = _colorbar_values(rgb, paints, runs, taken, bar_ticks, side, cells)
        if read is None:
            return None
        values, domain = read
        texts = []
    lo, hi = domain if domain is not None else (min(values.values()), max(values.values()))
    span = (hi - lo) or 1.0
    color_scale = _color_scale(cells, values, lo, hi, span)
    # a label read with the tick mark beside it ('bird -') is the label
    xcats = [label_text(runs[k].text) for _, k in below]
    ycats = [label_text(runs[k].text) for _, k in left]
    rows = [{"x": xcats[i], "y": ycats[j], "value": values[(i, j)]} for j in range(ny) for i in range(nx)
            if (i, j) in values]
    decimals = max((len(t.split(".")[1]) if "." in t else 0) for t in texts) if texts else 0
    enc: dict[str, Any] = {
        "x": {"field": "x", "type": "nominal", "sort": xcats, "title": None},
        "y": {"field": "y", "type": "nominal", "sort": ycats, "title": None},
    }
    # the colour is the cells' only: the numbers over them take black or white by the cell
    color_enc: dict[str, Any] = {"field": "value", "type": "quantitative", "scale": color_scale, "title": None}
    _place_as_drawn(enc, color_enc, runs, left, below, spare, right, bar_box, bar_ticks if not annotated else [])
    # axis titles: below the x labels, left of the y labels (rotated)
    xt, yt, tt = find_titles(runs, used | taken, [k for _, k in below], [k for _, k in left], (ax, top, right, ay),
                             font)
    for key, k in (("x", xt), ("y", yt)):
        if k is not None:
            enc[key]["title"] = runs[k].text
            taken.add(k)
    layers: list[dict[str, Any]] = [{"mark": {"type": "rect"}, "encoding": {"color": color_enc}}]
    if annotated:
        layers.append({"mark": {"type": "text", "baseline": "middle"},
                       "encoding": {"text": {"field": "value", "type": "quantitative", "format": f".{decimals}f"}}})
    spec: dict[str, Any] = {"data": {"values": rows}, "encoding": enc, "layer": layers}
    if tt is not None:
        spec["title"] = runs[tt].text
        taken.add(tt)
        style_title = (float(runs[tt].font_px), bool(runs[tt].bold))
    else:
        style_title = None
    rest = [runs[k] for k in taken]
    box = (min([ax] + [r.x for r in rest]), min([top] + [r.y for r in rest]),
           max([right, bar_box or right] + [r.right for r in rest]), max([ay] + [r.bottom for r in rest]))
    pad = 0.3 * font
    box = (max(0.0, box[0] - pad), max(0.0, box[1] - pad), min(float(W), box[2] + pad), min(float(H), box[3] + pad))
    mask = box_mask(box, H, W)
    style = ChartStyle(tick_font=float(np.median([runs[k].font_px for _, k in below + left])))
    if style_title is not None:
        style.title_font, style.title_bold = style_title
    if _framed(rgb, ax, ay, right, top):
        style.frame = True
        style.axis_color = "#000000"
    return ChartResult(box=box, plot=(ax, float(top), right, ay), mask=mask, run_indices=sorted(taken), spec=spec,
                       title=runs[tt].text if tt is not None else None, style=style)


def _place_as_drawn(enc: dict[str, Any], color_enc: dict[str, Any], runs, left, below, spare, right: float,
                    bar_box, bar_ticks) -> None:
    """Where the figure drew its parts, in the spec (the chart renderer honours them): the colour bar
    right of the plot with its own ticks (``bar_ticks``: (px, value) of an unannotated map's bar), or no
    legend where there is none; the row labels right of the cells; the column labels' angle."""
    if bar_box is None:
        color_enc["legend"] = None
    else:  # the colour bar stands right of the plot (and of the row labels where they are there)
        color_enc["legend"] = {"orient": "right"}
        if len(bar_ticks) >= 2:
            color_enc["legend"]["values"] = sorted(v for _, v in bar_ticks)  # the colour bar's own ticks
    if all(runs[k].cx > right for _, k in left):  # row labels right of the cells (MultiQC's, tick_right)
        enc["y"]["axis"] = {"orient": "right"}
    # column labels written slanted or turned: at the angle they were (SVG's rotate, as Vega's); where
    # a matrix's columns took its row labels' names, the slanted readings are among the spare runs
    angles = [runs[k].angle for _, k in below] if all(runs[k].angle for _, k in below) else \
        [runs[k].angle for k in spare if runs[k].angle]
    if angles:
        enc["x"]["axis"] = {"labelAngle": float(np.median(angles))}


def _category_labels(runs, used, ax, ay, right, top,
                     font: float) -> tuple[list[tuple[float, int]], list[tuple[float, int]]] | None:
    """The category labels left of the plot and below it, (centre, run) each, top to bottom and
    left to right: two or more on each side, one at each cell's centre. None where they are not."""
    left = _row_labels(runs, used, ax, ay, right, top, font)
    below = [(r.cx, k) for k, r in enumerate(runs) if k not in used and r.angle == 0
             and ay - 2 <= r.y <= ay + 3 * font and ax <= r.cx <= right]
    if below:  # the first row below the axis: the axis title is under it
        first = min(runs[k].y for _, k in below)
        below = sorted((c, k) for c, k in below if runs[k].y <= first + 0.5 * font)
    # or labels turned 90° hanging from the axis (Vega-Lite's), where OCR read them so
    turned = sorted((r.cx, k) for k, r in enumerate(runs) if k not in used and r.angle != 0
                    and r.y <= ay + 1.5 * font and r.bottom >= ay + font and ax <= r.cx <= right)
    if len(turned) > len(below):
        below = turned
    nx = len(below)
    if nx < 2 or left is None:
        return None
    cw = (right - ax) / nx
    # the labels stand at the cells' centres
    if any(abs(c - (ax + (i + 0.5) * cw)) > 0.25 * cw for i, (c, _) in enumerate(below)):
        return None
    return left, below


def _row_labels(runs, used, ax, ay, right, top, font: float) -> list[tuple[float, int]] | None:
    """The row labels, (centre, run) each, top to bottom: left of the plot (a label may run onto
    the axis: its tick mark read with it) or, with none there, right of it (MultiQC's,
    seaborn's ``tick_right``); two or more, one at each row's centre. None where they are not."""
    left = sorted((r.cy, k) for k, r in enumerate(runs) if k not in used and r.angle == 0
                  and ax - 15 * font <= r.right <= ax + 0.6 * font and r.x < ax and top <= r.cy <= ay)
    if len(left) < 2:
        left = sorted((r.cy, k) for k, r in enumerate(runs) if k not in used and r.angle == 0
                      and right - 0.6 * font <= r.x <= right + 3 * font and r.right > right and top <= r.cy <= ay)
    ny = len(left)
    if ny < 2 or any(abs(c - (top + (j + 0.5) * (ay - top) / ny)) > 0.25 * (ay - top) / ny
                     for j, (c, _) in enumerate(left)):
        return None
    return left


def _column_bounds(rgb, rows: list[int], ax, right) -> list[float] | None:
    """The cells' column edges, left to right: where the colour changes along most of ``rows``
    (pixel rows through the cells); a gap of whole cells of one colour is split evenly. None
    where the gaps are no whole numbers of one width."""
    x0, x1 = int(ax) + 2, int(right) - 1
    steps = np.linalg.norm(np.diff(rgb[rows, x0:x1].astype(np.float32), axis=1), axis=2) > 12  # rows × (x1 - x0 - 1)
    edges = np.flatnonzero(steps.mean(axis=0) >= 0.5) + x0 + 1
    bounds = [float(ax)] + [float(g[len(g) // 2]) for g in np.split(edges, np.flatnonzero(np.diff(edges) > 2) + 1)
                            if g.size] + [float(right)]
    widths = np.diff(bounds)
    unit = float(np.median(widths)) if len(widths) else 0.0
    if len(widths) < 2 or unit <= 0 or any(abs(w / unit - round(w / unit)) > 0.15 or round(w / unit) < 1 for w in widths):
        return None
    return [a + (b - a) * q / round((b - a) / unit) for a, b in zip(bounds, bounds[1:])
            for q in range(round((b - a) / unit))] + [bounds[-1]]


def _same_name(column: str, row: str) -> bool:
    """A column label naming the row label: the same, or cut short with an ellipsis ('GM1...')."""
    column, row = label_text(column).strip(), label_text(row).strip()
    cut = column.rstrip(".…")
    return column == row or (cut != column and len(cut) >= 2 and row.startswith(cut))


def _slanted_columns(rgb, runs, used, ax, ay, right, top,
                     font: float) -> tuple[tuple[list[tuple[float, int]], list[tuple[float, int]]], list[int]] | None:
    """The column labels under a heatmap written at a slant (MultiQC's and seaborn's 45°): each
    hangs from its column's centre by its upper end (the right end of a label rising to the
    right), the columns found where the cells' colour changes. A square matrix whose column labels
    read are its row labels in order (a sample-to-sample distance) takes the row labels for its
    columns, those cut short ('GM1...') or not read too. Returns ((left, below), the runs that
    are unreadable pieces of the slanted labels) or None."""
    left = _row_labels(runs, used, ax, ay, right, top, font)
    slanted = [(r.right if r.angle < 0 else r.x, k) for k, r in enumerate(runs)
               if k not in used and r.slanted and ay - 2 <= r.y <= ay + 1.5 * font]
    slanted = [(a, k) for a, k in slanted if ax - 0.5 * font <= a <= right + 0.5 * font]
    if left is None or len(slanted) < 2:
        return None
    ch = (ay - top) / len(left)
    bounds = _column_bounds(rgb, [int(top + (j + 0.5) * ch) for j in range(len(left))], ax, right)
    if bounds is None:
        return None
    centres = [(a + b) / 2 for a, b in zip(bounds, bounds[1:])]
    cols: dict[int, int] = {}
    for a, k in sorted(slanted):
        i = int(np.argmin([abs(a - c) for c in centres]))
        if abs(a - centres[i]) <= 0.3 * (bounds[i + 1] - bounds[i]):
            cols.setdefault(i, k)
    if len(cols) < 2:
        return None
    if len(cols) == len(centres):
        below = [(c, cols[i]) for i, c in enumerate(centres)]
    elif len(centres) == len(left) and all(_same_name(runs[k].text, runs[left[i][1]].text) for i, k in cols.items()):
        below = [(c, left[i][1]) for i, c in enumerate(centres)]
    else:
        return None
    # the label band: level runs in it are slanted labels misread (an 'R' of 'H1_R1')
    band = max(runs[k].bottom for _, k in slanted)
    spare = [k for k, r in enumerate(runs) if k not in used and ax <= r.cx <= right and ay - 2 <= r.y
             and r.bottom <= band + 2 and (r.slanted or r.angle == 0) and k not in {k for _, k in below}]
    return (left, below), spare


def _rotated_columns(rgb, paints, runs, used, ax, ay, right, top, font: float,
                     config: Config) -> tuple[list[tuple[float, int]], list[tuple[float, int]]] | None:
    """The column labels under a heatmap written turned 90° (Altair's, ggplot's with angle = 90),
    which OCR did not read: the columns found where the cells' colour changes along every row,
    each column's label read crop by crop, turned upright. The runs read are added to ``runs``;
    returns (left, below) as :func:`_category_labels` does, or None."""
    left = _row_labels(runs, used, ax, ay, right, top, font)
    if left is None:
        return None
    ch = (ay - top) / len(left)
    bounds = _column_bounds(rgb, [int(top + (j + 0.5) * ch) for j in range(len(left))], ax, right)
    if bounds is None:
        return None
    read = read_hanging(rgb, paints.background_rgb.astype(np.float32), list(zip(bounds, bounds[1:])), ay, font,
                        config)
    if read is None:
        return None
    below = []
    for run in read:
        runs.append(run)
        below.append((run.x + run.w / 2, len(runs) - 1))
    return left, below


def _cell_numbers(runs, used, taken: set[int], ax, ay, right, top, cw: float,
                  ch: float) -> tuple[dict[tuple[int, int], float], list[str]]:
    """The numbers written in the cells: per cell (column, row) its value (the first run read
    there), and the numbers as written. Their runs are added to ``taken``."""
    values: dict[tuple[int, int], float] = {}
    texts: list[str] = []
    for k, r in enumerate(runs):
        if k in used or k in taken or r.angle != 0 or not (ax < r.cx < right and top < r.cy < ay):
            continue
        v = parse_number(r.text)
        if v is None:
            continue
        i, j = int((r.cx - ax) // cw), int((r.cy - top) // ch)
        if (i, j) in values:
            continue
        values[(i, j)] = v
        taken.add(k)
        texts.append(r.text.strip())
    return values, texts


def _read_missing(rgb, cells: dict[tuple[int, int], np.ndarray], missing: list[tuple[int, int]], ax, top,
                  cw: float, ch: float, font: float, config: Config) -> list[tuple[tuple[int, int], float, str]]:
    """The numbers of the cells in ``missing``, each cell's middle read on its own: an annotated
    map whose detector missed some numbers (single digits on dark cells: a viridis matrix lost
    five of nine). Returns (cell, value, text) for each number read at confidence 0.8 or more."""
    crops, where = [], []
    for i, j in missing:
        cx0, cx1 = int(ax + (i + 0.1) * cw), int(ax + (i + 0.9) * cw)
        cy, half = top + (j + 0.5) * ch, 0.9 * font
        band = rgb[int(cy - half):int(cy + half), cx0:cx1]
        # the number's own ink (unlike the cell's colour), with a little margin
        ys, xs = np.nonzero(np.linalg.norm(band.astype(np.float32) - cells[(i, j)][None, None, :], axis=2) > 60)
        if xs.size < 4:
            continue
        pad = 4
        crop = band[max(0, ys.min() - pad):ys.max() + pad + 1, max(0, xs.min() - pad):xs.max() + pad + 1]
        crops.append(cv2.cvtColor(np.ascontiguousarray(crop), cv2.COLOR_RGB2BGR))
        where.append((i, j))

    engine = get_engine(config.ocr_threads)
    out = []
    for (i, j), (text, conf, _) in zip(where, engine.recognize(crops, config.ocr_scripts == "latin")):
        v = parse_number(text.strip())
        if v is not None and conf >= 0.8:
            out.append(((i, j), v, text.strip()))
    return out


def _colorbar_ticks(runs, used, taken: set[int], ay, right, top,
                    font: float) -> tuple[float | None, list[tuple[float, float]]]:
    """A colour bar's tick labels: numbers in a column right of the plot (the strip of colours
    beside them is the bar). Returns their right edge and (row, value) each; their runs are
    added to ``taken``."""
    bar_box = None
    bar_ticks: list[tuple[float, float]] = []
    for k, r in enumerate(runs):
        if k in used or k in taken or r.angle != 0 or parse_number(r.text) is None:
            continue
        # (matplotlib's bar spans the axes' box, taller than a square imshow's cells)
        if right < r.x <= right + 8 * font and top - 5 * font <= r.cy <= ay + 5 * font:
            taken.add(k)
            bar_box = r.right if bar_box is None else max(bar_box, r.right)
            bar_ticks.append((r.cy, float(parse_number(r.text))))
    return bar_box, bar_ticks


def _colorbar_values(rgb, paints, runs, taken, ticks: list[tuple[float, float]], right: float,
                     cells: dict[tuple[int, int], np.ndarray]
                     ) -> tuple[dict[tuple[int, int], float], tuple[float, float]] | None:
    """Cell values read off a colour bar: its tick labels map rows to values (a line fit), its
    strip's colour at each row is the colour scale, and a cell's value is that of the row whose
    colour is nearest its own (an attention map or a correlation matrix without numbers).
    Returns the values and the bar's own range (the colour scale's domain)."""
    if len(ticks) < 2:
        return None
    fit = robust_fit([c for c, _ in ticks], [v for _, v in ticks])
    if fit is None:
        return None
    a, b, _ = fit
    # the strip: the column just left of the tick labels' left edge, inked with many colours
    left_edge = min(runs[k].x for k in taken if runs[k].x > right)
    y0, y1 = 0, rgb.shape[0]
    # the strip is told by its rows between the ticks (a short bar beside a tall page: MultiQC's)
    t0, t1 = int(min(c for c, _ in ticks)), int(max(c for c, _ in ticks)) + 1
    for x in range(int(left_edge) - 4, int(right), -1):
        col = rgb[t0:t1, x].astype(np.float32)
        inked = np.linalg.norm(col - paints.background_rgb.astype(np.float32), axis=1) > 20
        if inked.mean() > 0.6 and len({tuple(int(v) // 16 for v in c) for c in col[inked]}) >= 6:
            break
    else:
        return None
    # step in to the strip's middle, clear of its frame
    x = x - 4
    rows = np.arange(y0, y1)
    col = rgb[y0:y1, x].astype(np.float32)
    inked = np.linalg.norm(col - paints.background_rgb.astype(np.float32), axis=1) > 20
    if inked.sum() < 20:
        return None
    # the strip's longest run of inked rows, less its frame's ends
    runs_ = np.split(np.flatnonzero(inked), np.flatnonzero(np.diff(np.flatnonzero(inked)) > 1) + 1)
    keep = max(runs_, key=len)[2:-2]
    rows, col = rows[keep], col[keep]
    out = {}
    for key, c in cells.items():
        d = np.linalg.norm(col - np.asarray(c, np.float32)[None, :], axis=1)
        k = int(np.argmin(d))
        if d[k] > 30:
            return None  # a colour the bar does not have: not its scale
        out[key] = a + b * float(rows[k])
    ends = sorted((a + b * float(rows[0]), a + b * float(rows[-1])))
    span = (ends[1] - ends[0]) or 1.0
    # an end a hair off a labelled tick (the frame trimmed off the strip) is that tick
    labelled = [v for _, v in ticks]
    ends = [min(labelled, key=lambda t: abs(t - e)) if min(abs(t - e) for t in labelled) <= 0.03 * span else e
            for e in ends]
    return ({key: round_to_span(v, span) for key, v in out.items()},
            (round_to_span(ends[0], span), round_to_span(ends[1], span)))


def _color_scale(cells: dict[tuple[int, int], np.ndarray], values: dict[tuple[int, int], float], lo: float,
                 hi: float, span: float) -> dict[str, Any]:
    """The colour scale: the scheme whose colours at the values' places match the cells'
    (reversed too), or, where none fits, the drawn colours as its range."""
    best = None
    places = np.array([(v - lo) / span for v in values.values()], dtype=np.float64)
    for scheme in _HEATMAP_SCHEMES:
        for reverse in (False, True):
            # every value's colour in one lookup (one call per value cost 4,000 calls a heatmap)
            drawn = colormap(scheme, reverse)(places)[:, :3] * 255
            err = float(np.mean([np.linalg.norm(drawn[k] - cells[c]) for k, c in enumerate(values)]))
            if best is None or err < best[0]:
                best = (err, scheme, reverse)
    color_scale: dict[str, Any] = {"domain": [round_to_span(lo, span), round_to_span(hi, span)]}
    if best is not None and best[0] <= 18:
        color_scale["scheme"] = best[1]
        if best[2]:
            color_scale["reverse"] = True
    else:  # no scheme fits: the drawn colours, from the least value's cell to the greatest's
        order = sorted(values, key=values.__getitem__)
        picks = [order[int(round(q * (len(order) - 1)))] for q in (0, 0.25, 0.5, 0.75, 1)]
        color_scale["range"] = [to_hex(tuple(int(v) for v in cells[c])) for c in picks]
    return color_scale


def _framed(rgb, ax, ay, right, top) -> bool:
    """A frame round the cells (imshow's four spines): dark along the plot's edge on every side."""
    x0i, y0i, x1i, y1i = int(ax), int(top), int(right), int(ay)
    edges = [rgb[y0i:y0i + 2, x0i:x1i].min(axis=0), rgb[y1i - 1:y1i + 1, x0i:x1i].min(axis=0),
             rgb[y0i:y1i, x0i:x0i + 2].min(axis=1), rgb[y0i:y1i, x1i - 1:x1i + 1].min(axis=1)]
    return all(e.size and float(np.mean(e.astype(np.float32).mean(axis=1) < 110)) > 0.8 for e in edges)
