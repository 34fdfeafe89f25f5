"""How a chart was drawn (type sizes, axis and frame strokes, gridlines, tick marks, mark sizes,
legend place), measured from its pixels and written back as Vega-Lite ``config`` and mark/axis
properties, so Crafter re-renders the recovered chart looking like the original.

Measures are taken in image pixels and turned into the figure's px (×``scale``) when the spec
is written. Each one is optional: what cannot be measured keeps Crafter's chart theme.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from crafteditor.charts.numbers import parse_number
from crafteditor.config import THEME
from crafteditor.paint import Paints, blend_position, distances, luma, to_hex
from crafter.base.text import ASCENT, DESCENT
from crafter.charts.render.text_measure import text_width
from crafter.charts.theme import chart_theme

# a line's point markers narrower than this many line widths are specks of it, not drawn (see _apply_marks):
# weighed on the paint's own pixels, the marker's core area against the line's skeleton width
# (crafteditor.charts.lines.line_width), as measured before the drawn sizes took in the anti-aliased edges
SPECK_WIDTHS = 1.8


def specks(core_area: float, core_width: float) -> bool:
    """Whether a line's point 'markers' of ``core_area`` px² (their paint's pixels) on a line ``core_width`` px
    wide (its skeleton's) are specks of the line: a dot at every vertex (SciencePlots' curves: 155 invisible
    circles; its grid style's 0.74 px curves, 362 dots 1.2 px wide). Drawn dot markers are wider (d2l's
    hyperband: 2.2 line widths). The drawn sizes (anti-aliased edges in) decide nothing here: a vertex speck
    measured larger by its edge had come back as a marker on every point of a Vega line chart drawn with none."""
    return 2 * (core_area / np.pi) ** 0.5 < SPECK_WIDTHS * core_width

@dataclass
class ChartStyle:
    """The original chart's look, in image pixels."""

    tick_font: float | None = None  # tick label font size
    axis_title_font: float | None = None
    title_font: float | None = None
    title_bold: bool | None = None
    legend_font: float | None = None
    axis_color: str | None = None
    axis_width: float | None = None
    tick_size: float | None = None  # from the axis line's centre outwards
    tick_pad: float | None = None  # tick end to label ink
    grid: bool | None = None
    grid_color: str | None = None
    grid_width: float | None = None
    grid_dash: tuple[float, float] | None = None  # dashed gridlines: dash, gap (px)
    grid_above: bool = False  # drawn over the bars (matplotlib's default)
    grid_opacity: float | None = None
    frame: bool = False  # a box around the plot (matplotlib's four spines)
    y_values: list[float] | None = None  # tick values the labels show
    x_values: list[float] | None = None
    y_format: str | None = None  # the labels' number format where the default would rewrite them ('50,000' not '50k')
    x_format: str | None = None
    legend_text: tuple[float, float] | None = None  # first legend label: ink left, centre y (inside the plot)
    legend_above: bool = False  # the legend's entries in rows above the plot
    legend_below: bool = False  # the legend's entries in a row below the plot's axis (MultiQC's)
    marker_area: float | None = None  # px² of a point marker
    line_width: float | None = None
    specks: bool = False  # a line's point markers are specks of it, not drawn (:func:`specks`)
    bar_spans: list[tuple[float, float]] | None = None  # one series of bars on categories: left, right
    band_axis: str = "x"  # the categories' axis ('y': horizontal bars, spans top, bottom)
    offset_padding: float | None = None  # grouped bars: the gap between a group's bars, per bar step
    value_labels: tuple[float, float] | None = None  # labels over the bars: (dy from the top to their centre, font) px
    title_offset: float | None = None  # title's baseline + descent to the plot top
    title_pads: dict[str, float] | None = None  # per axis ("x", "y"): tick labels to the axis title
    label_color: str | None = None  # tick labels' colour, where not black (ggplot's grey)
    axis_title_color: str | None = None
    view_fill: str | None = None  # the plot's tinted panel (ggplot, seaborn's darkgrid, bmh)
    domain: bool | None = None  # False: no axis lines (the panel's edge is the axis)
    ticks: bool | None = None  # False: no tick marks (seaborn's darkgrid)
    other_grid: bool | None = None  # gridlines across the other axis than the values' (categories, a numeric x)
    bar_stroke: tuple[str, float] | None = None  # the bars' edge: colour, width px
    bar_size: float | None = None  # bars on a numeric x (a histogram's bins): their width px
    legend_swatch: tuple[float, ...] | None = None  # the legend's swatches: width, height, gap to the label px

    def apply(self, spec: dict[str, Any], plot: tuple[float, float, float, float], scale: float) -> None:
        """Write the style into ``spec`` (a Vega-Lite spec from crafteditor.charts.vegalite)."""
        s = scale
        config = self._config(s)
        if config:
            spec["config"] = config
        enc = spec.get("encoding", {})
        self._apply_axes(enc, s)
        self._apply_marks(spec, s)
        self._apply_bands(enc, plot)
        self._apply_value_labels(spec, s)
        self._apply_legend(spec, enc, plot, s)

    def _config(self, s: float) -> dict[str, Any]:
        """The spec's ``config``: the axes' type, strokes, ticks and grid; the title's and the
        legend's type; the plot's frame and fill."""
        axis: dict[str, Any] = {}
        if self.tick_font:
            axis["labelFontSize"] = _r(self.tick_font * s)
        if self.axis_title_font:
            axis["titleFontSize"] = _r(self.axis_title_font * s)
        if self.tick_size is not None:
            axis["tickSize"] = _r(self.tick_size * s)
        if self.tick_pad is not None:
            axis["labelPadding"] = _r(self.tick_pad * s)
        if self.axis_color:
            axis["domainColor"] = axis["tickColor"] = self.axis_color
        if self.axis_width:
            axis["domainWidth"] = axis["tickWidth"] = _r(self.axis_width * s)
        if self.grid is not None:
            axis["grid"] = self.grid
        if (self.grid or self.other_grid) and self.grid_color:
            axis["gridColor"] = self.grid_color
        if (self.grid or self.other_grid) and self.grid_width:
            axis["gridWidth"] = _r(self.grid_width * s)
        if (self.grid or self.other_grid) and self.grid_dash:
            axis["gridDash"] = [_r(v * s) for v in self.grid_dash]
        if self.grid and self.grid_above:
            axis["zindex"] = 1
        if self.grid and self.grid_opacity is not None and self.grid_opacity < 0.95:
            axis["gridOpacity"] = _r(self.grid_opacity)
        if self.label_color:
            axis["labelColor"] = self.label_color
        if self.axis_title_color:
            axis["titleColor"] = self.axis_title_color
        if self.domain is False:
            axis["domain"] = False
        if self.ticks is False:
            axis["ticks"] = False
        config: dict[str, Any] = {}
        if axis:
            config["axis"] = axis
        if self.title_font or self.title_bold is not None:
            config["title"] = {}
            if self.title_font:
                config["title"]["fontSize"] = _r(self.title_font * s)
            if self.title_bold is not None:
                config["title"]["fontWeight"] = "bold" if self.title_bold else "normal"
        if self.title_offset is not None:
            config.setdefault("title", {})["offset"] = _r(self.title_offset * s)
        if self.legend_font:
            config["legend"] = {"labelFontSize": _r(self.legend_font * s)}
        if self.frame:
            config["view"] = {"stroke": self.axis_color or "#000000", "strokeWidth": _r((self.axis_width or 1.0) * s)}
        if self.view_fill:
            config.setdefault("view", {})["fill"] = self.view_fill
        return config

    def _apply_axes(self, enc: dict[str, Any], s: float) -> None:
        """Per axis: the title's padding, the tick values the labels showed (the domain's ends
        snapped to them), gridlines across the other axis."""
        for name, pad in (self.title_pads or {}).items():
            ch = enc.get(name)
            if isinstance(ch, dict) and ch.get("title"):
                ch["axis"] = {**(ch.get("axis") or {}), "titlePadding": _r(pad * s)}
        for name, values in (("y", self.y_values), ("x", self.x_values)):
            ch = enc.get(name)
            if not values or not isinstance(ch, dict) or (ch.get("scale") or {}).get("type") == "log":
                continue
            dom = (ch.get("scale") or {}).get("domain")
            if isinstance(dom, list) and len(dom) == 2:
                values = _complete_ticks(values, (float(min(dom)), float(max(dom))))
            ch["axis"] = {**(ch.get("axis") or {}), "values": values}
            fmt = self.y_format if name == "y" else self.x_format
            if fmt:
                ch["axis"]["format"] = fmt
            if isinstance(dom, list) and len(dom) == 2:
                # an end a hair off a labelled tick (the axis fit's error) is that tick: it is drawn
                span = abs(dom[1] - dom[0]) or 1.0
                ch["scale"]["domain"] = [min(values, key=lambda v: abs(v - d)) if min(abs(v - d) for v in values)
                                         <= 0.01 * span else d for d in dom]
        other = enc.get("y" if self.band_axis == "y" else "x")
        if self.other_grid is not None and isinstance(other, dict):
            other["axis"] = {**(other.get("axis") or {}), "grid": self.other_grid}

    def _apply_marks(self, spec: dict[str, Any], s: float) -> None:
        """The marks' look: the bars' edge, point markers' size, line width."""
        if self.bar_stroke is not None:
            for m in [spec.get("mark")] + [layer.get("mark") for layer in spec.get("layer") or []]:
                if isinstance(m, dict) and m.get("type") == "bar":
                    m["stroke"], m["strokeWidth"] = self.bar_stroke[0], _r(self.bar_stroke[1] * s)
        # a layered spec's marks too (a scatter's points and the curve fitted through them)
        for mark in [spec.get("mark")] + [layer.get("mark") for layer in spec.get("layer") or []]:
            if not isinstance(mark, dict):
                continue
            if mark.get("type") == "bar" and self.bar_size:
                mark["size"] = _r(self.bar_size * s)
            if mark.get("type") == "point" and self.marker_area:
                mark["size"] = _r(self.marker_area * s * s)
                mark["opacity"] = 1  # the recovered colour is the drawn one already
            if mark.get("type") == "line":
                if self.line_width:
                    mark["strokeWidth"] = _r(self.line_width * s)
                if self.marker_area and mark.get("point"):
                    mark["point"] = False if self.specks else {"size": _r(self.marker_area * s * s)}

    def _apply_bands(self, enc: dict[str, Any], plot: tuple[float, float, float, float]) -> None:
        """The bars' widths and gaps as the band scale's paddings, grouped bars' as the offset's."""
        band = enc.get(self.band_axis)
        if self.bar_spans and isinstance(band, dict):
            # the band scale's paddings from the drawn bars (Vega: step = width / (n - inner + 2·outer))
            n = len(self.bar_spans)
            centres = [(a + b) / 2 for a, b in self.bar_spans]
            step = (centres[-1] - centres[0]) / (n - 1)
            bar_w = float(np.median([b - a for a, b in self.bar_spans]))
            extent = (plot[2] - plot[0]) if self.band_axis == "x" else (plot[3] - plot[1])
            if step > 0 and 0 < bar_w < step:
                inner = 1 - bar_w / step
                outer = (extent / step - n + inner) / 2
                if 0 <= outer <= 2:
                    band["scale"] = {**(band.get("scale") or {}), "paddingInner": _r4(inner),
                                     "paddingOuter": _r4(outer)}
        offset = enc.get("xOffset" if self.band_axis == "x" else "yOffset")
        if self.offset_padding is not None and isinstance(offset, dict):
            offset["scale"] = {**(offset.get("scale") or {}), "paddingInner": _r4(self.offset_padding)}

    def _apply_value_labels(self, spec: dict[str, Any], s: float) -> None:
        """The value labels' type size and offset from the bars' ends."""
        if self.value_labels is not None:
            dy, fpx = self.value_labels
            for layer in spec.get("layer") or []:
                m = layer.get("mark")
                if isinstance(m, dict) and m.get("type") == "text":
                    m["fontSize"] = _r(fpx * s)
                    if self.band_axis == "y":  # horizontal bars: the labels sit right of the bars' ends
                        m["dx"] = _r(-dy * s)
                    else:
                        m["dy"] = _r(dy * s)  # baseline 'middle': from the bar's top to the text's centre

    def _apply_legend(self, spec: dict[str, Any], enc: dict[str, Any], plot: tuple[float, float, float, float],
                      s: float) -> None:
        """The legend's swatches, and its place where it was inside the plot."""
        color = enc.get("color")
        swatch = self._legend_swatch(spec, s) if isinstance(color, dict) else None
        if swatch is not None:
            spec.setdefault("config", {}).setdefault("legend", {}).update(swatch[0])
        if self.legend_above and isinstance(color, dict):
            color["legend"] = {**(color.get("legend") or {}), "orient": "top"}
        if self.legend_below and isinstance(color, dict):
            color["legend"] = {**(color.get("legend") or {}), "orient": "bottom"}
        elif self.legend_text is not None and isinstance(color, dict):
            ct = _drawn_theme()
            fs = (self.legend_font or ct.legend_font_size / s) * s
            sym, sym_h, gap = swatch[1] if swatch is not None else (ct.legend_symbol, ct.legend_symbol, ct.legend_gap)
            row = max(fs * 1.25, sym_h) + ct.legend_row_gap
            tx, ty = self.legend_text
            color["legend"] = {**(color.get("legend") or {}), "orient": "none",
                               "legendX": _r(tx * s - plot[0] * s - sym - gap),
                               "legendY": _r(ty * s - plot[1] * s - (row / 2 - ct.legend_row_gap / 2))}

    def _legend_swatch(self, spec: dict[str, Any],
                       s: float) -> tuple[dict[str, Any], tuple[float, float, float]] | None:
        """config.legend for swatches drawn as the original's, and their width and height in the
        spec's units: a bar chart's wide rectangles (matplotlib's 2 × 0.7 em handles, Vega's
        square by default) as a path symbol of their aspect; a line chart's stroke its length."""
        if self.legend_swatch is None:
            return None
        w, h, gap = self.legend_swatch
        mark = spec.get("mark") or ((spec.get("layer") or [{}])[0].get("mark") or {})
        kind = mark.get("type") if isinstance(mark, dict) else mark
        if kind == "bar" and w >= 1.25 * h:
            a = round(h / w, 3)
            return ({"symbolType": f"M-1,{-a}H1V{a}H-1Z", "symbolSize": _r((w * s) ** 2), "labelOffset": _r(gap * s)},
                    (w * s, h * s, gap * s))
        if kind == "line" and w >= 1.5 * h:
            return {"symbolSize": _r((w * s) ** 2), "labelOffset": _r(gap * s)}, (w * s, _drawn_theme().legend_symbol,
                                                                                   gap * s)
        return None


