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
"""

from __future__ import annotations

import numpy as np

from crafteditor.ocr.runs import TextRun
from crafteditor.paint import distances

RUN_ON = (4, 12)  # px past a corner (beyond the stroke) where a side that runs on is still drawn
DRAWN = 0.7  # share of that stretch that is stroke ink (neither the pocket's fill nor the page)
INK = 40.0  # colour distance from the fill and from the page that counts as stroke ink


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
