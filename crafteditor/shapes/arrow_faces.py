"""A filled triangle with a line's stem at the middle of one side is an arrowhead, not a shape.

A paper figure's large filled heads (the MLP-Mixer's nine up-arrows into 'Global Average Pooling':
19×28 px triangles on 17 px stems) are faces big enough to be fitted as polygons: they were taken out
of the line ink as polygon shapes, the line detector saw stems without heads, and the arrows came back
as stubs and loose triangles (issue 31: eight of nine edges lost). A triangle whose one side has ink
running on straight out of its middle, narrower than that side, and holds no text, is left to the
line detector, which finds it as a head (:func:`crafteditor.lines.heads.find_heads`).
"""

from __future__ import annotations

import math

import numpy as np

from crafteditor.ocr.runs import TextRun
from crafteditor.paint import Paints, color_distance

STEM_PROBE = (2.0, 3.0, 4.0)  # pixels beyond the side's middle where the stem's ink must be
STEM_NARROW = 0.35  # half the side's length: beyond it, either side of the stem, the canvas shows
SAME_INK = 60.0  # the stem's colour distance from the head's fill, at most
BESIDE = 6.0  # pixels beyond the side where the canvas is looked for (clear of the outline's stroke)


def is_arrowhead(rgb: np.ndarray, paints: Paints, corners: list[tuple[float, float]],
                 box: tuple[float, float, float, float], fill: tuple[int, int, int], runs: list[TextRun]) -> bool:
    """Whether a fitted triangle (``corners`` in image pixels, ``box`` its x, y, w, h, ``fill`` its
    colour) is a line's head: three corners, no text inside, and a stem of its own colour leaving the
    middle of one side, away from the opposite corner, narrower than that side (a light wedge of a
    photo with a connector leaving it is no head)."""
    if len(corners) != 3:
        return False
    x, y, w, h = box
    if any(x <= r.cx <= x + w and y <= r.cy <= y + h for r in runs):
        return False
    labels, bg = paints.labels, paints.background
    H, W = labels.shape

    def canvas(p: np.ndarray) -> bool | None:
        xi, yi = int(math.floor(p[0])), int(math.floor(p[1]))
        return None if not (0 <= xi < W and 0 <= yi < H) else bool(labels[yi, xi] == bg)

    pts = np.asarray(corners, np.float64)
    for i in range(3):
        a, b, apex = pts[i], pts[(i + 1) % 3], pts[(i + 2) % 3]
        side = b - a
        length = float(np.hypot(*side))
        if length < 4:
            continue
        mid, u = (a + b) / 2, side / length
        n = np.array([-u[1], u[0]])
        if float(np.dot(apex - mid, n)) > 0:  # outward: away from the apex
            n = -n
        if not all(canvas(mid + t * n) is False for t in STEM_PROBE):
            continue
        sx, sy = (int(math.floor(v)) for v in mid + STEM_PROBE[-1] * n)
        if color_distance(rgb[sy, sx], fill) > SAME_INK:
            continue
        beside = [canvas(mid + BESIDE * n + s * STEM_NARROW * length * u) for s in (-1.0, 1.0)]
        if all(v is True for v in beside):
            return True
    return False
