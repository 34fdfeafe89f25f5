"""The legend: entries (text with a swatch of a series' paint on its left) inside the plot or in a
column right of it, their title, swatch sizes, and the box out to the legend's frame, where no
marks are read (a bar running under it is carried through)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import cv2
import numpy as np

from crafteditor.blobs import find_blobs
from crafteditor.charts.mark_paints import blend_of, mark_paints
from crafteditor.paint import Paints, blend_position, distances, luma

ABOVE = 8.0  # how far above the plot a legend's rows may stand, in type sizes
BELOW = 8.0  # how far below the plot's axis (past its ticks and title) a legend's row may stand (MultiQC's)
SWATCH_ONLY = 3  # a translucent key's paint: all its pixels within this many times those by its entry
SWATCH_GLYPHS = "■□●○▪▲◆-—–"  # a legend's swatch as OCR reads it, before the entry's name


@dataclass
class Legend:
    names: dict[int, str]  # paint -> series name
    at: dict[int, tuple[float, float]]  # paint -> where its entry is (cy, cx): the reading order
    runs: list[int]  # the entries' text runs (and the title's)
    box: tuple[int, int, int, int] | None  # x0, y0, x1, y1: no marks are read there
    title: int | None = None  # the run above the entries
    swatches: dict[int, tuple[float, float, float]] = field(default_factory=dict)  # paint -> swatch w, h, gap px


def find_legend(rgb, paints: Paints, runs, used, plot, cands: list[int], font: float, original=None,
                walls: tuple[float, ...] = ()) -> Legend:  # long: each run tried as an entry, then the title and box
    """Legend entries: text inside the plot (or in a column right of it) with a swatch of a
    candidate paint on its left; the box they fill and a title just above them."""
    x0, y0, x1, y1 = (int(round(v)) for v in plot)
    legend_names: dict[int, str] = {}
    legend_at: dict[int, tuple[float, float]] = {}  # where each paint's legend entry is (reading order)
    legend_runs: list[int] = []
    legend_box = None
    swatches: dict[int, tuple[float, float, float]] = {}
    entries: list[tuple[int, int, float, tuple[int, int, int, int]]] = []  # run, paint, swatch's left limit, box
    # a swatch names a series' paint first: a legend drawn half-transparent over a bar leaves a
    # blend of the two beside the swatch (more pixels than the swatch: the name went to it) and
    # a swatch a shade off its series' paint
    counts, _, _ = mark_paints(paints, paints.labels[y0 + 2:y1 - 3, x0 + 3:x1 - 2], False)
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
        # the plot's own frame, a stroke thicker than 3 px (ggplot2's theme_bw at 150 dpi), is no
        # next plot: the legend beside it had been cut off
        lead = int(np.argmax(np.diff(np.concatenate([axes, [axes[-1] + 2]])) > 1)) + 1 if axes.size else 0
        if axes.size and axes[0] <= 2 and axes[lead - 1] <= 0.5 * font:
            axes = axes[lead:]
        # nor the plot's own right edge a few px on: Vega-Lite's last gridline, where the axis read
        # ended at the last tick short of it, had ended the legend column before its entries
        axes = axes[axes + 3 >= font]
        if axes.size:
            reach = x1 + 3 + int(axes[0])
    reach = int(min([reach] + [w for w in walls if w > x1 + 3]))  # a panel's edge (ggplot draws no axis)
    for k, r in enumerate(runs):
        # inside the plot, in a column to its right (Vega-Lite's), in rows above (W&B's) or below the axis (MultiQC's)
        if k in used or r.angle != 0 or not (x0 <= r.cx <= x1 + 15 * font and y0 - ABOVE * font <= r.cy <= y1 + (
                BELOW * font if r.cx <= x1 else 0)) or (r.cx > x1 and r.right > reach):
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
        if r.text.lstrip()[:1] not in SWATCH_GLYPHS:  # a swatch read as a glyph is in the run's glyphs
            _mask_glyphs(sw, r, sx0, sy0)
        text_rgb = np.array(r.color, np.float32)
        best = None
        for group in (major, minor):
            for p in group:
                col = paints.colors[p].astype(np.float32)
                # a dark paint (a near-black line) is matched by the text's own anti-aliased
                # glyphs too: 'Order', a legend's title, had taken the black series' name
                dark = float(luma(col)) < 90 and float(luma(text_rgb)) < 90
                part = sw[:, :own] if float(np.linalg.norm(col - text_rgb)) < 40 or dark else sw
                n = int((np.linalg.norm(part - col, axis=2) < 18).sum())
                if n >= 4 and (best is None or n > best[0]):
                    best = (n, p)
            if best is not None:
                break
        near = None
        if best is not None and best[1] in minor:
            # a swatch drawn translucent is a paint of its own, too few pixels to be a series:
            # the series it thins (matplotlib's legend handles at alpha 0.5); not a paint with marks
            # of its own outside the swatch (tab20's light blue, a blend of its blue and white, is a
            # series: a stacked bar's thin slice had been named for the blue bars)
            swatch_only = int((paints.labels == best[1]).sum()) <= SWATCH_ONLY * int(
                (paints.labels[sy0:sy1, sx0:sx1] == best[1]).sum())
            kin = [q for q in major if swatch_only and 0.15 <= blend_of(
                paints.colors[best[1]], paints.colors[q], paints.background_rgb) <= 0.7]
            if len(kin) == 1:
                near = np.linalg.norm(sw - paints.colors[best[1]].astype(np.float32), axis=2) < 18
                best = (best[0], kin[0])
        if best is None:
            # no swatch of a paint as drawn: one drawn translucent over the page
            near, p = _translucent_swatch(sw, paints, major + minor)
            best = (int(near.sum()), p) if p is not None else None
        if best is not None:
            # a swatch ends with its entry's row; a bar beside a value label runs on down (the
            # next group's taller bar, left of a grouped bar's label, had named a series '110')
            below = paints.labels[int(r.bottom + 2):int(r.bottom + 2 + 0.6 * font), sx0:sx1]
            if near is None:
                near = np.linalg.norm(sw - paints.colors[best[1]].astype(np.float32), axis=2) < 18
            cols = near.any(axis=0)[:below.shape[1]]
            if below.size and (float((below == best[1]).mean()) >= 0.5
                               or (cols.any() and float((below[:, cols] == best[1]).mean()) >= 0.5)) \
                    and not _key_box(paints.labels, best[1], r, sx0, cols, font):
                best = None
            # nor does a swatch run on left, or touch the plot's left edge: a horizontal bar's
            # end beside its value label does (bars beside '0.06s' and '0.99s' had named series)
            elif r.x > x0 and _bar_end(paints.labels, best[1], near, sx0, sy0, sy1, x0, font):
                best = None
        if best is not None:
            entries.append((k, best[1], left_edge, (sx0 - 2, int(r.y - 0.4 * font), int(r.right + 2),
                                                    int(r.bottom + 0.4 * font))))
    for k, p, left_edge, bx in _one_legend(entries, font):
        r = runs[k]
        legend_names.setdefault(p, entry_name(r))
        legend_at.setdefault(p, (r.cy, r.cx))
        size = _swatch_size(original if original is not None else rgb, paints.colors[p], r, font, left_edge)
        if size is not None:
            swatches.setdefault(p, size)
        legend_runs.append(k)
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


def legend_name(text: str) -> str:
    """A legend entry's series name: its text without the swatch OCR read with it."""
    name = text.lstrip(SWATCH_GLYPHS + " ").strip() or text
    # a stroke swatch (Vega-Lite's) read as a mark of its own before a space: '| train', '] cherry'
    return re.sub(r"^[|\[\]!_=~•·*/\\]{1,2}\s+(?=\w)", "", name) or name


