"""A plot's marks turned into series: one mask per series paint (legend, bands, gridlines and
inward ticks taken out, outlines dropped), each read as bars, stacked bars, a line or points, in
the legend's order."""

from __future__ import annotations

import math

import cv2
import numpy as np

from crafteditor.blobs import find_blobs
from crafteditor.charts.areas import area_series
from crafteditor.charts.axes import Axis
from crafteditor.charts.bands import band_extent, find_bands, under_band
from crafteditor.charts.bars import WHOLE_FILL, bar_series, baseline_px, grown_to_baseline, has_rects, is_rect, staircase_rects
from crafteditor.charts.legend import Legend, entry_name, find_legend, legend_margin, under_legend
from crafteditor.charts.lines import line_series, line_width
from crafteditor.charts.mark_paints import blend_of, few_markers, mark_paints, merge_fringes, merge_overlaps, merge_washed_out
from crafteditor.charts.series import Series
from crafteditor.charts.strokes import (
    bridge_rules,
    bridge_seen_through,
    drop_inner_ticks,
    drop_rules,
    drop_rules_under_marks,
    find_rules,
    in_block,
)
from crafteditor.paint import Paints, blend_position

# a pixel this near (RGB) a blend of a line's paint and the page is its anti-aliased edge (stroke_width)
EDGE_BLEND = 12.0


def read_marks(rgb, paints: Paints, runs, used, plot, yaxis: Axis, xaxis: Axis, font: float, original=None,
               lossy: bool = False, legend: "Legend | None" = None, walls: tuple[float, ...] = ()):
    """The series drawn in the plot, in the legend's order and named by it; the legend's box and
    its runs. ``legend``: the legend where it was read already (see :func:`find_legend`)."""
    x0, y0, x1, y1 = (int(round(v)) for v in plot)
    inner = (x0 + 3, y0 + 2, x1 - 2, y1 - 3)
    labels = paints.labels
    region = labels[inner[1]:inner[3], inner[0]:inner[2]]
    if region.size == 0:
        return [], None, []
    counts, min_px, cands = mark_paints(paints, region, lossy)
    if legend is None:
        legend = find_legend(rgb, paints, runs, used, plot, cands, font, original, walls)
    legend_names, legend_at, legend_runs, legend_box, legend_title = (
        legend.names, legend.at, legend.runs, legend.box, legend.title)
    areas = {p: int(counts[p]) for p in cands}
    rules = _gridlines(paints, region, cands, inner)
    members = {p: [p] for p in cands}
    if lossy:
        merge_washed_out(paints, members, areas)
    bands = find_bands(labels, inner, paints, members, areas, counts)
    if legend_box is not None:  # the legend drawn over a band is no part of it
        lx0, ly0, lx1, ly1 = legend_box
        for q in bands:
            bands[q][max(0, ly0):ly1, max(0, lx0):lx1] = False
    merge_fringes(labels, inner, paints, members, areas)
    merge_overlaps(labels, inner, paints, members, areas, set(legend_names))
    biggest = max(areas.values(), default=0)
    masks: list[tuple[int, np.ndarray, tuple[int, int, int]]] = []
    for p in members:
        # markers the legend names, a few round dots of one size, are a series however few
        # (plotly's four markers beside two lines, a fiftieth of their ink)
        dots = p in legend_names and few_markers(np.isin(region, members[p]), paints.colors[p])
        if areas[p] < 0.12 * biggest and not _solid_blocks(region, members[p], font) and not dots:
            continue  # anti-aliased fringes between a mark and the background are not series
        m = _series_mask(rgb, paints, p, members[p], bands.get(p), legend_box, rules, inner, font)
        m = _thin_outlines(m, rgb, paints, p, inner)
        if m.sum() < (12 if dots else min_px):
            continue
        color = tuple(int(v) for v in paints.colors[p])
        masks.append((p, m, color))
    masks, outlines = _drop_outlines(_merge_twins(masks))
    series = _read_series(rgb, paints, masks, members, bands, legend, yaxis, xaxis, plot)
    for sr in series:
        sr.outline = outlines.get(sr.color)
    _name_translucent(series, paints.background_rgb)
    # the legend's order is the author's: the series keep it (unnamed ones after)
    order = {legend_names[p]: legend_at[p] for p in legend_names}
    series.sort(key=lambda s: order.get(s.name, (math.inf, math.inf)))
    if legend_title is not None and series:
        series[0].legend_title = runs[legend_title].text
    # an entry whose series was not read stays text where it is (W&B's dashed 'gpt2s-flash-owt'
    # had gone with it)
    read = {sr.name for sr in series}
    legend_runs = [k for k in legend_runs if k == legend_title or entry_name(runs[k]) in read]
    return series, legend_box, legend_runs