def _drawn_theme():
    """The chart theme the recovered chart is drawn in (Crafter's, for CraftEditor's figure theme).
    Imported here: crafteditor.assemble imports this package."""
    return chart_theme(THEME)


def _complete_ticks(values: list[float], domain: tuple[float, float]) -> list[float]:
    """Tick values read off the labels, with the labels OCR missed put back: matplotlib labels
    every step of an even progression across the axis, so a step absent inside it, or one more
    at an end within the axis range, is a tick whose label was not read (a lone '0' read at
    0.849 confidence, under the 0.85 a lone glyph needs)."""
    if len(values) < 3:
        return values
    steps = np.diff(values)
    step = float(steps.min())
    if step <= 0 or not np.allclose(steps / step, np.round(steps / step), atol=0.02) or (steps / step).max() > 3:
        return values
    lo, hi = domain
    tol = 0.005 * (hi - lo)
    first, last = values[0], values[-1]
    while first - step >= lo - tol:
        first -= step
    while last + step <= hi + tol:
        last += step
    n = int(round((last - first) / step))
    digits = max(0, -int(math.floor(math.log10(step))) + 2)
    return [round(first + i * step, digits) + 0.0 for i in range(n + 1)]


def _r(v: float) -> float:
    return round(float(v), 2)


def _r4(v: float) -> float:
    return round(float(v), 4)