def entry_name(r) -> str:
    """A legend entry's series name (see :func:`legend_name`), up to a gap in its glyphs wider than
    a font size: what OCR read on past it is other text beside the legend (a bar's value label
    '167' half under the legend's face had named a series 'Megatron-LM i7'). The glyphs' word
    gaps (a quarter font or more) stand for the text's spaces where they are as many."""
    words = r.text.split(" ")
    g = r.glyphs
    if len(words) < 2 or g is None or g.size == 0 or not r.font_px:
        return legend_name(r.text)
    cols = np.flatnonzero(g.any(axis=0))
    gaps = np.diff(cols) - 1 if cols.size >= 2 else np.zeros(0, int)
    gaps = gaps[gaps >= 0.25 * r.font_px]
    if len(gaps) != len(words) - 1:
        return legend_name(r.text)
    wide = np.flatnonzero(gaps >= 1.0 * r.font_px)
    if wide.size == 0 or wide[0] == 0 and len(words[0].strip(SWATCH_GLYPHS)) == 0:
        return legend_name(r.text)
    return legend_name(" ".join(words[:int(wide[0]) + 1]))


def _key_box(labels: np.ndarray, paint: int, r, sx0: int, cols: np.ndarray, font: float) -> bool:
    """A legend key taller than its entry's text, centred on it (ggplot2's, 17 pt keys beside
    8.8 pt text): the swatch's paint runs as far above the text as below it, and ends within a
    font size; a bar beside a value label runs on down."""
    xs = np.flatnonzero(cols) + sx0
    if xs.size == 0:
        return False
    band = labels[:, int(xs[0]):int(xs[-1]) + 1] == paint
    H = band.shape[0]

    def run(y: int, step: int) -> int:
        n = 0
        while 0 <= y < H and float(band[y].mean()) >= 0.5 and n <= 2 * font:
            n, y = n + 1, y + step
        return n

    below, above = run(int(r.bottom) + 1, 1), run(int(r.y) - 1, -1)
    if not (0 < below <= 1.0 * font and abs(above - below) <= 0.25 * font + 2):
        return False
    # a key stands apart, left of its text: a segment of stacked bars round a value label
    # written in it runs on left, and up to the text
    row = labels[int(r.cy), sx0:max(sx0, int(r.x))] == paint
    on = np.flatnonzero(row)
    return on.size > 0 and on[0] > 0 and row.size - 1 - on[-1] >= 2