def _name_translucent(series: list[Series], bg) -> None:
    """An unnamed series whose paint is one named series' thinned by the page, or whose paint that
    one's is, is that series': its markers drawn translucent beside its line drawn solid, or their
    overlaps (ggplot2's alpha 0.8 points under a regression line of the species' colour; the
    legend's key shows both, its colour the line's). The markers had been 'series 4', and the
    species' values lost."""
    named = [s for s in series if s.name]
    for sr in series:
        if sr.name or sr.kind == "bar":
            continue
        kin = [s for s in named if 0.05 <= blend_of(sr.color, s.color, bg) <= 0.5
               or 0.05 <= blend_of(s.color, sr.color, bg) <= 0.5]
        if len(kin) == 1:
            sr.name = kin[0].name


def _gridlines(paints: Paints, region: np.ndarray, cands: list[int], inner) -> list[tuple[bool, int, int, int, int]]:
    """The gridlines across the plot (see :func:`find_rules`), over the marks too."""
    labels = paints.labels
    bg = paints.background
    # a gridline through a bar as tall as the plot is lost in the bar's ink (bmh draws one at
    # every category): those are found again in the ink that is no mark paint (a gridline over
    # a bar is a blend of the two)
    rules = find_rules(labels != bg, inner)
    ix0, iy0, ix1, iy1 = inner
    unmarked = np.zeros(labels.shape, bool)
    unmarked[iy0:iy1, ix0:ix1] = (region != bg) & ~np.isin(region, cands)
    rules += [r for r in find_rules(unmarked, inner) if r not in rules]
    return [r for r in rules if not _inside_fill(labels, r, cands)]


def _inside_fill(labels: np.ndarray, rule: tuple[bool, int, int, int, int], cands: list[int]) -> bool:
    """A gridline that is the middle of a solid block of one mark paint is a bar (see :func:`in_block`)."""
    _, x0, y0, x1, y1 = rule
    band = labels[y0:y1, x0:x1]
    if band.size == 0:
        return False
    paints, counts = np.unique(band, return_counts=True)
    p = int(paints[counts.argmax()])
    return p in cands and counts.max() >= 0.9 * band.size and in_block(labels == p, rule)


def _series_mask(rgb, paints: Paints, p: int, members: list[int], band: np.ndarray | None, legend_box, rules,
                 inner, font: float) -> np.ndarray:
    """The pixels of series paint ``p`` (and the paints it stands for, ``members``) inside the
    plot: with the line under its band, without the legend, mended across the gridlines (those seen
    through its marks too), and rid
    of inward tick marks and of the gridlines themselves."""
    labels = paints.labels
    m = np.zeros(labels.shape, bool)
    m[inner[1]:inner[3], inner[0]:inner[2]] = np.isin(labels[inner[1]:inner[3], inner[0]:inner[2]], members)
    if band is not None:
        # the line where its band is drawn over it: its colour under the band's tint
        m |= under_band(rgb, labels, inner, paints.colors[p], band)
    if legend_box is not None:
        # cleared a margin past the frame, which the legend's bars are bridged across; what
        # the margin took beside the frame (a bar ending at it) is given back
        lx0, ly0, lx1, ly1 = legend_box
        side, top = legend_margin(font)
        wide = (max(0, lx0 - side), max(0, ly0 - top), lx1 + side, ly1 + top)
        beside = m.copy()
        beside[max(0, ly0):ly1, max(0, lx0):lx1] = False
        m[wide[1]:wide[3], wide[0]:wide[2]] = False
        m = under_legend(m, wide, inner)
        m[wide[1]:wide[3], wide[0]:wide[2]] |= beside[wide[1]:wide[3], wide[0]:wide[2]]
    # mended across the gridlines first: a tall bar cut by dashed ones (bmh) is no bundle
    # of long thin strokes for drop_rules to take
    m = bridge_seen_through(m, rgb, paints.colors[p], inner, paints.colors[paints.background],
                            [c for k, c in enumerate(paints.colors) if k not in (p, paints.background)])
    m = drop_rules(bridge_rules(drop_inner_ticks(m, inner), rules), inner)
    return drop_rules_under_marks(m, labels != paints.background, inner)


