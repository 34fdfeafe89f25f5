"""Pies and donuts: a disc (or a ring) of slices of several paints, no axes. The slices are read
round the centre (the majority paint along each half-degree ray), each slice's share of the
circle is its value in %, and a slice is named by the legend entry whose swatch is its paint, else
by the label set outside it. The chart is a Vega-Lite ``arc`` chart (theta stacked, colour by
slice) with the slices in clockwise order from where the first begins; the legend, the labels and
the shares printed on the slices stay the page's text and shapes (only the disc is redrawn).
A radial (rose) chart's slices reach out to radii of their own: each slice's radius is read too (the
median reach of its rays), given as a ``radius`` field on a linear scale from zero, and the slices
are drawn out to it; a slice of a degree or two is no slice where its paint is the anti-aliased blend
of its neighbours (or of the page and a neighbour) at a seam (``_seam``)."""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np

from crafteditor.blobs import find_blobs
from crafteditor.charts.component import ChartResult, box_mask
from crafteditor.charts.labels import typical_font
from crafteditor.charts.legend import legend_name
from crafteditor.ocr.runs import TextRun
from crafteditor.paint import Paints, to_hex

_BINS = 720  # half-degree rays


def find_pies(rgb: np.ndarray, paints: Paints, runs: list[TextRun], used: set[int],
              taken: list[tuple[float, float, float, float]]) -> list[ChartResult]:
    """The pies on the page outside the plots read already (``taken``: their boxes)."""
    ink = (paints.labels != paints.background).astype(np.uint8)
    solid = cv2.morphologyEx(ink, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    n, lab, stats, _ = find_blobs(solid)
    out: list[ChartResult] = []
    for i in range(1, n):
        x, y, w, h, _ = (int(v) for v in stats[i])
        if min(w, h) < 60:
            continue
        if any(tx0 - 2 <= x + w / 2 <= tx1 + 2 and ty0 - 2 <= y + h / 2 <= ty1 + 2 for tx0, ty0, tx1, ty1 in taken):
            continue
        filled = _fill_holes(lab[y:y + h, x:x + w] == i)
        if 0.9 <= w / h <= 1.1 and 0.72 <= filled.mean() <= 0.83 and _round(filled):  # a disc fills pi/4 of its box
            res = _read_pie(rgb, paints, runs, used, (x + w / 2, y + h / 2, (w + h) / 4))
        else:
            disc = _rose_disc(paints, filled, x, y)
            res = None if disc is None else _read_pie(rgb, paints, runs, used, disc, rose=True)
        if res is not None:
            out.append(res)
            used.update(res.kept_text)
    return out


def _round(filled: np.ndarray) -> bool:
    """Whether ``filled`` (the ink of a box, holes filled) is a disc: next to nothing past the circle its
    box inscribes. A filled rectangle with boxes out past its sides (a sequence diagram's tinted
    participant band, its notes) fills pi/4 of its box too, but far into the box's corners."""
    h, w = filled.shape
    ys, xs = np.nonzero(filled)
    r = (w + h) / 4
    out = np.hypot(xs + 0.5 - w / 2, ys + 0.5 - h / 2) > 1.04 * r + 3
    return float(out.mean()) <= 0.03


def _fill_holes(m: np.ndarray) -> np.ndarray:
    outside = np.pad(~m, 1, constant_values=True).astype(np.uint8)
    cv2.floodFill(outside, None, (0, 0), 2)
    return (outside[1:-1, 1:-1] != 2)


def _ray_paints(labels: np.ndarray, cx: float, cy: float, radii: np.ndarray) -> np.ndarray:
    """The paint at each ray (rows, ``_BINS``) and radius (columns; ``radii`` the same for every
    ray, or one row of them per ray)."""
    H, W = labels.shape
    a = (np.arange(_BINS) + 0.5) * 2 * math.pi / _BINS  # clockwise from 12 o'clock
    rr = radii if radii.ndim == 2 else radii[None, :]
    xs = np.clip(np.rint(cx + np.sin(a)[:, None] * rr), 0, W - 1).astype(int)
    ys = np.clip(np.rint(cy - np.cos(a)[:, None] * rr), 0, H - 1).astype(int)
    return labels[ys, xs]


def _rose_disc(paints: Paints, filled: np.ndarray, x: int, y: int) -> tuple[float, float, float] | None:
    """The centre and outermost radius of a radial chart (a rose: slices of several paints and
    several radii about one centre, Vega-Lite's arc with a radius channel) in the ink ``filled`` at
    ``(x, y)``: the point nearest every slice's paint (the apex the slices share, or the centre of
    the hole they ring), where that is near all of them; None where the ink has fewer than three
    paints of a slice's size."""
    own = np.where(filled, paints.labels[y:y + filled.shape[0], x:x + filled.shape[1]], -1)
    counts = np.bincount(own[own >= 0].ravel(), minlength=len(paints.colors))
    counts[paints.background] = 0
    slices = np.flatnonzero(counts >= 0.02 * filled.sum())
    if len(slices) < 3:
        return None
    # each point's distance to its farthest slice paint, taken paint by paint: the running maximum
    # only grows, so once its least is past the reach no point is near all slices and the rest are
    # not measured (a Mermaid page's one blob of boxes and edges: G_clem_sleep-cycle's pies 3.2 -> 1.5 CPU-s)
    reach = 0.25 * max(filled.shape)
    if _far_from_a_slice(own, slices, reach):
        return None
    near = None
    for p in slices:
        d = cv2.distanceTransform((own != p).astype(np.uint8), cv2.DIST_L2, cv2.DIST_MASK_PRECISE)
        near = d if near is None else np.maximum(near, d, out=near)
        if float(near.min()) > reach:
            return None
    cy, cx = np.unravel_index(int(np.argmin(near)), near.shape)
    # a hole there is the centre's ring (the slices left out above, too small, had pulled the point
    # toward their side): its middle, the white edges between slices opened away
    hole = cv2.morphologyEx((filled & (own == paints.background)).astype(np.uint8), cv2.MORPH_OPEN,
                            np.ones((5, 5), np.uint8))
    n, lab, _, mids = cv2.connectedComponentsWithStats(hole, connectivity=8)
    if lab[cy, cx] > 0:
        cx, cy = (float(v) for v in mids[lab[cy, cx]])
    ys, xs = np.nonzero(filled)
    return x + float(cx), y + float(cy), float(np.hypot(xs - cx, ys - cy).max())


def _far_from_a_slice(own: np.ndarray, slices: np.ndarray, reach: float) -> bool:
    """Whether every point of ``own`` (paint labels) lies farther than ``reach`` from some slice paint, as
    :func:`_rose_disc`'s distances would find, told from :data:`_POOL` px blocks (a block holds a paint if
    any of its pixels has it): a pixel in block Q is at least ``_POOL·|Q − P| − (_POOL − 1)·√2`` from any
    pixel in block P, so where that bound is past ``reach`` the pixels' distances are too. A page-sized
    blob of boxes and edges (a Mermaid export, 15 MP) was measured paint by paint at full size for nothing:
    the blocks cost a tenth of it. False where the bound does not tell (the pixels are then measured)."""
    h, w = own.shape
    if min(h, w) < 8 * _POOL:
        return False
    kernel = np.ones((_POOL, _POOL), np.uint8)
    slack = (_POOL - 1) * math.sqrt(2.0) + 0.01  # the bound's corner terms, and float32's rounding
    near = None
    for p in slices:
        # each block's any-pixel of the paint: a dilation anchored at the block's corner, read at the corners
        held = cv2.dilate((own == p).astype(np.uint8), kernel, anchor=(0, 0))[::_POOL, ::_POOL]
        d = cv2.distanceTransform((held == 0).astype(np.uint8), cv2.DIST_L2, cv2.DIST_MASK_PRECISE)
        near = d if near is None else np.maximum(near, d, out=near)
        if _POOL * float(near.min()) - slack > reach:
            return True
    return False


_POOL = 4  # px: the blocks :func:`_far_from_a_slice` bounds distances on


def _reaches(labels: np.ndarray, bg: int, cx: float, cy: float, r: float) -> np.ndarray:
    """Each ray's reach from the centre: where its first stretch of ink (three pixels or more: not
    the specks where the white edges between slices meet) ends (a radial chart's slice's own
    radius; 0 on a ray of the page's paint, an edge between slices)."""
    radii = np.arange(0.0, r + 3.0)
    ink = _ray_paints(labels, cx, cy, radii) != bg
    solid = ink[:, :-2] & ink[:, 1:-1] & ink[:, 2:]
    first = np.argmax(solid, axis=1)
    gone = ~ink[:, :-2] & (np.arange(solid.shape[1])[None, :] >= first[:, None])
    end = np.where(gone.any(axis=1), np.argmax(gone, axis=1), solid.shape[1] - 1)
    return np.where(solid.any(axis=1), radii[end], 0.0)


def _read_pie(rgb: np.ndarray, paints: Paints, runs: list[TextRun], used: set[int],  # long: the disc, its slices,
              disc: tuple[float, float, float], rose: bool = False) -> ChartResult | None:  # their names, the spec
    """A pie's (or, ``rose``, a radial chart's) slices read round ``disc``, named, as a chart."""
    labels, bg = paints.labels, paints.background
    cx, cy, r = disc
    # the hole of a donut: where the ink begins along each ray
    fine = _ray_paints(labels, cx, cy, np.linspace(0, 0.97 * r, 60))
    first = np.argmax(fine != bg, axis=1)
    inner = float(np.median(first)) / 59 * 0.97 * r
    inner = inner if inner > 0.2 * r else 0.0
    lo = max(inner + 0.08 * r, 0.25 * r)
    # a radial chart's rays each sampled over their own slice's reach, from a quarter of the way out
    # (nearer the centre a white edge between slices spans degrees)
    reach = _reaches(labels, bg, cx, cy, r) if rose else np.full(_BINS, r)
    near = inner + 0.25 * np.maximum(reach - inner, 0.0)
    ids = _ray_paints(labels, cx, cy, np.linspace(near, np.maximum(near, 0.93 * reach), 16, axis=1) if rose
                      else np.linspace(lo, 0.93 * r, 16))
    major = np.array([np.bincount(row[row >= 0], minlength=len(paints.colors)).argmax() if (row >= 0).any() else -1
                      for row in ids])
    if (major == bg).mean() > 0.1:
        return None  # no closed disc of slices
    # runs of one paint round the circle, the ones of a degree or less (an edge, an anti-aliased seam) given up
    runs_: list[list[int]] = []  # [paint, first bin, bins]
    for k, p in enumerate(major):
        if runs_ and runs_[-1][0] == p:
            runs_[-1][2] += 1
        else:
            runs_.append([int(p), k, 1])
    if len(runs_) > 1 and runs_[0][0] == runs_[-1][0]:  # the slice across 12 o'clock
        runs_[0] = [runs_[0][0], runs_[-1][1], runs_[0][2] + runs_[-1][2]]
        runs_.pop()
    # two runs of one paint make one slice, but for an edge between them, of the page's paint or
    # another (slices of one grey each side of a white edge: grayscale's palette repeats)
    edges = (ids == bg).mean(axis=1) >= 0.3

    def parted(a: list[int], b: list[int]) -> bool:
        gap = [(a[1] + a[2] + j) % _BINS for j in range((b[1] - a[1] - a[2]) % _BINS)]
        return bool(gap) and bool(edges[gap].any() or ((major[gap] >= 0) & (major[gap] != a[0])).any())

    slices = [s for s in runs_ if s[2] > 2 and s[0] != bg]
    merged: list[list[int]] = []
    for s in slices:
        if merged and merged[-1][0] == s[0] and not parted(merged[-1], s):
            merged[-1][2] += s[2] + (s[1] - merged[-1][1] - merged[-1][2]) % _BINS
        else:
            merged.append(list(s))
    if len(merged) > 1 and merged[0][0] == merged[-1][0] and not parted(merged[-1], merged[0]):
        merged[0] = [merged[0][0], merged[-1][1], merged[0][2] + merged[-1][2]]
        merged.pop()
    merged = [s for k, s in enumerate(merged) if not _seam(paints, merged, k, edges, disc)]
    if not 2 <= len(merged) <= 24 or len({s[0] for s in merged}) < 2:
        return None
    # a radial chart's slice is a sector: one reach across it (its edge rays aside), three slices at
    # least (a box and its header band seen from their shared edge are two slices of changing reach);
    # a tenth of each end's rays aside (a centre a pixel off sees the neighbour there)
    outer = [float(np.median(reach[[(s[1] + j) % _BINS for j in range(s[2])]])) for s in merged]

    def sector(s: list[int], o: float) -> bool:
        m = max(2, s[2] // 10)
        return bool(np.abs(reach[[(s[1] + j) % _BINS for j in range(m, s[2] - m)]] - o).max(initial=0.0)
                    <= 0.06 * o + 3.0)

    if rose and (len(merged) < 3 or not all(sector(s, o) for s, o in zip(merged, outer))):
        return None
    total = sum(s[2] for s in merged)
    names, named_by = _names(rgb, paints, runs, used, merged, disc, typical_font(runs))
    start = merged[0][1] * 2 * math.pi / _BINS
    rows = [{"x": names[k], "y": round(100.0 * s[2] / total, 2)} for k, s in enumerate(merged)]
    if rose:  # each slice's radius in pixels, the largest the chart's
        for row, o in zip(rows, outer):
            row["r"] = round(o, 1)
    colours = [to_hex(tuple(int(v) for v in paints.colors[s[0]])) for s in merged]
    mark: dict[str, Any] = {"type": "arc"}
    if inner:
        mark["innerRadius"] = round(inner, 1)
    spec = {"mark": mark, "data": {"values": rows},
            "encoding": {"theta": {"field": "y", "type": "quantitative", "stack": True,
                                   "scale": {"range": [round(start, 4), round(start + 2 * math.pi, 4)]}},
                         "color": {"field": "x", "type": "nominal", "sort": None, "legend": None,
                                   "scale": {"domain": [r["x"] for r in rows], "range": colours}}}}
    if rose:
        spec["encoding"]["radius"] = {"field": "r", "type": "quantitative", "scale": {"type": "linear", "zero": True}}
    box = (cx - r, cy - r, cx + r, cy + r)
    H, W = labels.shape
    inside = [k for k, rn in enumerate(runs) if k not in used and math.hypot(_cx(rn) - cx, _cy(rn) - cy) <= r]
    return ChartResult(box=box, plot=box, mask=box_mask(box, H, W), run_indices=[], spec=spec,
                       kept_text=inside + sorted(named_by))


def _seam(paints: Paints, slices: list[list[int]], k: int, edges: np.ndarray,
          disc: tuple[float, float, float]) -> bool:
    """Whether slice ``k`` is the anti-aliased white edge between two slices, no slice: a degree
    or two of a paint between the page's and a neighbour's (a greyscale donut's edge at 12 o'clock
    was a slice of 0.4 %, and took the title's name), or between its two neighbours' paints (the
    blended seam where a radial chart's first and last slices meet: on a dark page, where no page
    shows between them, a phantom slice of 0.56 %), where the page shows on its rays or no legend
    swatch has its paint (tab20's pale blue beside its blue, grey beside black: a real small slice)."""
    colors, bg = paints.colors, paints.background
    if slices[k][2] > 4 or len(slices) < 3:
        return False
    if not edges[[(slices[k][1] + j) % _BINS for j in range(slices[k][2])]].any() and _swatched(paints, slices[k][0], disc):
        return False
    own = colors[slices[k][0]].astype(float)
    before, after = (colors[n[0]].astype(float) for n in (slices[k - 1], slices[(k + 1) % len(slices)]))
    return any(_between(own, a, b) for a, b in ((colors[bg].astype(float), before),
                                                (colors[bg].astype(float), after), (before, after)))


def _between(own: np.ndarray, a: np.ndarray, b: np.ndarray) -> bool:
    """Whether colour ``own`` is a blend of ``a`` and ``b``: on the segment between them (within 12 of
    it), at neither end."""
    d = b - a
    t = float(np.dot(own - a, d) / max(float(np.dot(d, d)), 1.0))
    return 0.05 < t < 0.95 and float(np.linalg.norm(a + t * d - own)) <= 12


def _swatched(paints: Paints, p: int, disc: tuple[float, float, float]) -> bool:
    """Whether paint ``p`` fills a patch outside the disc (a legend's swatch), more than the
    anti-aliased edge of type or of the disc."""
    cx, cy, r = disc
    m = (paints.labels == p).astype(np.uint8)
    cv2.circle(m, (int(round(cx)), int(round(cy))), int(r * 1.05) + 2, 0, -1)
    return bool(cv2.erode(m, np.ones((5, 5), np.uint8)).any())


def _names(rgb: np.ndarray, paints: Paints, runs: list[TextRun], used: set[int], slices: list[list[int]],
           disc: tuple[float, float, float], font: float) -> tuple[dict[int, str], set[int]]:
    """Each slice's name: the legend entry with a swatch of its paint just left of it, else the text
    outside the disc nearest the slice's middle, else 'slice k'; and the runs that named them."""
    cx, cy, r = disc
    # a legend entry may be a bare number (Vega-Lite's categories 1..6): its swatch names it; a
    # label beside a slice needs a letter (a number there is the slice's printed share)
    outside = [k for k, rn in enumerate(runs) if k not in used and rn.angle == 0
               and math.hypot(_cx(rn) - cx, _cy(rn) - cy) > r and any(ch.isalnum() for ch in rn.text)]
    free = [k for k in outside if any(ch.isalpha() for ch in runs[k].text)]
    names: dict[int, str] = {}
    taken: set[int] = set()
    # a legend entry: its swatch left of it, else in its box's first glyph. The sure swatches first
    # (left of the box, or a symbol glyph), then the first letters' boxes: a title's anti-aliased
    # black edge had taken the grey slice before its own legend entry came to name it
    for sure in (True, False):
        for k in outside:
            if k not in taken:
                j = _entry_swatch(rgb, paints, runs[k], slices, names, disc, font, sure)
                if j is not None:
                    names[j] = _entry_name(rgb, runs[k], paints.colors[slices[j][0]])
                    taken.add(k)
    legend = len(names) >= 2
    anchors = []  # where each slice's label would be set: beyond the rim at its middle
    for s in slices:
        mid = (s[1] + s[2] / 2) * 2 * math.pi / _BINS
        anchors.append((cx + 1.2 * r * math.sin(mid), cy - 1.2 * r * math.cos(mid)))

    def gap(k: int, j: int) -> float:
        px, py = anchors[j]
        return math.hypot(_near_x(runs[k], px) - px, _cy(runs[k]) - py)

    # a label names the slice it points at: its end toward the disc (a label left of a pie ends
    # there, one right of it begins there), seen from the centre, in that slice's sector or nearest
    # its middle. A slice labelled by its share alone (a bare number) had taken its neighbour's
    # name, the nearer to its own middle, and the neighbour was left 'slice k'
    mids = [(sl[1] + sl[2] / 2) % _BINS for sl in slices]

    def pointed(k: int) -> int:
        rn = runs[k]
        lx = rn.x + rn.w if _cx(rn) < cx else rn.x
        b = (math.atan2(lx - cx, cy - _cy(rn)) % (2 * math.pi)) * _BINS / (2 * math.pi)
        inside = [j for j, sl in enumerate(slices) if (b - sl[1]) % _BINS < sl[2]]
        if inside:
            return inside[0]
        return min(range(len(slices)), key=lambda j: min((b - mids[j]) % _BINS, (mids[j] - b) % _BINS))

    owner = {k: pointed(k) for k in outside}
    for j, s in enumerate(slices):  # a label beside the slice (where no legend names them)
        if j in names or legend:
            continue
        px, py = anchors[j]
        best = min((k for k in free if k not in taken and owner[k] == j), default=None, key=lambda k: gap(k, j))
        if best is not None and math.hypot(_near_x(runs[best], px) - px, _cy(runs[best]) - py) <= 0.45 * r:
            names[j] = runs[best].text.strip()
            taken.add(best)
    return {j: names.get(j, f"slice {j + 1}") for j in range(len(slices))}, taken


def _entry_swatch(rgb: np.ndarray, paints: Paints, rn: TextRun, slices: list[list[int]], names: dict[int, str],
                  disc: tuple[float, float, float], font: float, sure: bool) -> int | None:
    """The slice a legend entry's swatch names: ``sure``, one left of its box or its first glyph a
    symbol; else one in its box's first letter's columns (the box may start over the swatch:
    Vega-Lite's bottom legend at scale 1 reads 'Plum' from its dot), not of the text's own ink
    (a black slice had been named by the 'D' of the label 'Delta' beside another slice)."""
    lead = max(rn.h, 0.6 * font)
    # a filled round or square first glyph is the swatch itself: its own columns are looked in, and
    # its paint may be the text's (a greyscale pie's black slice, its grey one in the type's
    # anti-aliased edge, had been refused their swatches, left 'slice k')
    dot = _swatch_glyph(rn)
    if sure and dot:  # the symbol read with the text, not what lies left of it (the word before)
        return _swatch_of(rgb, paints, rn, slices, names, disc, font, int(max(0, rn.x - 1)), int(rn.x + dot))
    if sure:
        return _swatch_of(rgb, paints, rn, slices, names, disc, font, int(max(0, rn.x - 2.5 * lead)),
                          int(max(0, rn.x - 1)))
    if dot:
        return None
    return _swatch_of(rgb, paints, rn, slices, names, disc, font, int(max(0, rn.x - 1)), int(rn.x + 1.2 * lead),
                      _text_ink(rgb, rn))


def _swatch_of(rgb: np.ndarray, paints: Paints, rn: TextRun, slices: list[list[int]], names: dict[int, str],
               disc: tuple[float, float, float], font: float, x0: int, x1: int,
               ink: np.ndarray | None = None) -> int | None:
    """The slice (not named yet) whose paint makes a swatch in columns ``x0``..``x1`` about the
    middle of legend entry ``rn``, if any; none whose paint is like ``ink`` (the text's pixels)."""
    H = rgb.shape[0]
    cx, cy, r = disc
    # rows of a line of type about the run's middle: a word without ascenders ('west', 6 px
    # high beside a 10 px swatch) had seen its swatch fill most of the window, taken for a tint
    half = 0.5 * max(rn.h, font)
    y0, y1 = int(max(0, _cy(rn) - half)), int(min(H, math.ceil(_cy(rn) + half)))
    near = rgb[y0:y1, x0:x1].reshape(-1, 3).astype(np.float32)
    if near.size == 0:
        return None
    # the slice itself is no swatch (a title beside the pie's rim sees its slice; a legend may
    # overlap the disc where another slice lies): the pixels on the disc in a slice's own sector
    yy, xx = np.mgrid[y0:y1, x0:x1]
    ray = (np.arctan2(xx - cx, cy - yy) % (2 * math.pi) * _BINS / (2 * math.pi)).astype(int).ravel()
    on_disc = (np.hypot(xx - cx, yy - cy) <= r + 2).ravel()
    # a swatch of a slice's colour (by colour: a small symbol's pixels may fall in a paint of their own)
    counts = [int(((np.linalg.norm(near - paints.colors[s[0]].astype(np.float32), axis=1) <= 24)
                   & ~(on_disc & ((ray - s[1]) % _BINS < s[2]))).sum())
              if j not in names and not _like(ink, paints.colors[s[0]]) else 0 for j, s in enumerate(slices)]
    j = int(np.argmax(counts)) if counts else 0
    # a swatch, not a tint filling the page round the text
    return j if counts and 6 <= counts[j] <= 0.6 * len(near) else None


def _first_gap(glyphs: np.ndarray) -> int:
    """The column after the first glyph of a run's ink mask (0 where its ink has no gap)."""
    cols = np.flatnonzero(glyphs.any(axis=0))
    return int(cols[np.argmax(np.diff(cols) > 1)]) + 1 if cols.size > 1 and (np.diff(cols) > 1).any() else 0


def _swatch_glyph(rn: TextRun) -> int:
    """The width of a run's first glyph where it is a legend symbol read with the text (a filled
    disc or square, about as wide as high, set apart from the word), else 0."""
    if rn.glyphs is None or not rn.glyphs.size:
        return 0
    end = _first_gap(rn.glyphs)
    head = rn.glyphs[:, :end]
    if not end or not head.any():
        return 0
    rows, cols = np.flatnonzero(head.any(axis=1)), np.flatnonzero(head.any(axis=0))
    h, w = rows[-1] - rows[0] + 1, cols[-1] - cols[0] + 1
    fill = float(head[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1].mean())
    # set apart from the word as no letter is (a small disc's anti-aliased corners leave it half full)
    rest = np.flatnonzero(rn.glyphs[:, end:].any(axis=0))
    apart = (rest[0] if rest.size else 0) + end - 1 - cols[-1]
    return end if 3 <= w and 0.7 <= w / h <= 1.4 and fill >= 0.45 and apart >= max(3, 0.6 * h) else 0


def _text_ink(rgb: np.ndarray, rn: TextRun) -> np.ndarray | None:
    """The pixels of a run's text after its first glyph (which may be a swatch the box starts
    over), or None where the run has no such ink."""
    if rn.glyphs is None or not rn.glyphs.size:
        return None
    end = _first_gap(rn.glyphs)
    y0, x0 = int(round(rn.y)), int(round(rn.x))
    g = rn.glyphs[:, end:]
    patch = rgb[y0:y0 + g.shape[0], x0 + end:x0 + end + g.shape[1]].astype(np.float32)
    g = g[:patch.shape[0], :patch.shape[1]]
    return patch[g] if end and g.any() else None


def _like(ink: np.ndarray | None, color: np.ndarray) -> bool:
    """Whether a paint is the text's colour: a tenth of its pixels within 40 of it (black type beside
    a #111111 slice is within 30; thin type in a slice's own colour, Vega-Lite's labels outside the
    disc, has three quarters of its pixels antialiased lighter than its core)."""
    return ink is not None and float((np.linalg.norm(ink - color.astype(np.float32), axis=1) <= 40).mean()) >= 0.1


def _entry_name(rgb: np.ndarray, rn: TextRun, swatch: np.ndarray) -> str:
    """A legend entry's name without the swatch OCR read with it: a swatch glyph ('■ beta'), or
    the swatch's right edge read as a letter ('I beta', the run's box starting over the swatch)
    where that letter's ink is the swatch's paint."""
    name = legend_name(rn.text)
    first, _, rest = name.partition(" ")
    if len(first) == 1 and rest and rn.glyphs is not None and rn.glyphs.size:
        g = rn.glyphs[:, :_first_gap(rn.glyphs)]
        y0, x0 = int(round(rn.y)), int(round(rn.x))
        patch = rgb[y0:y0 + g.shape[0], x0:x0 + g.shape[1]].astype(np.float32)
        g = g[:patch.shape[0], :patch.shape[1]]
        if g.any() and float((np.linalg.norm(patch[g] - swatch.astype(np.float32), axis=1) <= 40).mean()) >= 0.5:
            return rest.strip()
    return name


def _near_x(rn: TextRun, px: float) -> float:
    """The run's nearest x to ``px`` (a label left of a pie ends near it, one right of it begins there)."""
    return min(max(px, rn.x), rn.x + rn.w)


def _cx(rn: TextRun) -> float:
    return rn.x + rn.w / 2


def _cy(rn: TextRun) -> float:
    return rn.y + rn.h / 2
