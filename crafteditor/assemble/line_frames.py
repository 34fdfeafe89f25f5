"""Group frames the shape reader missed, found among the traced lines.

A frame is found as a face: the inside of a closed outline. Where a title is set in the frame's
top stroke (draw.io's groups: 'Azure Static Web App'), or edges run through the frame from
border to border past the nodes inside (Mermaid's nested subgraphs: 'API Routes', whose column
of edges walls its inside into strips), there is no one face, and the outline was traced as
lines instead: long headless lines round the frame's corners, which took in the edges that end
on or cross the border (an edge's stub joined to the frame's side, its head stuck at a corner).
Read so, a connection came back as a free line, a line to nothing or a 'bus' along the border.

Here four axis-aligned stretches of line that make a rectangle's sides (each side drawn along
most of its length, in one colour), around something (a node or a text), are that frame: it
becomes a group frame, its sides are cut out of the lines that ran along them, and the rest of
each line (an edge's stub) stays, a head it lost at the border handed back to the stub it tips.
The edges cut at the frame are then joined across it as for any frame
(:func:`~crafteditor.assemble.joins.bridge_gaps`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from crafteditor.lines.paths import Arrowhead, LinePath
from crafteditor.ocr.runs import TextRun
from crafteditor.paint import color_distance, unique_rows
from crafteditor.shapes.detect import DetectedShape
from crafteditor.shapes.faces import Face

MIN_SIDE = 40.0  # px: a frame's side is at least this long (a node's outline is found as a face)
ALIGN = 3.0  # px: stretches this close across (and their line's width) lie on one side
COVER = 0.6  # a side is drawn along at least this share of its length (a title, crossing edges cut it)
SAME_INK = 60.0  # the four sides' colours are within this distance (one outline)
CUT_MID = 0.2  # a side runs through a node where it crosses it this share of its height (width) in from its outline
CUT_NODES = 2  # four lines whose sides run through this many nodes are edges between them, no frame
MAX_RAILS = 150  # rows (and columns) tried at most, the longest: a figure's frames are among its longest lines


@dataclass
class _Rail:
    """Axis-aligned stretches of line on one row (horizontal) or column (vertical)."""

    horizontal: bool
    at: float  # the row's y or the column's x
    spans: list[tuple[float, float]]
    color: tuple[int, int, int]
    width: float

    @property
    def lo(self) -> float:
        return min(a for a, _ in self.spans)

    @property
    def hi(self) -> float:
        return max(b for _, b in self.spans)

    def cover(self, lo: float, hi: float) -> float:
        """The share of [lo, hi] the rail's stretches draw."""
        return self._drawn(lo, hi)[0] / max(hi - lo, 1e-6)

    def widest_gap(self, lo: float, hi: float) -> float:
        """The longest stretch of [lo, hi] the rail leaves undrawn."""
        return self._drawn(lo, hi)[1]

    def _drawn(self, lo: float, hi: float) -> tuple[float, float]:
        cut = sorted((max(a, lo), min(b, hi)) for a, b in self.spans if b > lo and a < hi)
        drawn, end, gap = 0.0, lo, 0.0
        for a, b in cut:
            gap = max(gap, a - end)
            if b > end:
                drawn += b - max(a, end)
                end = b
        return drawn, max(gap, hi - end)


def frames_from_lines(rgb: np.ndarray, shapes: list[DetectedShape], lines: list[LinePath], runs: list[TextRun]
                      ) -> tuple[list[DetectedShape], list[LinePath]]:
    """(``shapes`` with the frames found among ``lines`` appended, ``lines`` without those frames' sides)."""
    rails = _rails(lines)
    for r in rails:  # a title set in a side draws it on (the side's gap under it is the title's erasure)
        if r.horizontal:
            r.spans.extend((t.x - 0.5 * t.h, t.right + 0.5 * t.h) for t in runs
                           if t.angle == 0 and t.y - ALIGN <= r.at <= t.bottom + ALIGN)
    H, W = rgb.shape[:2]
    # a border round the whole page is the page's, no group (a report's chart framed: drawn as a group, it
    # was drawn twice, in the theme's look)
    rects = [r for r in _rectangles(rails, shapes, runs) if r[2] - r[0] < 0.9 * W or r[3] - r[1] < 0.9 * H]
    if not rects:
        return shapes, lines
    frames = [_frame_shape(rgb, r, shapes) for r in rects]
    return [*shapes, *frames], _without_sides(lines, rects)


