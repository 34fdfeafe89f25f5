"""Which paints of a plot are its series: mark paints (coloured or dark, not the pale greys of
gridlines and frames), a JPEG's washed-out copy of a line's colour, and the anti-aliased fringe
round a mark, which are that mark's series."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from crafteditor.blobs import find_blobs
from crafteditor.config import Config
from crafteditor.paint import Paints, blend_position, luma, unique_rows

DARK_GROUND = 60  # a plot page of luma under this is dark (matplotlib's dark_background): _is_mark_paint
DARK_PAGE_TINT = 20  # a paint this tinted at least (max - min of R, G, B) may be a mark on a dark page


def mark_paints(paints: Paints, region: np.ndarray, lossy: bool) -> tuple[np.ndarray, int, list[int]]:
    """Pixel counts per paint in the plot's inner region, the least a series needs, and the
    paints that may be marks."""
    counts = np.bincount(region[region >= 0].ravel(), minlength=len(paints.colors))
    min_px = max(6, int(0.0004 * region.size))
    dark = float(luma(paints.background_rgb)) < DARK_GROUND
    cands = [p for p in range(len(paints.colors)) if p != paints.background
             and _is_mark_paint(paints.colors[p], lossy, dark)
             and (counts[p] >= min_px or (counts[p] >= 12 and few_markers(region == p, paints.colors[p])))]
    return counts, min_px, cands


def few_markers(m: np.ndarray, rgb) -> bool:
    """A vivid paint's few pixels are a series of markers where they make three or more round
    dots of one size (plotly's four 6 px markers beside two lines: under the least a series
    needs, and the series was lost)."""
    r, g, b = (int(v) for v in rgb)
    if max(r, g, b) - min(r, g, b) < 60:
        return False
    n, _, stats, _ = find_blobs(m)
    # specks of a pixel or two are a dot's stray shades, not dots (a supersampled 3 px dot's
    # core is a dozen shades: the paint takes 5-12 px of each, and a few single pixels round them)
    blobs = [st for st in stats[1:] if st[4] >= 3]
    # (a translucent dot's stroke ring and its core are two shades: the paint may take either, 0.4 of its box)
    dots = [st for st in blobs if st[4] >= 5 and 0.6 <= st[2] / st[3] <= 1.6 and st[4] >= 0.4 * st[2] * st[3]]
    if len(dots) < 3 or len(dots) < 0.8 * len(blobs) or _set_as_words(dots):
        return False
    areas = sorted(int(st[4]) for st in dots)
    mid = areas[len(areas) // 2]
    return areas[-1] <= 2.5 * areas[0] or (areas[-1] <= 1.8 * mid and areas[0] >= 0.5 * mid)


def _set_as_words(dots: list[np.ndarray]) -> bool:
    """Whether half the dots or more sit in a row with a like one beside them, letter-spaced (their tops and
    heights within a pixel, under half a height apart): the round letters of a small coloured label ('see',
    a c e o fill 0.4-0.55 of their box, as a ring dot does), not a series' markers. Each dot is compared only
    with those starting within half the tallest dot's height past its right side (sorted by left side): a
    scatter's thousands of dots had been compared pair by pair."""
    box = np.asarray([st[:4] for st in dots], np.int64)
    order = np.argsort(box[:, 0], kind="stable")
    box = box[order]
    left, right = box[:, 0], box[:, 0] + box[:, 2]
    reach = 0.5 * float(box[:, 3].max())
    beside = np.zeros(len(box), bool)
    for i in range(len(box)):
        lo, hi = np.searchsorted(left, right[i], "left"), np.searchsorted(left, right[i] + reach, "right")
        for j in range(lo, hi):
            gap = left[j] - right[i]
            if (j != i and abs(box[i, 1] - box[j, 1]) <= 1 and abs(box[i, 3] - box[j, 3]) <= 1
                    and gap <= 0.5 * max(box[i, 3], box[j, 3])):
                beside[i] = beside[j] = True
    return int(beside.sum()) >= 0.5 * len(dots)


def _is_mark_paint(rgb, lossy: bool = False, dark_page: bool = False) -> bool:
    """Gridlines and frames are pale greys; marks are coloured or dark. In a lossy image a
    faint tint is the chroma ringing around a mark, not a mark (a q50 line chart's (213, 250,
    255) beside its blue line was read as a second series of one point). On a dark page the
    greys are the page's own near-blacks (a legend's fill) and its light ink: marks are the
    tinted paints, pastel ones too (matplotlib's dark_background lavender, sat 30; issue 31)."""
    r, g, b = (int(v) for v in rgb)
    sat = max(r, g, b) - min(r, g, b)
    light = (r + g + b) / 3
    if lossy and light > 225 and sat < 60:
        return False
    if dark_page:
        return sat > 40 or (sat >= DARK_PAGE_TINT and light >= 100)
    return sat > 40 or light < 140