def measure_style(rgb: np.ndarray, paints: Paints, runs: list[Any], ticks: dict[str, list[int]],
                  titles: dict[str, int | None], legend_runs: list[int], plot: tuple[float, float, float, float],
                  log_y: bool, numeric_x: bool) -> ChartStyle:
    """Measure the look of the chart whose plot area is ``plot`` (x0 = y axis, y1 = x axis)."""
    ax, top, right, ay = plot
    st = ChartStyle()
    tick_runs = [runs[k] for k in ticks["y"] + ticks["x"]]
    if tick_runs:
        st.tick_font = float(np.median([r.font_px for r in tick_runs]))
        st.label_color = _text_color(tick_runs)
    axis_titles = [runs[k] for k in (titles.get("x"), titles.get("y")) if k is not None]
    if axis_titles:
        st.axis_title_font = float(np.median([r.font_px for r in axis_titles]))
        st.axis_title_color = _text_color(axis_titles)
    if titles.get("title") is not None:
        t = runs[titles["title"]]
        st.title_font, st.title_bold = float(t.font_px), bool(t.bold)
    if legend_runs:
        lr = [runs[k] for k in legend_runs]
        st.legend_font = float(np.median([r.font_px for r in lr]))
        first = min(lr, key=lambda r: r.y)
        if all(r.bottom <= top for r in lr):  # in rows above the plot (W&B's): drawn so
            st.legend_above = True
        elif all(r.y >= ay for r in lr):  # in a row below the axis (MultiQC's): drawn so
            st.legend_below = True
        elif ax < first.x < right:  # inside the plot: pinned where it was
            st.legend_text = (min(r.x for r in lr), first.cy)
    if not log_y:
        vals = sorted({v for v in (parse_number(runs[k].text) for k in ticks["y"]) if v is not None})
        st.y_values = vals if len(vals) >= 2 else None
        st.y_format = tick_format([runs[k].text for k in ticks["y"]])
    if numeric_x:
        vals = sorted({v for v in (parse_number(runs[k].text) for k in ticks["x"]) if v is not None})
        st.x_values = vals if len(vals) >= 2 else None
        st.x_format = tick_format([runs[k].text for k in ticks["x"]])
    _measure_axis(rgb, paints, runs, ticks["y"], plot, st)
    _measure_title_places(runs, ticks, titles, plot, st)
    return st


