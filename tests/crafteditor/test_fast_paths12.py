"""Round 12's speed-ups of issue 31 change no reading: the outline search's gaps closed exactly as
OpenCV's elliptical closing closes them, a line's ink coverage the values the whole page's gave."""

from __future__ import annotations

import cv2
import numpy as np

from crafteditor.shapes.sketch import ROUND_RECTS_FROM, close_round


def _pencil_page(seed: int, h: int, w: int) -> np.ndarray:
    """Wobbly box outlines left open where the pen lifted, strokes between them, specks of grain."""
    rng = np.random.default_rng(seed)
    m = np.zeros((h, w), np.uint8)
    for _ in range(12):
        x, y = int(rng.integers(0, w - 40)), int(rng.integers(0, h - 40))
        bw, bh = int(rng.integers(30, 200)), int(rng.integers(20, 120))
        pts = np.array([[x, y], [x + bw, y + int(rng.integers(-3, 4))], [x + bw, y + bh], [x, y + bh]], np.int32)
        cv2.polylines(m, [pts], False, 1, int(rng.integers(1, 4)))  # the fourth side left open
        cv2.line(m, (x, y + bh), (x, y + bh - int(rng.integers(0, bh))), 1, 2)
    m |= (rng.random((h, w)) < 0.002).astype(np.uint8)
    m[0, :: 7] = 1  # ink on the edge: the erosion's padding is ink, as OpenCV's
    return m


def test_a_wide_gap_is_closed_as_opencvs_ellipse_closes_it():
    for seed, radius in enumerate((ROUND_RECTS_FROM, 21, 30, 39)):
        m = _pencil_page(seed, 260 + 40 * seed, 330)
        k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
        assert np.array_equal(close_round(m, radius), cv2.morphologyEx(m, cv2.MORPH_CLOSE, k)), radius


def test_a_narrow_gap_and_edge_cases_too():
    rng = np.random.default_rng(5)
    for radius in (2, 7, ROUND_RECTS_FROM, 25):
        k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
        for shape, share in (((1, 90), 0.1), ((120, 3), 0.5), ((70, 80), 0.95), ((64, 64), 0.0)):
            m = (rng.random(shape) < share).astype(np.uint8)
            assert np.array_equal(close_round(m, radius), cv2.morphologyEx(m, cv2.MORPH_CLOSE, k)), (radius, shape)


def test_line_coverage_is_the_whole_page_division():
    """lines.detect._coverage divides only the masked pixels: the values the whole page's division gave."""
    from crafteditor.lines.detect import _coverage

    rng = np.random.default_rng(3)
    for dtype in (np.float32, np.float64):
        for share in (0.0005, 0.03, 0.6):
            dist = (rng.random((90, 140)) * 300).astype(dtype)
            mask = rng.random(dist.shape) < share
            mask[5, 5] = True
            full = max(1.0, float(np.percentile(dist[mask], 90)))
            plain = np.where(mask, np.clip(dist / full, 0, 1), 0).astype(np.float32)
            got = _coverage(dist, mask)
            assert got.dtype == np.float32 and np.array_equal(got, plain)
    assert not _coverage(np.ones((4, 4), np.float32), np.zeros((4, 4), bool)).any()