def _rails(lines: list[LinePath]) -> list[_Rail]:
    """The lines' long axis-aligned stretches, gathered by row and column (same colour, within ALIGN)."""
    segs: list[tuple[bool, float, float, float, LinePath]] = []
    for ln in lines:
        for p, q in zip(ln.points, ln.points[1:]):
            dx, dy = abs(q[0] - p[0]), abs(q[1] - p[1])
            if dy <= 2 and dx >= MIN_SIDE / 2:
                segs.append((True, (p[1] + q[1]) / 2, min(p[0], q[0]), max(p[0], q[0]), ln))
            elif dx <= 2 and dy >= MIN_SIDE / 2:
                segs.append((False, (p[0] + q[0]) / 2, min(p[1], q[1]), max(p[1], q[1]), ln))
    rails: list[_Rail] = []
    for horizontal, at, lo, hi, ln in sorted(segs, key=lambda s: (s[0], s[1])):
        for r in rails:
            # a side's skeleton bends a few pixels off where an edge meets it (a junction): within ALIGN + 1.5 widths
            if r.horizontal == horizontal and abs(r.at - at) <= ALIGN + 1.5 * ln.width \
                    and color_distance(r.color, ln.color) <= SAME_INK:
                r.spans.append((lo, hi))
                break
        else:
            rails.append(_Rail(horizontal, at, [(lo, hi)], ln.color, ln.width))
    return rails


def _rectangles(rails: list[_Rail], shapes: list[DetectedShape], runs: list[TextRun]
                ) -> list[tuple[float, float, float, float, float, tuple[int, int, int]]]:
    """(x0, y0, x1, y1, stroke width, colour) of each rectangle four rails draw, around a node or a text,
    no shape already there; a frame inside a found one is found too (nested subgraphs)."""
    # the longest rows and columns only: pairs of rows are tried, and a hatched or scribbled page has hundreds
    rows = sorted((r for r in rails if r.horizontal and r.hi - r.lo >= MIN_SIDE), key=lambda r: r.lo - r.hi)[:MAX_RAILS]
    rows.sort(key=lambda r: r.at)
    cols = sorted((r for r in rails if not r.horizontal and r.hi - r.lo >= MIN_SIDE), key=lambda r: r.lo - r.hi)[:MAX_RAILS]
    found: list[tuple[float, float, float, float, float, tuple[int, int, int]]] = []
    for i, top in enumerate(rows):
        for bottom in rows[i + 1:]:
            if bottom.at - top.at < MIN_SIDE or color_distance(top.color, bottom.color) > SAME_INK:
                continue
            lo, hi = max(top.lo, bottom.lo), min(top.hi, bottom.hi)
            tol = ALIGN + 2 * max(top.width, bottom.width)
            sides = [c for c in cols if lo - tol <= c.at <= hi + tol and color_distance(c.color, top.color) <= SAME_INK
                     and c.cover(top.at, bottom.at) >= COVER]
            sides.sort(key=lambda c: c.at)
            # each left side with the nearest right side the top and bottom join it to: frames side by side
            # under one row (draw.io's groups in a line) are each a frame, not one frame round them all
            for k, left in enumerate(sides):
                right = next((c for c in sides[k + 1:] if c.at - left.at >= MIN_SIDE
                              and _joined(top, left.at, c.at) and _joined(bottom, left.at, c.at)), None)
                if right is None:
                    continue
                rect = (left.at, top.at, right.at, bottom.at)
                if _known(rect, shapes) or any(_iou(rect, f[:4]) > 0.8 for f in found) or not _holds(rect, shapes, runs) \
                        or _through_nodes(rect, shapes) >= CUT_NODES:
                    continue
                found.append((*rect, float(np.median([top.width, bottom.width, left.width, right.width])), top.color))
    return found


def _joined(rail: _Rail, x0: float, x1: float) -> bool:
    """The rail draws a side from x0 to x1: along most of it, and into both corners (no gap between two
    frames side by side taken for a side)."""
    m = min(MIN_SIDE, 0.2 * (x1 - x0))
    # an edge crossing the side cuts it for its own width and its rim; a title's gap is filled already
    most_gap = max(4 * rail.width + 8, 0.05 * (x1 - x0))
    return (rail.cover(x0, x1) >= COVER and rail.widest_gap(x0, x1) <= most_gap
            and rail.cover(x0, x0 + m) >= 0.5 and rail.cover(x1 - m, x1) >= 0.5)