def _text_color(runs: list[Any]) -> str | None:
    """The runs' usual colour, where it is not (near) black, which the chart theme draws anyway."""
    cols = np.array([r.color for r in runs if getattr(r, "color", None) is not None], np.float32)
    if cols.size == 0:
        return None
    c = np.median(cols, axis=0)
    return None if float(c.max()) < 50 else to_hex(c)


def _measure_title_places(runs, ticks: dict[str, list[int]], titles: dict[str, int | None], plot,
                          st: ChartStyle) -> None:
    """Where the chart title and the axis titles sit, in the terms Crafter's chart layout places
    them by (crafter/charts/render.py): the title's em box ``offset`` above the plot, an axis
    title's em box ``titlePadding`` past its tick labels' em boxes."""
    ax, top = plot[0], plot[1]
    if titles.get("title") is not None:
        t = runs[titles["title"]]
        st.title_offset = max(0.0, top - (t.baseline + t.font_px * DESCENT))
    fs, ft = st.tick_font, st.axis_title_font
    if not fs or not ft:
        return
    pads: dict[str, float] = {}
    k = titles.get("x")
    if k is not None and ticks["x"] and runs[k].angle == 0:
        tick_base = float(np.median([runs[i].baseline for i in ticks["x"] if runs[i].angle == 0] or [np.nan]))
        if math.isfinite(tick_base):
            pads["x"] = max(0.0, (runs[k].baseline - ft * ASCENT) - (tick_base + fs * DESCENT))
    k = titles.get("y")
    if k is not None and ticks["y"] and runs[k].angle == -90 and st.tick_size is not None and st.tick_pad is not None:
        # the renderer right-aligns the labels at the tick end + padding, the widest one sets the title's place
        labels_left = ax - st.tick_size - st.tick_pad - max(text_width(runs[i].text, fs) for i in ticks["y"])
        pads["y"] = max(0.0, labels_left - runs[k].baseline - ft * DESCENT)
    st.title_pads = pads or None


