"""The ink of a sequence diagram: what differs from the paper under it, where the paper is the page
or a broad coloured band laid under lifelines (PlantUML's ``box`` around participants, a swimlane's
fill, a fragment's shading).

Against the page colour alone, a band is ink from side to side: a lifeline inside it has ink beside
it and is no thin column, a message across it is no row of ink among blank ones, and a figure whose
participants stand in bands read as no sequence at all (cluster-api's PlantUML diagrams)."""

from __future__ import annotations

import cv2
import numpy as np

from crafteditor.blobs import find_blobs
from crafteditor.paint import farther_than

INK = 30.0  # colour distance from the paper that counts as ink (light grey lifelines)
BAND = 15  # px: ink solid over a square this wide is a fill (a band, a box's inside), no line, head or word
SHARE = 0.05  # a fill's colour covers this share of the solid ink at least (JPEG noise and blends aside)
NEAR = 20.0  # a pixel this close to a fill's colour is that fill


def ink_mask(rgb: np.ndarray, background: tuple[int, int, int]) -> np.ndarray:
    """Pixels farther than :data:`INK` from the paper under them (H×W bool): the page, or a fill
    broad enough to hold a :data:`BAND` square, in one of the few colours most of such fills have,
    4 such squares wide and 8 tall at least (a band along a lifeline).
    A fill keeps its exact shape (an opening keeps a rectangle whole), the lines across it and its
    words stay ink (not of its colour), and so does the antialiased rim of its edges (a 1 px seam)."""
    ink = farther_than(rgb, background, INK)
    kernel = np.ones((BAND, BAND), np.uint8)
    solid = cv2.morphologyEx(ink.astype(np.uint8), cv2.MORPH_OPEN, kernel)
    n = cv2.countNonZero(solid)
    if n < BAND * BAND * 4:
        return ink
    # a band runs down along a lifeline: tall and broad (an activation bar, a participant's box or a
    # note is a fill too, but stays ink: its sides are what a message runs to and a row stops at)
    # (measured on the solid ink, which the lines and words across a band do not cut in pieces).
    # Found before the fills' colours are counted: most figures have no band, and the count (a sort
    # of every solid pixel) and a colour test per fill were spent on them for nothing
    _, labels, stats, _ = find_blobs(solid)
    broad = (stats[:, cv2.CC_STAT_WIDTH] >= 4 * BAND) & (stats[:, cv2.CC_STAT_HEIGHT] >= 8 * BAND)
    broad[0] = False  # the rest of the page
    if not broad.any():
        return ink
    solid = solid > 0
    px = np.ascontiguousarray(rgb[:, :, :3])[solid].astype(np.int32)
    packed = (px[:, 0] << 16) | (px[:, 1] << 8) | px[:, 2]
    colours, counts = np.unique(packed, return_counts=True)
    paper = np.zeros(ink.shape, bool)  # C-ordered whatever rgb's order: written through a flat view below
    top = np.argsort(-counts)[:6]  # the few colours most of the fills have
    for c in colours[top][counts[top] >= SHARE * n]:
        colour = (int(c) >> 16 & 255, int(c) >> 8 & 255, int(c) & 255)
        paper |= ~farther_than(rgb, colour, NEAR, within=solid) & solid
    at = np.flatnonzero(paper)  # the fill's pixels are asked whether their piece is broad (not the page's)
    paper.reshape(-1)[at] = broad[labels.reshape(-1)[at]]
    return ink & ~paper
