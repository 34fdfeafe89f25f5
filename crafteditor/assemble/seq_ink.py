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
    broad |= _stacked(rgb, ink, labels, stats)
    if not broad.any():
        return ink
    solid = solid > 0
    px = np.ascontiguousarray(rgb[:, :, :3])[solid].astype(np.int32)
    packed = (px[:, 0] << 16) | (px[:, 1] << 8) | px[:, 2]
    colours, counts = np.unique(packed, return_counts=True)
    top = np.argsort(-counts)[:6]  # the few colours most of the fills have
    fills = [(int(c) >> 16 & 255, int(c) >> 8 & 255, int(c) & 255) for c in colours[top][counts[top] >= SHARE * n]]
    paper = _of_fills(rgb, fills, solid)  # C-ordered whatever rgb's order: written through a flat view below
    at = np.flatnonzero(paper)  # the fill's pixels are asked whether their piece is broad (not the page's)
    paper.reshape(-1)[at] = broad[labels.reshape(-1)[at]]
    if paper.any():
        # a pale band only just past INK off the page (Mermaid's ``box LightYellow``, 32 off white): JPEG noise
        # takes pixels of it under INK, the opening leaves holes round them, and the band's own pixels there
        # stayed ink (specks under a participant read as an arrowhead up into it, every lifeline lost). Ink of a
        # fill's colour within a BAND of its band is that band too (the lines and words on it are not of it)
        near = cv2.dilate(paper.astype(np.uint8), np.ones((2 * BAND + 1, 2 * BAND + 1), np.uint8)) > 0
        near &= ink & ~paper
        paper |= _of_fills(rgb, fills, near)
    return ink & ~paper


def _of_fills(rgb: np.ndarray, fills: list[tuple[int, int, int]], within: np.ndarray) -> np.ndarray:
    """The pixels of ``within`` (H×W bool) within :data:`NEAR` of one of the ``fills``' colours (H×W bool,
    C-ordered whatever ``rgb``'s order)."""
    out = np.zeros(within.shape, bool)
    for colour in fills:
        out |= ~farther_than(rgb, colour, NEAR, within=within) & within
    return out


def _stacked(rgb: np.ndarray, ink: np.ndarray, labels: np.ndarray, stats: np.ndarray) -> np.ndarray:
    """Per piece of solid ink (``labels``, ``stats``: its blobs), whether it is one of the pieces of a band that
    fragments cut across (a frame's white inside: PlantUML's ``alt``, ``loop`` and groups drawn over ``box``
    bands): 4 :data:`BAND` squares wide and 2 tall at least, in one colour with another such piece in its columns
    (over half the narrower's width), the two spanning 8 squares' height, the upper one ending on a line of ``ink``
    that runs on past both its sides (the frame's top; filled boxes stacked in a flowchart's column end on paper
    or an arrow). Each piece alone was too short for a band: the band stayed ink, its lifelines no thin columns
    (a cluster-api figure's two bands, cut at the first fragment 93 px down, left it with one lifeline and no
    sequence)."""
    x, y, w, h = (stats[:, k] for k in (cv2.CC_STAT_LEFT, cv2.CC_STAT_TOP, cv2.CC_STAT_WIDTH, cv2.CC_STAT_HEIGHT))
    big = np.flatnonzero((w >= 4 * BAND) & (h >= 2 * BAND))
    big = big[big > 0]
    out = np.zeros(len(stats), bool)
    if len(big) < 2:
        return out
    # each piece's colour from its own box (a page-sized comparison per piece took most of the reading's
    # assembly on a Mermaid page of many filled boxes)
    box = {int(k): (slice(y[k], y[k] + h[k]), slice(x[k], x[k] + w[k])) for k in big}
    colour = {k: np.median(rgb[box[k]][labels[box[k]] == k][:, :3], axis=0) for k in box}
    for i, a in enumerate(big):
        for b in big[i + 1:]:
            over = min(x[a] + w[a], x[b] + w[b]) - max(x[a], x[b])
            span = max(y[a] + h[a], y[b] + h[b]) - min(y[a], y[b])
            top = a if y[a] < y[b] else b
            if over >= 0.5 * min(w[a], w[b]) and span >= 8 * BAND and \
                    float(np.abs(colour[int(a)] - colour[int(b)]).max()) <= NEAR and \
                    _on_frame(ink, int(x[top]), int(w[top]), int(y[top] + h[top])):
                out[a] = out[b] = True
    return out


def _on_frame(ink: np.ndarray, x: int, w: int, y: int) -> bool:
    """Whether a row of ``ink`` within 3 px of row ``y`` runs, nine tenths inked, from 4 px left of column ``x``
    to 3 px right of ``x + w``: a frame's side across a piece of band ``w`` wide."""
    lo, hi = x - 4, x + w + 3
    if lo < 0 or hi >= ink.shape[1]:
        return False
    rows = ink[max(0, y - 3):y + 4]
    return bool((rows[:, lo] & rows[:, hi] & (rows[:, lo:hi + 1].mean(axis=1) >= 0.9)).any())
