"""A chart read between its axes (x axis below, y axis on the left): the y ticks calibrate the
values, the labels below the x axis are its numbers or categories; then the titles, the marks
(series, legend), the layers over bars, the spec, and the look as measured."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import numpy as np

from crafteditor.charts.axes import (
    Axis,
    date_axis,
    decade_ticks,
    doubling_categories,
    fit_axis,
    flush_ends,
    join_decimals,
    join_powers,
    mend_dropped_points,
    mend_spaced_decimals,
    mend_thousands_points,
    merge_decimals,
    mirrored_minus,
    power_text,
    snap_to_ticks,
    tick_number,
    tick_text,
)
from crafteditor.charts.bars import bar_edge, grid_over_bars
from crafteditor.charts.boxes import box_spec, boxes_on_numbers, read_boxes
from crafteditor.charts.component import ChartResult, box_mask
from crafteditor.charts.hanging import read_hanging, turned_readings
from crafteditor.charts.labels import find_titles, split_tick_labels, typical_font
from crafteditor.charts.layers import ValueLabels, read_error_bars, read_value_labels
from crafteditor.charts.legend import Legend
from crafteditor.charts.lines import drawn_marker_area
from crafteditor.charts.marks import read_marks
from crafteditor.charts.numbers import parse_number
from crafteditor.charts.offsets import offset_axis, offset_text, x_offset_run, y_offset_run
from crafteditor.charts.series import Series
from crafteditor.charts.style import ChartStyle, measure_style, specks
from crafteditor.charts.vegalite import chart_spec
from crafteditor.paint import to_hex


def read_chart(rgb, paints, runs, used, ax, ay, right, top, config, original,  # long: the reading's steps in order
               legend: Legend | None = None, walls: tuple[float, ...] = (),
               shared: tuple[Axis | None, Axis | None] = (None, None)) -> ChartResult | None:
    """``walls``: left edges of the figure's other plots (a legend right of this one ends there);
    ``shared``: the x and y axes of plots read already that this one shares (subplots with
    ``sharex``, whose upper plots show no x labels; facets side by side, with y labels on the first)."""
    font = typical_font(runs)
    # y ticks: numbers whose right edge is just left of the y axis
    yt = [k for k, r in enumerate(runs) if k not in used and r.angle == 0 and tick_number(r.text)
          and ax - 6 * font <= r.right <= ax + 2 and r.cy <= ay + font
          and (top is None or r.cy >= top - font)]
    if len(yt) < 2 and (shared[1] is None or top is None):
        return None
    drawn = original if original is not None else rgb
    if len(yt) < 2:
        yaxis, yt, exps = shared[1], [], set()
    else:
        yaxis, top, exps = _y_axis(runs, yt, ax, top, font, drawn, paints)
        if yaxis is None:
            return None
    # matplotlib's offset texts ('1e6' over the y axis, '+1.9e3' under the x axis's end): not ticks, factors
    y_off = y_offset_run(runs, yt, used | set(yt), ax, float(top), font) if yt else None
    x_off = x_offset_run(runs, used | set(yt), ay, right, font)
    split_tick_labels(runs, used, ay, ax, right, font)
    xaxis, xticks, index_categories = _x_axis(runs, used | {x_off} - {None}, ax, ay, right, font, drawn,
                                              paints.background_rgb)
    offsets: dict[str, list[int]] = {}  # axis -> its offset text's run and its tick labels', kept as text
    if y_off is not None and (scaled := offset_axis(yaxis, runs[y_off].text)) is not None:
        yaxis, offsets["y"] = scaled, [y_off, *yt]
    if x_off is not None and (scaled := offset_axis(xaxis, runs[x_off].text)) is not None:
        xaxis, offsets["x"] = scaled, [x_off, *xticks]
    if shared[0] is not None and (index_categories or (xaxis.categories and len(xticks) < 2)):
        # no x labels of its own (a lone 'category' is the title of the plot below)
        xaxis, xticks, index_categories = shared[0], [], False
    elif len(xaxis.categories) >= 2 and all(runs[k].angle == 0 and len(runs[k].text.strip()) <= 2 for k in xticks):
        xaxis = _turned_categories(xaxis, xticks, runs, drawn, config)
    elif len(xticks) == 1 and len(xaxis.categories) == 1 and _title_under_hanging(runs[xticks[0]], drawn, paints,
                                                                                 ax, ay, right, font):
        # a lone 'category' centred under labels turned 90° that OCR missed is their axis's title
        xaxis, xticks, index_categories = Axis(a=0.0, b=1.0), [], True
    plot = (ax, float(top), right, ay)
    consumed = set(yt) | set(xticks) | exps | {k for ks in offsets.values() for k in ks}
    x_title, y_title, title = find_titles(runs, used | consumed, xticks, yt, plot, font)
    for k in (x_title, y_title, title):
        if k is not None:
            consumed.add(k)
    # legend entries and marks
    series, legend_box, legend_runs = read_marks(rgb, paints, runs, used | consumed, plot, yaxis, xaxis, font,
                                                 original, lossy=config.lossy, legend=legend, walls=walls)
    consumed |= set(legend_runs)
    # a 'line' of one point is no line chart: the plot's lines were not read (a screenshot with
    # callouts over it read as one point, its callouts as axis titles and its legend dropped)
    boxes = read_boxes(drawn, paints.background_rgb, xaxis, yaxis, plot) if xaxis.categories else None
    if boxes and _markers_as_boxes(boxes, series, yaxis):
        boxes = None
    numbered = boxes_on_numbers(drawn, paints.background_rgb, xaxis, yaxis, plot) \
        if not xaxis.categories and all(sr.kind == "line" for sr in series) else None
    if numbered is not None:  # boxes at numbers, on the numeric axis as drawn
        boxes = numbered
        series = [Series(color=(0, 0, 0), kind="point", points=[(float(name), vals[2]) for name, vals, _ in boxes])]
    if boxes and not series:  # (what the marks read is redone as boxes below)
        series = [Series(color=(0, 0, 0), kind="point", points=[(name, vals[2]) for name, vals, _ in boxes])]
    if not series or all(sr.kind == "line" and len(sr.points) < 2 for sr in series):
        return None
    xaxis = _split_joined_categories(series, xaxis)
    error_color = read_error_bars(rgb, paints, series, yaxis, plot)
    value_labels = read_value_labels(runs, used | consumed, series, yaxis, plot, font)
    if value_labels is not None:
        consumed |= set(value_labels.runs)
    if index_categories:
        hanging = _hanging_categories(series, drawn, paints, runs, ax, ay, right, font, config)
        if hanging is not None:
            xaxis = hanging
            consumed |= set(range(len(runs) - len(hanging.categories), len(runs)))
        elif any(sr.kind != "bar" for sr in series):
            return None
        else:
            _number_categories(series)
            xaxis = Axis(a=0.0, b=1.0, categories=[(0.0, "")])
    elif _fewer_labels_than_bars(series, xaxis):
        # some labels turned 90° found, most not (Vega-Lite's single letters at 1x): all read again
        at_px = [replace(sr, points=[((a + b) / 2, y) for (_, y), (a, b) in zip(sr.points, sr.bar_spans)])
                 for sr in series]
        hanging = _hanging_categories(at_px, drawn, paints, runs, ax, ay, right, font, config)
        if hanging is not None:
            for sr, moved_sr in zip(series, at_px):
                sr.points = moved_sr.points
            xaxis = hanging
            consumed |= set(range(len(runs) - len(hanging.categories), len(runs)))
    xs = [runs[k].x for k in consumed] + [ax]
    ys = [runs[k].y for k in consumed] + [top]
    xe = [runs[k].right for k in consumed] + [right]
    ye = [runs[k].bottom for k in consumed] + [ay]
    pad = 0.3 * font
    H, W = paints.labels.shape
    box = (max(0.0, min(xs) - pad), max(0.0, min(ys) - pad), min(float(W), max(xe) + pad), min(float(H), max(ye) + pad))
    mask = box_mask(box, H, W)
    spec = chart_spec(series, xaxis, yaxis, plot,
                      runs[title].text if title is not None else None,
                      runs[x_title].text if x_title is not None else None,
                      runs[y_title].text if y_title is not None else None, error_color, value_labels)
    if boxes:
        spec = box_spec(spec, boxes)
    style = measure_style(drawn, paints, runs, {"y": yt, "x": list(xticks)},
                          {"x": x_title, "y": y_title, "title": title}, legend_runs, plot, yaxis.log,
                          not xaxis.categories and not index_categories and not xaxis.log and not xaxis.time)
    _measure_marks(style, series)
    _measure_bars(style, series, drawn, paints, runs, yt, yaxis, xaxis, ay, value_labels)
    # ticks written with a unit or a factor ('40 MB/s', '12x'): no number format writes them
    # back, so they stay text where they are and the chart draws its ticks unlabelled
    kept = [k for k in yt if _with_unit(runs[k].text)]
    if kept and len(kept) >= len(yt) - 1:
        spec["encoding"]["y"]["axis"] = {**(spec["encoding"]["y"].get("axis") or {}), "labels": False}
    else:
        kept = []
    # an axis read with its offset text: its labels stay as written (tick and factor apart), the ticks unlabelled
    # at the values they stand for
    for name, ks in offsets.items():
        factor, offset = offset_text(runs[ks[0]].text) or (1.0, 0.0)
        values = style.y_values if name == "y" else style.x_values
        if values:
            values[:] = [v * factor + offset for v in values]
        spec["encoding"][name]["axis"] = {**(spec["encoding"][name].get("axis") or {}), "labels": False}
        kept = sorted(set(kept) | set(ks))
    return ChartResult(box=box, plot=plot, mask=mask, run_indices=sorted(consumed - set(kept)), spec=spec,
                       title=runs[title].text if title is not None else None, style=style, kept_text=kept,
                       axes=(xaxis, yaxis))


def _y_axis(runs, yt: list[int], ax, top, font: float, drawn, paints) -> tuple[Axis | None, float, set[int]]:
    """The y axis fitted to its tick labels ``yt`` (narrowed in place to the ticks' own runs), the
    plot's top (the highest label's, where no frame gave it) and the runs that were exponents."""
    mend_spaced_decimals(runs, yt, drawn, paints.background_rgb)
    mend_thousands_points(runs, yt)
    mend_dropped_points(runs, yt, vertical=True)
    if top is None:
        top = min(runs[k].y for k in yt) - font * 0.2
    # 10ⁿ read as '10' and 'n': one label at the '10' (the exponent is no tick of its own)
    # and 1.6 read as '1' and '6' (the point in neither): one label, the left run
    powers = join_powers(runs, yt, drawn, paints.background_rgb)
    decimals = join_decimals(runs, [k for k in yt if k not in powers and k not in powers.values()], drawn,
                             paints.background_rgb)
    exps = set(powers.values()) | {j for j, _ in decimals.values()}
    yt[:] = [k for k in yt if k not in exps]
    yaxis = fit_axis(mirrored_minus([(runs[k].cy, power_text(runs[k], runs[powers[k]], drawn, paints.background_rgb))
                                     if k in powers else (runs[k].cy, decimals[k][1]) if k in decimals
                                     else tick_text(runs[k], drawn, paints.background_rgb) for k in yt], rising=False))
    if yaxis is None:
        return None, float(top), exps
    return snap_to_ticks(yaxis, paints, [runs[k] for k in yt], ax, font), float(top), exps


def _with_unit(text: str) -> bool:
    """A tick label with letters after its number ('40 MB/s', '2s', '12x'), not an SI suffix
    ('2k') or an exponent ('1e-3'), nor the tick mark read with it ('400 -')."""
    t = text.strip()
    if parse_number(t) is None or not re.search(r"[A-Za-zµμ×]", t):
        return False
    return re.fullmatch(r"[−\-–+]?[\d.,]+\s*[kKMB]|[−\-–+]?[\d.,]+[eE][−\-+]?\d+", t) is None


def _x_axis(runs, used, ax, ay, right, font, drawn, bg) -> tuple[Axis, list[int], bool]:
    """The x axis read off the labels below it: numbers calibrate it, or they are its categories.
    Returns the axis, its tick labels' runs, and whether the categories could not be read (the
    bars are then numbered)."""
    # x ticks: below the x axis; labels turned 90° (Vega-Lite's on crowded bands) hang from it
    # (OCR's box of one may reach up into the plot, along a bar's edge)
    below = [k for k, r in enumerate(runs) if k not in used and ax - 2 * font <= r.cx <= right + 2 * font
             and (ay - 2 <= r.y <= ay + 3 * font if r.angle == 0 else r.y <= ay + 1.5 * font and r.bottom >= ay + font)]
    # the axis title close under a row of labels (ggplot2's) is no label: one run below the first
    # row, centred under the plot
    level = [k for k in below if runs[k].angle == 0]
    first = min((runs[k].y for k in level), default=0.0)
    under = [k for k in level if runs[k].y > first + 0.6 * font]
    if len(under) == 1 and len(level) >= 3 and abs(runs[under[0]].cx - (ax + right) / 2) <= 0.1 * (right - ax):
        below.remove(under[0])
    mend_spaced_decimals(runs, below, drawn, bg)
    mend_thousands_points(runs, below)  # '1,500 1.600 1.700': Vega-Lite's binned years had fitted a log axis
    mend_dropped_points(runs, [k for k in below if parse_number(runs[k].text.replace(" ", "")) is not None],
                        vertical=False)
    # powers of ten (10⁻³ read '10–3', or '10' and its raised exponent apart) are numbers
    powers = join_powers(runs, [k for k in below if tick_number(runs[k].text)], drawn, bg)
    halves = merge_decimals(runs, [k for k in below if k not in powers and k not in powers.values()
                                   and tick_number(runs[k].text)], drawn, bg)
    below = [k for k in below if k not in set(powers.values()) and k not in halves]
    text = {k: power_text(runs[k], runs[powers[k]], drawn, bg) if k in powers
            else tick_text(runs[k], drawn, bg)[1] for k in below}
    nums = {k: v for k in below if (v := parse_number(text[k])) is not None}
    xnum = _own_panel(runs, nums, ax, right, font)
    xcat = [k for k in below if k not in nums]
    xaxis = None
    decades = decade_ticks([(k, runs[k].cx, text[k]) for k in below], +1)
    if decades is not None:
        # powers of ten, exponents mended: the short numbers beside them are their exponents
        xaxis = fit_axis([(runs[k].cx, t) for k, t in decades.items()])
        xticks = list(decades) + list(powers.values()) + [
            k for k in below if k not in decades and re.fullmatch(r"[−\-–]?\d{1,2}", runs[k].text.strip())
            and any(0 <= runs[k].x - runs[d].right <= 1.5 * runs[d].h for d in decades)]
    elif (dates := date_axis([(runs[k].cx, text[k]) for k in below])) is not None:
        xaxis, xticks = dates, below  # dates and times ('2005 Apr Jul', 'Jan 2020', '12:00'): one time scale
    elif len(xnum) >= 2 and len(xnum) >= len(xcat) and doubling_categories([(runs[k].cx, text[k]) for k in xnum]):
        xticks = xnum  # sizes as categories (512, 1k, 2k): their labels as written
        xaxis = Axis(a=0.0, b=1.0, categories=sorted((runs[k].cx, runs[k].text) for k in xnum))
    elif len(xnum) >= 2 and len(xnum) >= len(xcat):
        xaxis = fit_axis(mirrored_minus(flush_ends([(runs[k], text[k]) for k in xnum]), rising=True))
        xticks = xnum + list(powers.values())
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
    # the right halves of decimals merge_decimals joined (in ``runs``, in place) are read in their
    # left halves whatever the axis: no stray text in any branch
    return xaxis, xticks + sorted(halves), index_categories


def _own_panel(runs, nums: dict[int, float], ax: float, right: float, font: float) -> list[int]:
    """The number labels under this plot's own axis (``nums``: the labels read as numbers, their values):
    where those taken, in pixel order, do not rise or fall steadily ('0 10 0': a facet's neighbour's
    first label within reach, seaborn's FacetGrid at talk and poster sizes), those centred off the
    axis's span are the next panel's and left out."""
    xnum = list(nums)
    if len(nums) < 3:
        return xnum
    steps = np.sign(np.diff([nums[k] for k in sorted(nums, key=lambda k: runs[k].cx)]))
    if (steps > 0).all() or (steps < 0).all():
        return xnum
    inside = [k for k in nums if ax - 0.5 * font <= runs[k].cx <= right + 0.5 * font]
    return inside if len(inside) >= 2 else xnum


def _clusters(series: list["Series"]) -> list[list[float]]:
    """The marks' x pixels clustered left to right (grouped bars sit close together); two marks of
    one series are never in one cluster (a bar missing from evenly spaced ones leaves the spacing
    uneven, not its neighbours one category), but where they stand within a pixel or two (points
    of one category)."""
    owners: dict[float, set[int]] = {}
    for s, sr in enumerate(series):
        for x, _ in sr.points:
            owners.setdefault(float(x), set()).add(s)
    xs = sorted(owners)
    if not xs:
        return []
    gaps = np.diff(xs)
    # gaps all alike: one mark per category (the median rule had made evenly spaced bars one
    # cluster); else a gap well over the smallest (a group's inner step) starts the next cluster
    cut = 0.0 if not len(gaps) or gaps.max() <= 1.3 * gaps.min() else 1.15 * float(gaps.min())
    out: list[list[float]] = [[xs[0]]]
    for i, x in enumerate(xs[1:]):
        if gaps[i] > cut or any(x - y > 2.0 and owners[x] & owners[y] for y in out[-1]):
            out.append([])
        out[-1].append(x)
    return out


def _number_categories(series: list["Series"]) -> None:
    """Bars whose category labels could not be read: name the clusters of bar centres 1, 2, 3… from
    left to right."""
    label = {x: str(k + 1) for k, group in enumerate(_clusters(series)) for x in group}
    for sr in series:
        sr.points = [(label[float(x)], y) for x, y in sr.points]


def _turned_categories(xaxis: Axis, xticks: list[int], runs, drawn, config) -> Axis:
    """Category labels of a glyph or two, read as they would read turned 90° where that reads them
    better (their runs mended in place)."""
    labels = [k for k in xticks if runs[k].text.strip()]
    texts = turned_readings(drawn, [runs[k] for k in labels], config)
    if texts is None:
        return xaxis
    for k, t in zip(labels, texts):
        runs[k] = replace(runs[k], text=t)
    return Axis(a=xaxis.a, b=xaxis.b, log=xaxis.log, categories=sorted((runs[k].cx, runs[k].text) for k in labels))


def _markers_as_boxes(boxes: list[tuple[str, list[float], Any]], series: list[Series], yaxis: Axis) -> bool:
    """Every 'box plot' read is no taller, whiskers and all, than the point markers the marks read: hollow
    markers stacked in a category (Vega-Lite's default open circles offset per group) had been read as boxes
    and whiskers, and the points dropped for two boxes of a marker's height), each with a marker of its category
    inside it (a marker read as a box stands where the box is: a real box plot's outliers lie past its whiskers,
    however short a heavy tail squeezes its boxes)."""
    areas = [a for sr in series if sr.kind == "point" for a in sr.marker_areas]
    if not areas:
        return False
    diameter = 2.0 * float(np.sqrt(np.median(areas) / np.pi))
    marks = [(c, yaxis.pixel(v)) for sr in series if sr.kind == "point" for c, v in sr.points]

    def marker(name: str, vals: list[float]) -> bool:
        lo, hi = sorted((yaxis.pixel(vals[0]), yaxis.pixel(vals[-1])))
        return hi - lo <= 1.5 * diameter and any(c == name and lo <= y <= hi for c, y in marks)

    return all(marker(name, vals) for name, vals, _ in boxes)


def _split_joined_categories(series: list[Series], xaxis: Axis) -> Axis:
    """Category labels OCR joined into one run ('Jan Feb Mar Apr May Jun': Vega-Lite's month bands
    at 0.75x, set closer than a word's gap) over as many clusters of bars as the run has words: each
    cluster, left to right, named by its word, and the axis given a category at each cluster's
    centre. A label of several words over one cluster ('No. 457') stays whole."""
    if not xaxis.categories or not series or any(sr.kind != "bar" or len(sr.bar_spans) != len(sr.points)
                                                 for sr in series):
        return xaxis
    joined = {label for _, label in xaxis.categories if len(label.split()) >= 2}
    if not joined:
        return xaxis
    at_px = [Series(color=sr.color, kind="bar", points=[((a + b) / 2, 0.0) for a, b in sr.bar_spans]) for sr in series]
    name = {float((a + b) / 2): x for sr in series for (x, _), (a, b) in zip(sr.points, sr.bar_spans)}
    clusters = _clusters(at_px)
    rename: dict[float, str] = {}
    categories = list(xaxis.categories)
    for label in joined:
        words = label.split()
        under = [g for g in clusters if all(name[float(x)] == label for x in g)]
        if len(under) != len(words) or any(name[float(x)] == label for g in clusters if g not in under for x in g):
            continue
        categories = [c for c in categories if c[1] != label]
        for word, group in zip(words, under):
            rename.update({float(x): word for x in group})
            categories.append(((group[0] + group[-1]) / 2, word))
    if not rename:
        return xaxis
    for sr in series:
        sr.points = [(rename.get(float((a + b) / 2), x), y) for (x, y), (a, b) in zip(sr.points, sr.bar_spans)]
    return Axis(a=xaxis.a, b=xaxis.b, log=xaxis.log, categories=sorted(categories))


def _fewer_labels_than_bars(series: list[Series], xaxis: Axis) -> bool:
    """Bars in more clusters than the category labels read, every label a glyph or two: labels
    were missed, and the bars between them had taken the nearest one's name."""
    if not xaxis.categories or not series or any(sr.kind != "bar" or len(sr.bar_spans) != len(sr.points)
                                                 for sr in series):
        return False
    if any(len(label.strip()) > 2 for _, label in xaxis.categories):
        return False
    at_px = [Series(color=sr.color, kind="bar", points=[((a + b) / 2, 0.0) for a, b in sr.bar_spans]) for sr in series]
    return len(_clusters(at_px)) >= len(xaxis.categories) + 2


def _title_under_hanging(run, drawn, paints, ax: float, ay: float, right: float, font: float) -> bool:
    """Whether the one level run under the x axis is the axis title below labels turned 90° that
    OCR missed: centred under the plot, well below the axis, with ink hanging from the axis above it
    in two places or more apart from it."""
    if run.angle != 0 or abs(run.cx - (ax + right) / 2) > 0.15 * (right - ax) or run.y < ay + 1.2 * font:
        return False
    band = drawn[int(ay) + 2:max(int(ay) + 3, int(run.y) - 1), int(ax):int(right)]
    ink = (np.linalg.norm(band.astype(np.float32) - paints.background_rgb.astype(np.float32), axis=2) > 80).any(axis=0)
    cols = np.flatnonzero(ink)
    return cols.size > 0 and int((np.diff(cols) > 2).sum()) + 1 >= 2


def _hanging_categories(series, drawn, paints, runs, ax: float, ay: float, right: float, font: float,
                        config) -> Axis | None:
    """Categories read from labels turned 90° hanging under the marks' clusters (bars or points
    at x pixels, their labels unread): the marks renamed by their cluster's label and the labels'
    runs added to ``runs``; None where any label could not be read."""
    groups = _clusters(series) if all(sr.kind in ("bar", "point") for sr in series) else []
    if len(groups) < 2:
        return None
    centres = [(g[0] + g[-1]) / 2 for g in groups]
    half = min(b - a for a, b in zip(centres, centres[1:])) / 2
    # each column half the closest step either side of its centre: where a mark is missing (a zero
    # bar) its label, between two columns, is in neither
    columns = [(max(ax, c - half), min(right, c + half)) for c in centres]
    read = read_hanging(drawn, paints.background_rgb.astype(np.float32), columns, ay, font, config,
                        floor=_title_floor(runs, ax, ay, right, font))
    if read is None:
        return None
    label = {x: run.text for run, group in zip(read, groups) for x in group}
    for sr in series:
        sr.points = [(label[float(x)], y) for x, y in sr.points]
    runs.extend(read)
    return Axis(a=0.0, b=1.0, categories=[(c, run.text) for c, run in zip(centres, read)])


def _title_floor(runs, ax: float, ay: float, right: float, font: float) -> float | None:
    """The top of the x axis's title read level under labels turned 90°, where the labels end: the
    lowest run centred under the plot a type size and more below the axis, alone in its row (at 1x
    Vega-Lite's title sits closer under a turned 'A' than a type size, and was cut out with it);
    None where there is none, or where it stands in a row of labels the detector found level."""
    below = [r for r in runs if r.angle == 0 and r.y >= ay + 1.2 * font and ax - font <= r.cx <= right + font]
    centred = [r for r in below if abs(r.cx - (ax + right) / 2) <= 0.15 * (right - ax)]
    if not centred:
        return None
    title = max(centred, key=lambda r: r.y)
    if any(r is not title and abs(r.y - title.y) < 0.6 * font for r in below):
        return None
    return title.y


def _measure_marks(style: ChartStyle, series: list[Series]) -> None:
    """The marks' sizes, the median over the series: point markers, lines, legend swatches."""
    areas = [a for sr in series for a in sr.marker_areas]
    style.marker_area = drawn_marker_area(float(np.median(areas))) if areas else None
    widths = [sr.line_width for sr in series if sr.line_width]
    style.line_width = float(np.median(widths)) if widths else None
    cores = [sr.line_core for sr in series if sr.line_core]
    style.specks = bool(areas and cores) and specks(float(np.median(areas)), float(np.median(cores)))
    swatches = [sr.swatch for sr in series if sr.swatch is not None]
    if swatches:
        style.legend_swatch = tuple(float(np.median([sw[i] for sw in swatches])) for i in range(3))


def _measure_bars(style: ChartStyle, series: list[Series], drawn: np.ndarray, paints, runs, yt: list[int],
                  yaxis: Axis, xaxis: Axis, ay: float, value_labels: ValueLabels | None) -> None:
    """The bars' look: gridlines drawn over them (found at the y ticks' rows ``yt``), the edge
    round them, their value labels' place, and their widths and gaps (the band scale's paddings)."""
    bars = [sr for sr in series if sr.kind == "bar"]
    if style.grid and style.grid_color and bars and not yaxis.log:
        rows = [yaxis.pixel(v) for v in (parse_number(runs[k].text) for k in yt) if v is not None]
        over = grid_over_bars(drawn, paints.background_rgb, bars, rows, ay, style.grid_color)
        if over is not None:
            style.grid_above = True
            style.grid_color, style.grid_opacity = over
    fills = [tuple(int(v) for v in o.color) for o in series]
    for sr in bars:
        if sr.outline is None:
            sr.outline = bar_edge(paints, sr, fills, ay)
    edges = {sr.outline[0] for sr in bars if sr.outline}
    if bars and len(edges) == 1 and all(sr.outline for sr in bars):
        # one edge colour round every bar (edgecolor='k'): drawn again as the bars' stroke
        style.bar_stroke = (to_hex(edges.pop()), float(np.median([sr.outline[1] for sr in bars])))
    if value_labels is not None:
        style.value_labels = (value_labels.dy, value_labels.font_px)
    # an edge is drawn centred on the bar's outline: the fill read is half its width short each side
    half = style.bar_stroke[1] / 2 if style.bar_stroke else 0.0
    # one series' bars, or stacked bars' (the segments on the axis span each stack: MultiQC's
    # had been redrawn with the default band padding, a fifth thicker)
    base = None
    if len(series) == 1:
        base = series[0]
    elif len(bars) == len(series) and any(sr.stacked for sr in bars):
        base = next((sr for sr in bars if not sr.stacked), None)
    if base is not None and len(base.bar_spans) >= 2 and xaxis.categories:
        style.bar_spans = sorted((a - half, b + half) for a, b in base.bar_spans)
    elif base is not None and len(base.bar_spans) >= 2:  # on a numeric x (a histogram): their width
        style.bar_size = float(np.median([b - a for a, b in base.bar_spans])) + 2 * half
    elif len(bars) > 1 and not xaxis.categories and not any(sr.stacked for sr in bars) \
            and sum(len(sr.bar_spans) for sr in bars) >= 2:
        # histograms drawn over each other: their bins' common width (they had been drawn back a
        # default bar's width apart)
        style.bar_size = float(np.median([b - a for sr in bars for a, b in sr.bar_spans])) + 2 * half
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
