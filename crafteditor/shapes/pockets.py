"""Pockets: the faces that crossing lines wall off, which are no boxes.

Edges that run from border to border through a frame, past the frame beside it (Mermaid's
nested subgraphs: 'API Routes' over 'Business Logic', their column of edges between), wall off
rectangles of the fill between them: a face that matches a box, unlabelled. Read as a node, it
took the frames' borders and the edges' stretches around it as its outline (so neither was a
line any more, and each edge came back cut in two at it, each half ending on a nameless node).

A box's sides end at its corners; a pocket's run on past them, for they are longer lines that
cross there. An unlabelled box whose two sides both run on past three of its four corners (lines
crossing there) is a pocket; a box one line meets at a corner (a sequence diagram's activation bar,
a message at its top) is not. Crossing lines of one ink draw a grid or a table, whose empty cells
stay boxes: at one corner at least the two lines differ (a frame's border, an edge in another ink).

Two arrows running back and forth between two nodes stacked close (a state machine's 'state_req' over
'try_fill_buffer', 'while STATE_REQ' written between the arrows) wall off a face too, its other two sides
the nodes' own outlines: read as a labelled box, it took both arrows as its sides and the edges were lost.
A box whose two opposite sides lie on two other nodes' outlines, narrower than both and set in from them,
is such a pocket (:func:`between_nodes`); a class box's compartments, which share their sides with the
boxes above and below, are one shape with dividers by then, and their sides run on in line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from crafteditor.ocr.runs import TextRun
from crafteditor.paint import distances

if TYPE_CHECKING:
    from crafteditor.shapes.detect import DetectedShape

RUN_ON = (4, 12)  # px past a corner (beyond the stroke) where a side that runs on is still drawn
DRAWN = 0.7  # share of that stretch that is stroke ink (neither the pocket's fill nor the page)
INK = 40.0  # colour distance from the fill and from the page that counts as stroke ink
ON_OUTLINE = 3.0  # px (+ a stroke width): a side this near another node's outline lies on it
SET_IN = 4.0  # px (+ two stroke widths): a pocket's side is set in this far from the nodes' sides at least once


def is_pocket(rgb: np.ndarray, background: tuple[int, int, int], box: tuple[float, float, float, float],
              fill: tuple[int, int, int], stroke_px: float, runs: list[TextRun]) -> bool:
    """Whether the unlabelled box ``box`` (x, y, w, h: its stroke's centre line) is a pocket between
    crossing lines: both its sides drawn on past at least three of its corners."""
    x, y, w, h = box
    if any(x <= r.cx <= x + w and y <= r.cy <= y + h for r in runs):
        return False
    H, W = rgb.shape[:2]
    lo, hi = int(round(RUN_ON[0] + stroke_px / 2)), int(round(RUN_ON[1] + stroke_px / 2))
    x0, y0, x1, y1 = (int(round(v)) for v in (x, y, x + w, y + h))
    if x0 - hi < 0 or y0 - hi < 0 or x1 + hi >= W or y1 + hi >= H:
        return False
    bg, fl = np.asarray(background, np.float64), np.asarray(fill, np.float64)

    def drawn(ys: slice, xs: slice, along_x: bool) -> np.ndarray | None:
        """The stroke's median colour where it is drawn along the stretch, else None."""
        patch = rgb[ys, xs]
        ink = (distances(patch, bg) > INK) & (distances(patch, fl) > INK)
        across = ink.any(axis=0 if along_x else 1)  # the stroke within a pixel either side of its line
        return np.median(patch[ink].astype(np.float64), axis=0) if across.mean() >= DRAWN else None

    runs_on, two_inks = 0, False
    for cx, cy, sx, sy in ((x0, y0, -1, -1), (x1, y0, 1, -1), (x0, y1, -1, 1), (x1, y1, 1, 1)):
        # the horizontal side run on past the corner (sx), and the vertical side (sy)
        hx = slice(cx + lo, cx + hi) if sx > 0 else slice(cx - hi, cx - lo)
        vy = slice(cy + lo, cy + hi) if sy > 0 else slice(cy - hi, cy - lo)
        across, down = drawn(slice(cy - 1, cy + 2), hx, True), drawn(vy, slice(cx - 1, cx + 2), False)
        if across is not None and down is not None:
            runs_on += 1
            two_inks |= bool(np.linalg.norm(across - down) > INK)
    # lines of two inks crossing (a frame's border and an edge): a grid or table drawn in one ink keeps its cells
    return runs_on >= 3 and two_inks


def between_nodes(shapes: list[DetectedShape]) -> list[int]:
    """The indices of ``shapes`` that are no pocket between two nodes (the module docstring): a box or
    rounded box whose top lies on one node's bottom and its bottom on another's top (or its left on one's
    right and its right on another's left), within both nodes' span and set in from their sides on one end."""
    nodes = [s for s in shapes if not s.is_group]

    def spans(s: DetectedShape, across: bool) -> tuple[float, float, float, float]:
        # (start, end) along the stacking, then (start, end) across it
        return (s.y, s.y + s.h, s.x, s.x + s.w) if across else (s.x, s.x + s.w, s.y, s.y + s.h)

    def pocket(b: DetectedShape) -> bool:
        if b.is_group or b.dividers or b.shape not in ("box", "round"):
            return False
        for vertical in (True, False):
            b0, b1, c0, c1 = spans(b, vertical)
            for t in nodes:
                if t is b:
                    continue
                t0, t1, d0, d1 = spans(t, vertical)
                on = ON_OUTLINE + max(b.stroke_px, t.stroke_px)
                if abs(t1 - b0) > on or not (d0 - on <= c0 and c1 <= d1 + on):
                    continue
                for u in nodes:
                    if u is b or u is t:
                        continue
                    u0, u1, e0, e1 = spans(u, vertical)
                    tol = ON_OUTLINE + max(b.stroke_px, u.stroke_px)
                    if abs(u0 - b1) > tol or not (e0 - tol <= c0 and c1 <= e1 + tol):
                        continue
                    set_in = SET_IN + 2 * max(b.stroke_px, t.stroke_px, u.stroke_px)
                    if min(c0 - d0, c0 - e0) > set_in or min(d1 - c1, e1 - c1) > set_in:
                        return True
        return False

    return [i for i, s in enumerate(shapes) if not pocket(s)]