def _measure_axis(rgb, paints: Paints, runs, y_ticks: list[int], plot, st: ChartStyle) -> None:
    """Stroke colour and width of the y axis line, its ticks, gridlines and frame."""
    H, W = rgb.shape[:2]
    ax, top, right, ay = plot
    xa, y0, y1 = int(round(ax)), int(top) + 3, int(ay) - 3
    if y1 - y0 < 10 or not 3 <= xa < W - 3:
        return
    lum = luma(rgb)
    bg = float(luma(paints.background_rgb, np.float64))
    win = lum[y0:y1, xa - 3:xa + 4]  # rows × 7 columns around the axis line
    darkest = win.min(axis=1)
    core = float(np.median(darkest))
    if bg - core < 40:
        return
    cols = win.argmin(axis=1)
    picks = np.median(rgb[y0:y1, xa - 3:xa + 4][np.arange(y1 - y0), cols].astype(np.float32), axis=0)
    # A thin stroke may cover no pixel fully, so its darkest pixel is lighter than its paint. Where
    # the two axes cross, the paint is laid twice: a pixel covered c lets (1 - c)² of the background
    # through, so darker by (2 - c) times, from which c, and the paint, follow (an opaque grey
    # stroke, c = 1, is no darker there).
    coverage = 1.0
    ya = int(round(ay))
    if 2 <= ya < H - 2:
        crossing = float(lum[ya - 2:ya + 2, xa - 2:xa + 2].min())
        coverage = float(np.clip(2.0 - (bg - crossing) / (bg - core), 0.3, 1.0))
    contrast = min(bg, (bg - core) / coverage)
    dark = np.clip((bg - win) / contrast, 0.0, 1.0)
    st.axis_width = float(np.median(dark.sum(axis=1)))
    bg_rgb = paints.background_rgb.astype(np.float32)
    paint = np.clip(bg_rgb - (bg_rgb - picks) / coverage, 0, 255)
    st.axis_color = to_hex(tuple(int(round(v)) for v in paint))
    core = bg - contrast
    darkness = np.clip((bg - lum) / (bg - core), 0.0, 1.0)
    # ticks: the dark run left of the axis at each labelled row
    lengths, pads = [], []
    for k in y_ticks:
        r = runs[k]
        row = int(round(r.cy))
        if not 0 <= row < H:
            continue
        x = xa - int(math.ceil(st.axis_width / 2))
        while x > 0 and darkness[row, x - 1] > 0.3:
            x -= 1
        length = ax - x
        if length > st.axis_width / 2 + 1:
            lengths.append(length)
            pads.append(x - r.right)
    if lengths:
        st.tick_size = float(np.median(lengths))
        st.tick_pad = float(max(0.0, np.median(pads)))
    else:
        st.tick_size = 0.0
        st.tick_pad = float(max(0.0, np.median([ax - runs[k].right for k in y_ticks]))) if y_ticks else None
    # gridlines: a thin stroke across the plot at the labelled rows, over background above and below
    ink = paints.labels != paints.background
    xs = slice(int(ax) + 4, int(right) - 3)
    hits, colors, cover = [], [], []
    for k in y_ticks:
        row = int(round(runs[k].cy))
        if not 4 <= row < H - 4 or not top + 3 < row < ay - 3:
            continue
        clear = ~ink[row - 4, xs] & ~ink[row + 4, xs]
        if clear.sum() < 10:
            continue
        line = ink[row - 1:row + 2, xs].any(axis=0) & clear
        hits.append(line.sum() / clear.sum())
        if line.any():
            # the gridline's colour: each column's darkest pixel of the band, the median over
            # columns (a series line crossing the row diagonally is a few columns of its own
            # colour: the darkest pixel of the whole band had made a grey grid olive)
            band = rgb[row - 1:row + 2, xs][:, line]
            darkest = np.argmin(lum[row - 1:row + 2, xs][:, line], axis=0)
            colors.append(np.median(band[darkest, np.arange(band.shape[1])], axis=0))
            # its width: the column's blends summed against its darkest pixel (a 0.8 pt line at
            # 150 dpi is 1.7 px, drawn in Crafter's 0.6 px default it had all but vanished)
            col_l = lum[row - 2:row + 3, xs][:, line]
            core_l = col_l.min(axis=0)
            depth = np.maximum(bg - core_l, 1.0)
            cover.append(float(np.median(np.clip((bg - col_l) / depth, 0.0, 1.0).sum(axis=0))))
    if hits:
        st.grid = bool(np.median(hits) > 0.6)
        if st.grid and colors:
            st.grid_color = to_hex(tuple(int(v) for v in np.median(np.array(colors), axis=0)))
            st.grid_width = float(np.median(cover)) if cover else None
    # frame: strokes as dark as the axis along the plot's top and right edges
    yt, xr = int(round(top)), int(round(right))
    if 2 <= yt < H - 2 and 2 <= xr < W - 2:
        top_edge = darkness[yt - 2:yt + 3, int(ax) + 5:int(right) - 5].max(axis=0)
        right_edge = darkness[int(top) + 5:int(ay) - 5, xr - 3:xr + 2].max(axis=1)
        st.frame = bool(top_edge.size and right_edge.size and np.mean(top_edge > 0.5) > 0.9
                        and np.mean(right_edge > 0.5) > 0.9)


