"""Charts: axes, calibrated scales, marks back to data, legend by colour (ReVision-style rules).

1. **Axes**: long thin horizontal and vertical strokes (morphological opening with a long
   line kernel); an x axis and a y axis meeting at a corner frame the plot.
2. **Ticks**: OCR'd runs that parse as numbers just left of the y axis and just below the
   x axis; non-numeric runs below the x axis are categories. A robust line fit maps pixels
   to values; a log scale is chosen when ``log10(value)`` fits the pixels better (labels
   such as ``10²`` read as ``102`` are tried as powers of ten too).
3. **Marks**, per series paint inside the plot: filled rectangles standing on the baseline
   are bars (height from the anti-aliased column coverage, sub-pixel); compact blobs are
   points (markers); the rest is skeletonised into line vertices. Gridlines and frames
   (long faint strokes) are ignored.
4. **Legend**: a text run inside the plot with a swatch of a series paint just left of it
   names that series.

The result is a ``chart`` component whose spec is Vega-Lite vocabulary with the recovered
rows inline, so Crafter re-renders the chart from data (crafter.charts.render). How it was
drawn (type sizes, frame, gridlines, ticks, mark sizes, legend place) goes into the spec too
(crafteditor.charts.style), and its box is moved so the re-rendered plot lands on the detected
one.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from crafteditor.blobs import find_blobs
from crafteditor.charts.numbers import parse_number
from crafteditor.charts.style import ChartStyle, measure_panel, measure_style, strongest_color
from crafteditor.config import THEME, Config
from crafteditor.lines import simplify, trace_skeleton
from crafteditor.ocr import TextRun, get_engine, split_wide_gaps
from crafteditor.paint import Paints, blend_position, distances, find_paints, to_hex
from crafter.charts.compile.chart import plan_for
from crafter.charts.render.chart_layout import layout_chart
from crafter.charts.scales import colormap as _cmap
from crafter.charts.theme import chart_theme
from crafter.spec.model import Box, Chart


@dataclass
class Axis:
    """A calibrated axis: value = a + b·pixel (in log10 space when ``log``)."""

    a: float
    b: float
    log: bool = False
    categories: list[tuple[float, str]] = field(default_factory=list)  # (pixel centre, label)

    def value(self, px: float) -> float:
        v = self.a + self.b * px
        return 10 ** v if self.log else v

    def pixel(self, value: float) -> float:
        v = math.log10(value) if self.log else value
        return (v - self.a) / self.b


@dataclass
class ChartResult:
    box: tuple[float, float, float, float]  # x0, y0, x1, y1 in image pixels (the whole chart)
    plot: tuple[float, float, float, float]  # plot area
    mask: np.ndarray  # pixels this chart owns (no shapes or lines are searched there)
    run_indices: list[int]
    spec: dict[str, Any]
    title: str | None = None
    style: ChartStyle | None = None

    def component(self, builder: Any) -> Any:
        x0, y0, x1, y1 = self.box
        px0, py0, px1, py1 = self.plot
        s = builder.s
        spec = dict(self.spec)
        if self.style is not None:
            self.style.apply(spec, self.plot, s)
        # the plot's own size too, so the re-rendered axes span what the original's did
        chart = Chart(kind="chart", id=builder.new_id("chart", self.title), spec=spec,
                      box=builder.box(x0, y0, x1 - x0, y1 - y0), pinned=True,
                      width=round((px1 - px0) * s, 2), height=round((py1 - py0) * s, 2))
        return _pin_plot(chart, (px0 * s, py0 * s), (x1 * s, y1 * s))


def _pin_plot(chart: Any, plot_xy: tuple[float, float], far: tuple[float, float]) -> Any:
    """Move the chart's box so that the renderer's plot area lands on the detected one.

    The renderer puts the plot ``left``/``top`` px inside the box (room for tick labels, axis
    title, chart title, all in its own type sizes); the detected box is the ink's extent, so
    without this the whole re-rendered chart sits a few px off the original.
    """
    ct = chart_theme(THEME)
    box = chart.box
    for _ in range(2):  # the title may wrap differently at the new width: settle once more
        lay = layout_chart(plan_for(chart), ct, width=box.w, height=box.h)
        x, y = plot_xy[0] - lay.left, plot_xy[1] - lay.top - lay.header_h
        w = max(far[0] - x, lay.left + lay.pw + 3.0)
        h = max(far[1] - y, lay.top + lay.header_h + lay.ph + 2.0)
        box = Box(x=round(x, 2), y=round(y, 2), w=round(w, 2), h=round(h, 2))
        chart = chart.model_copy(update={"box": box})
    return chart


# -- axes ---------------------------------------------------------------------------------------

def _long_lines(ink: np.ndarray, horizontal: bool, min_len: int) -> list[tuple[int, int, int, int]]:
    """Thin straight strokes at least ``min_len`` long: (x0, y0, x1, y1), end exclusive.

    A bar standing on an axis survives the opening too; only the rows (columns) where the
    stroke runs its full length are kept, so the axis comes out thin.
    """
    n, lab, stats, _ = find_blobs(_long_runs(ink, horizontal, min_len))
    out = []
    for i in range(1, n):
        x, y, w, h, _ = stats[i]
        comp = lab[y:y + h, x:x + w] == i
        widths = comp.sum(axis=1) if horizontal else comp.sum(axis=0)
        full = np.nonzero(widths >= 0.9 * widths.max())[0]
        if full.size == 0:
            continue
        # every thin band of consecutive full rows is a line: gridlines drawn over the bars
        # join the axis the bars stand on into one component (a grouped bar chart's x axis had
        # been lost to its longest band, a gridline)
        bands = []
        for band in np.split(full, np.nonzero(np.diff(full) > 1)[0] + 1):
            if len(band) <= 6:
                bands.append(band)
                continue
            # a bar nearly as long as its axis, standing on it (classic style's outlined bars):
            # the axis is the rows that run the whole length
            whole = band[widths[band] >= 0.985 * widths.max()]
            bands += [b for b in np.split(whole, np.nonzero(np.diff(whole) > 1)[0] + 1) if 0 < len(b) <= 6]
        for band in bands:
            if horizontal:
                cols = np.nonzero(comp[band].any(axis=0))[0]
                out.append((int(x + cols[0]), int(y + band[0]), int(x + cols[-1] + 1), int(y + band[-1] + 1)))
            else:
                rows = np.nonzero(comp[:, band].any(axis=1))[0]
                out.append((int(x + band[0]), int(y + rows[0]), int(x + band[-1] + 1), int(y + rows[-1] + 1)))
    return out


def _long_runs(ink: np.ndarray, horizontal: bool, min_len: int) -> np.ndarray:
    """The opening of ``ink`` by a ``min_len`` line (1×min_len, or min_len×1): its runs of at
    least ``min_len`` pixels along each row (column). Each row is opened on its own, so only the
    rows with that much ink are: the same mask, in a seventh of the time on a gridded chart
    (784 openings of the six-sheet gallery: 2.5 s)."""
    a = ink.astype(np.uint8) if horizontal else ink.astype(np.uint8).T
    out = np.zeros(a.shape, np.uint8)
    # (OpenCV's erosion counts the outside of the image as ink: a shorter run at the edge stays)
    rows = np.flatnonzero((np.count_nonzero(a, axis=1) >= min_len) | (a[:, 0] > 0) | (a[:, -1] > 0))
    if rows.size:
        out[rows] = cv2.morphologyEx(np.ascontiguousarray(a[rows]), cv2.MORPH_OPEN, np.ones((1, min_len), np.uint8))
    return out if horizontal else np.ascontiguousarray(out.T)


# -- tinted panels ------------------------------------------------------------------------------

@dataclass
class Panel:
    """A plot drawn on a tinted rectangle (ggplot's and seaborn's grey, bmh's): its edges, the
    pixels' bounds (x0, y0, x1, y1, end exclusive), and its paint."""

    x0: int
    y0: int
    x1: int
    y1: int
    color: np.ndarray  # RGB


def _find_panels(paints: Paints) -> list[Panel]:
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
        if float(col.mean()) < 150:  # a tint, not a dark fill or a heatmap's cell
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
                out.append(pn)
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
    filled = inked | (lab == i)
    ys, xs = slice(y + h // 4, y + 3 * h // 4), slice(x + w // 4, x + 3 * w // 4)
    cols = np.flatnonzero(filled[ys, :].mean(axis=0) >= 0.97)
    rows = np.flatnonzero(filled[:, xs].mean(axis=1) >= 0.97)
    cols = _run_around(cols, x + w // 2)
    rows = _run_around(rows, y + h // 2)
    if cols is None or rows is None:
        return None
    x0, x1, y0, y1 = int(cols[0]), int(cols[-1]) + 1, int(rows[0]), int(rows[-1]) + 1
    if (x1 - x0) * (y1 - y0) < 0.04 * H * W or abs((x1 - x0) - w) > 0.05 * w or abs((y1 - y0) - h) > 0.05 * h:
        return None
    rect = filled[y0:y1, x0:x1]
    if rect.mean() < 0.97 or m[y0:y1, x0:x1].mean() < 0.25:
        return None
    # page all round it (tick marks and labels aside)
    ring = np.concatenate([page[max(0, y0 - 4):y0 - 1, x0:x1].ravel(), page[y1 + 1:y1 + 4, x0:x1].ravel(),
                           page[y0:y1, max(0, x0 - 4):x0 - 1].ravel(), page[y0:y1, x1 + 1:x1 + 4].ravel()])
    if ring.size == 0 or ring.mean() < 0.6:
        return None
    return Panel(x0, y0, x1, y1, color.copy())


def _grid_frames(hlines, vlines, H: int, W: int, page: np.ndarray) -> list[Panel]:
    """Plots framed by their gridlines alone: two or more horizontal lines with the same ends
    and two or more vertical ones with the same ends, crossing each other. Their ends are the
    plot's edges (a plot with axis lines has them there too; it is found by its axes first)."""

    def groups(lines, a: int, b: int) -> list[list[tuple[int, int, int, int]]]:
        out: list[list[tuple[int, int, int, int]]] = []
        for ln in sorted(lines, key=lambda v: (v[a], v[b])):
            g = next((g for g in out if abs(g[0][a] - ln[a]) <= 3 and abs(g[0][b] - ln[b]) <= 3), None)
            if g is None:
                out.append([ln])
            else:
                g.append(ln)
        return [g for g in out if len(g) >= 2]

    frames = []
    for hg in groups([h for h in hlines if h[3] - h[1] <= 4], 0, 2):
        x0, x1 = int(np.median([h[0] for h in hg])), int(np.median([h[2] for h in hg]))
        for vg in groups([v for v in vlines if v[2] - v[0] <= 4], 1, 3):
            y0, y1 = int(np.median([v[1] for v in vg])), int(np.median([v[3] for v in vg]))
            if x1 - x0 < 0.25 * W or y1 - y0 < 0.2 * H:
                continue
            if all(x0 - 3 <= v[0] <= x1 + 3 for v in vg) and all(y0 - 3 <= h[1] <= y1 + 3 for h in hg):
                frames.append(Panel(x0, y0, x1, y1, page.copy()))
    # the largest first; one per plot
    frames.sort(key=lambda f: -(f.x1 - f.x0) * (f.y1 - f.y0))
    out: list[Panel] = []
    for f in frames:
        if not any(_on_panel((f.x0, f.y0, f.x1, f.y1), g) for g in out):
            out.append(f)
    return out


def _numbered(pn: "Panel", runs: list[TextRun]) -> bool:
    """Tick numbers beside the panel: two or more just left of it or just below it (a diagram's
    large pale group frame is no plot, and is left as it is)."""
    font = _typical_font(runs)
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


def _unpanel(rgb: np.ndarray, panels: list[Panel], page: np.ndarray, tolerance: float = 14.0) -> np.ndarray:
    """A copy of ``rgb`` with each panel's tint, and its blends towards the page colour (white
    gridlines, a legend's half-transparent face), made page: the plot reads as drawn on the page.
    Grey gridlines stay, as on any plain chart."""
    out = rgb.copy()
    for pn in panels:
        sub = out[pn.y0:pn.y1, pn.x0:pn.x1]
        _, d = blend_position(sub, pn.color, page)
        sub[d <= tolerance] = page
    return out


def detect_charts(rgb: np.ndarray, paints: Paints, runs: list[TextRun], config: Config, image: Any) -> list[ChartResult]:
    original = image.rgb
    panels = [pn for pn in _find_panels(paints) if _numbered(pn, runs)]
    page_paints = paints
    if panels:
        # read on the plot as if drawn on the page; the look (the panel's tint, its gridlines)
        # is measured on the pixels as drawn
        rgb = _unpanel(rgb, panels, paints.background_rgb)
        original = _unpanel(image.rgb, panels, paints.background_rgb)
        paints = find_paints(rgb, config)
    ink = paints.labels != paints.background
    H, W = ink.shape
    hlines = _long_lines(ink, True, max(40, int(0.12 * W)))
    vlines = _long_lines(ink, False, max(30, int(0.12 * H)))
    # gridlines without axis lines (fivethirtyeight, a despined seaborn whitegrid): their ends
    # frame the plot
    frames = [f for f in _grid_frames(hlines, vlines, H, W, paints.background_rgb)
              if not any(_on_panel((f.x0, f.y0, f.x1, f.y1), pn) for pn in panels)]
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
        res = _read_chart(rgb, paints, runs, used_runs, ax, ay, right, top, config, original, walls=walls)
        if res is None and vert:
            res = _read_horizontal(rgb, paints, runs, used_runs, ax, ay, right, top, config, original, walls)
        if res is not None:
            results.append(res)
            used_runs.update(res.run_indices)
    # a panel with no axis lines (ggplot, seaborn), or a grid without them: its edges are the axes
    framed: dict[int, Panel] = {}  # results read at a panel's or grid's edges
    for pn in panels + frames:
        if any(_on_panel(r.plot, pn) for r in results):
            continue
        args = (rgb, paints, runs, used_runs, float(pn.x0), float(pn.y1), float(pn.x1), float(pn.y0), config, original)
        res = _read_chart(*args, walls=walls) or _read_horizontal(*args, walls)
        if res is not None:
            framed[len(results)] = pn
            results.append(res)
            used_runs.update(res.run_indices)
    for i, res in enumerate(results):
        # the look of a tinted panel, however the chart was found (bmh's has a frame); a grid's,
        # only where no axes were found (a chart with axes keeps what was measured along them)
        pn = next((pn for pn in panels if _on_panel(res.plot, pn)), None) or framed.get(i)
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
        res = _read_heatmap(original, paints, runs, used_runs, float(x), float(y + h - 1), float(x + w - 1),
                            float(y), config)
        if res is not None:
            results.append(res)
            used_runs.update(res.run_indices)
    return results


def _on_panel(plot, pn: Panel) -> bool:
    """The plot is the panel's (its axes or frame run along the panel's edges)."""
    return max(abs(plot[0] - pn.x0), abs(plot[1] - pn.y0), abs(plot[2] - pn.x1), abs(plot[3] - pn.y1)) <= 8


def _is_horizontal(spec: dict[str, Any]) -> bool:
    """Categories on y, values along x (horizontal bars)."""
    enc = spec.get("encoding") or {}
    return (enc.get("y") or {}).get("type") == "nominal" and (enc.get("x") or {}).get("type") == "quantitative"


def _split_tick_labels(runs: list[TextRun], used: set[int], ay: float, ax: float, right: float,
                       font: float) -> None:
    """Category labels under an x axis that the text detector joined into one run ('Mamba
    ResNet': matplotlib's classic style sets them a word's gap apart) become a run each, in
    place: the first piece keeps the run's index, the others are appended."""
    for k in range(len(runs)):
        r = runs[k]
        if k in used or r.angle != 0 or " " not in r.text or not (ay - 2 <= r.y <= ay + 3 * font) \
                or not (ax - 2 * font <= r.cx <= right + 2 * font):
            continue
        pieces = split_wide_gaps(r)
        if len(pieces) > 1:
            runs[k] = pieces[0]
            runs.extend(pieces[1:])


def _typical_font(runs) -> float:
    """The figure's usual type size, px (the median run's)."""
    return float(np.median([r.font_px for r in runs])) if runs else 16.0


def _box_mask(box, H: int, W: int) -> np.ndarray:
    """The pixels of a chart's box, which no shape or line search looks at."""
    mask = np.zeros((H, W), bool)
    mask[int(box[1]):int(math.ceil(box[3])), int(box[0]):int(math.ceil(box[2]))] = True
    return mask


def _read_chart(rgb, paints, runs, used, ax, ay, right, top, config, original,
                legend: Legend | None = None, walls: tuple[float, ...] = ()) -> ChartResult | None:
    """``walls``: left edges of the figure's other plots (a legend right of this one ends there)."""
    font = _typical_font(runs)
    # y ticks: numbers whose right edge is just left of the y axis
    yt = [k for k, r in enumerate(runs) if k not in used and r.angle == 0 and parse_number(r.text) is not None
          and ax - 6 * font <= r.right <= ax + 2 and r.cy <= ay + font
          and (top is None or r.cy >= top - font)]
    if len(yt) < 2:
        return None
    if top is None:
        top = min(runs[k].y for k in yt) - font * 0.2
    yaxis = _fit_axis([_y_tick(runs[k]) for k in yt])
    if yaxis is None:
        return None
    yaxis = _snap_to_ticks(yaxis, paints, [runs[k] for k in yt], ax, font)
    _split_tick_labels(runs, used, ay, ax, right, font)
    # x ticks: below the x axis
    below = [k for k, r in enumerate(runs) if k not in used and r.angle == 0 and ay - 2 <= r.y <= ay + 3 * font
             and ax - 2 * font <= r.cx <= right + 2 * font]
    xnum = [k for k in below if parse_number(runs[k].text) is not None]
    xcat = [k for k in below if k not in xnum]
    xaxis = None
    if len(xnum) >= 2 and len(xnum) >= len(xcat):
        xaxis = _fit_axis([(runs[k].cx, runs[k].text) for k in xnum])
        xticks = xnum
    else:
        xticks = xcat
        if xcat:
            xaxis = Axis(a=0.0, b=1.0, categories=sorted((runs[k].cx, runs[k].text) for k in xcat))
    index_categories = False
    if xaxis is None:
        # categories we could not read (rotated 45°, say): bars are then numbered left to right
        xaxis = Axis(a=0.0, b=1.0)
        xticks = []
        index_categories = True
    plot = (ax, float(top), right, ay)
    consumed = set(yt) | set(xticks)
    # axis titles and the chart title
    tick_bottom = max([runs[k].bottom for k in xticks], default=ay)
    ytick_left = min(runs[k].x for k in yt)
    reach = 3 * font if xticks else 7 * font  # unread (rotated) tick labels push the axis title down
    x_title = _pick(runs, used | consumed, lambda r: r.angle == 0 and tick_bottom - 2 <= r.y <= tick_bottom + reach
                    and ax - font <= r.cx <= right + font)
    y_title = _pick(runs, used | consumed, lambda r: r.angle != 0 and r.right <= ytick_left + 2
                    and ytick_left - 4 * font <= r.x and top - font <= r.cy <= ay + font)
    title = _pick(runs, used | consumed, lambda r: r.angle == 0 and top - 4 * font <= r.y and r.bottom <= top + 2
                  and ax - font <= r.cx <= right + font)
    for k in (x_title, y_title, title):
        if k is not None:
            consumed.add(k)
    # legend entries and marks
    series, legend_box, legend_runs = _read_marks(rgb, paints, runs, used | consumed, plot, yaxis, xaxis, font,
                                                  original, lossy=config.lossy, legend=legend, walls=walls)
    consumed |= set(legend_runs)
    if not series:
        return None
    error_color = _read_error_bars(rgb, paints, series, yaxis, plot)
    value_labels = _read_value_labels(runs, used | consumed, series, yaxis, plot, font)
    if value_labels is not None:
        consumed |= set(value_labels.runs)
    if index_categories:
        if any(sr.kind != "bar" for sr in series):
            return None
        _number_categories(series)
        xaxis = Axis(a=0.0, b=1.0, categories=[(0.0, "")])
    xs = [runs[k].x for k in consumed] + [ax]
    ys = [runs[k].y for k in consumed] + [top]
    xe = [runs[k].right for k in consumed] + [right]
    ye = [runs[k].bottom for k in consumed] + [ay]
    pad = 0.3 * font
    H, W = paints.labels.shape
    box = (max(0.0, min(xs) - pad), max(0.0, min(ys) - pad), min(float(W), max(xe) + pad), min(float(H), max(ye) + pad))
    mask = _box_mask(box, H, W)
    spec = _spec(series, xaxis, yaxis, plot,
                 runs[title].text if title is not None else None,
                 runs[x_title].text if x_title is not None else None,
                 runs[y_title].text if y_title is not None else None, error_color, value_labels)
    style = measure_style(original if original is not None else rgb, paints, runs, {"y": yt, "x": list(xticks)},
                          {"x": x_title, "y": y_title, "title": title}, legend_runs, plot, yaxis.log,
                          not xaxis.categories and not index_categories and not xaxis.log)
    areas = [a for sr in series for a in sr.marker_areas]
    style.marker_area = float(np.median(areas)) if areas else None
    widths = [sr.line_width for sr in series if sr.line_width]
    style.line_width = float(np.median(widths)) if widths else None
    swatches = [sr.swatch for sr in series if sr.swatch is not None]
    if swatches:
        style.legend_swatch = tuple(float(np.median([sw[i] for sw in swatches])) for i in range(3))
    bars = [sr for sr in series if sr.kind == "bar"]
    if style.grid and style.grid_color and bars and not yaxis.log:
        rows = [yaxis.pixel(v) for v in (parse_number(runs[k].text) for k in yt) if v is not None]
        over = _grid_over_bars(original if original is not None else rgb, paints.background_rgb, bars, rows, ay,
                               style.grid_color)
        if over is not None:
            style.grid_above = True
            style.grid_color, style.grid_opacity = over
    fills = [tuple(int(v) for v in o.color) for o in series]
    for sr in bars:
        if sr.outline is None:
            sr.outline = _bar_edge(paints, sr, fills, ay)
    edges = {sr.outline[0] for sr in bars if sr.outline}
    if bars and len(edges) == 1 and all(sr.outline for sr in bars):
        # one edge colour round every bar (edgecolor='k'): drawn again as the bars' stroke
        style.bar_stroke = (to_hex(edges.pop()), float(np.median([sr.outline[1] for sr in bars])))
    if value_labels is not None:
        style.value_labels = (value_labels.dy, value_labels.font_px)
    # an edge is drawn centred on the bar's outline: the fill read is half its width short each side
    half = style.bar_stroke[1] / 2 if style.bar_stroke else 0.0
    if len(series) == 1 and len(series[0].bar_spans) >= 2 and xaxis.categories:
        style.bar_spans = sorted((a - half, b + half) for a, b in series[0].bar_spans)
    elif len(series) > 1 and xaxis.categories and all(sr.kind == "bar" and not sr.stacked for sr in series):
        # grouped bars: each category's group is the band's bar; the bars in it set the offset's padding
        groups: dict[Any, list[tuple[float, float]]] = {}
        for sr in series:
            for (cat, _), (a, b) in zip(sr.points, sr.bar_spans):
                groups.setdefault(cat, []).append((a - half, b + half))
        if len(groups) >= 2:
            style.bar_spans = sorted((min(a for a, _ in g), max(b for _, b in g)) for g in groups.values())
            gaps = [q[0] - p[1] for g in groups.values() for p, q in zip(sorted(g), sorted(g)[1:])]
            widths = [b - a for g in groups.values() for a, b in g]
            if gaps and widths:
                gap, bw = max(0.0, float(np.median(gaps))), float(np.median(widths))
                style.offset_padding = min(0.5, gap / (gap + bw)) if gap + bw > 0 else 0.0
    return ChartResult(box=box, plot=plot, mask=mask, run_indices=sorted(consumed), spec=spec,
                       title=runs[title].text if title is not None else None, style=style)


def _label_text(text: str) -> str:
    """A category label read together with the tick mark beside it ('ResNet -') is the label."""
    return re.sub(r"\s*[-–—]$", "", text) or text


def _turn(a: np.ndarray) -> np.ndarray:
    """The image turned so that a horizontal bar chart stands upright: (x, y) -> (H - y, W - x).

    Its left (category) axis becomes the bottom one and its bottom (value) axis the left one,
    values growing up as they grew right. The turn is its own inverse."""
    return np.ascontiguousarray(a[::-1, ::-1].swapaxes(0, 1))


def _turn_run(r: TextRun, H: int, W: int) -> TextRun:
    # every run is upright for the upright reading: tick labels were horizontal, and the y title
    # (rotated) is now the category axis's title below it
    return replace(r, x=H - (r.y + r.h), y=W - (r.x + r.w), w=r.h, h=r.w, angle=0.0, baseline=H - r.y,
                   glyphs=_turn(r.glyphs) if r.glyphs is not None else r.glyphs)


def _read_horizontal(rgb, paints, runs, used, ax, ay, right, top, config, original,
                     walls: tuple[float, ...] = ()) -> ChartResult | None:
    """A horizontal bar chart: category labels left of the y axis, numbers below the x axis.
    Read as the upright chart it is turned (see :func:`_turn`), then turned back."""

    font = _typical_font(runs)
    left = [r for k, r in enumerate(runs) if k not in used and r.angle == 0 and ax - 15 * font <= r.right <= ax + 2
            and (top is None or top - font <= r.cy) and r.cy <= ay]
    below = [r for k, r in enumerate(runs) if k not in used and r.angle == 0 and ay - 2 <= r.y <= ay + 3 * font
             and ax - 2 * font <= r.cx <= right + 2 * font]
    if sum(parse_number(r.text) is None for r in left) < 2 or sum(parse_number(r.text) is not None for r in below) < 2:
        return None
    H, W = paints.labels.shape
    # the legend is read upright: its entries are text with a swatch on their left
    plot0 = (ax, top if top is not None else 0.0, right, ay)
    px0, py0, px1, py1 = (int(round(v)) for v in plot0)
    _, _, cands = _mark_paints(paints, paints.labels[py0 + 2:py1 - 3, px0 + 3:px1 - 2], config.lossy)
    legend = _find_legend(rgb, paints, runs, used, plot0, cands, font, original, walls)
    if legend.box is not None:
        lx0, ly0, lx1, ly1 = legend.box
        legend = Legend(legend.names, legend.at, legend.runs, (H - ly1, W - lx1, H - ly0, W - lx0), legend.title,
                        legend.swatches)  # (measured upright)
    t_paints = Paints(colors=paints.colors, labels=_turn(paints.labels), background=paints.background, lossy=paints.lossy)
    # a category label read with the tick mark beside it ('ResNet -') is the label
    t_runs = [_turn_run(replace(r, text=_label_text(r.text)), H, W) for r in runs]
    t_top = None if right is None else W - right
    res = _read_chart(_turn(rgb), t_paints, t_runs, used, H - ay, W - ax, H - (top if top is not None else 0), t_top,
                      config, None if original is None else _turn(original), legend=legend)
    if res is None:
        return None
    first_mark = res.spec.get("mark") or ((res.spec.get("layer") or [{}])[0].get("mark") or {})
    if (first_mark.get("type") if isinstance(first_mark, dict) else first_mark) != "bar":
        return None
    spec = res.spec
    enc = spec["encoding"]
    cat, val = enc["x"], enc["y"]
    if cat.get("type") != "nominal":
        return None
    # back: categories on y (top to bottom, the turned reading had them bottom to top), values on x
    order = list(dict.fromkeys(row["x"] for row in spec["data"]["values"]))[::-1]
    spec["data"]["values"] = [{**{k.replace("y_err", "x_err"): v for k, v in row.items() if k not in ("x", "y")},
                               "y": row["x"], "x": row["y"]} for row in spec["data"]["values"]]
    cat = {**cat, "field": "y", "sort": order}
    val = {**val, "field": "x"}
    # the turned reading's titles: its x title is the y axis's; the x axis's and the chart's are
    # found here, upright, below the numbers and above the plot
    val["title"] = None
    consumed = set(res.run_indices)
    xt = [k for k, r in enumerate(runs) if k in consumed and r.angle == 0 and ay - 2 <= r.y <= ay + 3 * font
          and parse_number(r.text) is not None]
    tick_bottom = max([runs[k].bottom for k in xt], default=ay)
    pick_x = _pick(runs, used | consumed, lambda r: r.angle == 0 and tick_bottom - 2 <= r.y <= tick_bottom + 3 * font
                   and ax - font <= r.cx <= right + font)
    if pick_x is not None:
        val["title"] = runs[pick_x].text
        consumed.add(pick_x)
    plot_top = top if top is not None else min(runs[k].y for k in consumed)
    pick_t = _pick(runs, used | consumed, lambda r: r.angle == 0 and plot_top - 4 * font <= r.y
                   and r.bottom <= plot_top + 2 and ax - font <= r.cx <= right + font)
    title = res.title
    spec.pop("title", None)
    if pick_t is not None:
        title = runs[pick_t].text
        spec["title"] = title
        consumed.add(pick_t)
    new_enc = {"x": val, "y": cat}
    for k, v in enc.items():
        if k == "xOffset":
            # drawn bottom to top in the turned reading: Vega-Lite stacks the first on top
            new_enc["yOffset"] = {**v, "sort": list(reversed(v["sort"]))} if v.get("sort") else v
        elif k not in ("x", "y"):
            new_enc[k] = v
    spec["encoding"] = new_enc
    # the layers over the bars, turned back: error bars along x, value labels right of the bars
    swap = {"yError": "xError", "yError2": "xError2"}
    for layer in spec.get("layer") or []:
        lenc = layer.get("encoding") or {}
        layer["encoding"] = {swap.get(k, k): ({**v, "field": "x"} if k == "text" and v.get("field") == "y" else
                                              {**v, "field": v["field"].replace("y_err", "x_err")}
                                              if k in swap and isinstance(v, dict) and "field" in v else v)
                             for k, v in lenc.items()}

    bx0, by0, bx1, by1 = res.box
    box = (W - by1, H - bx1, W - by0, H - bx0)
    rest = [runs[k] for k in consumed]
    box = (min([box[0]] + [r.x for r in rest]), min([box[1]] + [r.y for r in rest]),
           max([box[2]] + [r.right for r in rest]), max([box[3]] + [r.bottom for r in rest]))
    px0, py0, px1, py1 = res.plot
    plot = (W - py1, H - px1, W - py0, H - px0)
    mask = _box_mask(box, H, W)
    st = res.style
    if st is not None:
        st.x_values, st.y_values = st.y_values, None
        st.title_pads = {{"x": "y", "y": "x"}[k]: v for k, v in (st.title_pads or {}).items()}
        entries = [runs[k] for k in legend.runs if k != legend.title]
        first = min(entries, key=lambda r: r.y) if entries else None
        st.legend_text = (min(r.x for r in entries), first.cy) if first is not None else None
        st.title_offset = None
        if pick_t is not None:
            st.title_font, st.title_bold = float(runs[pick_t].font_px), bool(runs[pick_t].bold)
        if st.bar_spans:
            st.bar_spans = sorted((H - b, H - a) for a, b in st.bar_spans)
            st.band_axis = "y"
    return ChartResult(box=box, plot=plot, mask=mask, run_indices=sorted(consumed), spec=spec, title=title, style=st)


# sequential schemes a heatmap's colours are matched against (Vega names; matplotlib's maps)
_HEATMAP_SCHEMES = ("blues", "greens", "greys", "oranges", "purples", "reds", "viridis", "magma", "inferno",
                    "plasma", "cividis", "yellowgreenblue", "yelloworangered", "orangered", "bluepurple",
                    "purplered", "redblue", "redyellowblue", "spectral")


def _read_heatmap(rgb, paints, runs, used, ax, ay, right, top, config: Config | None = None) -> ChartResult | None:
    """An annotated heatmap (a confusion matrix): a plot filled with a grid of coloured cells,
    one per x and y category label, each with its number written in it. The numbers are the
    data; the cells' colours pick the colour scheme (the best of the sequential schemes, or the
    drawn colours as the scale's range). A colour bar beside it is its legend."""
    if top is None:
        return None
    font = _typical_font(runs)
    # (a label may run onto the axis: its tick mark read with it)
    left = sorted((r.cy, k) for k, r in enumerate(runs) if k not in used and r.angle == 0
                  and ax - 15 * font <= r.right <= ax + 0.6 * font and r.x < ax and top <= r.cy <= ay)
    below = [(r.cx, k) for k, r in enumerate(runs) if k not in used and r.angle == 0
             and ay - 2 <= r.y <= ay + 3 * font and ax <= r.cx <= right]
    if below:  # the first row below the axis: the axis title is under it
        first = min(runs[k].y for _, k in below)
        below = sorted((c, k) for c, k in below if runs[k].y <= first + 0.5 * font)
    nx, ny = len(below), len(left)
    if nx < 2 or ny < 2:
        return None
    cw, ch = (right - ax) / nx, (ay - top) / ny
    # the labels stand at the cells' centres
    if any(abs(c - (ax + (i + 0.5) * cw)) > 0.25 * cw for i, (c, _) in enumerate(below)) or \
            any(abs(c - (top + (j + 0.5) * ch)) > 0.25 * ch for j, (c, _) in enumerate(left)):
        return None
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
    taken = {k for _, k in left} | {k for _, k in below}
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
    missing = [(i, j) for j in range(ny) for i in range(nx) if (i, j) not in values]
    if missing and len(values) >= 0.3 * nx * ny and config is not None and config.ocr:
        # an annotated map whose detector missed some numbers (single digits on dark cells: a
        # viridis matrix lost five of nine): each such cell's middle is read on its own
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
        for (i, j), (text, conf, _) in zip(where, engine.recognize(crops, config.ocr_scripts == "latin")):
            v = parse_number(text.strip())
            if v is not None and conf >= 0.8:
                values[(i, j)] = v
                texts.append(text.strip())
    # a colour bar: numbers in a column right of the plot, and the strip of colours beside them
    H, W = paints.labels.shape
    bar_box = None
    bar_ticks: list[tuple[float, float]] = []
    for k, r in enumerate(runs):
        if k in used or k in taken or r.angle != 0 or parse_number(r.text) is None:
            continue
        if right < r.x <= right + 8 * font and top - 2 * font <= r.cy <= ay + 2 * font:
            taken.add(k)
            bar_box = r.right if bar_box is None else max(bar_box, r.right)
            bar_ticks.append((r.cy, float(parse_number(r.text))))
    annotated = len(values) >= 0.8 * nx * ny
    domain = None
    if not annotated:
        # no numbers in the cells: each cell's value is where its colour lies on the colour bar
        read = _colorbar_values(rgb, paints, runs, taken, bar_ticks, right, cells)
        if read is None:
            return None
        values, domain = read
        texts = []
    # the scheme whose colours at the values' places match the cells' (reversed too), or the range
    lo, hi = domain if domain is not None else (min(values.values()), max(values.values()))
    span = (hi - lo) or 1.0
    best = None
    for scheme in _HEATMAP_SCHEMES:
        for reverse in (False, True):
            cmap = _cmap(scheme, reverse)
            err = float(np.mean([np.linalg.norm(np.asarray(cmap((v - lo) / span)[:3]) * 255 - cells[c])
                                 for c, v in values.items()]))
            if best is None or err < best[0]:
                best = (err, scheme, reverse)
    # a label read with the tick mark beside it ('bird -') is the label
    xcats = [_label_text(runs[k].text) for _, k in below]
    ycats = [_label_text(runs[k].text) for _, k in left]
    rows = [{"x": xcats[i], "y": ycats[j], "value": values[(i, j)]} for j in range(ny) for i in range(nx)
            if (i, j) in values]
    color_scale: dict[str, Any] = {"domain": [_round(lo, span), _round(hi, span)]}
    if best is not None and best[0] <= 18:
        color_scale["scheme"] = best[1]
        if best[2]:
            color_scale["reverse"] = True
    else:  # no scheme fits: the drawn colours, from the least value's cell to the greatest's
        order = sorted(values, key=values.__getitem__)
        picks = [order[int(round(q * (len(order) - 1)))] for q in (0, 0.25, 0.5, 0.75, 1)]
        color_scale["range"] = [to_hex(tuple(int(v) for v in cells[c])) for c in picks]
    decimals = max((len(t.split(".")[1]) if "." in t else 0) for t in texts) if texts else 0
    enc: dict[str, Any] = {
        "x": {"field": "x", "type": "nominal", "sort": xcats, "title": None},
        "y": {"field": "y", "type": "nominal", "sort": ycats, "title": None},
    }
    # the colour is the cells' only: the numbers over them take black or white by the cell
    color_enc: dict[str, Any] = {"field": "value", "type": "quantitative", "scale": color_scale, "title": None}
    if bar_box is None:
        color_enc["legend"] = None
    # axis titles: below the x labels, left of the y labels (rotated)
    tick_bottom = max(runs[k].bottom for _, k in below)
    ytick_left = min(runs[k].x for _, k in left)
    xt = _pick(runs, used | taken, lambda r: r.angle == 0 and tick_bottom - 2 <= r.y <= tick_bottom + 3 * font
               and ax - font <= r.cx <= right + font)
    yt = _pick(runs, used | taken, lambda r: r.angle != 0 and r.right <= ytick_left + 2
               and ytick_left - 4 * font <= r.x and top - font <= r.cy <= ay + font)
    tt = _pick(runs, used | taken, lambda r: r.angle == 0 and top - 4 * font <= r.y and r.bottom <= top + 2
               and ax - font <= r.cx <= right + font)
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
    mask = _box_mask(box, H, W)
    style = ChartStyle(tick_font=float(np.median([runs[k].font_px for _, k in below + left])))
    if style_title is not None:
        style.title_font, style.title_bold = style_title
    # a frame round the cells (imshow's four spines): dark along the plot's edge on every side
    x0i, y0i, x1i, y1i = int(ax), int(top), int(right), int(ay)
    edges = [rgb[y0i:y0i + 2, x0i:x1i].min(axis=0), rgb[y1i - 1:y1i + 1, x0i:x1i].min(axis=0),
             rgb[y0i:y1i, x0i:x0i + 2].min(axis=1), rgb[y0i:y1i, x1i - 1:x1i + 1].min(axis=1)]
    if all(e.size and float(np.mean(e.astype(np.float32).mean(axis=1) < 110)) > 0.8 for e in edges):
        style.frame = True
        style.axis_color = "#000000"
    return ChartResult(box=box, plot=(ax, float(top), right, ay), mask=mask, run_indices=sorted(taken), spec=spec,
                       title=runs[tt].text if tt is not None else None, style=style)


def _colorbar_values(rgb, paints, runs, taken, ticks: list[tuple[float, float]], right: float,
                     cells: dict[tuple[int, int], np.ndarray]
                     ) -> tuple[dict[tuple[int, int], float], tuple[float, float]] | None:
    """Cell values read off a colour bar: its tick labels map rows to values (a line fit), its
    strip's colour at each row is the colour scale, and a cell's value is that of the row whose
    colour is nearest its own (an attention map or a correlation matrix without numbers).
    Returns the values and the bar's own range (the colour scale's domain)."""
    if len(ticks) < 2:
        return None
    fit = _robust_fit([c for c, _ in ticks], [v for _, v in ticks])
    if fit is None:
        return None
    a, b, _ = fit
    # the strip: the column just left of the tick labels' left edge, inked with many colours
    left_edge = min(runs[k].x for k in taken if runs[k].x > right)
    y0, y1 = 0, rgb.shape[0]
    for x in range(int(left_edge) - 4, int(right), -1):
        col = rgb[y0:y1, x].astype(np.float32)
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
    return {key: _round(v, span) for key, v in out.items()}, (_round(ends[0], span), _round(ends[1], span))


def _number_categories(series: list["Series"]) -> None:
    """Bars whose category labels could not be read: cluster bar centres (grouped bars sit close
    together) and name the clusters 1, 2, 3… from left to right."""
    xs = sorted({float(x) for sr in series for x, _ in sr.points})
    if not xs:
        return
    gaps = np.diff(xs)
    cut = (np.median(gaps) * 1.5) if len(gaps) else 0.0
    label: dict[float, str] = {}
    k = 1
    for i, x in enumerate(xs):
        if i and gaps[i - 1] > cut:
            k += 1
        label[x] = str(k)
    for sr in series:
        sr.points = [(label[float(x)], y) for x, y in sr.points]


def _pick(runs, used, pred) -> int | None:
    cands = [k for k, r in enumerate(runs) if k not in used and pred(r)]
    if not cands:
        return None
    return max(cands, key=lambda k: len(runs[k].text))


def _y_tick(run: TextRun) -> tuple[float, str]:
    """A y tick label's (pixel, text). '10³' in matplotlib's log labels reads '103', which
    is also a plausible linear label (101, 102, 103 evenly spaced fit a linear axis exactly):
    the glyphs tell them apart. Its exponent is smaller and raised; the label is then 1e3,
    at the centre of its base '10' (the exponent lifts the ink box's centre)."""
    m = re.fullmatch(r"10([−\-]?\d{1,2})", run.text.strip())
    if m is None or run.glyphs is None or run.glyphs.size == 0:
        return run.cy, run.text
    n, _, stats, _ = find_blobs(run.glyphs)
    comps = sorted((stats[i] for i in range(1, n) if stats[i][cv2.CC_STAT_AREA] >= 2), key=lambda st: st[0])
    exp_len = len(m.group(1))  # its glyphs, a minus sign included
    if len(comps) < 2 + exp_len:
        return run.cy, run.text
    base, exp = comps[:2], comps[-exp_len:]
    base_top = min(st[1] for st in base)
    base_bottom = max(st[1] + st[3] for st in base)
    exp_bottom = max(st[1] + st[3] for st in exp)
    exp_h = max(st[3] for st in exp)
    base_h = base_bottom - base_top
    if exp_bottom <= base_top + 0.75 * base_h and exp_h <= 0.85 * base_h:
        return run.y + (base_top + base_bottom) / 2.0, "1e" + m.group(1).replace("−", "-")
    return run.cy, run.text


def _fit_axis(ticks: list[tuple[float, str]]) -> Axis | None:
    """Robust pixel → value fit; linear or log10, whichever explains the labels better."""
    pts = [(px, parse_number(t)) for px, t in ticks]
    pts = [(px, v) for px, v in pts if v is not None]
    if len(pts) < 2:
        return None
    if all(re.fullmatch(r"1e-?\d+", t.strip()) for _, t in ticks):
        # powers of ten written with raised exponents (see _y_tick): a log axis, however few
        # (two labels fit a linear axis as exactly)
        lg = _robust_fit([p for p, _ in pts], [math.log10(v) for _, v in pts])
        if lg is not None:
            return Axis(a=lg[0], b=lg[1], log=True)
    cands = []
    lin = _robust_fit([p for p, _ in pts], [v for _, v in pts])
    if lin is not None:
        cands.append((lin[2], Axis(a=lin[0], b=lin[1], log=False)))
    pos = [(p, v) for p, v in pts if v > 0]
    if len(pos) >= 2:
        lg = _robust_fit([p for p, _ in pos], [math.log10(v) for _, v in pos])
        if lg is not None:
            cands.append((lg[2] * 1.0, Axis(a=lg[0], b=lg[1], log=True)))
    # '10²' comes out of OCR as '102': read 10k as 10^k
    sup = [(px, t.strip()) for px, t in ticks if re.fullmatch(r"10[−\-]?\d", t.strip())]
    if len(sup) >= 2 and len(sup) == len(ticks):
        exps = [float(t[2:].replace("−", "-")) for _, t in sup]
        fit = _robust_fit([p for p, _ in sup], exps)
        if fit is not None:
            cands.append((fit[2] * 0.5, Axis(a=fit[0], b=fit[1], log=True)))
    if not cands:
        return None
    return min(cands, key=lambda c: c[0])[1]


def _snap_to_ticks(axis: Axis, paints: Paints, labels: list[TextRun], ax: float, font: float) -> Axis:
    """The y axis refitted on its tick marks (or gridlines), where each label has one near it.

    A label's ink centre is only near its tick: matplotlib's classic style sets them 3.5 px
    above (12 pt digits, 'center_baseline'), which put a chart's top point 2.4 % of the axis
    low. The tick is a thin stroke running from the axis line, inward or outward."""
    if axis.log or len(labels) < 3:
        return axis
    H, W = paints.labels.shape
    xa = int(round(ax))
    reach = max(3, int(round(0.5 * font)))
    found = []
    for r in labels:
        v = parse_number(r.text)
        if v is None:
            continue
        p = axis.pixel(v)
        r0, r1 = max(0, int(p - reach)), min(H, int(p + reach) + 1)
        best = None
        for c0, c1 in ((max(int(r.right) + 1, xa - 9), xa - 1), (xa + 2, min(W, xa + 10))):
            if c1 - c0 < 3 or r1 - r0 < 3:
                continue
            full = (paints.labels[r0:r1, c0:c1] != paints.background).mean(axis=1) >= 0.8
            rows = np.flatnonzero(full)
            for band in np.split(rows, np.flatnonzero(np.diff(rows) > 1) + 1) if rows.size else []:
                if len(band) > 4 or band[0] == 0 or band[-1] == r1 - r0 - 1:
                    continue  # no thin stroke (a bar's edge), or cut by the window
                centre = r0 + float(band.mean()) + 0.5
                if best is None or abs(centre - p) < abs(best - p):
                    best = centre
        if best is not None:
            found.append((best, r.text))
    if len(found) < max(3, len(labels) - 1):
        return axis
    lin = _robust_fit([p for p, _ in found], [parse_number(t) for _, t in found])
    # ticks sit exactly on their values; a fit that does not, or moves the scale much, is not them
    if lin is None or lin[2] > 0.004 or abs(lin[1] - axis.b) > 0.05 * abs(axis.b):
        return axis
    return replace(axis, a=lin[0], b=lin[1])


def _robust_fit(px: list[float], vals: list[float]) -> tuple[float, float, float] | None:
    """(a, b, relative residual) of vals ≈ a + b·px, dropping one bad reading if that helps."""
    x = np.asarray(px, float)
    y = np.asarray(vals, float)
    if len(x) < 2 or np.ptp(x) < 1:
        return None

    def fit(xx, yy):
        b, a = np.polyfit(xx, yy, 1)
        res = np.abs(yy - (a + b * xx))
        span = np.ptp(yy) or 1.0
        return a, b, float(res.max() / span), res

    a, b, err, res = fit(x, y)
    if err > 0.01 and len(x) >= 4:
        keep = np.ones(len(x), bool)
        keep[int(np.argmax(res))] = False
        a2, b2, err2, _ = fit(x[keep], y[keep])
        if err2 < err / 3:
            a, b, err = a2, b2, err2
    if b == 0:
        return None
    return float(a), float(b), err


# -- marks ----------------------------------------------------------------------------------------

@dataclass
class Series:
    color: tuple[int, int, int]
    kind: str  # bar, line, point
    points: list[tuple[Any, float]]  # (x value or category, y value)
    name: str | None = None
    legend_title: str | None = None  # the legend's heading (kept on the first series)
    marker_areas: list[float] = field(default_factory=list)  # ink px² of each point marker
    bar_spans: list[tuple[float, float]] = field(default_factory=list)  # each bar's left and right, px
    floors: list[tuple[float, float, float]] = field(default_factory=list)  # each bar's left, right, top px
    errors: list[tuple[float, float] | None] = field(default_factory=list)  # per point: (down, up) error bar
    stacked: bool = False  # segments standing on another series' bars
    band: list[tuple[float, float] | None] = field(default_factory=list)  # per point: a shaded band's (lo, hi)
    line_width: float | None = None
    shape: str | None = None  # the markers' shape, where they have one (circle, square, diamond, triangle-*)
    outline: tuple[tuple[int, int, int], float] | None = None  # the marks' edge: colour, width px
    swatch: tuple[float, float, float] | None = None  # its legend swatch's width, height, gap to the label, px


@dataclass
class Legend:
    names: dict[int, str]  # paint -> series name
    at: dict[int, tuple[float, float]]  # paint -> where its entry is (cy, cx): the reading order
    runs: list[int]  # the entries' text runs (and the title's)
    box: tuple[int, int, int, int] | None  # x0, y0, x1, y1: no marks are read there
    title: int | None = None  # the run above the entries
    swatches: dict[int, tuple[float, float, float]] = field(default_factory=dict)  # paint -> swatch w, h, gap px


def _same_hue(a, b) -> bool:
    """Two saturated colours of one hue within a JPEG's chroma loss of each other.

    Chroma subsampling washes a thin line's colour out at constant brightness: at q50 a series
    drawn (31, 119, 183) came back partly (65, 118, 153), 45.3 apart but of one hue and luma
    (100 vs 106), and was read as two series. Beyond 45 apart, only such a pair is one colour."""
    a, b = np.asarray(a, np.float32), np.asarray(b, np.float32)
    dist = float(np.linalg.norm(a - b))
    luma = np.array([0.299, 0.587, 0.114], np.float32)
    if dist > 75 or (dist > 45 and abs(float(luma @ a) - float(luma @ b)) > 12) \
            or min(float(a.max() - a.min()), float(b.max() - b.min())) < 40:
        return False
    ha = cv2.cvtColor(a.astype(np.uint8)[None, None, :], cv2.COLOR_RGB2HSV)[0, 0, 0]
    hb = cv2.cvtColor(b.astype(np.uint8)[None, None, :], cv2.COLOR_RGB2HSV)[0, 0, 0]
    d = abs(int(ha) - int(hb))
    return min(d, 180 - d) <= 8  # OpenCV hue: 0..180


def _read_marks(rgb, paints: Paints, runs, used, plot, yaxis: Axis, xaxis: Axis, font: float, original=None,
                lossy: bool = False, legend: "Legend | None" = None, walls: tuple[float, ...] = ()):
    x0, y0, x1, y1 = (int(round(v)) for v in plot)
    inner = (x0 + 3, y0 + 2, x1 - 2, y1 - 3)
    labels = paints.labels
    region = labels[inner[1]:inner[3], inner[0]:inner[2]]
    if region.size == 0:
        return [], None, []
    counts, min_px, cands = _mark_paints(paints, region, lossy)
    bg = paints.background
    if legend is None:
        legend = _find_legend(rgb, paints, runs, used, plot, cands, font, original, walls)
    legend_names, legend_at, legend_runs, legend_box, legend_title = (
        legend.names, legend.at, legend.runs, legend.box, legend.title)
    series: list[Series] = []
    areas = {p: int(counts[p]) for p in cands}
    # a gridline through a bar as tall as the plot is lost in the bar's ink (bmh draws one at
    # every category): those are found again in the ink that is no mark paint (a gridline over
    # a bar is a blend of the two)
    rules = _rules(labels != bg, inner)
    ix0, iy0, ix1, iy1 = inner
    unmarked = np.zeros(labels.shape, bool)
    unmarked[iy0:iy1, ix0:ix1] = (region != bg) & ~np.isin(region, cands)
    rules += [r for r in _rules(unmarked, inner) if r not in rules]
    # a lossy image splits a thin series line into its colour and a washed-out copy of it (the
    # chroma a JPEG keeps at half resolution): one series, under its more common paint
    members = {p: [p] for p in cands}
    if lossy:
        for p in sorted(cands, key=lambda q: -areas[q]):
            for q in list(members):
                if q != p and p in members and q in members and areas[q] >= areas[p] \
                        and _same_hue(paints.colors[p], paints.colors[q]):
                    members[q] += members.pop(p)
                    areas[q] += areas[p]
                    break
    bands = _find_bands(labels, inner, paints, members, areas, counts)
    if legend_box is not None:  # the legend drawn over a band is no part of it
        lx0, ly0, lx1, ly1 = legend_box
        for q in bands:
            bands[q][max(0, ly0):ly1, max(0, lx0):lx1] = False
    _merge_fringes(labels, inner, paints, members, areas)
    biggest = max(areas.values(), default=0)
    masks: list[tuple[int, np.ndarray, tuple[int, int, int]]] = []
    for p in members:
        if areas[p] < 0.12 * biggest:
            continue  # anti-aliased fringes between a mark and the background are not series
        m = np.zeros(labels.shape, bool)
        m[inner[1]:inner[3], inner[0]:inner[2]] = np.isin(labels[inner[1]:inner[3], inner[0]:inner[2]], members[p])
        if p in bands:
            # the line where its band is drawn over it: its colour under the band's tint
            m |= _under_band(rgb, labels, inner, paints.colors[p], bands[p])
        if legend_box is not None:
            # cleared a margin past the frame, which the legend's bars are bridged across; what
            # the margin took beside the frame (a bar ending at it) is given back
            lx0, ly0, lx1, ly1 = legend_box
            side, top = _legend_margin(font)
            wide = (max(0, lx0 - side), max(0, ly0 - top), lx1 + side, ly1 + top)
            beside = m.copy()
            beside[max(0, ly0):ly1, max(0, lx0):lx1] = False
            m[wide[1]:wide[3], wide[0]:wide[2]] = False
            m = _under_legend(m, wide, inner)
            m[wide[1]:wide[3], wide[0]:wide[2]] |= beside[wide[1]:wide[3], wide[0]:wide[2]]
        # mended across the gridlines first: a tall bar cut by dashed ones (bmh) is no bundle
        # of long thin strokes for _drop_rules to take
        m = _drop_rules(_bridge_rules(_drop_inner_ticks(m, inner), rules), inner)
        if m.sum() < min_px:
            continue
        color = tuple(int(v) for v in paints.colors[p])
        masks.append((p, m, color))
    masks, outlines = _drop_outlines(masks)
    # bars standing on the axis first, then segments stacked on them (on those, and so on)
    floors: list[tuple[float, float, float]] = []
    pending = masks
    for _ in range(4):
        later = []
        for p, m, color in pending:
            s = _series_from_mask(rgb, m, color, paints.background_rgb, yaxis, xaxis, plot, floors)
            if s is None or (s.kind != "bar" and floors == [] and _has_rects(m)):
                later.append((p, m, color))  # perhaps a stacked series: read again on the floors found
                continue
            s.name = next((legend_names[q] for q in members[p] if q in legend_names), None)
            s.swatch = next((legend.swatches[q] for q in members[p] if q in legend.swatches), None)
            if p in bands and s.kind == "line":
                s.band = _band_extent(bands[p], s, xaxis, yaxis)
            series.append(s)
        new_floors = [f for s in series if s.kind == "bar" for f in s.floors]
        if not later or new_floors == floors:
            pending = later
            break
        floors, pending = new_floors, later
    for p, m, color in pending:  # never stacked: whatever they are read as alone
        s = _series_from_mask(rgb, m, color, paints.background_rgb, yaxis, xaxis, plot)
        if s is not None:
            s.name = next((legend_names[q] for q in members[p] if q in legend_names), None)
            s.swatch = next((legend.swatches[q] for q in members[p] if q in legend.swatches), None)
            series.append(s)
    for sr in series:
        sr.outline = outlines.get(sr.color)
    # the legend's order is the author's: the series keep it (unnamed ones after)
    order = {legend_names[p]: legend_at[p] for p in legend_names}
    series.sort(key=lambda s: order.get(s.name, (math.inf, math.inf)))
    if legend_title is not None and series:
        series[0].legend_title = runs[legend_title].text
    return series, legend_box, legend_runs


def _drop_inner_ticks(m: np.ndarray, inner) -> np.ndarray:
    """Tick marks drawn inward from the frame (matplotlib's classic style: on all four sides) are
    no marks: short thin strokes of ``m`` that run into the plot's inner edge are removed."""
    x0, y0, x1, y1 = inner
    sub = m[y0:y1, x0:x1]
    if not sub.any():
        return m
    n, lab, stats, _ = find_blobs(sub)
    h, w = sub.shape
    longest = max(12, int(0.05 * min(h, w)))
    drop = np.zeros(n, bool)
    for i in range(1, n):
        x, y, cw, ch, _ = stats[i]
        at_side = x == 0 or y == 0 or x + cw >= w or y + ch >= h
        drop[i] = at_side and max(cw, ch) <= longest and min(cw, ch) <= 3
    if not drop.any():
        return m
    out = m.copy()
    out[y0:y1, x0:x1] &= ~drop[lab]
    return out


def _drop_outlines(masks: list[tuple[int, np.ndarray, tuple[int, int, int]]]
                   ) -> tuple[list[tuple[int, np.ndarray, tuple[int, int, int]]],
                              dict[tuple[int, int, int], tuple[tuple[int, int, int], float]]]:
    """The paints that only outline other marks are no series: bars drawn with black edges
    (matplotlib's classic style, ``edgecolor='k'``) had made a black 'series' of bars as tall as
    the plot. Returns the series' masks and, per series colour, its outline's colour and width."""
    if len(masks) < 2:
        return masks, {}
    # the masks' common box, 3 px wider (the dilation's reach): the same answer on a crop
    union = np.logical_or.reduce([m for _, m, _ in masks])
    ys, xs = np.nonzero(union)
    if ys.size == 0:
        return masks, {}
    H, W = union.shape
    box = (slice(max(0, ys.min() - 3), min(H, ys.max() + 4)), slice(max(0, xs.min() - 3), min(W, xs.max() + 4)))
    crops = [m[box] for _, m, _ in masks]
    near = [cv2.dilate(c.astype(np.uint8), np.ones((7, 7), np.uint8)).astype(bool) for c in crops]
    sizes = [int(c.sum()) for c in crops]
    dropped: dict[int, list[int]] = {}
    for i in range(len(masks)):
        others = np.logical_or.reduce([near[j] for j in range(len(masks)) if j != i])
        n = sizes[i]
        # an outline lies along its mark: nearly all of it within 3 px of the mark's own paint;
        # and it is the one outside: the mark's fill is enclosed by it (a scatter's blue discs
        # in black rings, the rings the larger of the two), or, where neither encloses the
        # other, the smaller (a bar's fill beside its outline is not an outline)
        if n and (crops[i] & others).sum() >= 0.8 * n:
            inside = [j for j in range(len(masks)) if j != i and sizes[j] and _outlines(crops[i], crops[j])]
            if inside:
                dropped[i] = inside
    keep = []
    outlines: dict[tuple[int, int, int], tuple[tuple[int, int, int], float]] = {}
    for j, (p, m, color) in enumerate(masks):
        if j in dropped:
            continue
        rings = [i for i, inside in dropped.items() if j in inside]
        if rings:
            ring = crops[rings[0]] & near[j]
            outlines[color] = (masks[rings[0]][2], _line_width(ring) if ring.any() else 1.0)
            # a marker's outline is part of its shape: a black-edged diamond is a diamond, and
            # the line through it runs on unbroken (a bar keeps its fill's edges)
            n, lab, stats, _ = find_blobs(crops[j])
            small = np.isin(lab, [k for k in range(1, n) if max(stats[k][2], stats[k][3]) <= 60])
            if small.any():
                around = cv2.dilate(small.astype(np.uint8), np.ones((7, 7), np.uint8)).astype(bool)
                m = m.copy()
                for i in rings:
                    m[box] |= crops[i] & around
        keep.append((p, m, color))
    return keep, outlines


def _grid_over_bars(rgb: np.ndarray, page: np.ndarray, bars: list["Series"], rows: list[float], baseline: float,
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


def _bar_edge(paints: Paints, sr: "Series", fills: list[tuple[int, int, int]],
              baseline: float) -> tuple[tuple[int, int, int], float] | None:
    """The edge drawn round a series' bars (``edgecolor='k'``): one paint, not the page's nor a
    series', lining the top and both sides of every bar, and how many px wide it is. An edge
    too thin to be a series of its own is found here rather than by :func:`_drop_outlines`."""
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


def _enclosed(a: np.ndarray, b: np.ndarray) -> float:
    """The share of ``a``'s pixels not touching what lies outside ``a`` and ``b`` together (the
    anti-aliased seam between them closed first)."""
    union = cv2.morphologyEx((a | b).astype(np.uint8), cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    outside = cv2.dilate(1 - union, np.ones((3, 3), np.uint8)).astype(bool)
    n = int(a.sum())
    return 1.0 - float((a & outside).sum()) / n if n else 0.0


def _outlines(a: np.ndarray, b: np.ndarray) -> bool:
    """Paint ``a`` is drawn round mark ``b`` (it lies along it: see :func:`_drop_outlines`)."""
    ea, eb = _enclosed(a, b), _enclosed(b, a)
    if abs(ea - eb) > 0.2:
        return eb > ea
    return int(b.sum()) > int(a.sum())


def _mark_paints(paints: Paints, region: np.ndarray, lossy: bool) -> tuple[np.ndarray, int, list[int]]:
    """Pixel counts per paint in the plot's inner region, the least a series needs, and the
    paints that may be marks."""
    counts = np.bincount(region[region >= 0].ravel(), minlength=len(paints.colors))
    min_px = max(6, int(0.0004 * region.size))
    cands = [p for p in range(len(paints.colors)) if p != paints.background and counts[p] >= min_px
             and _is_mark_paint(paints.colors[p], lossy)]
    return counts, min_px, cands


def _find_legend(rgb, paints: Paints, runs, used, plot, cands: list[int], font: float, original=None,
                 walls: tuple[float, ...] = ()) -> Legend:
    """Legend entries: text inside the plot (or in a column right of it) with a swatch of a
    candidate paint on its left; the box they fill and a title just above them."""
    x0, y0, x1, y1 = (int(round(v)) for v in plot)
    legend_names: dict[int, str] = {}
    legend_at: dict[int, tuple[float, float]] = {}  # where each paint's legend entry is (reading order)
    legend_runs: list[int] = []
    legend_box = None
    swatches: dict[int, tuple[float, float, float]] = {}
    # a swatch names a series' paint first: a legend drawn half-transparent over a bar leaves a
    # blend of the two beside the swatch (more pixels than the swatch: the name went to it) and
    # a swatch a shade off its series' paint
    counts, _, _ = _mark_paints(paints, paints.labels[y0 + 2:y1 - 3, x0 + 3:x1 - 2], False)
    top_count = max((int(counts[p]) for p in cands), default=0)
    major = [p for p in cands if counts[p] >= 0.12 * top_count]
    minor = [p for p in cands if p not in major]
    # the column right of the plot ends at the next plot's axis or frame (subplots side by side:
    # the right one's legend had been taken for the left one's)
    H, W = paints.labels.shape
    reach = min(W, int(x1 + 15 * font))
    if reach > x1 + 3 and y1 - y0 > 10:
        ink_cols = (paints.labels[y0:y1, x1 + 3:reach] != paints.background).mean(axis=0)
        axes = np.flatnonzero(ink_cols >= 0.6)
        if axes.size:
            reach = x1 + 3 + int(axes[0])
    reach = int(min([reach] + [w for w in walls if w > x1 + 3]))  # a panel's edge (ggplot draws no axis)
    for k, r in enumerate(runs):
        # inside the plot, or in a column to its right (Vega-Lite puts the legend there)
        if k in used or r.angle != 0 or not (x0 <= r.cx <= x1 + 15 * font and y0 - font <= r.cy <= y1) \
                or (r.cx > x1 and r.right > reach):
            continue
        # the swatch: just left of the text (never reaching back into the plot from outside it),
        # or at the run's own left end when OCR read the swatch as a glyph ('■ CIFAR-10')
        left_edge = x1 + 2 if r.x > x1 else x0
        sx0, sx1 = int(max(left_edge, r.x - 3.5 * font)), int(r.x + 1.2 * font)
        sy0, sy1 = int(r.y), int(r.bottom + 1)
        if sx1 <= sx0:
            continue
        # colours from the original image: OCR may have read (and erased) the swatch as a glyph
        sw = (original if original is not None else rgb)[sy0:sy1, sx0:sx1].astype(np.float32)
        # a paint of the text's own colour counts only left of the text: black bar outlines make
        # black a mark paint, and a value label's own glyphs had been its swatch
        own = max(0, min(sw.shape[1], int(r.x) - 1 - sx0))
        text_rgb = np.array(r.color, np.float32)
        best = None
        for group in (major, minor):
            for p in group:
                col = paints.colors[p].astype(np.float32)
                part = sw[:, :own] if float(np.linalg.norm(col - text_rgb)) < 40 else sw
                n = int((np.linalg.norm(part - col, axis=2) < 18).sum())
                if n >= 4 and (best is None or n > best[0]):
                    best = (n, p)
            if best is not None:
                break
        if best is not None:
            # a swatch ends with its entry's row; a bar beside a value label runs on down
            below = paints.labels[int(r.bottom + 2):int(r.bottom + 2 + 0.6 * font), sx0:sx1]
            if below.size and float((below == best[1]).mean()) >= 0.5:
                best = None
        if best is not None:
            legend_names.setdefault(best[1], r.text.lstrip("■□●○▪▲◆-—– ").strip() or r.text)
            legend_at.setdefault(best[1], (r.cy, r.cx))
            size = _swatch_size(original if original is not None else rgb, paints.colors[best[1]], r, font, left_edge)
            if size is not None:
                swatches.setdefault(best[1], size)
            legend_runs.append(k)
            bx = (sx0 - 2, int(r.y - 0.4 * font), int(r.right + 2), int(r.bottom + 0.4 * font))
            legend_box = bx if legend_box is None else (min(legend_box[0], bx[0]), min(legend_box[1], bx[1]),
                                                        max(legend_box[2], bx[2]), max(legend_box[3], bx[3]))
    legend_title = None
    if legend_runs:
        first = min((runs[k] for k in legend_runs), key=lambda r: r.y)
        for k, r in enumerate(runs):
            if k in used or k in legend_runs or r.angle != 0:
                continue
            if 0 <= first.y - r.bottom <= 1.2 * font and abs(r.x - (first.x - 1.5 * font)) <= 2.5 * font:
                legend_title = k
                legend_runs.append(k)
                break
    if legend_box is not None:
        legend_box = _legend_frame(paints, legend_box, font, rgb)
    return Legend(legend_names, legend_at, legend_runs, legend_box, legend_title, swatches)


def _swatch_size(rgb: np.ndarray, color: np.ndarray, r, font: float,
                 left_edge: float) -> tuple[float, float, float] | None:
    """Width, height and gap to the label (px) of the swatch left of legend entry ``r``: the
    largest blob of its paint there. matplotlib's are 2 × 0.7 em rectangles, or a line 2 em long
    with its marker, 0.8 em before the label."""
    H, W = rgb.shape[:2]
    x0, x1 = int(max(left_edge, r.x - 3.5 * font)), int(r.x - 1)
    y0, y1 = int(max(0, r.y - 0.4 * font)), int(min(H, r.bottom + 0.4 * font + 1))
    if x1 - x0 < 3 or y1 - y0 < 3:
        return None
    near = distances(rgb[y0:y1, x0:x1], color) < 40
    n, _, stats, _ = find_blobs(near)
    if n < 2:
        return None
    i = 1 + int(np.argmax(stats[1:, 4]))
    w, h = float(stats[i, 2]), float(stats[i, 3])
    if stats[i, 4] < 4 or stats[i, 0] + w >= x1 - x0:  # touches the text: no swatch of its own
        return None
    return w, h, float(r.x - (x0 + stats[i, 0] + w))


def _legend_margin(font: float) -> tuple[int, int]:
    """How far a legend's frame may lie past its swatches and labels: (sides, top and bottom) px."""
    return int(0.8 * font), int(0.6 * font)


def _legend_frame(paints: Paints, box: tuple[int, int, int, int], font: float,
                  rgb: np.ndarray | None = None) -> tuple[int, int, int, int]:
    """The legend's box grown from its swatches and labels out to its frame: each side moves out
    over the legend's face (page) and stops on the first line that is not (the frame's stroke,
    or a mark the legend does not cover), at most 0.8 (sides) and 0.6 (top, bottom) font sizes.
    A fixed margin had reached past the frame and cut short the bar ending beside it."""
    H, W = paints.labels.shape
    x0, y0, x1, y1 = (max(0, box[0]), max(0, box[1]), min(W, box[2]), min(H, box[3]))
    if x1 <= x0 or y1 <= y0:
        return box
    side, top = _legend_margin(font)
    # the face: page, or near white (a half-transparent face over a bar the legend hides); looked
    # at only as far as the box may grow
    wy0, wy1, wx0, wx1 = max(0, y0 - top - 1), min(H, y1 + top + 1), max(0, x0 - side - 1), min(W, x1 + side + 1)
    lab = paints.labels[wy0:wy1, wx0:wx1]
    lum = paints.colors.astype(np.float32) @ np.array([0.299, 0.587, 0.114], np.float32)
    face = (lab == paints.background) | ((lab >= 0) & (lum[np.maximum(lab, 0)] >= 205))
    if rgb is not None:
        face |= (lab < 0) & (rgb[wy0:wy1, wx0:wx1].astype(np.float32) @ np.array([0.299, 0.587, 0.114], np.float32)
                             >= 205)
    page = np.zeros((H, W), bool)
    page[wy0:wy1, wx0:wx1] = face

    def grow(lines: np.ndarray, edge: int, step: int, limit: int) -> int:
        """``lines``: page per line (column or row) across the box; from line ``edge`` out."""
        for _ in range(limit):
            nxt = edge + step
            if not 0 <= nxt < len(lines) or lines[nxt] >= 0.9:
                if not 0 <= nxt < len(lines):
                    return edge
                edge = nxt  # the legend's face
                continue
            if lines[nxt] > 0.1:
                return edge  # a mark ending beside the legend: no part of it
            # the frame: its stroke, all of its width, is the legend's
            start = nxt
            while 0 <= nxt < len(lines) and lines[nxt] <= 0.1 and abs(nxt - start) < 4:
                edge, nxt = nxt, nxt + step
            return edge
        return edge

    cols, rows = page[y0:y1].mean(axis=0), page[:, x0:x1].mean(axis=1)
    nx0, nx1 = grow(cols, x0, -1, side), grow(cols, x1 - 1, 1, side) + 1
    ny0, ny1 = grow(rows, y0, -1, top), grow(rows, y1 - 1, 1, top) + 1
    return (nx0, ny0, nx1, ny1)


def _is_mark_paint(rgb, lossy: bool = False) -> bool:
    """Gridlines and frames are pale greys; marks are coloured or dark. In a lossy image a
    faint tint is the chroma ringing around a mark, not a mark (a q50 line chart's (213, 250,
    255) beside its blue line was read as a second series of one point)."""
    r, g, b = (int(v) for v in rgb)
    sat = max(r, g, b) - min(r, g, b)
    light = (r + g + b) / 3
    if lossy and light > 225 and sat < 60:
        return False
    return sat > 40 or light < 140


def _drop_rules(m: np.ndarray, inner) -> np.ndarray:
    """Remove long straight strokes spanning most of the plot (gridlines, reference lines)."""
    x0, y0, x1, y1 = inner
    out = m.copy()
    for horizontal, length in ((True, int(0.8 * (x1 - x0))), (False, int(0.8 * (y1 - y0)))):
        if length < 10:
            continue
        for lx0, ly0, lx1, ly1 in _long_lines(m, horizontal, length):
            out[ly0:ly1, lx0:lx1] = False
    return out


def _blend_of(c, mark, bg) -> float:
    """How far colour ``c`` lies from ``mark`` towards ``bg`` (0: the mark, 1: the background)
    where it is a blend of the two (within 14 of the line between them), else -1."""
    t, d = blend_position(c, mark, bg)
    return float(t) if float(d) <= 14 else -1.0


def _find_bands(labels: np.ndarray, inner, paints: Paints, members: dict[int, list[int]],
                areas: dict[int, int], counts: np.ndarray) -> dict[int, np.ndarray]:
    """Shaded bands (fill_between, mean ± sd): a large pale area in a tint of a series' colour
    (the colour blended with the background at a low alpha), with the tints where two bands
    overlap. They are not series: they leave the candidates, and each series with one gets its
    band's mask (the band's areas had outnumbered the lines, which were dropped as fringes).
    Returns series paint -> band mask over the whole image."""
    x0, y0, x1, y1 = inner
    sub = labels[y0:y1, x0:x1]
    bg = paints.background_rgb.astype(np.float32)
    out: dict[int, np.ndarray] = {}
    tints: set[int] = set()
    # every paint may be a band (a pale tint is no mark paint), every candidate its line
    for p in [int(i) for i in np.flatnonzero(counts) if i != paints.background]:
        cp = paints.colors[p].astype(np.float32)
        for q in members:
            if q == p or q in out or areas[q] >= int(counts[p]):
                continue  # a band outweighs its line
            if not 0.5 <= _blend_of(cp, paints.colors[q], bg) <= 0.92:
                continue  # not q at a low alpha over the background
            own = np.isin(sub, members.get(p, [p]))
            body = cv2.erode(own.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
            if body.sum() < 0.3 * own.sum():
                continue  # a thin rim, not an area
            m = np.zeros(labels.shape, bool)
            m[y0:y1, x0:x1] = own
            out[q] = m
            tints.add(p)
            break
    if out:
        # where bands overlap: pale paints lying within the bands' reach
        reach = np.zeros(labels.shape, np.uint8)
        for m in out.values():
            reach |= m.astype(np.uint8)
        reach = cv2.dilate(reach, np.ones((9, 9), np.uint8)).astype(bool)
        for p in [int(i) for i in np.flatnonzero(counts) if i != paints.background]:
            if p in tints or p in out:
                continue
            own = np.zeros(labels.shape, bool)
            own[y0:y1, x0:x1] = np.isin(sub, members.get(p, [p]))
            touching = [q for q in out if (own & cv2.dilate(out[q].astype(np.uint8), np.ones((5, 5), np.uint8))
                                           .astype(bool)).sum() >= 10]
            # within the bands' reach, or between two bands (where they overlap, however wide)
            if float(paints.colors[p].astype(np.float32).mean()) > 170 and own.any() \
                    and (float((own & reach).sum()) >= 0.9 * float(own.sum()) or len(touching) >= 2):
                tints.add(p)
                for q in out:  # an overlap belongs to every band it touches, whole
                    near = cv2.dilate(out[q].astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
                    if (own & near).any():
                        out[q] = out[q] | own
        for p in tints:
            members.pop(p, None)
            areas.pop(p, None)
    return out


def _band_extent(band: np.ndarray, s: "Series", xaxis: Axis, yaxis: Axis) -> list[tuple[float, float] | None]:
    """Per point of a line: the band's lower and upper values in the point's column."""
    out: list[tuple[float, float] | None] = []
    H, W = band.shape
    for x, _ in s.points:
        try:
            col = int(round(xaxis.pixel(float(x))))
        except (TypeError, ValueError):
            out.append(None)
            continue
        rows = np.flatnonzero(band[:, max(0, col - 1):min(W, col + 2)].any(axis=1)) if 0 <= col < W else []
        if len(rows) < 2:
            out.append(None)
            continue
        lo, hi = sorted((yaxis.value(float(rows[-1]) + 0.5), yaxis.value(float(rows[0]) + 0.5)))
        out.append((lo, hi))
    return out


def _under_band(rgb: np.ndarray, labels: np.ndarray, inner, color, band: np.ndarray) -> np.ndarray:
    """The line's pixels inside its band: nearer the line's colour than the band's, and at least
    halfway from the band's colour to the line's."""
    x0, y0, x1, y1 = inner
    out = np.zeros(labels.shape, bool)
    zone = cv2.dilate(band.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)[y0:y1, x0:x1]
    px = rgb[y0:y1, x0:x1].astype(np.float32)
    c = np.asarray(color, np.float32)
    tint = np.median(rgb[band].reshape(-1, 3).astype(np.float32), axis=0) if band.any() else c
    d_line = np.linalg.norm(px - c[None, None, :], axis=2)
    d_tint = np.linalg.norm(px - tint[None, None, :], axis=2)
    out[y0:y1, x0:x1] = zone & (d_line < d_tint) & (d_line <= 0.5 * float(np.linalg.norm(c - tint)))
    return out


def _merge_fringes(labels: np.ndarray, inner, paints: Paints, members: dict[int, list[int]],
                   areas: dict[int, int]) -> None:
    """A paint that only rims another series' marks is that series: the anti-aliased blend of a
    mark with the background (matplotlib's diamond markers left a rim of (170, 160, 210) round
    each purple diamond, read as a third series of ragged points). Its pixels lie by the other
    paint's, and its colour lies between that paint's and the background's."""
    x0, y0, x1, y1 = inner
    sub = labels[y0:y1, x0:x1]
    bg = paints.background_rgb.astype(np.float32)
    for p in sorted(list(members), key=lambda q: areas[q]):
        cp = paints.colors[p].astype(np.float32)
        for q in sorted(members, key=lambda q: -areas[q]):
            if q == p or areas[q] < 2 * areas[p]:
                continue
            if not 0.1 <= _blend_of(cp, paints.colors[q], bg) <= 0.9:
                continue  # not a blend of q with the background
            own = np.isin(sub, members[p])
            near = cv2.dilate(np.isin(sub, members[q]).astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
            if own.any() and float((own & near).sum()) >= 0.8 * float(own.sum()):
                members[q] += members.pop(p)
                areas[q] += areas.pop(p)
                break


def _under_legend(m: np.ndarray, box, inner) -> np.ndarray:
    """A bar running under the legend: its columns go on through the legend's box where the
    series is at the box's top edge and again at its bottom edge or the plot's (the legend
    hides the bar's foot: a horizontal chart's legend in the upper left had cut the top bar
    off its axis, and the bar was lost)."""
    x0, y0, x1, y1 = box
    if y0 < 1 or x1 <= x0:
        return m
    above = m[y0 - 1, x0:x1]
    below = m[y1, x0:x1] if y1 < m.shape[0] else np.zeros_like(above)
    through = above & (below | (y1 >= inner[3] - 1))
    if not through.any():
        return m
    out = m.copy()
    out[y0:min(y1, inner[3]), x0:x1] |= through[None, :]
    return out


def _rules(ink: np.ndarray, inner) -> list[tuple[bool, int, int, int, int]]:
    """Gridlines across the plot, in any colour: (horizontal, x0, y0, x1, y1), end exclusive.
    Dashed ones too (bmh's): gaps up to 8 px along the line are closed first."""
    x0, y0, x1, y1 = inner
    sub = np.zeros(ink.shape, np.uint8)
    sub[y0:y1, x0:x1] = ink[y0:y1, x0:x1]
    out = []
    for horizontal, length in ((True, int(0.8 * (x1 - x0))), (False, int(0.8 * (y1 - y0)))):
        if length >= 10:
            k = np.ones((1, 9) if horizontal else (9, 1), np.uint8)
            dashes = cv2.morphologyEx(sub, cv2.MORPH_CLOSE, k).astype(bool)
            out += [(horizontal, *ln) for ln in _long_lines(dashes, horizontal, length)]
    return out


def _bridge_rules(m: np.ndarray, rules) -> np.ndarray:
    """A series' mask mended where a gridline is drawn over its marks (matplotlib draws the grid
    above bars): rule pixels with the series on both sides of the rule are the series. A grouped
    bar chart's bars had been cut at every gridline into stacked pieces, each read as a bar."""
    out = m
    for horizontal, x0, y0, x1, y1 in rules:
        if horizontal:
            if y0 < 1 or y1 >= m.shape[0]:
                continue
            both = m[y0 - 1, x0:x1] & m[y1, x0:x1]
            if both.any():
                out = out.copy() if out is m else out
                out[y0:y1, x0:x1] |= both[None, :]
        else:
            if x0 < 1 or x1 >= m.shape[1]:
                continue
            both = m[y0:y1, x0 - 1] & m[y0:y1, x1]
            if both.any():
                out = out.copy() if out is m else out
                out[y0:y1, x0:x1] |= both[:, None]
    return out


def _read_error_bars(rgb, paints: Paints, series: list[Series], yaxis: Axis, plot) -> str | None:
    """Error bars on bars: a thin stroke of another colour on the bar's centre line, through
    its top (matplotlib's ``yerr=``; drawn over the bar below the top). Each bar's (down, up)
    go into ``Series.errors``; returns the bars' colour, or None where no bar has one.

    A stroke must rise at least 3 px above the top and stop short of the plot's top (a
    vertical gridline runs the whole height)."""
    if yaxis.log or not series or any(s.kind != "bar" or s.stacked for s in series):
        return None
    H, W = paints.labels.shape
    bg = paints.background_rgb.astype(np.float32)
    px0, py0, px1, py1 = plot
    colors = []
    found = False
    for s in series:
        fill = np.asarray(s.color, np.float32)
        s.errors = []
        for (x0, x1, top), (x, value) in zip(s.floors, s.points):
            cx = int(round((x0 + x1) / 2 - 0.5))
            t = int(round(top))
            if not (2 <= cx < W - 2 and py0 + 2 < t < py1):
                s.errors.append(None)
                continue
            strip = rgb[:, cx - 1:cx + 2].astype(np.float32)
            ya = t - 1
            while ya > py0 + 1 and _unlike(strip[ya], fill, bg).any():
                ya -= 1
            yb = t + 1
            while yb < py1 - 1 and _unlike(strip[yb], fill, bg).any():
                yb += 1
            up_px, down_px = (t - 1) - ya, yb - (t + 1)
            if up_px < 3 or ya <= py0 + 2 or up_px + down_px > 0.6 * (py1 - py0):
                s.errors.append(None)
                continue
            # the ends are the caps' centre lines, half a stroke inside the ink's ends (the
            # stroke's width: the error line's, across it midway up)
            mid = (ya + t) // 2
            half = 0.5 * float(_unlike(rgb[mid, max(0, cx - 4):cx + 5].astype(np.float32), fill, bg).sum())
            top_v = yaxis.value(top)
            up = yaxis.value(ya + 0.5 + half) - top_v
            down = top_v - yaxis.value(yb - 0.5 - half) if down_px >= 2 else up
            s.errors.append((abs(down), abs(up)))
            band = strip[ya + 1:t - 1].reshape(-1, 3)
            dist = np.linalg.norm(band - bg, axis=1)
            colors.append(band[int(np.argmax(dist))])
            found = True
    if not found:
        for s in series:
            s.errors = []
        return None
    return to_hex(tuple(int(v) for v in np.median(np.array(colors), axis=0)))


@dataclass
class ValueLabels:
    """Numbers written above the bars, each its bar's value."""
    runs: list[int]
    decimals: int
    dy: float  # px from the bar's top to the labels' centre (negative: above)
    font_px: float
    color: str | None


def _read_value_labels(runs, used, series: list[Series], yaxis: Axis, plot, font: float) -> ValueLabels | None:
    """Value labels (matplotlib's ``bar_label``): a number centred over a bar, just above its
    top, that reads as the bar's value. Kept as a text layer drawn from the data, so an edited
    value relabels its bar; they had been loose text over the chart. Three bars in four at least."""
    if yaxis.log or not series or any(s.kind != "bar" or s.stacked for s in series):
        return None
    px0, py0, px1, py1 = plot
    span = abs(yaxis.value(py0) - yaxis.value(py1)) or 1.0
    taken: list[int] = []
    offsets: list[float] = []
    exact: list[tuple[Series, int, float]] = []  # (series, point, the label's value)
    decimals = 0
    total = 0
    for s in series:
        for i, ((x0, x1, top), (_, value)) in enumerate(zip(s.floors, s.points)):
            total += 1
            for k, r in enumerate(runs):
                if k in used or k in taken or r.angle != 0:
                    continue
                v = parse_number(r.text)
                if v is None or not (x0 - 2 <= r.cx <= x1 + 2) or not (top - 2.5 * font <= r.bottom <= top + 0.35 * font):
                    continue
                if abs(v - value) > 0.02 * span:
                    continue
                taken.append(k)
                exact.append((s, i, v))
                offsets.append(r.cy - top)
                t = r.text.strip().rstrip("%")
                decimals = max(decimals, len(t.split(".")[1]) if "." in t else 0)
                break
    if not taken or len(taken) < 0.75 * total:
        return None
    # the labels are the author's own numbers: they are the values (the bars' heights, read to
    # a pixel, had relabelled 81.8 as 81.9)
    for s, i, v in exact:
        s.points[i] = (s.points[i][0], v)
    colors = [runs[k].color for k in taken]
    color = to_hex(tuple(int(v) for v in np.median(np.array(colors), axis=0))) if colors else None
    return ValueLabels(runs=taken, decimals=decimals, dy=float(np.median(offsets)),
                       font_px=float(np.median([runs[k].font_px for k in taken])), color=color)


def _unlike(px: np.ndarray, fill: np.ndarray, bg: np.ndarray) -> np.ndarray:
    """Pixels (N×3) drawn in neither the bar's colour nor the background's."""
    return (np.linalg.norm(px - fill, axis=1) > 60) & (np.linalg.norm(px - bg, axis=1) > 60)


def _is_rect(st) -> bool:
    """A connected component's stats: a filled rectangle (a bar, a stacked segment)."""
    return st[4] >= 4 and st[4] >= 0.85 * st[2] * st[3] and st[2] >= 3 and st[3] >= 2


def _has_rects(m: np.ndarray) -> bool:
    n, _, stats, _ = find_blobs(m)
    return any(_is_rect(stats[i]) for i in range(1, n))


def _on_floor(s, floors: list[tuple[float, float, float]]) -> tuple[float, float, float] | None:
    """The bar top a rectangle stands on (a stacked bar's segment), if any."""
    x, y, w, h = float(s[0]), float(s[1]), float(s[2]), float(s[3])
    for fx0, fx1, ftop in floors:
        overlap = min(x + w, fx1) - max(x, fx0)
        if abs((y + h) - ftop) <= 3 and overlap >= 0.8 * min(w, fx1 - fx0):
            return fx0, fx1, ftop
    return None


def _series_from_mask(rgb, m, color, bg, yaxis: Axis, xaxis: Axis, plot,
                      floors: list[tuple[float, float, float]] = ()) -> Series | None:  # type: ignore[assignment]
    """``floors``: (left, right, top) of bars already read; a rectangle standing on one is a
    stacked segment, its value its own height (matplotlib's ``bottom=``, Vega-Lite's stack)."""
    n, lab, stats, _ = find_blobs(m)
    comps = [(i, stats[i]) for i in range(1, n) if stats[i][4] >= 4]
    if not comps:
        return None
    rects = [(i, s) for i, s in comps if _is_rect(s)]
    baseline = _baseline_px(yaxis, plot)
    # the plot's inner margin (3 px off the axis) clips a bar's foot: allow for it
    bars = [(i, s) for i, s in rects if abs((s[1] + s[3]) - baseline) <= 7 or abs(s[1] - baseline) <= 7]
    stacked = [(i, s) for i, s in rects if (i, s) not in bars and _on_floor(s, floors)] if floors else []
    if (bars or stacked) and len(bars) + len(stacked) >= 0.6 * len(comps):
        pts = []
        spans: list[tuple[float, float]] = []
        tops: list[tuple[float, float, float]] = []
        for i, s in sorted(bars + stacked, key=lambda t: t[1][0]):
            x, y, w, h, _ = s
            top, bottom = _bar_extent(rgb, color, bg, x, y, w, h)
            on = _on_floor(s, floors) if floors else None
            if on is not None and not any(j == i for j, _ in bars):
                # its height, from the bar top it stands on
                pts.append((_x_of(xaxis, x + w / 2), yaxis.value(top) - yaxis.value(on[2])))
            else:
                upward = abs(bottom - baseline) <= abs(top - baseline)
                edge = top if upward else bottom
                pts.append((_x_of(xaxis, x + w / 2), yaxis.value(edge)))
            spans.append((float(x), float(x + w)))
            tops.append((float(x), float(x + w), float(y)))
        return Series(color=color, kind="bar", points=pts, bar_spans=spans, floors=tops,
                      stacked=bool(stacked))
    centres: list[tuple[float, float]] = []
    line_pts: list[tuple[float, float]] = []
    marker_areas: list[float] = []
    widths: list[float] = []
    single: list[tuple[tuple[float, float], float]] = []  # components with one marker-sized blob
    shapes: list[str] = []  # each marker's shape (Vega-Lite's names)
    opened_areas: list[float] = []  # the markers found on lines by the opening
    lone_areas: list[float] = []  # the lone markers'
    line_spans: list[tuple[int, int]] = []  # x extents of the components read as lines
    clusters: list[tuple[np.ndarray, int, int]] = []  # line components no marker survived in
    has_line = False
    for i, s in comps:
        x, y, w, h, area = s
        comp = lab[y:y + h, x:x + w] == i
        if area >= 0.55 * w * h and max(w, h) <= 1.7 * min(w, h) and max(w, h) <= 60:
            centres.append((x + w / 2, y + h / 2))  # a lone marker (scatter)
            marker_areas.append(float(area))
            lone_areas.append(float(area))
            shapes.append(_marker_shape(comp))
            continue
        if any(j == i for j, _ in rects):
            continue  # a filled rectangle off the axis is no line (a stacked segment read alone)
        # a line, maybe with markers on it: markers survive an opening wider than the line
        comp = _smoothed(comp)
        lw = _line_width(comp)
        if lw > 12:
            continue  # an area, not a line: opening it with a 2.2·lw disc took seconds
        k, nb, blab, bstats, blobs = _marker_blobs(comp, lw)
        line_spans.append((int(x), int(x + w)))
        if not blobs:
            clusters.append((comp, int(x), int(y)))
        has_line = True
        widths.append(lw)
        if len(blobs) >= 2:
            for j in range(1, nb):
                bx, by, bw, bh, barea = bstats[j]
                if barea < 0.5 * k * k:
                    continue
                centres.append((x + bx - k + bw / 2, y + by - k + bh / 2))
                marker_areas.append(float(barea))
                opened_areas.append(float(barea))
                shapes.append(_marker_shape(blab[by:by + bh, bx:bx + bw] == j))
            continue
        if len(blobs) == 1:
            # one marker with a dash or two attached (a dashed line's markers): a marker if the
            # series has markers of its size elsewhere (decided below; a plain line's one thick
            # bend is not)
            bx, by, bw, bh, barea = blobs[0]
            single.append(((x + bx - k + bw / 2, y + by - k + bh / 2), float(barea)))
        from skimage.morphology import skeletonize

        paths = trace_skeleton(skeletonize(comp))
        if paths:
            longest = max(paths, key=len)
            line_pts += simplify([(x + xx + 0.5, y + yy + 0.5) for yy, xx in longest], 1.0)
    if centres and single:
        # a dashed line with markers: each marker touches its dashes (SGD's squares on '--s'
        # had lost six of eleven points), taken where sized like the series' lone markers
        # (sized as the opening leaves them, where a line's markers were found that way: a lone
        # fragment at the plot's edge had halved the typical size and lost three diamonds)
        typical = float(np.median(opened_areas or marker_areas))
        for c, a in single:
            if 0.5 * typical <= a <= 2.0 * typical:
                centres.append(c)
                marker_areas.append(a)
    if has_line and len(lone_areas) >= 3 and _scattered(line_spans, centres):
        # a scatter whose overlapping markers merged into blobs (read as short 'lines'): its
        # points are those blobs' markers, and it is no line chart (the points had been joined up)
        has_line = False
        typical = float(np.median(lone_areas))
        for comp, x, y in clusters:
            for c in _split_cluster(comp, typical):
                centres.append((x + c[0], y + c[1]))
                marker_areas.append(typical)
    if has_line and len(centres) >= 2:
        centres += _hidden_ends(m, centres)
    pts_px = sorted(centres) if centres else sorted(line_pts)
    if not pts_px:
        return None
    kind = "line" if has_line else "point"
    shape = max(set(shapes), key=shapes.count) if len(shapes) >= 2 and centres else None
    return Series(color=color, kind=kind, points=[(_x_of(xaxis, px), yaxis.value(py)) for px, py in pts_px],
                  marker_areas=marker_areas, line_width=float(np.median(widths)) if widths else None,
                  shape=shape)


def _marker_blobs(comp: np.ndarray, lw: float):
    """The markers on a line: what survives an opening with a disc wider than the line.

    A disc 2.2 line widths across keeps a bend or a crossing from passing for a marker; a
    triangle on a thick line is narrower than that (bmh's 2 pt lines: a 12 px triangle's
    inscribed circle is 7 px, the disc 11), so when it leaves none, narrower discs are tried,
    and taken where they leave three or more blobs of one size (markers repeat; bends differ).
    Returns (disc, label count, labels, stats, blobs)."""
    for i, mult in enumerate((2.2, 1.8, 1.5)):
        k = int(round(mult * lw + 2)) | 1
        padded = np.pad(comp, k).astype(np.uint8)
        opened = cv2.morphologyEx(padded, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
        nb, blab, bstats, _ = find_blobs(opened)
        blobs = [bstats[j] for j in range(1, nb) if bstats[j][4] >= 0.5 * k * k]
        if i == 0:
            first = (k, nb, blab, bstats, blobs)
            if blobs:
                return first
            continue
        areas = [int(b[4]) for b in blobs]
        if len(blobs) >= 3 and max(areas) <= 2 * min(areas):
            return k, nb, blab, bstats, blobs
    return first


def _scattered(line_spans: list[tuple[int, int]], centres: list[tuple[float, float]]) -> bool:
    """The 'lines' of a series cover under 30 % of its x extent: blobs among lone markers."""
    if not line_spans or not centres:
        return False
    lo = min([a for a, _ in line_spans] + [c[0] for c in centres])
    hi = max([b for _, b in line_spans] + [c[0] for c in centres])
    covered = np.zeros(int(hi - lo) + 2, bool)
    for a, b in line_spans:
        covered[int(a - lo):int(b - lo) + 1] = True
    return hi - lo > 0 and covered.sum() < 0.3 * (hi - lo)


def _split_cluster(comp: np.ndarray, typical: float) -> list[tuple[float, float]]:
    """The centres of the markers merged in one blob: as many as its area holds (at most four),
    spread along its long axis."""
    ys, xs = np.nonzero(comp)
    n = int(np.clip(round(xs.size / max(typical, 1.0)), 1, 4))
    pts = np.stack([xs + 0.5, ys + 0.5], axis=1).astype(np.float64)
    mean = pts.mean(axis=0)
    if n == 1:
        return [(float(mean[0]), float(mean[1]))]
    _, vecs = np.linalg.eigh(np.cov((pts - mean).T))
    t = (pts - mean) @ vecs[:, -1]
    edges = np.quantile(t, np.linspace(0, 1, n + 1))
    out = []
    for a, b in zip(edges[:-1], edges[1:]):
        part = pts[(t >= a) & (t <= b)]
        if len(part):
            out.append((float(part[:, 0].mean()), float(part[:, 1].mean())))
    return out


def _hidden_ends(m: np.ndarray, centres: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """A line with markers that runs on past its first or last marker ends at a point whose
    marker another series' covers (two curves from one start: the quadratic's (0, 0) and
    (1, 1) lay under the linear's diamonds, and the re-drawn line stopped a step short).
    Its far end, where it runs on by half a marker step or more, is that point."""
    from skimage.morphology import skeletonize

    xs = sorted(c[0] for c in centres)
    step = float(np.median(np.diff(xs))) if len(xs) >= 2 else 0.0
    if step <= 0:
        return []
    sk = skeletonize(m)
    ys, xs_ = np.nonzero(sk)
    if xs_.size == 0:
        return []
    out = []
    left, right = min(xs), max(xs)
    for pick, beyond in ((int(np.argmin(xs_)), lambda x: x < left - 0.5 * step),
                         (int(np.argmax(xs_)), lambda x: x > right + 0.5 * step)):
        x, y = float(xs_[pick]) + 0.5, float(ys[pick]) + 0.5
        if beyond(x):
            # markers stand on a grid of x: an end within a quarter step of it is on it
            ref = left if x < left else right
            k = round((x - ref) / step)
            if k and abs(x - (ref + k * step)) <= 0.25 * step:
                x = ref + k * step
            out.append((x, y))
    return out


def _marker_shape(m: np.ndarray) -> str:
    """circle, square, diamond, triangle-up or triangle-down, from a marker's pixels: how much of
    its box it fills, and where it is widest (a triangle at its base, a diamond midway)."""
    h, w = m.shape
    if h < 4 or w < 4:
        return "circle"
    fill = float(m.sum()) / (h * w)
    if fill >= 0.9:
        return "square"
    rows = m.sum(axis=1).astype(float)
    widest = np.flatnonzero(rows >= 0.9 * rows.max())
    at = float(widest.mean()) / max(1, h - 1)
    # a triangle is widest at its base, and heavier there than at its apex even where the
    # line's opening has rounded it (a 9x11 '^': rows 2 6 8 | 9 11 11 | 11 9 5)
    third = max(1, h // 3)
    top_w, bottom_w = float(rows[:third].sum()), float(rows[-third:].sum())
    if at >= 0.68 or bottom_w >= 1.35 * max(top_w, 1.0):
        return "triangle-up"
    if at <= 0.32 or top_w >= 1.35 * max(bottom_w, 1.0):
        return "triangle-down"
    if fill >= 0.7:
        return "circle"
    quarter = rows[int(round(0.25 * (h - 1)))] / max(rows.max(), 1.0)
    return "diamond" if 0.3 <= quarter <= 0.75 else "circle"


def _smoothed(m: np.ndarray) -> np.ndarray:
    """A line's mask without its ragged edge, where it is 3 px wide or more.

    A JPEG's line has ragged edges, a pixel in and a pixel out, and every notch roots a spur of
    the skeleton (fivethirtyeight's 8 px red line: 2,049 skeleton pixels, its width read as
    2.3 px) and bites into the markers an opening looks for (four of nine squares lost). A 3×3
    median smooths the edge; where it keeps 90 % of the mask the line is wide enough for it
    (584 skeleton pixels, 7.9 px), else the mask is kept as it is (a thin line would vanish)."""
    smooth = cv2.medianBlur(m.astype(np.uint8), 3).astype(bool)
    return smooth if smooth.sum() >= 0.9 * m.sum() else m


def _line_width(m: np.ndarray) -> float:
    """Stroke width of a (mostly) line-shaped mask: twice the median distance to its edge on the skeleton."""
    from skimage.morphology import skeletonize

    sk = skeletonize(m)
    if not sk.any():
        return 1.0
    dist = cv2.distanceTransform(np.pad(m, 1).astype(np.uint8), cv2.DIST_L2, 5)[1:-1, 1:-1]
    return float(max(1.0, 2.0 * np.median(dist[sk]) - 0.5))


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


def _baseline_px(yaxis: Axis, plot) -> float:
    x0, y0, x1, y1 = plot
    if not yaxis.log:
        p = yaxis.pixel(0.0)
        if y0 - 2 <= p <= y1 + 2:
            return p
    return y1


def _x_of(xaxis: Axis, px: float) -> Any:
    if xaxis.categories:
        return min(xaxis.categories, key=lambda c: abs(c[0] - px))[1]
    return xaxis.value(px)


# -- the spec -------------------------------------------------------------------------------------

def _round(v: float, span: float) -> float:
    """Keep ~4 significant digits of the axis range: enough for 0.1% of it."""
    if span <= 0 or not math.isfinite(v):
        return v
    digits = max(0, 4 - int(math.floor(math.log10(span))))
    return round(v, digits)


def _spec(series: list[Series], xaxis: Axis, yaxis: Axis, plot, title, x_title, y_title,
          error_color: str | None = None, value_labels: "ValueLabels | None" = None) -> dict[str, Any]:
    x0, y0, x1, y1 = plot
    ylo, yhi = sorted((yaxis.value(y1), yaxis.value(y0)))
    yspan = (math.log10(yhi) - math.log10(ylo)) if yaxis.log and ylo > 0 else (yhi - ylo)
    kind = series[0].kind
    multi = len(series) > 1
    rows = []
    for i, s in enumerate(series):
        name = s.name or (f"series {i + 1}" if multi else None)
        for k, (x, y) in enumerate(s.points):
            yv = round(y, 4) if yaxis.log else _round(y, yspan)
            row: dict[str, Any] = {"x": x if xaxis.categories else _round(x, abs(xaxis.b) * (x1 - x0)), "y": yv}
            if multi:
                row["series"] = name
            bnd = s.band[k] if k < len(s.band) else None
            if bnd is not None:
                row["lo"], row["hi"] = _round(bnd[0], yspan), _round(bnd[1], yspan)
            err = s.errors[k] if k < len(s.errors) else None
            if err is not None:
                down, up = err
                if abs(down - up) <= max(0.15 * max(down, up), 2.0 * abs(yaxis.b)):  # 2 px: one each end
                    row["y_err"] = _round((down + up) / 2, yspan)
                else:  # asymmetric: Vega-Lite's yError is the upper, yError2 the (negative) lower
                    row["y_err"], row["y_err2"] = _round(up, yspan), -_round(down, yspan)
            rows.append(row)
    xenc: dict[str, Any] = {"field": "x", "type": "nominal" if xaxis.categories else "quantitative"}
    if xaxis.categories:
        xenc["sort"] = None
    else:
        xlo, xhi = sorted((xaxis.value(x0), xaxis.value(x1)))
        xenc["scale"] = {"domain": [_round(xlo, xhi - xlo), _round(xhi, xhi - xlo)], "nice": False, "zero": False}
        if xaxis.log:
            xenc["scale"]["type"] = "log"
    xenc["title"] = x_title or None  # no title drawn: none re-drawn (Vega-Lite would show the field name)
    yscale: dict[str, Any] = {"domain": [_round(ylo, yspan) if not yaxis.log else ylo,
                                         _round(yhi, yspan) if not yaxis.log else yhi], "nice": False}
    if yaxis.log:
        yscale["type"] = "log"
    else:
        yscale["zero"] = False
    yenc: dict[str, Any] = {"field": "y", "type": "quantitative", "scale": yscale}
    yenc["title"] = y_title or None
    enc: dict[str, Any] = {"x": xenc, "y": yenc}
    if multi:
        names = []
        for i, s in enumerate(series):
            names.append(s.name or f"series {i + 1}")
        enc["color"] = {"field": "series", "type": "nominal", "title": series[0].legend_title,
                        "scale": {"domain": names, "range": [to_hex(s.color) for s in series]}}
        if kind == "bar" and any(s.stacked for s in series):
            yenc["stack"] = "zero"  # one on another, in the legend's order from the axis out
        elif kind == "bar":
            # side by side in the order drawn, left to right (Vega-Lite would sort the names:
            # 'baseline' had moved left of 'ours')
            lefts = [min((a for a, _ in s.bar_spans), default=math.inf) for s in series]
            enc["xOffset"] = {"field": "series", "sort": [n for _, n in sorted(zip(lefts, names), key=lambda t: t[0])]}
    shapes = [s.shape or "circle" for s in series]
    if kind in ("line", "point") and any(sh != "circle" for sh in shapes):
        if multi:
            enc["shape"] = {"field": "series", "type": "nominal", "title": series[0].legend_title,
                            "scale": {"domain": [s.name or f"series {i + 1}" for i, s in enumerate(series)],
                                      "range": shapes}}
    mark: dict[str, Any]
    if kind == "bar":
        mark = {"type": "bar"}
    elif kind == "line":
        # points on the line where it was drawn with markers (a plain line had gained dots)
        mark = {"type": "line", "point": any(s.marker_areas for s in series)}
    else:
        mark = {"type": "point", "filled": True}
        if not multi and shapes[0] != "circle":
            mark["shape"] = shapes[0]
    if not multi:
        mark["color"] = to_hex(series[0].color)
    spec: dict[str, Any] = {"data": {"values": rows}, "mark": mark, "encoding": enc}
    with_err = sum("y_err" in r for r in rows)
    if with_err and with_err < 0.75 * len(rows):
        for r in rows:  # a stray stroke on a bar or two: not error bars
            r.pop("y_err", None)
            r.pop("y_err2", None)
    elif with_err:
        for r in rows:  # too small to see (under 3 px): none drawn is what was seen
            r.setdefault("y_err", 0.0)
            if any("y_err2" in q for q in rows):
                r.setdefault("y_err2", -r["y_err"])
    layers: list[dict[str, Any]] = [{"mark": mark}]
    if any("lo" in r for r in rows):
        # shaded bands behind the lines (fill_between): the band's edges at each point
        for r in rows:
            if "lo" not in r:
                r["lo"] = r["hi"] = r["y"]
        layers.insert(0, {"mark": {"type": "errorband"}, "encoding": {"y": {"field": "lo", "type": "quantitative"},
                                                                       "y2": {"field": "hi"}}})
    if any("y_err" in r for r in rows):
        # the bars, and their error bars over them (sharing the encoding: x, offset, y)
        err_enc: dict[str, Any] = {"yError": {"field": "y_err"}}
        if any("y_err2" in r for r in rows):
            err_enc["yError2"] = {"field": "y_err2"}
        if error_color:
            err_enc["color"] = {"value": error_color}
        layers.append({"mark": {"type": "errorbar", "ticks": True}, "encoding": err_enc})
    if value_labels is not None:
        # each bar's value written above it, from the data (the style sets its offset and size)
        text_mark: dict[str, Any] = {"type": "text", "baseline": "middle"}
        if value_labels.color:
            text_mark["color"] = value_labels.color
        layers.append({"mark": text_mark,
                       "encoding": {"text": {"field": "y", "type": "quantitative",
                                             "format": f".{value_labels.decimals}f"}}})
    if len(layers) > 1:
        spec = {"data": {"values": rows}, "encoding": enc, "layer": layers}
    if title:
        spec["title"] = title
    return spec
