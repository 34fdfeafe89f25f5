"""Shaded bands (``fill_between``, mean ± sd): pale areas in a tint of a series' colour, the
line's pixels under its band, and the band's extent at each of the line's points."""

from __future__ import annotations

import cv2
import numpy as np

from crafteditor.charts.axes import Axis
from crafteditor.charts.mark_paints import blend_of
from crafteditor.charts.series import Series
from crafteditor.paint import Paints


def find_bands(labels: np.ndarray, inner, paints: Paints, members: dict[int, list[int]],
               areas: dict[int, int], counts: np.ndarray) -> dict[int, np.ndarray]:
    """Shaded bands (fill_between, mean ± sd): a large pale area in a tint of a series' colour
    (the colour blended with the background at a low alpha), with the tints where two bands
    overlap. They are not series: they leave the candidates, and each series with one gets its
    band's mask (the band's areas had outnumbered the lines, which were dropped as fringes).
    Returns series paint -> band mask over the whole image."""
    x0, y0, x1, y1 = inner
    sub = labels[y0:y1, x0:x1]
    bg = paints.background_rgb.astype(np.float32)
    drawn = [int(i) for i in np.flatnonzero(counts) if i != paints.background]
    out: dict[int, np.ndarray] = {}
    tints: set[int] = set()
    # every paint may be a band (a pale tint is no mark paint), every candidate its line
    for p in drawn:
        q = _tinted_line(p, bg, paints, members, areas, counts, out)
        if q is None:
            continue
        own = np.isin(sub, members.get(p, [p]))
        if not _is_area(own):  # eroded plot-sized: the plot's edge counts as inside
            continue
        m = np.zeros(labels.shape, bool)
        m[y0:y1, x0:x1] = own
        out[q] = m
        tints.add(p)
    if out:
        _bands_seen_through(sub, inner, labels.shape, paints, members, areas, counts, out, tints, drawn)
        # where bands overlap: pale paints lying within the bands' reach
        reach = np.zeros(labels.shape, np.uint8)
        for m in out.values():
            reach |= m.astype(np.uint8)
        reach = cv2.dilate(reach, np.ones((9, 9), np.uint8)).astype(bool)
        for p in drawn:
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


_BAND_KERNEL = np.ones((5, 5), np.uint8)


def _tinted_line(p: int, under: np.ndarray, paints: Paints, members: dict[int, list[int]], areas: dict[int, int],
                 counts: np.ndarray, out: dict[int, np.ndarray]) -> int | None:
    """The first line candidate (none with a band yet) whose colour at a low alpha over ``under`` (the
    background, or a band's tint) is paint ``p``, and which ``p`` outweighs: a band outweighs its line."""
    cp = paints.colors[p].astype(np.float32)
    return next((q for q in members if q != p and q not in out and areas[q] < int(counts[p])
                 and 0.5 <= blend_of(cp, paints.colors[q], under) <= 0.92), None)


def _is_area(own: np.ndarray) -> bool:
    """An area, not a thin rim: eroding ``own`` keeps at least 0.3 of it. The caller's mask sets the
    edge: cv2 counts pixels past the array's edge as inside, so a plot-sized mask keeps its rim there."""
    body = cv2.erode(own.astype(np.uint8), _BAND_KERNEL).astype(bool)
    return body.sum() >= 0.3 * own.sum()


def _bands_seen_through(sub: np.ndarray, inner, shape, paints: Paints, members: dict[int, list[int]],
                        areas: dict[int, int], counts: np.ndarray, out: dict[int, np.ndarray], tints: set[int],
                        drawn: list[int]) -> None:
    """A second band seen only through a first one (in place): matplotlib's ``fill_between(..., alpha=0.3)``
    of two series, the second band lying inside the first (random walkers' mean ± sd). Its own tint over the
    background is a sliver, so it was no band; what shows is its colour laid over the first band's tint (the
    gallery's orange over pale blue: tan), the largest paint of the plot, and the lines, under an eighth of it,
    were dropped as fringes: no chart. Trigger: a paint that is a line candidate's colour at a low alpha over
    a band's tint (not over the background), an area (not a rim), outweighing its line and touching that band.
    ``drawn``: the plot's paints but the background."""
    band_of: dict[int, np.ndarray] = {}  # tint -> the first band showing it (out only grows: a hit stays first)
    for p in drawn:
        if p in tints or p in out:
            continue
        own = None
        for t in list(tints):
            line = _tinted_line(p, paints.colors[t].astype(np.float32), paints, members, areas, counts, out)
            if line is None:
                continue
            if own is None:
                own = np.zeros(shape, bool)
                own[inner[1]:inner[3], inner[0]:inner[2]] = np.isin(sub, members.get(p, [p]))
                if not _is_area(own):  # eroded whole-image: the plot's edge is outside
                    break
            if t not in band_of:
                hit = next((m for m in out.values() if m[inner[1]:inner[3], inner[0]:inner[2]][
                    np.isin(sub, [t])].any()), None)
                if hit is None:
                    continue
                band_of[t] = hit
            if not (own & cv2.dilate(band_of[t].astype(np.uint8), _BAND_KERNEL).astype(bool)).any():
                continue
            out[line] = own
            tints.add(p)
            break


def band_extent(band: np.ndarray, s: "Series", xaxis: Axis, yaxis: Axis) -> list[tuple[float, float] | None]:
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


def under_band(rgb: np.ndarray, labels: np.ndarray, inner, color, band: np.ndarray) -> np.ndarray:
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