def merge_washed_out(paints: Paints, members: dict[int, list[int]], areas: dict[int, int]) -> None:
    """A lossy image splits a thin series line into its colour and a washed-out copy of it (the
    chroma a JPEG keeps at half resolution): one series, under its more common paint. ``members``
    (series paint -> the paints it stands for) and ``areas`` (its pixels) are merged in place."""
    for p in sorted(members, key=lambda q: -areas[q]):
        for q in list(members):
            if q != p and p in members and q in members and areas[q] >= areas[p] \
                    and _same_hue(paints.colors[p], paints.colors[q]):
                members[q] += members.pop(p)
                areas[q] += areas[p]
                break


def _same_hue(a, b) -> bool:
    """Two saturated colours of one hue within a JPEG's chroma loss of each other.

    Chroma subsampling washes a thin line's colour out at constant brightness: at q50 a series
    drawn (31, 119, 183) came back partly (65, 118, 153), 45.3 apart but of one hue and luma
    (100 vs 106), and was read as two series. Beyond 45 apart, only such a pair is one colour."""
    a, b = np.asarray(a, np.float32), np.asarray(b, np.float32)
    dist = float(np.linalg.norm(a - b))
    if dist > 75 or (dist > 45 and abs(float(luma(a)) - float(luma(b))) > 12) \
            or min(float(a.max() - a.min()), float(b.max() - b.min())) < 40:
        return False
    ha = cv2.cvtColor(a.astype(np.uint8)[None, None, :], cv2.COLOR_RGB2HSV)[0, 0, 0]
    hb = cv2.cvtColor(b.astype(np.uint8)[None, None, :], cv2.COLOR_RGB2HSV)[0, 0, 0]
    d = abs(int(ha) - int(hb))
    return min(d, 180 - d) <= 8  # OpenCV hue: 0..180