def tick_format(texts: list[str]) -> str | None:
    """The d3 format of whole-number tick labels of 1000 or more, as written: ',d' with a
    thousands comma ('50,000'), 'd' without ('2000'); of labels with a fixed number of decimals
    that the chart's own format would cut ('1.0 2.0 ... 10.0', written '1 2 ... 10'), '.1f'; of whole
    numbers written bare among labels with decimals ('1 1.5 2'), the decimals trimmed, '.1~f';
    None for any other (the chart's own format writes those, and would write these '50k')."""
    # any minus as written: U+2212 (matplotlib's), U+2013 (an en dash set for one, or OCR's reading of it)
    t = [x.strip().replace("−", "-").replace("–", "-") for x in texts if parse_number(x) is not None]
    places = {_places(x) for x in t}
    grouped = any(re.fullmatch(r"-?\d{1,3}(,\d{3})+(\.\d+)?", x) for x in t)
    if len(t) >= 2 and len(places) == 1 and min(places) > 0 and any(x.endswith("0") for x in t):
        return f"{',' if grouped else ''}.{min(places)}f"
    if len(places) >= 2 and min(places) == 0 and (sum(_places(x) == 0 for x in t) >= 2 or _even_steps(t)) \
            and sum(_places(x) > 0 for x in t) >= 2 and not any(_places(x) and x.endswith("0") for x in t):
        # whole numbers written bare among halves ('1 1.5 2 2.5', '0 0.25 0.5', Plotly's): trailing zeros trimmed (the
        # axis had been written '1.0 1.5 2.0', and every whole tick lost as written); a lone one where the
        # labels step evenly through it (W&B's '2.8 3 3.2 3.4'; a point OCR lost, '25' for 2.5, breaks the step)
        return f"{',' if grouped else ''}.{max(places)}~f"
    if len(t) < 2 or max(abs(parse_number(x) or 0) for x in t) < 1000:
        return None
    if all(re.fullmatch(r"-?\d{1,3}(,\d{3})*", x) for x in t) and any("," in x for x in t):
        return ",d"
    return "d" if all(re.fullmatch(r"-?\d+", x) for x in t) else None


def _even_steps(texts: list[str]) -> bool:
    """Three labels or more whose numbers, in order, step evenly."""
    vals = sorted(v for x in texts if (v := parse_number(x)) is not None)
    steps = np.diff(vals)
    return len(vals) >= 3 and steps.min() > 0 and bool(np.abs(steps - steps.mean()).max() <= 0.01 * steps.mean())


def _places(text: str) -> int:
    """The decimal places a tick label is written with ('2.50': 2; '4,0', a decimal comma, or OCR's
    reading of a point: 1; '1,000': 0)."""
    m = re.fullmatch(r"-?[\d,]*\.(\d+)|-?\d+,(\d{1,2})", text)
    return len(m.group(1) or m.group(2)) if m else 0


