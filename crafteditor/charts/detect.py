"""Charts on a page: axes, calibrated scales, marks back to data, legend by colour (ReVision-style
rules). :func:`detect_charts` finds each plot and hands it to its reader.

1. **Axes** (:mod:`.strokes`, :mod:`.panels`): long thin horizontal and vertical strokes
   (morphological opening with a long line kernel); an x axis and a y axis meeting at a corner
   frame the plot. A tinted panel or a grid of gridlines frames a plot drawn without axis lines.
2. **Ticks** (:mod:`.axes`, :mod:`.cartesian`): OCR'd runs that parse as numbers just left of the
   y axis and just below the x axis; non-numeric runs below the x axis are categories. A robust
   line fit maps pixels to values; a log scale is chosen when ``log10(value)`` fits the pixels
   better (labels such as ``10²`` read as ``102`` are tried as powers of ten too).
3. **Marks** (:mod:`.marks`, :mod:`.bars`, :mod:`.lines`), per series paint inside the plot: filled
   rectangles standing on the baseline are bars (height from the anti-aliased column coverage,
   sub-pixel); compact blobs are points (markers); the rest is skeletonised into line vertices.
   Gridlines and frames (long faint strokes) are ignored.
4. **Legend** (:mod:`.legend`): a text run inside the plot with a swatch of a series paint just
   left of it names that series.

Horizontal bar charts (:mod:`.horizontal`) are read turned upright; heatmaps (:mod:`.heatmap`)
by their cells. The result is a ``chart`` component whose spec is Vega-Lite vocabulary with the
recovered rows inline (:mod:`.vegalite`), so Crafter re-renders the chart from data
(crafter.charts.render). How it was drawn (type sizes, frame, gridlines, ticks, mark sizes,
legend place) goes into the spec too (crafteditor.charts.style), and its box is moved so the
re-rendered plot lands on the detected one (:mod:`.component`).
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from crafteditor.blobs import longest_gap
from crafteditor.charts.axes import moved
from crafteditor.charts.cartesian import read_chart
from crafteditor.charts.component import ChartResult
from crafteditor.charts.heatmap import read_heatmap
from crafteditor.charts.horizontal import bars_off_y_axis, read_horizontal
from crafteditor.charts.labels import typical_font
from crafteditor.charts.mark_paints import with_pale_marks
from crafteditor.charts.numbers import parse_number
from crafteditor.charts.panels import Panel, find_panels, grid_frames, numbered, on_panel, unpanel
from crafteditor.charts.pie import find_pies
from crafteditor.charts.shared_legend import name_from_shared_legend
from crafteditor.charts.strokes import long_lines
from crafteditor.charts.style import measure_panel
from crafteditor.charts.tick_frames import tick_frames
from crafteditor.config import Config
from crafteditor.ocr.runs import TextRun
from crafteditor.paint import Paints, find_paints, with_vivid


def detect_charts(rgb: np.ndarray, paints: Paints, runs: list[TextRun], config: Config,  # long: the finders in turn
                  image: Any) -> list[ChartResult]:
    original = image.rgb
    found = find_panels(paints)
    panels = [pn for pn in found if numbered(pn, runs)]
    # a facet sharing both axes shows no numbers: a panel of a numbered one's size in its row or column
    panels += [pn for pn in found if all(pn is not q for q in panels) and any(_grid_mate(pn, q) for q in panels)]
    page_paints = paints
    if panels:
        # read on the plot as if drawn on the page; the look (the panel's tint, its gridlines)
        # is measured on the pixels as drawn
        rgb = unpanel(rgb, panels, paints.background_rgb)
        original = unpanel(image.rgb, panels, paints.background_rgb)
        paints = find_paints(rgb, config)
    # a chart's few small markers are a series, translucent ones too
    paints = with_vivid(with_pale_marks(paints, rgb, config), rgb, config)
    ink = paints.labels != paints.background
    H, W = ink.shape
    # the strokes are found on the pixels as decoded too: a 3×3 median (a JPEG, a scan) takes a crisp
    # 1 px axis or gridline to the page (Vega-Lite's white domain line on its dark theme, 255 -> 52)
    line_ink = ink | _in_contrast(original, paints.background_rgb, config.color_tolerance) if config.denoise else ink
    # an x axis 24 px long at least: a small chart's (Vega-Lite's two bars at 0.75x span 34 px)
    hlines = long_lines(line_ink, True, max(24, int(0.12 * W)))
    vlines = long_lines(line_ink, False, max(30, int(0.12 * H)))
    # gridlines without axis lines (fivethirtyeight, a despined seaborn whitegrid): their ends
    # frame the plot
    frames = [f for f in grid_frames(hlines, vlines, H, W, paints.background_rgb, ink, runs)
              if not any(on_panel((f.x0, f.y0, f.x1, f.y1), pn) for pn in panels)]
    walls = tuple(float(pn.x0) for pn in panels + frames)
    results: list[ChartResult] = []
    used_runs: set[int] = set()
    # x axis candidates: lowest first; pair each with a vertical line meeting its left end
    for hx0, hy0, hx1, hy1 in sorted(hlines, key=lambda ln: -ln[1]):
        ay = (hy0 + hy1) / 2
        # the y axis meets the x axis at its left end; a tick at the corner (the value axis's 0
        # on a horizontal bar chart, an outward y tick at the bottom) runs either line on past
        # the other by the tick's length (7 px at 150 dpi, twice at 300)
        reach = max(8.0, 0.03 * max(H, W))
        vert = [v for v in vlines if -6 <= v[3] - hy1 <= reach and -6 <= v[0] - hx0 <= reach]
        if vert:
            vx0, vy0, vx1, vy1 = min(vert, key=lambda v: v[0])
            vy0 = _axis_top(vx0, vy0, vlines, ink, typical_font(runs))
            ax = (vx0 + vx1) / 2
            # the axes run to the outer edge of the frame (or their projecting caps): the plot's
            # top and right are the centres of the strokes there (the frame's own, when drawn),
            # as ax and ay are
            spine_r = [v for v in vlines if v[0] > vx1 and abs(v[2] - hx1) <= 6 and abs(v[3] - hy1) <= 6]
            spine_t = [h for h in hlines if h[1] < hy0 and abs(h[1] - vy0) <= 6 and abs(h[0] - vx0) <= 6]
            right = (spine_r[0][0] + spine_r[0][2]) / 2 if spine_r else hx1 - (vx1 - vx0) / 2
            top = (spine_t[0][1] + spine_t[0][3]) / 2 if spine_t else vy0 + (hy1 - hy0) / 2
        else:
            ax, top, right = float(hx0), None, float(hx1)
        if any(r.plot[0] - 2 <= ax <= r.plot[2] + 2 and r.plot[1] - 2 <= ay <= r.plot[3] + 2 for r in results):
            continue  # the top spine of a chart already read
        if any(pn.x0 - 3 <= ax < pn.x1 - 8 and pn.y0 + 8 < ay < pn.y1 - 8 for pn in panels + frames):
            continue  # strokes on a panel are its marks or its gridlines (a flat series line over a legend's edge)
        top = _stacked_top(runs, used_runs, ax, ay, top, typical_font(runs))
        res = _cells(original, paints, runs, used_runs, ax, ay, right, top, config, ink)
        # bars standing on the y axis are a horizontal bar chart even where its labels are numbers
        # (read upright, ages 0 … 90 beside the axis had made one giant point)
        if res is None:
            across = vert and bars_off_y_axis(paints, ax, ay, right, top)
            upright = lambda: read_chart(rgb, paints, runs, used_runs, ax, ay, right, top, config,  # noqa: E731
                                         original, walls=walls, shared=_shared(results, ax, ay, right, top))
            turned = lambda: read_horizontal(rgb, paints, runs, used_runs, ax, ay, right, top,  # noqa: E731
                                             config, original, walls, numbered=across) if vert else None
            res = (turned() or upright()) if across else (upright() or turned())
        if res is not None:
            results.append(res)
            used_runs.update(res.run_indices + res.kept_text)
    # a panel with no axis lines (ggplot, seaborn), or a grid without them: its edges are the axes
    framed: dict[int, Panel] = {}  # results read at a panel's or grid's edges
    # the lowest row first, each left to right: a plot above may share the x axis of one below, one
    # to the right the y axis of one left of it
    for pn in sorted(panels + frames, key=lambda pn: (-pn.y1, pn.x0)):
        if any(on_panel(r.plot, pn) for r in results):
            continue
        args = (rgb, paints, runs, used_runs, float(pn.x0), float(pn.y1), float(pn.x1), float(pn.y0), config, original)
        res = (_cells(original, paints, runs, used_runs, float(pn.x0), float(pn.y1), float(pn.x1), float(pn.y0), config,
                      ink) or (None if pn.bars_only else read_chart(
            *args, walls=walls, shared=_shared(results, float(pn.x0), float(pn.y1), float(pn.x1), float(pn.y0))))
            or read_horizontal(*args, walls))
        if res is not None:
            framed[len(results)] = pn
            results.append(res)
            used_runs.update(res.run_indices + res.kept_text)
    for i, res in enumerate(results):
        # the look of a tinted panel, however the chart was found (bmh's has a frame); a grid's,
        # only where no axes were found (a chart with axes keeps what was measured along them)
        pn = next((pn for pn in panels if on_panel(res.plot, pn)), None) or framed.get(i)
        if pn is not None and res.style is not None:
            measure_panel(res.style, image.rgb, page_paints.background_rgb, pn.color, (pn.x0, pn.y0, pn.x1, pn.y1),
                          runs, res.run_indices, _is_horizontal(res.spec))
    # heatmaps: a plot filled with cells has no axis line of its own to find (its frame is the
    # edge of one large solid rectangle of ink)
    n, comp_labels, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=4)
    for i in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[i])
        if area < 0.08 * H * W or area < 0.9 * w * h or min(w, h) < 40:
            continue
        # the solid rectangle itself: the tick marks sticking out of its frame are not the plot
        own = comp_labels[y:y + h, x:x + w] == i
        cols = np.flatnonzero(own.mean(axis=0) >= 0.9)
        rows_ = np.flatnonzero(own.mean(axis=1) >= 0.9)
        if cols.size < 40 or rows_.size < 40:
            continue
        x, w = x + int(cols[0]), int(cols[-1] - cols[0] + 1)
        y, h = y + int(rows_[0]), int(rows_[-1] - rows_[0] + 1)
        if any(r.plot[0] - 2 <= x + w / 2 <= r.plot[2] + 2 and r.plot[1] - 2 <= y + h / 2 <= r.plot[3] + 2
               for r in results):
            continue
        res = read_heatmap(original, paints, runs, used_runs, float(x), float(y + h - 1), float(x + w - 1),
                           float(y), config)
        if res is not None:
            results.append(res)
            used_runs.update(res.run_indices + res.kept_text)
    # a plot with no axis line, gridline or panel (a white domain line on a transparent page):
    # its tick labels frame it
    for pn in tick_frames(runs, ink, page_paints.background_rgb, [r.box for r in results]) if not panels else []:
        args = (rgb, paints, runs, used_runs, float(pn.x0), float(pn.y1), float(pn.x1), float(pn.y0), config, original)
        res = read_chart(*args, walls=walls)
        if res is not None:
            results.append(res)
            used_runs.update(res.run_indices + res.kept_text)
    # facets under one legend: the panels read without it take its names
    name_from_shared_legend(results)
    # pies and donuts: a disc of slices, no axes
    results += find_pies(image.rgb, page_paints, runs, used_runs, [r.box for r in results])
    return results


def _in_contrast(rgb: np.ndarray, page: np.ndarray, tolerance: float) -> np.ndarray:
    """Pixels further than ``tolerance`` from the page's colour in some channel."""
    return (np.abs(rgb.astype(np.int16) - page.astype(np.int16)) > tolerance).any(axis=2)


