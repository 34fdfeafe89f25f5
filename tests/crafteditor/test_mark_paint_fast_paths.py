"""The pale-mark search's fast paths give what the plain code gave (issue 31: the review mends to
``with_pale_marks`` had made the charts stage on large diagrams 4x slower: a full-image distance per paint and
a pairwise letter-row test)."""

from __future__ import annotations

import numpy as np

from crafteditor.charts.mark_paints import _DotsOf, _set_as_words


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
