"""Horizontal bar charts: categories left of the y axis, numbers below the x axis. The image is
turned so the chart stands upright, read as an upright chart, and the result turned back."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np

from crafteditor.charts.cartesian import read_chart
from crafteditor.charts.component import ChartResult, box_mask
from crafteditor.charts.labels import label_text, pick, split_tick_labels, typical_font
from crafteditor.charts.legend import Legend, find_legend
from crafteditor.charts.mark_paints import mark_paints
from crafteditor.charts.numbers import parse_number
from crafteditor.charts.style import ChartStyle
from crafteditor.ocr.runs import TextRun
from crafteditor.paint import Paints
from crafter.base.text import ASCENT, DESCENT


def read_horizontal(rgb, paints, runs, used, ax, ay, right, top, config, original,
                    walls: tuple[float, ...] = (), numbered: bool = False) -> ChartResult | None:
    """A horizontal bar chart: category labels left of the y axis, numbers below the x axis.
    Read as the upright chart it is turned (see :func:`_turn`), then turned back. ``numbered``:
    bars are seen standing on the y axis (:func:`bars_off_y_axis`), so its labels may be numbers
    (ages, years: Vega-Lite's population by age)."""

    font = typical_font(runs)
    # the numbers under the x axis joined into one run ('100 150 200 … 500': Vega-Lite's at 0.75x)
    # part here, upright: turned, they are the y axis's labels, which no reader parts
    split_tick_labels(runs, used, ay, ax, right, font)
    left = [r for k, r in enumerate(runs) if k not in used and r.angle == 0 and ax - 15 * font <= r.right <= ax + 2
            and (top is None or top - font <= r.cy) and r.cy <= ay]
    below = [r for k, r in enumerate(runs) if k not in used and r.angle == 0 and ay - 2 <= r.y <= ay + 3 * font
             and ax - 2 * font <= r.cx <= right + 2 * font]
    if (len(left) if numbered else sum(parse_number(r.text) is None for r in left)) < 2 \
            or sum(parse_number(r.text) is not None for r in below) < 2:
        return None
    H, W = paints.labels.shape
    legend = _upright_legend(rgb, paints, runs, used, (ax, top if top is not None else 0.0, right, ay), font,
                             original, walls, config.lossy)
    t_paints = Paints(colors=paints.colors, labels=_turn(paints.labels), background=paints.background,
                      lossy=paints.lossy)
    # a category label read with the tick mark beside it ('ResNet -') is the label
    t_runs = [_turn_run(replace(r, text=label_text(r.text)), H, W) for r in runs]
    t_top = None if right is None else W - right
    res = read_chart(_turn(rgb), t_paints, t_runs, used, H - ay, W - ax, H - (top if top is not None else 0), t_top,
                     config, None if original is None else _turn(original), legend=legend)
    if res is None:
        return None
    if numbered and res.axes is not None and res.axes[0] is not None and not res.axes[0].categories:
        _labels_as_categories(res.spec, res.axes[0], left, H)
    # a dot plot's markers are marks, not boxes: a boxplot's boxes read as markers are no dots
    dots_ok = res.style is None or res.style.marker_area is None or res.style.marker_area <= (1.5 * font) ** 2
    spec = _spec_turned_back(res.spec, numbered, dots_ok)
    # a reading with bars for fewer than half the category labels beside the axis misread the
    # plot (a value label with a sliver of a bar beside it taken for a legend)
    if spec is None or 2 * len({row["y"] for row in spec["data"]["values"]}) < sum(
            parse_number(r.text) is None for r in left):
        return None
    # the turned reading's titles: its x title is the y axis's; the x axis's and the chart's are
    # found here, upright, below the numbers and above the plot
    consumed = set(res.run_indices)
    xt = [k for k, r in enumerate(runs) if k in consumed and r.angle == 0 and ay - 2 <= r.y <= ay + 3 * font
          and parse_number(r.text) is not None]
    tick_bottom = max([runs[k].bottom for k in xt], default=ay)
    pick_x = pick(runs, used | consumed, lambda r: r.angle == 0 and tick_bottom - 2 <= r.y <= tick_bottom + 3 * font
                  and ax - font <= r.cx <= right + font)
    if pick_x is not None:
        spec["encoding"]["x"]["title"] = runs[pick_x].text
        consumed.add(pick_x)
    plot_top = top if top is not None else min(runs[k].y for k in consumed)
    pick_t = pick(runs, used | consumed, lambda r: r.angle == 0 and plot_top - 4 * font <= r.y
                  and r.bottom <= plot_top + 2 and ax - font <= r.cx <= right + font)
    title = res.title
    spec.pop("title", None)
    if pick_t is not None:
        title = runs[pick_t].text
        spec["title"] = title
        consumed.add(pick_t)

    bx0, by0, bx1, by1 = res.box
    box = (W - by1, H - bx1, W - by0, H - bx0)
    rest = [runs[k] for k in consumed]
    box = (min([box[0]] + [r.x for r in rest]), min([box[1]] + [r.y for r in rest]),
           max([box[2]] + [r.right for r in rest]), max([box[3]] + [r.bottom for r in rest]))
    px0, py0, px1, py1 = res.plot
    plot = (W - py1, H - px1, W - py0, H - px0)
    mask = box_mask(box, H, W)
    st = res.style
    if st is not None:
        _style_turned_back(st, runs, legend, runs[pick_t] if pick_t is not None else None, H, ay)
        if pick_x is not None:  # the value axis's title, found upright: its type and its gap
            ft = st.axis_title_font = st.axis_title_font or float(runs[pick_x].font_px)
            if xt and st.tick_font:
                tick_base = float(np.median([runs[k].baseline for k in xt]))
                st.title_pads = {**(st.title_pads or {}), "x": max(
                    0.0, (runs[pick_x].baseline - ft * ASCENT) - (tick_base + st.tick_font * DESCENT))}
    return ChartResult(box=box, plot=plot, mask=mask, run_indices=sorted(consumed), spec=spec, title=title, style=st)


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


def bars_off_y_axis(paints: Paints, ax: float, ay: float, right: float, top: float | None) -> bool:
    """Three bars or more standing on the y axis: runs of rows at least 3 px high, each of one paint,
    leaving the axis rightwards and ending short of the plot's right edge (a gridline is thinner; a
    vertical chart's first bar, or an area, is one band; a stacked area's layers run to the edge),
    together a quarter of the plot's height. A plot read upright with its y labels numbers (ages,
    years) was one giant point."""
    if top is None:
        return False
    labels = paints.labels
    H, W = labels.shape
    x0, y0, y1, x1 = int(ax) + 3, max(0, int(top) + 1), min(H, int(ay) - 1), min(W, int(right) - 2)
    if x0 + 8 > x1 or y1 - y0 < 12:
        return False
    strip = labels[y0:y1, x0:x0 + 8]
    first = strip[:, 0]
    paint = np.where((strip == first[:, None]).all(axis=1) & (first >= 0) & (first != paints.background), first, -1)
    cuts = np.flatnonzero(np.diff(paint)) + 1
    bands = [(y0 + int(a), len(b)) for a, b in zip(np.r_[0, cuts], np.split(paint, cuts)) if b[0] >= 0 and len(b) >= 3]
    ending = [h for y, h in bands
              if not (labels[y + h // 2, x0:x1] == labels[y + h // 2, x0]).all()]
    return len(ending) >= 3 and sum(h for _, h in bands) >= 0.25 * (y1 - y0)


def _upright_legend(rgb, paints: Paints, runs, used, plot0, font: float, original, walls: tuple[float, ...],
                    lossy: bool) -> Legend:
    """The legend, read upright (its entries are text with a swatch on their left), its box then
    turned for the turned reading."""
    H, W = paints.labels.shape
    px0, py0, px1, py1 = (int(round(v)) for v in plot0)
    _, _, cands = mark_paints(paints, paints.labels[py0 + 2:py1 - 3, px0 + 3:px1 - 2], lossy)
    legend = find_legend(rgb, paints, runs, used, plot0, cands, font, original, walls)
    if legend.box is not None:
        lx0, ly0, lx1, ly1 = legend.box
        legend = Legend(legend.names, legend.at, legend.runs, (H - ly1, W - lx1, H - ly0, W - lx0), legend.title,
                        legend.swatches)  # (measured upright)
    return legend


def _labels_as_categories(spec: dict[str, Any], axis: Any, left: list[TextRun], H: int) -> None:
    """Number labels beside the bars read as a numeric axis in the turned reading: each bar's
    category is the label level with it (labels sorted by the bars' lengths, 35 40 5 10 …, fit no
    straight scale). Where a bar has no label level with it, every bar keeps its number."""
    rows = spec["data"]["values"]
    if len(left) < 2 or not rows:
        return
    centres = sorted(r.cy for r in left)
    pitch = float(np.median(np.diff(centres)))
    named = []
    for row in rows:
        cy = H - axis.pixel(float(row["x"]))  # turned back: the turned x is H - y
        near = min(left, key=lambda r: abs(r.cy - cy))
        if abs(near.cy - cy) > 0.5 * pitch:
            return  # a bar with no label level with it: every bar keeps its number (none half converted:
            # :func:`_spec_turned_back` reads a quantitative axis's values as numbers, '85+' among them raised)
        named.append(label_text(near.text))
    for row, name in zip(rows, named):
        row["x"] = name
    spec["encoding"]["x"] = {k: v for k, v in spec["encoding"]["x"].items() if k not in ("scale", "axis")}
    spec["encoding"]["x"]["type"] = "nominal"


def _spec_turned_back(spec: dict[str, Any], numbered: bool, dots: bool) -> dict[str, Any] | None:
    """The turned reading's spec turned back, in place: categories on y (top to bottom, the
    turned reading had them bottom to top), values on x, the layers over the bars along x; the
    value axis's title cleared (the turned reading's was the category axis's). None where it is
    no bar chart on categories. ``numbered``: numbers on the category axis are read as categories; ``dots``: a
    dot plot (points on the category axis) may be read."""
    first_mark = spec.get("mark") or ((spec.get("layer") or [{}])[0].get("mark") or {})
    kind = first_mark.get("type") if isinstance(first_mark, dict) else first_mark
    dot_plot = (dots and kind in ("point", "line") and "layer" not in spec
                and spec["encoding"]["x"].get("type") == "nominal")
    if dot_plot:
        # a dot plot (Vega-Lite's ranked points): made one marker a category and series, in place, or none
        if not _dots(spec):
            return None
    elif kind != "bar":
        return None
    enc = spec["encoding"]
    cat, val = enc["x"], enc["y"]
    if cat.get("type") == "quantitative" and numbered:
        # numbers as categories (ages): each bar's at its label's precision, the step between bars
        xs = sorted({float(row["x"]) for row in spec["data"]["values"]})
        step = float(np.median(np.diff(xs))) if len(xs) > 1 else 1.0
        digits = max(0, -math.floor(math.log10(step / 2))) if step > 0 else 0
        for row in spec["data"]["values"]:
            x = round(float(row["x"]), digits)
            row["x"] = int(x) if digits == 0 else x
        cat = {k: v for k, v in cat.items() if k not in ("scale", "axis")}
        cat["type"] = "nominal"
    if cat.get("type") != "nominal":
        return None
    # back: categories on y (top to bottom, the turned reading had them bottom to top), values on x
    order = list(dict.fromkeys(row["x"] for row in spec["data"]["values"]))[::-1]
    spec["data"]["values"] = [{**{k.replace("y_err", "x_err"): v for k, v in row.items() if k not in ("x", "y")},
                               "y": row["x"], "x": row["y"]} for row in spec["data"]["values"]]
    cat = {**cat, "field": "y", "sort": order}
    if isinstance((cat.get("scale") or {}).get("domain"), list):
        cat["scale"] = {**cat["scale"], "domain": cat["scale"]["domain"][::-1]}
    val = {**val, "field": "x"}
    val["title"] = None
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
    return spec


def _dots(spec: dict[str, Any]) -> bool:
    """A dot plot's turned reading, in place: the markers along each category's line (read as a
    point series, or as a line where hollow rings were skeletonised, a marker cut by a gridline in
    pieces) are one point a category and series, at their median value. A series is a dot plot's
    where each category's readings of it lie within a marker's width (5 % of the value axis); one
    spread wider (an error bar's ends, read as a series of their own) goes where another is one, and
    so does a stray mark of a point or two (a tick's stub). False (the spec untouched) where no series
    is one at three categories or more: a strip plot's many points, a boxplot's pieces."""
    mark = spec["mark"] if isinstance(spec["mark"], dict) else {"type": spec["mark"]}
    lo, hi = ((spec["encoding"]["y"].get("scale") or {}).get("domain") or [0.0, 0.0])[:2]
    if not isinstance(lo, (int, float)) or not isinstance(hi, (int, float)) or hi <= lo:
        return False
    groups: dict[tuple[Any, Any], list[float]] = {}
    for row in spec["data"]["values"]:
        groups.setdefault((row.get("series"), row["x"]), []).append(float(row["y"]))
    by_series: dict[Any, list[list[float]]] = {}  # series -> its categories' readings, in the order first seen
    for (s, _), ys in groups.items():
        by_series.setdefault(s, []).append(ys)
    dots = [s for s, spreads in by_series.items() if len(spreads) >= 3
            and all(max(ys) - min(ys) <= 0.05 * (hi - lo) for ys in spreads)]
    if not dots:
        return False
    spec["data"]["values"] = [{"x": x, "y": float(np.median(ys)), **({"series": s} if s is not None else {})}
                              for (s, x), ys in groups.items() if s in dots]
    if len(dots) == 1 and "color" in spec["encoding"]:
        # one series left: the legend named the others (or a tick label beside a stray mark)
        scale = spec["encoding"].pop("color").get("scale") or {}
        for row in spec["data"]["values"]:
            row.pop("series", None)
        if dots[0] in (scale.get("domain") or []):
            mark["color"] = scale["range"][scale["domain"].index(dots[0])]
        spec["encoding"].pop("shape", None)
    spec["mark"] = {**{k: v for k, v in mark.items() if k not in ("type", "point")}, "type": "point",
                    "filled": mark.get("filled", True)}
    return True


def _style_turned_back(st: ChartStyle, runs, legend: Legend, title_run: TextRun | None, H: int,
                       bottom: float) -> None:
    """The look measured on the turned reading, turned back: tick values and title pads to the
    other axis, the legend's place (``bottom``: the plot's, upright) and the title's type as
    seen upright, bar spans along y."""
    st.x_values, st.y_values = st.y_values, None
    st.x_format, st.y_format = st.y_format, None
    st.title_pads = {{"x": "y", "y": "x"}[k]: v for k, v in (st.title_pads or {}).items()}
    entries = [runs[k] for k in legend.runs if k != legend.title]
    first = min(entries, key=lambda r: r.y) if entries else None
    st.legend_text = (min(r.x for r in entries), first.cy) if first is not None else None
    st.legend_below = bool(entries) and all(r.y >= bottom for r in entries)  # in a row under the axis (MultiQC)
    st.title_offset = None
    if title_run is not None:
        st.title_font, st.title_bold = float(title_run.font_px), bool(title_run.bold)
    if st.bar_spans:
        st.bar_spans = sorted((H - b, H - a) for a, b in st.bar_spans)
        st.band_axis = "y"
