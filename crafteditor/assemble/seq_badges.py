"""Autonumber badges: Mermaid's ``autonumber`` draws a filled disc holding the message's number over
the lifeline where each message starts, centred on the message's row. Read as drawn, the disc is
ink 20 px and more either side of the lifeline: no message row stops at that lifeline, and every
message of the figure was lost (edges 0.00). Each disc is taken for the stroke it hides: its
centre rows across it, the rest paper."""

from __future__ import annotations

import cv2
import numpy as np

REACH = 34  # px either side of a lifeline a badge may take
SIZE = (14, 64)  # a badge's diameter, px
ROUND = 0.2  # its box is square within this share of its side
FILL = (0.6, 0.9)  # the share of its box the disc (less its digits) fills: a bar's rectangle fills all of it


def badges(ink: np.ndarray, xs: list[float]) -> list[tuple[int, int, int, int]]:
    """The discs (x, y, w, h) centred on a lifeline at one of ``xs``: a fill no 9 px line survives."""
    H, W = ink.shape
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9))
    out = []
    for x in xs:
        c0, c1 = max(0, int(x) - REACH), min(W, int(x) + REACH + 1)
        if c1 - c0 < SIZE[0]:
            continue
        solid = cv2.morphologyEx(ink[:, c0:c1].astype(np.uint8), cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
        solid = cv2.morphologyEx(solid, cv2.MORPH_OPEN, kernel)
        n, _, stats, cents = cv2.connectedComponentsWithStats(solid, connectivity=8)
        for k in range(1, n):
            bx, by, bw, bh, area = (int(v) for v in stats[k])
            side = max(bw, bh)
            if not SIZE[0] <= side <= SIZE[1] or abs(bw - bh) > ROUND * side or abs(c0 + cents[k][0] - x) > 3:
                continue
            fill = float(ink[by:by + bh, c0 + bx:c0 + bx + bw].mean())
            if FILL[0] <= area / (bw * bh) <= FILL[1] and fill >= FILL[0]:
                out.append((c0 + bx, by, bw, bh))
    return out


def without_badges(ink: np.ndarray, xs: list[float]) -> np.ndarray:
    """``ink`` with each badge (:func:`badges`) on the lifelines at ``xs`` taken for a 2 px stroke through
    its middle from the lifeline to each side where ink runs on past its rim (the message it starts; the
    other side stays paper, where a message's row stops); ``ink`` itself where there is none."""
    found = badges(ink, xs)
    if not found:
        return ink
    out = ink.copy()
    W = ink.shape[1]
    for bx, by, bw, bh in found:
        out[by:by + bh, bx:bx + bw] = False
        cy, mid = by + bh // 2, bx + bw // 2
        if bx >= 2 and ink[cy - 1:cy + 1, bx - 2].any():
            out[cy - 1:cy + 1, bx:mid + 1] = True
        if bx + bw + 1 < W and ink[cy - 1:cy + 1, bx + bw + 1].any():
            out[cy - 1:cy + 1, mid:bx + bw] = True
    return out