def _grid_mate(a: Panel, b: Panel) -> bool:
    """Panels of one facet grid: the same size, in one row or one column."""
    same = abs((a.x1 - a.x0) - (b.x1 - b.x0)) <= 4 and abs((a.y1 - a.y0) - (b.y1 - b.y0)) <= 4
    return same and (abs(a.y0 - b.y0) <= 3 or abs(a.x0 - b.x0) <= 3)


def _shared(results: list[ChartResult], ax: float, ay: float, right: float, top: float | None) -> tuple[Any, Any]:
    """The axes a plot may share with those read already: x with a plot below it over the same
    columns (subplots with ``sharex``: the upper ones show no x labels), y with one left of it
    over the same rows (facets side by side: the y labels on the first only)."""
    sx = next((r.axes[0] for r in results if r.axes is not None and abs(r.plot[0] - ax) <= 4
               and abs(r.plot[2] - right) <= 4 and r.plot[1] >= ay - 2), None)  # below it, not its own frame
    if sx is None:
        # a grid's last row short of a plot (3 facets in 2 columns): the one at the end of the row
        # above shows no x labels either; a plot as wide below it in another column lends its axis, moved over
        below = next((r for r in results if r.axes is not None and r.axes[0] is not None and r.plot[1] >= ay - 2
                      and abs((r.plot[2] - r.plot[0]) - (right - ax)) <= 4), None)
        if below is not None:
            sx = moved(below.axes[0], ax - below.plot[0])
    sy = next((r.axes[1] for r in results if r.axes is not None and top is not None and abs(r.plot[1] - top) <= 4
               and abs(r.plot[3] - ay) <= 4 and r.plot[2] <= ax + 2), None)
    return sx, sy