def merge_fringes(labels: np.ndarray, inner, paints: Paints, members: dict[int, list[int]],
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
            if not 0.1 <= blend_of(cp, paints.colors[q], bg) <= 0.9:
                continue  # not a blend of q with the background
            own = np.isin(sub, members[p])
            near = cv2.dilate(np.isin(sub, members[q]).astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
            if own.any() and float((own & near).sum()) >= 0.8 * float(own.sum()):
                members[q] += members.pop(p)
                areas[q] += areas.pop(p)
                break


def merge_overlaps(labels: np.ndarray, inner, paints: Paints, members: dict[int, list[int]],
                   areas: dict[int, int], named: set[int] | frozenset[int] = frozenset()) -> None:
    """A paint where translucent marks of one series overlap is that series: the darker shade
    ggplot2's alpha markers make where two or three overlap (palmerpenguins' orange discs at
    alpha 0.8 made (252, 120, 8) where they pile up, read as 'series 4' and 'series 5', and the
    points there lost to the species; each shade lay along the others, and all were dropped as
    each other's outlines). Its colour is the series' with less of the background (the series'
    colour lies between it and the background), and each of its blobs touches the series' own
    pixels: it joins the lightest such paint, the colour of one mark alone. Two paints the legend
    names apart (``named``: paints with an entry of their own) stay apart: a sequential palette's
    classes are each other's shades, and its markers touching had made two classes one."""
    x0, y0, x1, y1 = inner
    sub = labels[y0:y1, x0:x1]
    bg = paints.background_rgb.astype(np.float32)
    light = sorted(members, key=lambda q: float(np.linalg.norm(paints.colors[q].astype(np.float32) - bg)))
    for p in light:
        if p not in members:
            continue
        near = None
        for q in light[::-1]:
            if q == p or q not in members or not 0.01 <= blend_of(paints.colors[p], paints.colors[q], bg) <= 0.5:
                continue  # p is not q thinned by the background
            if named and set(members[p]) & named and set(members[q]) & named:
                continue  # two legend entries: two series, however alike their colours
            if near is None:
                near = cv2.dilate(np.isin(sub, members[p]).astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
            # each of its blobs touches the series' paint (a pile of squares is a dark block
            # inside lighter rims, most of it further than a pixel or two from them)
            n, lab, stats, _ = find_blobs(np.isin(sub, members[q]))
            touching = np.unique(lab[near & (lab > 0)])
            # piles of markers, not a line drawn over its faint copy (W&B's smoothed curve over
            # the raw one is a series of its own: a long stroke across the plot)
            piles = n > 1 and int(stats[1:, 2:4].max()) <= 0.15 * max(sub.shape)
            if piles and stats[touching, 4].sum() >= 0.9 * stats[1:, 4].sum():
                members[p] += members.pop(q)
                areas[p] += areas.pop(q)
                near = None


def blend_of(c, mark, bg) -> float:
    """How far colour ``c`` lies from ``mark`` towards ``bg`` (0: the mark, 1: the background)
    where it is a blend of the two (within 14 of the line between them), else -1."""
    t, d = blend_position(c, mark, bg)
    return float(t) if float(d) <= 14 else -1.0


PALE_CHROMA = 40  # a translucent marker's colour over a grey panel keeps about half its chroma


def with_pale_marks(paints: Paints, rgb: np.ndarray, config: Config) -> Paints:
    """``paints`` with the flat colours of small translucent markers among its vivid colours (see
    :func:`crafteditor.paint.with_vivid`): ggplot2's ``alpha = 0.5`` points over its grey panel
    come out (241, 176, 171), (117, 210, 145), half the chroma of a vivid paint, and each small
    dot has only a few pixels of its exact colour, under a paint's share: no paint was found in
    the plot and the scatter was no chart. Only pixels no paint took are looked at (in a lossy
    image noise makes such colours everywhere: none are added)."""
    if paints.lossy:
        return paints
    free = paints.labels < 0
    px = rgb[free]
    if not len(px):
        return paints
    chroma = px.max(axis=1).astype(np.int16) - px.min(axis=1)
    px = px[chroma >= PALE_CHROMA]
    where = np.flatnonzero(free)[chroma >= PALE_CHROMA]  # the flat index of each of px
    if not len(px):
        return paints
    h, w = paints.labels.shape
    least = max(8, int(config.min_paint_share * h * w) // 4)
    cols, inverse, counts = unique_rows(px, return_inverse=True)
    mass = _shade_mass(cols, counts, config.color_tolerance)
    found: list[np.ndarray] = [] if paints.vivid is None else [c.astype(np.float32) for c in paints.vivid]
    marks = [c for c in paints.colors if _is_mark_paint(c)] + found
    rims = _Rims(marks, paints.background_rgb)
    new = []
    dots = _DotsOf(rgb, found, config.color_tolerance, where, inverse.ravel(), len(cols))
    from scipy.spatial import cKDTree  # heavy: scipy's spatial index, imported where pale marks are looked for
    tree = cKDTree(cols.astype(np.float64))  # a candidate's shades: the colours within the tolerance of it
    for i in np.argsort(-mass):
        if mass[i] < least or len(new) >= 12:
            break
        c = cols[i].astype(np.float32)
        if found and float(np.min(np.linalg.norm(np.asarray(found) - c, axis=1))) <= config.color_tolerance:
            continue  # one paint's shades (the anti-aliasing of a marker it names already)
        if rims.any_rim(c):
            continue  # a mark's anti-aliased rim (dask's jagged blue line had made its pale rim a series)
        # a darker or paler shade of a dot taken already (its core, or its rim), where it lies on those
        # dots: ColorBrewer's Paired draws a series light blue (166, 206, 227) beside one dark blue
        # (31, 120, 180), a blend of it and white, with dots of its own (and the series was lost)
        shades = [k for k, q in enumerate(found) if -0.3 < blend_of(c, q, paints.background_rgb) < 0.95]
        near = np.zeros(len(cols), bool)  # its shades (their pixels: its own)
        near[tree.query_ball_point(c.astype(np.float64), config.color_tolerance)] = True
        if any(dots.holds(near, counts, k) for k in shades):
            continue
        # the paint at its shades' mean: the dozen shades of a supersampled dot's core lie within the tolerance of it
        c = np.average(cols[near].astype(np.float32), axis=0, weights=counts[near])
        if any(float(np.linalg.norm(q - c)) <= config.color_tolerance and dots.holds(near, counts, k)
               for k, q in enumerate(found)):
            continue  # (the mean of shades can lie up to twice the tolerance from them: only where on its dots)
        found.append(c)
        new.append(c)
    if not new:
        return paints
    vivid = np.asarray(new, np.float32) if paints.vivid is None or not len(paints.vivid) \
        else np.concatenate([paints.vivid.astype(np.float32), np.asarray(new, np.float32)])
    return replace(paints, vivid=vivid)


class _Rims:
    """Whether a colour is a mark's anti-aliased rim: ``any(0 < blend_of(c, q, bg) < 0.95 for q in marks)``,
    the marks' blends with the background weighed all at once (one candidate at a time through
    :func:`blend_of`, a Python loop over the marks, had cost 1.5 CPU-s on 18 dev figures' pale candidates).
    The same float32 operations in the same order as :func:`crafteditor.paint.blend_position`: the same answers."""

    def __init__(self, marks: list, bg) -> None:
        self.a = np.asarray(marks, np.float32).reshape(-1, 3)
        b = np.asarray(bg, np.float32)
        self.seg = b - self.a
        # each segment's squared length as blend_position takes it (a float per mark, float32 where divided)
        self.seg2 = np.asarray([max(float(s @ s), 1e-6) for s in self.seg], np.float32)

    def any_rim(self, c) -> bool:
        if not len(self.a):
            return False
        c = np.asarray(c, np.float32)
        d = c - self.a
        seg = self.seg
        along = d[:, 0] * seg[:, 0] + d[:, 1] * seg[:, 1] + d[:, 2] * seg[:, 2]
        t = np.clip(along / self.seg2, 0.0, 1.0)
        e = c - (self.a + t[:, None] * seg)
        e *= e
        dist = e[:, 0] + e[:, 1]
        dist += e[:, 2]
        dist = np.sqrt(dist)
        return bool(np.any((dist <= 14) & (t > 0.0) & (t < 0.95)))


def _shade_mass(cols: np.ndarray, counts: np.ndarray, tolerance: float, most: int = 1500) -> np.ndarray:
    """Per colour, the pixels of it and of the colours within ``tolerance`` of it. A small dot
    drawn anti-aliased (supersampled) has no flat colour: ggplot2's 1.5 mm points at 72-100 dpi
    come out as a 3×3 core of a dozen shades, (249, 147, 139) … (250, 159, 153), none with more
    than a few pixels, and the scatter was no chart; their shades together are a paint. Only the
    ``most`` commonest colours gather (the rest count alone)."""
    mass = counts.astype(np.int64).copy()
    top = np.argsort(-counts)[:most]
    c = cols[top].astype(np.float32)
    # np.linalg.norm(c[:, None] - c[None], axis=2), channel by channel: the same float32 sums in the
    # same order (a reduction over a 3-long last axis is numpy's slow case), a third of the time
    d = c[:, None, 0] - c[None, :, 0]
    dist = d * d
    for k in (1, 2):
        d = c[:, None, k] - c[None, :, k]
        d *= d
        dist += d
    near = (np.sqrt(dist, out=dist) <= tolerance).astype(np.int64)
    mass[top] = near @ counts[top].astype(np.int64)
    return mass


class _DotsOf:
    """Per paint found, how many of each pale colour's pixels lie on or beside its pixels (within 2 px): counted
    once a paint asks, by colour, so that a candidate's share is a sum over its shades (searching all the pale
    pixels for each candidate's had cost 1.3 CPU-s on a 2 MP diagram's 451 candidates)."""

    def __init__(self, rgb: np.ndarray, found: list[np.ndarray], tolerance: float, where: np.ndarray,
                 inverse: np.ndarray, n: int) -> None:
        self.rgb, self.found, self.tolerance = rgb, found, tolerance
        self.where, self.inverse, self.n = where, inverse, n  # each pale pixel's flat index and colour
        self.inside: dict[int, np.ndarray] = {}

    def holds(self, near: np.ndarray, counts: np.ndarray, k: int) -> bool:
        """Whether most of the pixels of the colours ``near`` (``counts``: each colour's pixels) lie on or beside
        the pixels of paint ``k`` found: the anti-aliased rim of its marks, or a core within their ring, not
        marks of their own."""
        if k not in self.inside:
            beside = (cv2.dilate(self._theirs(self.found[k]), np.ones((5, 5), np.uint8)) > 0).ravel()
            self.inside[k] = np.bincount(self.inverse[beside[self.where]], minlength=self.n)
        return int(self.inside[k][near].sum()) >= 0.5 * int(counts[near].sum())

    def _theirs(self, q: np.ndarray) -> np.ndarray:
        """The pixels within the tolerance of paint ``q`` (uint8 mask): those in the cube round it first
        (OpenCV's inRange), the distance measured on them alone (a full-image distance per paint had cost
        0.07 CPU-s a paint on an 8 MP Mermaid export)."""
        rgb = np.ascontiguousarray(self.rgb[..., :3], dtype=np.uint8)
        lo = np.clip(np.floor(q - self.tolerance), 0, 255).astype(np.uint8)
        hi = np.clip(np.ceil(q + self.tolerance), 0, 255).astype(np.uint8)
        idx = np.flatnonzero(cv2.inRange(rgb, lo, hi))
        ok = np.linalg.norm(rgb.reshape(-1, 3)[idx].astype(np.float32) - q, axis=1) <= self.tolerance
        out = np.zeros(rgb.shape[0] * rgb.shape[1], np.uint8)
        out[idx[ok]] = 1
        return out.reshape(rgb.shape[:2])
