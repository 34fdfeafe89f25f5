"""TeX's small arrow tips: the two short curved barbs of TikZ's default ``->`` (and ``\\to``).

At 200 dpi such a tip is a 'V' of two arms 3 to 6 px long on a 1.4 px line: too thin to survive the
opening that finds filled heads, and its skeleton too short and bent for the open-'V' search
(:func:`crafteditor.lines.heads.find_open_heads`: arms 3.6 and 4.6 px against a 4.3 px least). The
janosh/diagrams TikZ figures (GAN, skip connection, tikz-cd squares; issue 31) lost every head, so
their lines were joined through the labels they point at and read without direction. Here the ink
itself is asked, at the end of every long piece of skeleton: just behind the line's last inked
point, ink off the axis on both sides, further off the further back (two arms opening backwards),
ending within a few line widths; nothing ahead of the tip, nor a line crossing it there.
"""

from __future__ import annotations

import math

import numpy as np

from crafteditor.lines.heads import pixel_gap
from crafteditor.lines.paths import Arrowhead, Pt, direction_out, path_length

MIN_PIECE = 8.0  # line widths: a piece this long has a direction to look along
SURE_ROWS = 2  # cross-sections with ink off the axis on both sides, at least


def _inked(residual: np.ndarray, x: float, y: float) -> bool:
    H, W = residual.shape
    i, j = int(math.floor(y)), int(math.floor(x))
    return 0 <= i < H and 0 <= j < W and bool(residual[i, j])


def _side_offsets(residual: np.ndarray, c: Pt, n: tuple[float, float], lo: float, hi: float) -> list[float]:
    """The offsets along ``n`` from ``c``, between lo and hi, that are inked (the points of
    :func:`_inked` looked up all at once: a pixel at a time, a paper figure's barb search asked
    some 50,000 of them)."""
    us = np.arange(lo, hi + 0.01, 0.5)
    i, j = np.floor(c[1] + us * n[1]).astype(np.int64), np.floor(c[0] + us * n[0]).astype(np.int64)
    H, W = residual.shape
    inside = (i >= 0) & (i < H) & (j >= 0) & (j < W)
    inked = np.zeros(us.shape, bool)
    inked[inside] = residual[i[inside], j[inside]]
    return us[inked].tolist()


def barb_at(residual: np.ndarray, end: Pt, d: tuple[float, float], lw: float) -> tuple[Pt, float, float] | None:
    """(tip, length, half width) of a barbed tip at a line's ``end`` pointing along ``d``; None."""
    # the tip: the last inked point straight on from the skeleton's end
    s = 0.0
    while s < 3 * lw + 2 and _inked(residual, end[0] + (s + 0.5) * d[0], end[1] + (s + 0.5) * d[1]):
        s += 0.5
    tip = (end[0] + s * d[0], end[1] + s * d[1])
    n = (-d[1], d[0])
    axis = 0.5 * lw + 1.0  # the shaft's own half width, and its rim
    reach = 4 * lw + 4  # an arm's farthest offset
    # ahead of the tip: no ink on the axis; no line crossing at the tip
    if any(_inked(residual, tip[0] + t * d[0], tip[1] + t * d[1]) for t in (1.5, 2.5, 3.5)):
        return None
    if _side_offsets(residual, tip, n, reach + 2, reach + 4) or _side_offsets(residual, tip, n, -reach - 4, -reach - 2):
        return None
    both, widest, last = 0, 0.0, 0.0
    prev = 0.0
    for t in np.arange(1.0, 5 * lw + 4, 1.0):
        c = (tip[0] - t * d[0], tip[1] - t * d[1])
        left = _side_offsets(residual, c, n, axis, reach)
        right = _side_offsets(residual, c, n, -reach, -axis)
        if left and right:
            w = min(min(left), -max(right))
            if w + 1.0 < prev:  # the arms close again going back: no 'V' opening backwards
                return None
            prev = max(prev, w)
            widest = max(widest, max(max(left), -min(right)))
            both += 1
            last = t
        elif left or right:
            if both:
                break
        elif both:
            break
    # the arms end well inside the reach (ink out to its edge is a box or a glyph beside the line end)
    if both < SURE_ROWS or widest < 1.5 * lw + 1 or widest > reach - 1:
        return None
    # behind the arms' ends the line is bare again (a barb, not a junction or a crossing line)
    for t in (last + 2, last + 3):
        c = (tip[0] - t * d[0], tip[1] - t * d[1])
        if _side_offsets(residual, c, n, axis + 1, reach) or _side_offsets(residual, c, n, -reach, -axis - 1):
            return None
    return tip, last + 1, widest


