"""Rewrites for speed give what the plain versions gave: the pairwise merge of rectangles
restarted after every union, a text box's longest ink run per column, a face's rings, ink
told by its distance from a colour, and a face's shape read once."""

from __future__ import annotations

import random

import cv2
import numpy as np

from crafteditor.blobs import merge_rects
from crafteditor.ocr.text_lines import _longest_runs, _one_rotated_line
from crafteditor.paint import distances, farther_than
from crafteditor.shapes.detect import ring_steps
from crafteditor.shapes.faces import Face, merge_faces
from crafteditor.shapes.outlines import _classify, classify


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


def test_ring_steps_are_the_rings_successive_dilations_add():
    """A face's rings (the stroke, then the outside, in _ring_stroke) read off one distance transform
    are the pixels each 3×3 dilation adds, faces cut by the crop's edge included."""
    rng = np.random.default_rng(5)
    k3 = np.ones((3, 3), np.uint8)
    for i in range(400):
        h, w, pad = int(rng.integers(1, 40)), int(rng.integers(1, 40)), int(rng.integers(2, 12))
        mask = np.zeros((h + 2 * pad, w + 2 * pad), np.uint8)
        face = (rng.random((h, w)) < (1.0 if i % 3 == 0 else rng.random())).astype(np.uint8)
        oy, ox = int(rng.integers(0, 2 * pad + 1)), int(rng.integers(0, 2 * pad + 1))
        mask[oy:oy + h, ox:ox + w] = face
        if not mask.any():
            continue
        steps, cur = ring_steps(mask), mask
        for k in range(1, pad):
            grown = cv2.dilate(cur, k3)
            assert np.array_equal(steps == k, grown.astype(bool) & ~cur.astype(bool))
            cur = grown


def test_farther_than_gives_the_distances_comparison():
    """Ink told from the paper (a sketch's pencil, a sequence diagram's strokes) by the shortcut is the
    ink the full distance comparison tells, at every threshold, the colour's own pixels and their blends included."""
    rng = np.random.default_rng(11)
    for i in range(150):
        h, w = int(rng.integers(1, 120)), int(rng.integers(1, 120))
        base = rng.integers(0, 256, 3)
        img = np.clip(base + rng.integers(-90, 90, (h, w, 3)), 0, 255).astype(np.uint8)
        color = base.astype(np.uint8) if i % 2 else rng.integers(0, 256, 3).astype(np.uint8)
        for t in (0.0, 0.5, 10.0, 44.99, 45.0, 45.01, 80.0, float(rng.uniform(0, 300)), 450.0):
            assert np.array_equal(farther_than(img, color, t), distances(img, color) > t)
    odd = rng.integers(0, 256, (20, 30, 3)).astype(np.uint8)
    assert np.array_equal(farther_than(odd, (10.5, 3, 7), 45.0), distances(odd, (10.5, 3, 7)) > 45.0)  # not whole
    within = rng.random((20, 30)) < 0.5
    assert np.array_equal(farther_than(odd, (200, 30, 70), 45.0, within=within),
                          (distances(odd, (200, 30, 70)) > 45.0) & within)
    assert np.array_equal(farther_than(odd, (10.5, 3, 7), 45.0, within=within), (distances(odd, (10.5, 3, 7)) > 45.0) & within)


def test_a_faces_shape_read_once_is_the_shape_read_afresh():
    """classify keeps its reading on the face: asked again (merging faces asks of each piece and
    of each trial union), it gives what reading the face afresh gives, for every face."""
    def face(draw, x: int, y: int, w: int, h: int) -> Face:
        m = np.zeros((h, w), np.uint8)
        draw(m)
        return Face(paint=0, x=x, y=y, w=w, h=h, mask=m > 0, filled=m > 0)

    box = face(lambda m: m.fill(1), 0, 0, 60, 30)
    disc = face(lambda m: cv2.ellipse(m, (20, 20), (19, 19), 0, 0, 360, 1, -1), 70, 0, 41, 41)
    diamond = face(lambda m: cv2.fillPoly(m, [np.array([(25, 0), (50, 15), (25, 30), (0, 15)])], 1), 0, 40, 51, 31)
    for f in (box, disc, diamond, merge_faces(box, disc), merge_faces(box, diamond)):
        first = classify(f)
        assert classify(f) == first == _classify(f)
    assert classify(box)[0] == "box" and classify(diamond)[0] == "diamond"