def _translucent_swatch(sw: np.ndarray, paints: Paints, cands: list[int]) -> tuple[np.ndarray, int | None]:
    """The swatch pixels and paint of a swatch drawn translucent over the page: a flat blend of a
    vivid series paint with the background, most of its pixels one share of the way (Vega-Lite
    draws a line chart's legend strokes at 0.7 opacity: (121, 154, 190) beside a line of
    (76, 120, 168); no entry was found and the series '0' and '1' were 'series 1' and 'series 2').
    Paints of little chroma (grey, black) are left out: the text's own anti-aliased edges are blends of those."""
    bg = paints.background_rgb
    best: tuple[int, np.ndarray, int | None] = (0, np.zeros(sw.shape[:2], bool), None)
    for p in cands:
        col = paints.colors[p].astype(np.float32)
        if float(col.max() - col.min()) < 60:
            continue
        t, d = blend_position(sw, col, bg)
        blend = (d <= 6) & (t >= 0.15) & (t <= 0.6)
        if not blend.any():
            continue
        flat = blend & (np.abs(t - float(np.median(t[blend]))) <= 0.05)
        n = int(flat.sum())
        if n >= 8 and n > best[0]:
            best = (n, flat, p)
    return best[1], best[2]


def _mask_glyphs(sw: np.ndarray, r, sx0: int, sy0: int) -> None:
    """The run's own glyphs and their anti-aliased rims in the swatch window ``sw`` (at ``sx0``,
    ``sy0``) made no colour at all: the grey rim of a bold black title had been its swatch."""
    if r.glyphs is None or not r.glyphs.size:
        return
    rim = cv2.dilate(r.glyphs.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    gx, gy = int(r.x) - sx0, int(r.y) - sy0
    h, w = sw.shape[:2]
    ya, yb, xa, xb = max(0, gy), min(h, gy + rim.shape[0]), max(0, gx), min(w, gx + rim.shape[1])
    if ya < yb and xa < xb:
        sw[ya:yb, xa:xb][rim[ya - gy:yb - gy, xa - gx:xb - gx]] = -1e4


def _bar_end(labels: np.ndarray, paint: int, near: np.ndarray, sx0: int, sy0: int, sy1: int, x0: int,
             font: float) -> bool:
    """The paint beside a text run is a horizontal bar's end: it reaches the plot's left edge,
    or it fills the window's left edge and half the strip left of it."""
    if sx0 <= x0 + 2 and near[:, :max(0, x0 + 3 - sx0)].any():
        return True
    strip = labels[sy0:sy1, max(0, int(sx0 - 0.6 * font)):sx0]
    return bool(near[:, :2].any() and strip.size and float((strip == paint).mean()) >= 0.5)


def _one_legend(entries: list, font: float) -> list:
    """The entries that make one legend: the group of entries each within 1.5 font sizes of
    another that names the most paints, else the largest (a value label beside a bar elsewhere in the plot, '0' by a taller bar,
    had stretched the legend's box over the whole plot and every mark under it was dropped)."""
    if len(entries) <= 1:
        return entries
    gap = 1.5 * font
    group = list(range(len(entries)))

    def root(i: int) -> int:
        while group[i] != i:
            i = group[i]
        return i

    for i, (_, _, _, a) in enumerate(entries):
        for j in range(i):
            b = entries[j][3]
            dy = max(a[1] - b[3], b[1] - a[3])
            # entries in one row stand further apart (the next one's swatch between them)
            if max(a[0] - b[2], b[0] - a[2]) <= (3.5 * font if dy < 0 else gap) and dy <= gap:
                group[root(i)] = root(j)
    sizes: dict[int, int] = {}
    paints: dict[int, set[int]] = {}
    for i in range(len(entries)):
        sizes[root(i)] = sizes.get(root(i), 0) + 1
        paints.setdefault(root(i), set()).add(entries[i][1])
    # a legend names each paint once: the group naming the most paints (value labels in stacked
    # bars, each beside a segment of one of three paints, had outnumbered Vega-Lite's six entries)
    best = max(sizes, key=lambda g: (len(paints[g]), sizes[g], -g))
    return [e for i, e in enumerate(entries) if root(i) == best]


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


def legend_margin(font: float) -> tuple[int, int]:
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
    side, top = legend_margin(font)
    # the face: page, or near white (a half-transparent face over a bar the legend hides); looked
    # at only as far as the box may grow
    wy0, wy1, wx0, wx1 = max(0, y0 - top - 1), min(H, y1 + top + 1), max(0, x0 - side - 1), min(W, x1 + side + 1)
    lab = paints.labels[wy0:wy1, wx0:wx1]
    lum = luma(paints.colors)
    face = (lab == paints.background) | ((lab >= 0) & (lum[np.maximum(lab, 0)] >= 205))
    if rgb is not None:
        face |= (lab < 0) & (luma(rgb[wy0:wy1, wx0:wx1]) >= 205)
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


def under_legend(m: np.ndarray, box, inner) -> np.ndarray:
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