def _cells(original, paints, runs, used, ax, ay, right, top, config, ink: np.ndarray) -> ChartResult | None:
    """A plot filled with ink edge to edge is a heatmap's cells, read as one (its axis lines or
    the gridlines round it had framed it as a chart of 15 line series: Altair's heatmap)."""
    if top is None:
        return None
    x0, y0, x1, y1 = int(ax) + 2, int(top) + 2, int(right) - 1, int(ay) - 1
    if x1 - x0 < 20 or y1 - y0 < 20 or float(ink[y0:y1, x0:x1].mean()) < 0.9:
        return None
    # the cells' own edges: the rows and columns filled across (the axes' ticks run past them)
    H, W = ink.shape
    ya, yb, xa, xb = max(0, int(top) - 3), min(H, int(ay) + 4), max(0, int(ax) - 3), min(W, int(right) + 4)
    rows = np.flatnonzero(ink[ya:yb, x0:x1].mean(axis=1) >= 0.9) + ya
    cols = np.flatnonzero(ink[y0:y1, xa:xb].mean(axis=0) >= 0.9) + xa
    if rows.size < 20 or cols.size < 20:
        return None
    return read_heatmap(original, paints, runs, used, float(cols[0]), float(rows[-1]), float(cols[-1]), float(rows[0]),
                        config)