def find_barbs(pieces: list[list[Pt]], residual: np.ndarray, coverage: np.ndarray, lw: float,
               heads: list[Arrowhead]) -> tuple[list[list[Pt]], list[Arrowhead]]:
    """Barbed tips at the ends of the long pieces no head is at yet: (the pieces left, the arms'
    short pieces dropped; the heads found, of kind 'open')."""
    found: list[Arrowhead] = []
    arms: set[int] = set()
    lengths = [path_length(p) for p in pieces]  # (asked again for every piece each barb found)
    near = _NearHeads([h for h in heads if len(h.pixels)], 2 * lw + 3)
    near_found = _NearHeads([], 2 * lw + 3)  # the heads found here (every end asked each: 52,000 calls on a Mermaid export)
    for i, p in enumerate(pieces):
        if len(p) < 2 or lengths[i] < MIN_PIECE * lw:
            continue
        for at_start in (True, False):
            end = p[0] if at_start else p[-1]
            if near.any_near(end) or near_found.any_near(end):
                continue
            d = direction_out(p, at_start, 3 * lw + 3)
            if d is None:
                continue
            barb = barb_at(residual, end, d, lw)
            if barb is None:
                continue
            tip, length, half = barb
            x0, x1 = int(math.floor(min(tip[0], tip[0] - length * d[0]) - half - 1)), \
                int(math.ceil(max(tip[0], tip[0] - length * d[0]) + half + 2))
            y0, y1 = int(math.floor(min(tip[1], tip[1] - length * d[1]) - half - 1)), \
                int(math.ceil(max(tip[1], tip[1] - length * d[1]) + half + 2))
            H, W = residual.shape
            x0, y0, x1, y1 = max(0, x0), max(0, y0), min(W, x1), min(H, y1)
            ys, xs = np.nonzero(residual[y0:y1, x0:x1])
            if ys.size < 4:
                continue
            base = (tip[0] - length * d[0], tip[1] - length * d[1])
            found.append(Arrowhead(tip=tip, base=base, length=length, width=2 * half, mask_box=(x0, y0, x1, y1),
                                   pixels=np.stack([xs + x0 + 0.5, ys + y0 + 0.5], axis=1).astype(np.float64),
                                   weights=coverage[ys + y0, xs + x0].astype(np.float64), kind="open", pointing=d))
            near_found.add(found[-1])
            # the arms' own bits of skeleton are the head's, not lines
            for k, q in enumerate(pieces):
                if k != i and lengths[k] <= 2 * (length + half) and all(
                        math.dist(pt, tip) <= length + half + lw for pt in q):
                    arms.add(k)
    return [p for k, p in enumerate(pieces) if k not in arms], found


class _NearHeads:
    """Whether a point lies within ``reach`` of some head's pixels (:func:`pixel_gap`), asked of
    only the heads whose pixels' bounding box comes that near: every skeleton end of a large
    figure against every head was 200,000 ``pixel_gap`` calls on a scale-4 Mermaid export."""

    def __init__(self, heads: list[Arrowhead], reach: float) -> None:
        self.heads, self.reach = heads, reach
        self.boxes = np.asarray([_box(h) for h in heads], np.float64).reshape(-1, 4)

    def add(self, head: Arrowhead) -> None:
        """One more head (with pixels) to ask."""
        self.heads.append(head)
        self.boxes = np.vstack([self.boxes, np.asarray(_box(head), np.float64)[None]])

    def any_near(self, pt: Pt) -> bool:
        x0, y0, x1, y1 = self.boxes.T
        # a pixel of a box farther off than reach along x or y is farther than reach (a pixel's margin kept)
        off = np.maximum(np.maximum(x0 - pt[0], pt[0] - x1), np.maximum(y0 - pt[1], pt[1] - y1))
        return any(pixel_gap(self.heads[k].pixels, pt) <= self.reach for k in np.flatnonzero(off <= self.reach + 1))


def _box(h: Arrowhead) -> tuple[float, float, float, float]:
    """The bounding box (x0, y0, x1, y1) of a head's pixel centres."""
    return h.pixels[:, 0].min(), h.pixels[:, 1].min(), h.pixels[:, 0].max(), h.pixels[:, 1].max()