def _read_series(rgb, paints: Paints, masks: list[tuple[int, np.ndarray, tuple[int, int, int]]],
                 members: dict[int, list[int]], bands: dict[int, np.ndarray], legend: Legend, yaxis: Axis,
                 xaxis: Axis, plot) -> list[Series]:
    """Each mask read as a series, named by the legend: bars standing on the axis first, then
    segments stacked on them (on those, and so on), then whatever is left as it reads alone."""
    series: list[Series] = []
    # bars standing on the axis first, then segments stacked on them (on those, and so on)
    floors: list[tuple[float, float, float]] = []
    pending = masks
    for _ in range(max(4, len(masks))):  # a stack of six series is five floors high (Vega-Lite's)
        later = []
        for p, m, color in pending:
            s = _series_from_mask(rgb, m, color, paints.background_rgb, yaxis, xaxis, plot, floors)
            if s is None or (s.kind != "bar" and has_rects(m)):
                # perhaps a stacked series: read again on the floors found (on every level: a
                # third segment had been read as points before the second's tops were floors)
                later.append((p, m, color))
                continue
            s.name = next((legend.names[q] for q in members[p] if q in legend.names), None)
            s.swatch = next((legend.swatches[q] for q in members[p] if q in legend.swatches), None)
            if p in bands and s.kind == "line":
                s.band = band_extent(bands[p], s, xaxis, yaxis)
            series.append(s)
        new_floors = [f for s in series if s.kind == "bar" for f in s.floors]
        if not later or new_floors == floors:
            pending = later
            break
        floors, pending = new_floors, later
    ink = _plot_ink(paints, plot, legend.box)
    for p, m, color in pending:  # never stacked: whatever they are read as alone
        s = _series_from_mask(rgb, m, color, paints.background_rgb, yaxis, xaxis, plot)
        if s is None or s.kind == "line":
            # translucent bins drawn over each other (ggplot2's ``position = 'identity'``,
            # Vega-Lite's opacity): each bin runs on under the blend where another overlaps it (never
            # points: a mean marker on a bar's top is a point, not a bar down to the baseline)
            grown = grown_to_baseline(m, ink, baseline_px(yaxis, plot))
            bars = _series_from_mask(rgb, grown, color, paints.background_rgb, yaxis, xaxis, plot) \
                if grown is not None else None
            if bars is not None and bars.kind == "bar":
                s = bars
        if s is not None:
            s.name = next((legend.names[q] for q in members[p] if q in legend.names), None)
            s.swatch = next((legend.swatches[q] for q in members[p] if q in legend.swatches), None)
            series.append(s)
    return series


def _thin_outlines(m: np.ndarray, rgb, paints: Paints, p: int, inner) -> np.ndarray:
    """A paint drawn in hairline outlines (matplotlib's ``facecolors='none'`` rings, ggplot2's open
    circles): a 1 px ring is mostly anti-aliased pixels, so the paint's own pixels are specks, a few
    per ring, and the scatter had been read as a zigzag of them. Where the mask is all such specks,
    the pixels no paint took that are this paint thinned by the background, by them, join it."""
    x0, y0, x1, y1 = inner
    sub = m[y0:y1, x0:x1]
    n, _, stats, _ = find_blobs(sub)
    if n < 6 or float(np.median(stats[1:, 4])) > 12 or int(stats[1:, 4].max()) > 40:
        return m
    t, d = blend_position(rgb[y0:y1, x0:x1], paints.colors[p], paints.background_rgb)
    blend = (paints.labels[y0:y1, x0:x1] < 0) & (d <= 14) & (t <= 0.8)
    grown = sub.copy()
    for _ in range(3):
        grown |= cv2.dilate(grown.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool) & blend
    out = m.copy()
    out[y0:y1, x0:x1] = grown
    return out


def _plot_ink(paints: Paints, plot, legend_box) -> np.ndarray:
    """Every pixel inside the plot's inner box that is not the page, the legend's box aside."""
    x0, y0, x1, y1 = (int(round(v)) for v in plot)
    ink = np.zeros(paints.labels.shape, bool)
    ink[y0 + 2:y1 - 3, x0 + 3:x1 - 2] = paints.labels[y0 + 2:y1 - 3, x0 + 3:x1 - 2] != paints.background
    if legend_box is not None:
        lx0, ly0, lx1, ly1 = legend_box
        ink[max(0, ly0):ly1, max(0, lx0):lx1] = False
    return ink