def _stacked_top(runs: list[TextRun], used: set[int], ax: float, ay: float, top: float | None,
                 font: float) -> float | None:
    """The top of the lowest of plots stacked on one y axis line: where the numbers left of it,
    read upwards, fall back (ggplot2's facets in a column, their strips' edges joining the panels'
    axis lines into one: '0 3 6 9 12 0 3 6 9 12' had made one plot of the column, values read on
    a scale of both), the plot ends above the last number before the fall."""
    labels = sorted(((r.cy, v, r.y) for k, r in enumerate(runs) if k not in used and r.angle == 0
                     and ax - 6 * font <= r.right <= ax + 2 and r.cy <= ay + font
                     and (top is None or r.cy >= top - font) and (v := parse_number(r.text)) is not None),
                    reverse=True)  # lowest first
    for i in range(2, len(labels) - 1):
        rising = all(b[1] > a[1] for a, b in zip(labels[:i], labels[1:i + 1]))
        if rising and labels[i + 1][1] <= labels[0][1] and labels[i][0] - labels[i + 1][0] >= 1.5 * font:
            return labels[i][2] - 0.5 * font
        if not rising:
            break
    return top


def _axis_top(x: int, top: int, vlines, ink: np.ndarray, font: float) -> int:
    """The top of a y axis cut in pieces by bars drawn over it: the collinear pieces above
    within four type sizes join it where the gap between is ink (the bars'), or (within eight)
    is broken by holes no taller than a tick label (a label's box taken off the page cut Vega-Lite's y axis
    at '80', and at '300 –' and '400', pieces too short to be lines: the plot below was read as
    a chart of its own); a gap of page is between two panels stacked (sharing their x axis),
    higher than a tick label."""
    for v in sorted(vlines, key=lambda v: -v[3]):
        if abs(v[0] - x) <= 2 and top - 8 * font <= v[3] < top:
            inked = ink[v[3]:top, max(0, x - 1):x + 2].any(axis=1)
            if (top - v[3] <= 4 * font and inked.mean() >= 0.9) or longest_gap(inked) <= max(3.0, font):
                top = v[1]
    return top


def _is_horizontal(spec: dict[str, Any]) -> bool:
    """Categories on y, values along x (horizontal bars)."""
    enc = spec.get("encoding") or {}
    return (enc.get("y") or {}).get("type") == "nominal" and (enc.get("x") or {}).get("type") == "quantitative"
