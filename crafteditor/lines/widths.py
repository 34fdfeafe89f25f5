"""Lines of different widths traced apart: thick coloured connectors and "metro map" lines
beside thin arrows.

:func:`crafteditor.lines.detect.detect_lines` reads one stroke width for all the ink it is
given (the median over its skeleton) and finds arrowheads as what survives an opening a
little wider than that. Where 10 px coloured lines share a figure with 3 px arrows, the one
width fits neither: the arrows lost their heads (the opening wider than the head's core took
them) and the thick lines came back thin and broken. Each connected piece of ink has its own
width (twice its area over its boundary: a long stroke's area is length × width, its
boundary twice its length); where the pieces fall into two widths far apart, each class is
traced on its own.
"""

from __future__ import annotations

import cv2
import numpy as np

from crafteditor.blobs import find_blobs
from crafteditor.lines.detect import detect_lines
from crafteditor.lines.heads import moved_head
from crafteditor.lines.paths import LinePath

MIN_PIECE_PX = 40  # pieces smaller than this (specks, dots) stay with the thin lines
THICK_RATIO = 2.2  # a thick class is at least this many times the thin class's width...
THICK_MIN_PX = 6.0  # ...and at least this wide
BOX_PAD = 8  # px around a class's ink its crop keeps (heads' surroundings, coverage windows)
LINE_LENGTH = 8.0  # and a thick line is this many times as long as it is wide
SLIM_FILL = 0.35  # a bent or slanted thick line covers at most this share of its box


def detect_lines_by_width(rgb: np.ndarray, residual: np.ndarray, background: np.ndarray,
                          labels: np.ndarray | None = None,
                          head_ink: np.ndarray | None = None) -> tuple[list[LinePath], np.ndarray]:
    """:func:`detect_lines` run once per width class of the residual ink (once where all is one width);
    thick lines once per paint (``labels``: each pixel's paint, -1 for none), as parallel coloured
    lines touch where they bend together and one skeleton runs down the middle of them all."""
    classes = width_classes(residual)
    if len(classes) == 1:
        return detect_lines(rgb, residual, background, head_ink)
    thin, thick = classes
    masks = [thin, *(by_paint(thick, labels) if labels is not None else [thick])]
    lines: list[LinePath] = []
    explained = np.zeros_like(residual)
    for mask in masks:
        # each class over its own bounding box: every step of detect_lines reads the whole image
        rows, cols = np.flatnonzero(mask.any(axis=1)), np.flatnonzero(mask.any(axis=0))
        if rows.size == 0:
            continue
        H, W = mask.shape
        y0, y1 = max(0, rows[0] - BOX_PAD), min(H, rows[-1] + 1 + BOX_PAD)
        x0, x1 = max(0, cols[0] - BOX_PAD), min(W, cols[-1] + 1 + BOX_PAD)
        # with the outlines' ink (less the other classes' lines): a head whose tip touches a
        # node is found there, as where all lines are one width
        crop = mask[y0:y1, x0:x1]
        outlines = None if head_ink is None else head_ink[y0:y1, x0:x1] & ~(residual[y0:y1, x0:x1] & ~crop)
        found, seen = detect_lines(rgb[y0:y1, x0:x1], crop, background, outlines)
        lines += [_moved(ln, x0, y0) for ln in found]
        explained[y0:y1, x0:x1] |= seen
    return lines, explained


def _moved(ln: LinePath, dx: int, dy: int) -> LinePath:
    """A line found in a crop, in the whole image's pixels."""
    ln.points = [(x + dx, y + dy) for x, y in ln.points]
    for h in (ln.head_start, ln.head_end):
        if h is not None:
            moved_head(h, dx, dy)
    return ln


def by_paint(mask: np.ndarray, labels: np.ndarray, min_share: float = 0.1) -> list[np.ndarray]:
    """``mask`` split by paint: each paint holding ``min_share`` of it, with the unpainted
    (anti-aliased) pixels next to it; the rest goes with the first."""
    lab = np.where(mask, labels, -1)
    counts = np.bincount(lab[lab >= 0].ravel())
    total = max(1, int(mask.sum()))
    paints = [int(p) for p in np.argsort(counts)[::-1] if counts[p] >= min_share * total]
    if len(paints) < 2:
        return [mask]
    k = np.ones((3, 3), np.uint8)
    loose = mask & (lab < 0)
    parts = [mask & ((lab == p) | (loose & cv2.dilate((lab == p).astype(np.uint8), k).astype(bool))) for p in paints]
    rest = mask & ~np.logical_or.reduce(parts)
    parts[0] |= rest
    return parts


def width_classes(residual: np.ndarray) -> list[np.ndarray]:
    """The residual ink split into thin and thick pieces (one mask where nothing is much thicker)."""
    n, lab, stats, _ = find_blobs(residual)
    if n <= 2:
        return [residual]
    m = residual.astype(np.uint8)
    boundary = residual & ~cv2.erode(m, np.ones((3, 3), np.uint8)).astype(bool)
    perim = np.bincount(lab[boundary], minlength=n).astype(np.float64)
    area = stats[:, cv2.CC_STAT_AREA].astype(np.float64)
    big = (area >= MIN_PIECE_PX) & (perim > 0)
    big[0] = False
    if big.sum() < 2:
        return [residual]
    width = np.zeros(n)
    width[big] = 2 * area[big] / perim[big]
    thin = float(np.percentile(width[big], 25))  # the thin lines' width (blobs and labels are many too)
    # a thick line is long for its width (a bar or a filled blob is not: it stays with the rest,
    # and thinning it once per paint cost a 3452 px paper figure 20 s): along its boundary and
    # across its box (ViT's token pills with their arrows are 90 px around but 72 px across)
    length = np.minimum(perim / 2, np.hypot(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT]))
    # and slim: its box no wider than a few strokes, or mostly empty (a bent or slanted line);
    # an icon fills its box (the Azure architecture's icons had been traced as lines)
    bw, bh = stats[:, cv2.CC_STAT_WIDTH].astype(np.float64), stats[:, cv2.CC_STAT_HEIGHT].astype(np.float64)
    slim = (np.minimum(bw, bh) <= 2.5 * width) | (area <= SLIM_FILL * bw * bh)
    thick = big & slim & (width >= max(THICK_MIN_PX, THICK_RATIO * thin)) & (length >= LINE_LENGTH * np.maximum(width, 1))
    if not thick.any() or thick.sum() == big.sum():
        return [residual]
    thick_mask = thick[lab] & residual
    return [residual & ~thick_mask, thick_mask]