def _series_from_mask(rgb, m, color, bg, yaxis: Axis, xaxis: Axis, plot,
                      floors: list[tuple[float, float, float]] = ()) -> Series | None:  # type: ignore[assignment]
    """The series one paint draws in mask ``m``: bars where its blobs are mostly rectangles on the
    baseline or on ``floors`` (see :func:`crafteditor.charts.bars.bar_series`), else a line or points."""
    n, lab, stats, _ = find_blobs(m)
    comps = [(i, stats[i]) for i in range(1, n) if stats[i][4] >= 4]
    if not comps:
        return None
    rects = [(i, s) for i, s in comps if is_rect(s) or _rect_with_text(lab, i, s)]
    base = baseline_px(yaxis, plot)
    # a histogram's bins drawn without gaps make one blob (or a few): cut into a rectangle per bin,
    # with the bins that stand apart as rectangles of their own (Vega-Lite's at scale 1: its tall
    # middle bins touch, its low tails do not; either had been lost to the other)
    steps: list = []
    cut: set[int] = set()
    if not floors:
        for i, st in comps:
            if not any(i == j for j, _ in rects) or st[4] < WHOLE_FILL * st[2] * st[3]:
                own = staircase_rects(lab, [(i, st)], base)
                if own:
                    steps += [(int(lab.max()) + 1 + len(steps) + k, r) for k, (_, r) in enumerate(own)]
                    cut.add(i)
    if steps:
        rest = [(i, st) for i, st in comps if i not in cut]
        bars = bar_series(rgb, color, bg, yaxis, xaxis, plot, floors, steps + rest,
                          steps + [r for r in rects if r[0] not in cut])
        if bars is not None:
            return bars
    bars = bar_series(rgb, color, bg, yaxis, xaxis, plot, floors, comps, rects)
    if bars is not None:
        return bars
    area = area_series(m, color, yaxis, xaxis, plot, base)
    if area is not None:
        return area
    return line_series(m, lab, comps, rects, color, yaxis, xaxis, lambda y, x, h, w: _cover(rgb[y:y + h, x:x + w],
                                                                                           bg, color))


def _cover(rgb: np.ndarray, bg, color) -> np.ndarray:
    """Each pixel's share of the paint ``color``, where it is a blend of the paint and the page (a line's
    anti-aliased edge; other inks, farther off the blend, have none). Measured on each line's own box as
    it is read, not on the page: the series of the dev set's charts had each measured the whole page
    (B_flash-attention_gpt3-eff's 14 series), the same values where they are read."""
    share, off = blend_position(rgb, bg, color)
    return np.where(off <= EDGE_BLEND, share, 0.0)


def _solid_blocks(region: np.ndarray, members: list[int], font: float) -> bool:
    """Paint ``members`` fills rectangles at least half a font size thick in the plot's
    ``region``: a thin stacked segment (MultiQC's 'multimapped' between two thick ones, a
    thirtieth of the bars' paint), not an anti-aliased fringe, which is a pixel or two wide."""
    n, _, stats, _ = find_blobs(np.isin(region, members))
    side = max(4.0, 0.5 * font)
    return any(is_rect(stats[i]) and min(stats[i][2], stats[i][3]) >= side for i in range(1, n))


def _rect_with_text(lab: np.ndarray, i: int, s) -> bool:
    """Blob ``i`` is a filled rectangle but for the holes in it: a bar segment with its value
    written in it, in white (Vega-Lite's text over stacked bars had made a fifth of a segment
    holes, and the segment no rectangle)."""
    x, y, w, h, area = (int(v) for v in s)
    if w < 3 or h < 2 or area < 0.6 * w * h:
        return False
    comp = (lab[y:y + h, x:x + w] == i).astype(np.uint8)
    outside = np.pad(1 - comp, 1, constant_values=1)
    cv2.floodFill(outside, None, (0, 0), 2)  # the page round it; what stays 1 is enclosed
    return int(comp.sum() + (outside[1:-1, 1:-1] == 1).sum()) >= 0.85 * w * h


def _merge_twins(masks: list[tuple[int, np.ndarray, tuple[int, int, int]]]
                 ) -> list[tuple[int, np.ndarray, tuple[int, int, int]]]:
    """Two paints a few levels apart are one series' (ggplot2's green markers in two shades of
    antialiasing: each had been dropped as the other's outline, and the series lost): the smaller
    joins the larger."""
    out: list[tuple[int, np.ndarray, tuple[int, int, int]]] = []
    for p, m, color in sorted(masks, key=lambda t: -int(t[1].sum())):
        twin = next((k for k, (_, _, c) in enumerate(out) if max(abs(a - b) for a, b in zip(c, color)) <= 6), None)
        if twin is None:
            out.append((p, m, color))
        else:
            q, tm, tc = out[twin]
            out[twin] = (q, tm | m, tc)
    order = [p for p, _, _ in masks]
    return sorted(out, key=lambda t: order.index(t[0]))


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
            outlines[color] = (masks[rings[0]][2], line_width(ring) if ring.any() else 1.0)
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