def measure_panel(st: ChartStyle, rgb: np.ndarray, page: np.ndarray, panel_rgb: np.ndarray,
                  plot: tuple[int, int, int, int], runs: list[Any], run_indices: list[int], horizontal: bool) -> None:
    """The look of a chart drawn on a tinted panel, measured on the pixels as drawn (``rgb``):
    the panel's colour, its gridlines (white on ggplot's grey) across both axes, and the tick
    marks outside it; no axis lines where its edge is the axis (the chart was read on a copy
    with the tint made page, :func:`crafteditor.charts.panels.unpanel`)."""
    x0, y0, x1, y1 = plot
    H, W = rgb.shape[:2]
    if float(np.abs(panel_rgb.astype(np.float32) - page.astype(np.float32)).max()) > 3:
        st.view_fill = to_hex(panel_rgb)  # (a grid on the page itself has none)
    font = float(np.median([runs[k].font_px for k in run_indices])) if run_indices else 16.0
    left = [runs[k] for k in run_indices if runs[k].angle == 0 and runs[k].right <= x0 + 2
            and y0 - 2 <= runs[k].cy <= y1 + 2]
    below = [runs[k] for k in run_indices if runs[k].angle == 0 and y1 - 2 <= runs[k].y <= y1 + 3 * font
             and x0 - 2 * font <= runs[k].cx <= x1 + 2 * font]
    off_panel = distances(rgb[y0:y1, x0:x1], panel_rgb) > 5
    rows = [int(round(r.cy)) - y0 for r in left]
    cols = [int(round(r.cx)) - x0 for r in below]
    inside = rgb[y0:y1, x0:x1]
    across = _lines_at(inside, off_panel, rows, panel_rgb, page)
    along = _lines_at(inside.transpose(1, 0, 2), off_panel.T, cols, panel_rgb, page)
    value, other = (along, across) if horizontal else (across, along)
    if value[0] is not None:
        st.grid = value[0]
    if other[0] is not None:
        st.other_grid = other[0]
    drawn = [g for g in (value, other) if g[0] and g[1] is not None]
    if drawn:
        st.grid_color = to_hex(np.median(np.array([g[1] for g in drawn]), axis=0))
        st.grid_width = float(np.median([g[2] for g in drawn]))
        dashes = [g[3] for g in drawn if g[3] is not None]
        st.grid_dash = dashes[0] if dashes else None  # one dash for both axes: the value axis's first
    sides = {side: _edge_stroke(rgb, page, panel_rgb, plot, side) for side in ("left", "bottom", "top", "right")}
    if sides["left"] is not None and sides["bottom"] is not None:
        # axis lines of its own, in the colour the panel's edge shows (bmh's light grey frame);
        # the tick marks were measured with them, on the copy the chart was read on
        color, width = sides["left"]
        st.axis_color, st.axis_width = to_hex(color), width
        st.frame = sides["top"] is not None and sides["right"] is not None
        return
    st.domain = False
    st.frame = False
    # tick marks: the ink run left of the panel's edge at each left label's row
    # (ink, measured only between the labels and the panel)
    xl = max(0, int(min((r.right for r in left), default=x0)) - 1)
    far = np.zeros((H, W), bool)
    far[:, xl:x0] = distances(rgb[:, xl:x0], page) > 40
    lengths, pads, inks, widths = [], [], [], []
    for r in left:
        row = int(round(r.cy))
        if not 1 <= row < H - 1:
            continue
        # ggplot's white panel edge (its spines) can leave a px or two of page before the tick
        start = x0 - 1
        while start > x0 - 4 and not far[row - 1:row + 2, start].any():
            start -= 1
        x = start
        while x > r.right and far[row - 1:row + 2, x].any():
            x -= 1
        length = x0 - 1 - x
        if x < start:
            lengths.append(float(length))
            pads.append(float(x + 1 - r.right))
            inks.append(rgb[row - 1:row + 2, x + 1:start + 1].reshape(-1, 3).astype(np.float32).min(axis=0))
            col = (x + 1 + start) // 2
            widths.append(float(far[max(0, row - 4):row + 5, col].sum()))
        else:
            pads.append(float(x0 - r.right))
    if lengths and len(lengths) >= len(left) / 2:
        st.tick_size = float(np.median(lengths))
        st.axis_color = to_hex(np.median(np.array(inks), axis=0))
        st.axis_width = float(np.median(widths))
        st.ticks = True
    else:
        st.tick_size = 0.0
        st.ticks = False
    if pads:
        st.tick_pad = float(max(0.0, np.median(pads)))


def _edge_stroke(rgb: np.ndarray, page: np.ndarray, panel_rgb: np.ndarray, plot: tuple[int, int, int, int],
                 side: str) -> tuple[np.ndarray, float] | None:
    """The stroke along one side of a panel, unlike both the page outside and the panel inside
    (bmh's grey frame; ggplot's white edge is page colour, so none): its colour and width, px."""
    x0, y0, x1, y1 = plot
    H, W = rgb.shape[:2]
    if side in ("left", "right"):
        x = x0 if side == "left" else x1
        if not 3 <= x <= W - 3:
            return None
        band = rgb[y0 + 5:y1 - 5, x - 3:x + 3].astype(np.float32)  # rows × 6 px across the edge
    else:
        y = y1 if side == "bottom" else y0
        if not 3 <= y <= H - 3:
            return None
        band = rgb[y - 3:y + 3, x0 + 5:x1 - 5].astype(np.float32).transpose(1, 0, 2)
    if band.shape[0] < 10:
        return None
    unlike = np.minimum(distances(band, page), distances(band, panel_rgb))
    pick = unlike.argmax(axis=1)
    if float(np.median(unlike[np.arange(band.shape[0]), pick])) < 20:
        return None
    color = np.median(band[np.arange(band.shape[0]), pick], axis=0)
    full = min(float(np.linalg.norm(color - page)), float(np.linalg.norm(color - panel_rgb.astype(np.float32))))
    width = float(np.median(np.clip(unlike / max(full, 1e-6), 0.0, 1.0).sum(axis=1)))
    return color, width


