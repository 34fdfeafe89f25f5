"""The pale-mark search's fast paths give what the plain code gave (issue 31: the review mends to
``with_pale_marks`` had made the charts stage on large diagrams 4x slower: a full-image distance per paint and
a pairwise letter-row test)."""

from __future__ import annotations

import numpy as np

from crafteditor.charts.mark_paints import _DotsOf, _Rims, _set_as_words, _shade_mass, blend_of
from crafteditor.paint import unique_rows


def _plain_set_as_words(dots) -> bool:
    def beside(a, b) -> bool:
        gap = max(a[0], b[0]) - min(a[0] + a[2], b[0] + b[2])
        return abs(int(a[1]) - int(b[1])) <= 1 and abs(int(a[3]) - int(b[3])) <= 1 and 0 <= gap <= 0.5 * max(a[3], b[3])

    return sum(any(beside(a, b) for b in dots if b is not a) for a in dots) >= 0.5 * len(dots)


def test_the_letter_row_test_is_the_pairwise_one():
    rng = np.random.default_rng(3)
    for trial in range(300):
        n = int(rng.integers(3, 40))
        spread = int(rng.choice([12, 60, 400]))
        x, y = rng.integers(0, spread, n), rng.integers(0, spread // 4 + 2, n)
        w, h = rng.integers(3, 9, n), rng.integers(3, 9, n)
        dots = [np.array([x[i], y[i], w[i], h[i], w[i] * h[i]]) for i in range(n)]
        assert _set_as_words(dots) == _plain_set_as_words(dots), trial


def test_a_paints_pixels_are_those_within_its_tolerance():
    rng = np.random.default_rng(5)
    rgb = rng.integers(0, 256, (60, 80, 3), dtype=np.uint8)
    rgb[10:20, 10:30] = (31, 120, 180)
    dots = _DotsOf(rgb, [], 28.0, np.arange(0), np.arange(0), 0)
    for q in ([31, 120, 180], [166.4, 206.2, 227.9], [5, 250, 3], [128, 128, 128]):
        q = np.asarray(q, np.float32)
        plain = (np.linalg.norm(rgb.astype(np.float32) - q, axis=2) <= 28.0).astype(np.uint8)
        assert np.array_equal(dots._theirs(q), plain)


def _rows_cases():
    rng = np.random.default_rng(7)
    px = rng.integers(0, 256, (5000, 3)).astype(np.uint8)
    px[:3000] = px[2000:] // 16 * 16  # repeats, as a figure's flat paints make
    extremes = np.array([[255, 255, 255], [0, 0, 0], [255, 0, 0], [0, 0, 255], [0, 255, 0], [255, 255, 255]], np.uint8)
    return [px, extremes, np.full((40, 3), 198, np.uint8), px[:1], np.zeros((0, 3), np.uint8)]


def test_colours_are_uniqued_as_numpy_uniques_rows():
    """unique_rows (the pale colours; a transparent figure's page; a group frame's fill) gives numpy's rows,
    inverse and counts: the same values, dtypes and order, on repeats, the channels' extremes, one colour,
    one pixel and none."""
    for px in _rows_cases():
        plain = np.unique(px, axis=0, return_inverse=True, return_counts=True)
        for a, b in zip(plain, unique_rows(px, return_inverse=True)):
            assert a.dtype == b.dtype and np.array_equal(a.reshape(-1) if a.ndim == 1 else a, b)
        plain = np.unique(px, axis=0, return_counts=True)
        fast = unique_rows(px)
        assert len(fast) == 2
        for a, b in zip(plain, fast):
            assert a.dtype == b.dtype and np.array_equal(a, b)


def test_the_shade_mass_is_the_pairwise_distance_ones():
    rng = np.random.default_rng(9)
    cols = rng.integers(0, 256, (700, 3)).astype(np.uint8)
    counts = rng.integers(1, 50, 700)
    for tol, most in ((28.0, 1500), (16.0, 1500), (20.0, 300)):
        mass = counts.astype(np.int64).copy()
        top = np.argsort(-counts)[:most]
        c = cols[top].astype(np.float32)
        near = (np.linalg.norm(c[:, None, :] - c[None, :, :], axis=2) <= tol).astype(np.int64)
        mass[top] = near @ counts[top].astype(np.int64)
        assert np.array_equal(_shade_mass(cols, counts, tol, most), mass)


def test_a_marks_rim_is_told_as_blend_of_tells_it():
    """A colour on the way from a mark to the background (its anti-aliased rim) is told by the marks weighed
    at once just as one mark at a time through ``blend_of``; so is one off every such way."""
    rng = np.random.default_rng(11)
    for trial in range(1500):
        marks = [rng.uniform(0, 255, 3).astype(np.float32) for _ in range(int(rng.integers(0, 7)))]
        bg = np.array([255.0, 255.0, 255.0]) if trial % 2 else rng.integers(0, 256, 3).astype(np.float64)
        c = rng.integers(0, 256, 3).astype(np.float32)
        if marks and trial % 3 == 0:  # on a mark's blend with the background
            c = np.round(marks[0] + rng.uniform(0, 1) * (bg - marks[0])).astype(np.float32)
        plain = any(0.0 < blend_of(c, q, bg) < 0.95 for q in marks)
        assert _Rims(marks, bg).any_rim(c) == plain, trial
