"""Rewrites for speed give what the plain versions gave: the pairwise merge of rectangles
restarted after every union, and a text box's longest ink run per column."""

from __future__ import annotations

import random

import numpy as np

from crafteditor.blobs import merge_rects
from crafteditor.ocr.text_lines import _longest_runs, _one_rotated_line


def _merge_restarting(rects, joins):
    """The plain scan: after every union, start again from the first pair."""
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


def test_merge_rects_gives_the_restarted_scans_result():
    rng = random.Random(7)
    overlap = lambda a, b: a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]  # noqa: E731
    one_sided = lambda a, b: a[0] < b[0] and abs(a[1] - b[1]) < 30  # noqa: E731 (order matters)
    for _ in range(300):
        rects = []
        for _ in range(rng.randint(0, 30)):
            x, y = rng.randint(0, 300), rng.randint(0, 300)
            rects.append((x, y, x + rng.randint(3, 60), y + rng.randint(3, 80)))
        for joins in (overlap, one_sided, _one_rotated_line):
            assert merge_rects(rects, joins) == _merge_restarting(rects, joins)


def test_longest_runs_per_column():
    rng = np.random.default_rng(3)
    for _ in range(200):
        mask = rng.random((int(rng.integers(1, 30)), int(rng.integers(1, 40)))) < rng.random()
        want = np.zeros(mask.shape[1], int)
        for x in range(mask.shape[1]):
            run = 0
            for v in mask[:, x]:
                run = run + 1 if v else 0
                want[x] = max(want[x], run)
        assert np.array_equal(_longest_runs(mask), want)