def _iou(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def _known(rect: tuple[float, float, float, float], shapes: list[DetectedShape]) -> bool:
    """A shape the reader found is there already."""
    return any(_iou(rect, (s.x, s.y, s.x + s.w, s.y + s.h)) > 0.7 for s in shapes)


def _holds(rect: tuple[float, float, float, float], shapes: list[DetectedShape], runs: list[TextRun]) -> bool:
    """The rectangle holds a node or a text (a frame is drawn around something; a loop of edges is not)."""
    x0, y0, x1, y1 = rect
    return any(x0 < s.x and s.x + s.w < x1 and y0 < s.y and s.y + s.h < y1 for s in shapes) or any(
        x0 < r.x and r.x + r.w < x1 and y0 < r.y and r.y + r.h < y1 for r in runs)


def _through_nodes(rect: tuple[float, float, float, float], shapes: list[DetectedShape]) -> int:
    """How many nodes a side of the rectangle runs through, across their middles. A frame's sides go round
    the nodes they meet; a ring of edges from node to node ends at each node's outline, and the skeleton
    runs them on to its centre line (a PowerPoint UML figure: 'LogicManager' to 'Parser' to 'Command', up
    to 'CommandResult' and back down to 'LogicManager', around 'Prefix' and 'ArgumentTokenizer'; read as a
    frame, its sides took the five edges, and they came back as stubs with one end only)."""
    x0, y0, x1, y1 = rect
    n = 0
    for s in shapes:
        if s.is_group:
            continue
        my, mx = CUT_MID * s.h, CUT_MID * s.w
        across = min(x1, s.x + s.w) - max(x0, s.x) > mx and any(s.y + my < v < s.y + s.h - my for v in (y0, y1))
        down = min(y1, s.y + s.h) - max(y0, s.y) > my and any(s.x + mx < v < s.x + s.w - mx for v in (x0, x1))
        n += across or down
    return n


def _frame_shape(rgb: np.ndarray, rect: tuple[float, float, float, float, float, tuple[int, int, int]],
                 shapes: list[DetectedShape]) -> DetectedShape:
    """The group frame of a rectangle: filled as its inside is just within the border, holding the shapes in it."""
    x0, y0, x1, y1, width, color = rect
    xi, yi, xa, ya = (int(round(v)) for v in (x0, y0, x1, y1))
    w, h = xa - xi, ya - yi
    pad = int(math.ceil(width)) + 3
    band = np.concatenate([rgb[yi + pad:yi + pad + 4, xi + pad:xa - pad].reshape(-1, 3),
                           rgb[ya - pad - 4:ya - pad, xi + pad:xa - pad].reshape(-1, 3)])
    if len(band):
        vals, counts = unique_rows(band)
        fill = tuple(int(v) for v in vals[int(np.argmax(counts))])
    else:
        fill = (255, 255, 255)
    ones = np.ones((max(1, h), max(1, w)), bool)
    face = Face(paint=-1, x=xi, y=yi, w=w, h=h, mask=ones, filled=ones)
    members = [j for j, s in enumerate(shapes) if x0 <= s.x and s.x + s.w <= x1 and y0 <= s.y and s.y + s.h <= y1]
    return DetectedShape(shape="box", x=x0, y=y0, w=x1 - x0, h=y1 - y0, fill=fill, stroke=color,  # type: ignore[arg-type]
                         stroke_px=width, iou=1.0, face=face, is_group=True, members=members)


def _on_outline(p: tuple[float, float], rect: tuple[float, ...], tol: float) -> bool:
    x0, y0, x1, y1 = rect[:4]
    inside_x, inside_y = x0 - tol <= p[0] <= x1 + tol, y0 - tol <= p[1] <= y1 + tol
    return (inside_x and min(abs(p[1] - y0), abs(p[1] - y1)) <= tol) or (
        inside_y and min(abs(p[0] - x0), abs(p[0] - x1)) <= tol)


def _without_sides(lines: list[LinePath], rects: list[tuple[float, ...]]) -> list[LinePath]:
    """The lines with the stretches that run along a frame's outline cut out; each piece left is a line of its
    own, a head at a cut end handed to the piece whose end it tips (or dropped: no frame has heads)."""
    out: list[LinePath] = []
    loose: list[Arrowhead] = []
    for ln in lines:
        tol = ALIGN + 2 * ln.width
        pts = ln.points
        # a stretch on a frame: both ends and its middle on the outline (a rounded corner's chord too)
        on = [any(all(_on_outline(p, r, tol) for p in (a, b, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))) for r in rects)
              for a, b in zip(pts, pts[1:])]
        if not any(on):
            out.append(ln)
            continue
        total = max(ln.length, 1e-6)
        k = 0
        while k < len(on):
            if on[k]:
                k += 1
                continue
            j = k
            while j < len(on) and not on[j]:
                j += 1
            piece = pts[k:j + 1]
            first, last = k == 0, j == len(on)
            seg = replace(ln, points=piece, head_start=ln.head_start if first else None,
                          head_end=ln.head_end if last else None, open_ends=[True, True])
            seg = replace(seg, ink=int(ln.ink * seg.length / total))
            if seg.length >= 2 * ln.width + 4 or seg.head_start or seg.head_end:
                out.append(seg)
            k = j
        if on[0] and ln.head_start is not None:
            loose.append(ln.head_start)
        if on[-1] and ln.head_end is not None:
            loose.append(ln.head_end)
    for h in loose:
        _hand_back(h, out)
    return out


def _hand_back(head: Arrowhead, lines: list[LinePath]) -> None:
    """Give ``head`` to the line whose headless end it tips (its base or tip near that end)."""
    best, where = None, None
    for k, ln in enumerate(lines):
        reach = 3 * ln.width + 8
        for e, p in ((0, ln.points[0]), (1, ln.points[-1])):
            if (ln.head_start if e == 0 else ln.head_end) is not None:
                continue
            d = min(math.dist(p, head.base), math.dist(p, head.tip))
            if d <= reach and (best is None or d < best):
                best, where = d, (k, e)
    if where is not None:
        k, e = where
        lines[k] = replace(lines[k], head_start=head) if e == 0 else replace(lines[k], head_end=head)