def _dash_pattern(cover: np.ndarray) -> tuple[float, float] | None:
    """A dashed line's dash and gap (px) from its coverage along the row (NaN where a mark is):
    the period is the autocorrelation's first peak, the dash its share of ink at the period
    (at 150 dpi bmh's dashes are 4 px with 1–2 px gaps, too short to count in whole pixels)."""
    ok = np.isfinite(cover)
    if ok.sum() < 40:
        return None
    v = cover[ok]
    mean, peak = float(v.mean()), float(np.percentile(v, 95))
    if mean <= 0 or float(v.std()) < 0.2 * mean:
        return None  # solid
    d = np.where(ok, cover - mean, 0.0)
    corr = []
    for lag in range(2, min(60, len(d) // 4)):
        both = ok[:-lag] & ok[lag:]
        if both.sum() < 20:
            corr.append(-1.0)
            continue
        a, b = d[:-lag][both], d[lag:][both]
        corr.append(float((a * b).sum() / max(np.sqrt((a * a).sum() * (b * b).sum()), 1e-9)))
    corr = np.array(corr)
    peaks = [k for k in range(1, len(corr) - 1) if corr[k] >= corr[k - 1] and corr[k] >= corr[k + 1] and corr[k] > 0.4]
    if not peaks or not (corr[:peaks[0]] < 0).any():
        return None
    period = float(peaks[0] + 2)
    dash = float(np.clip(mean / max(peak, 1e-6), 0.1, 0.95)) * period
    return dash, period - dash


def strongest_color(band: np.ndarray, ref) -> np.ndarray:
    """A thin line's colour across a band of rows (rows × columns × 3): each column's pixel most
    unlike ``ref`` (what lies around the line), the median over columns."""
    b = np.asarray(band, np.float32)
    pick = np.argmax(np.linalg.norm(b - np.asarray(ref, np.float32), axis=2), axis=0)
    return np.median(b[pick, np.arange(b.shape[1])], axis=0)


def _lines_at(rgb: np.ndarray, off: np.ndarray, rows: list[int], panel_rgb: np.ndarray,
              page: np.ndarray) -> tuple[bool | None, np.ndarray | None, float | None, tuple[float, float] | None]:
    """Gridlines along the rows ``rows`` of a panel (``off``: pixels not of the panel's paint):
    whether they are drawn, their colour, width (px) and dash pattern (dash, gap px; None: solid).

    A thin line covers no pixel fully, so its pixels are blends of its paint and the panel's.
    A line lighter than the panel is taken as the page's colour (ggplot's and seaborn's white),
    drawn at the width its blends add up to (a half-transparent one comes out thinner); a darker
    one's colour is the median, over columns, of each column's pixel most unlike the panel."""
    h, w = off.shape
    p = panel_rgb.astype(np.float32)
    hits, bands, spans = [], [], []
    for row in rows:
        if not 5 <= row < h - 5:
            continue
        clear = ~off[row - 4, 4:w - 4] & ~off[row + 4, 4:w - 4]
        if clear.sum() < 10:
            continue
        on = off[row - 2:row + 3, 4:w - 4].any(axis=0)
        line = on & clear
        hits.append(line.sum() / clear.sum())
        spans.append((row, clear))
        if line.any():
            bands.append(rgb[row - 2:row + 3, 4:w - 4][:, line].astype(np.float32))
    if not hits:
        return None, None, None, None
    # a dashed (or dotted) line is drawn over a share of the row only
    if not bands or not np.median(hits) > 0.25:
        return False, None, None, None
    est = np.median(np.array([strongest_color(band, p) for band in bands]), axis=0)
    color = page.astype(np.float32) if est.mean() > p.mean() else est
    dashes = []
    for row, clear in spans:
        t = blend_position(rgb[row - 2:row + 3, 4:w - 4], p, color)[0].sum(axis=0)
        dashes.append(_dash_pattern(np.where(clear, t, np.nan)))
    dashed = [d for d in dashes if d is not None]
    dash = tuple(float(x) for x in np.median(np.array(dashed), axis=0)) if len(dashed) * 2 >= len(dashes) else None
    if dash is None and not np.median(hits) > 0.6:
        return False, None, None, None
    # the line's width: what its blends add up to across it, on its dashes
    cover = [np.median(blend_position(band, p, color)[0].sum(axis=0)) for band in bands]
    return True, color, float(np.median(cover)), dash
