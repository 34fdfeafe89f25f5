"""The speed-ups of issue 31 change no reading: each fast path gives exactly what the plain numpy
it replaced gave (colour counting, a photo's block spreads, a face's box)."""

from __future__ import annotations

import math

import cv2
import numpy as np

from crafteditor.config import Config
from crafteditor.paint import _unique_colors, find_paints
from crafteditor.photos import BLOCK, photo_blocks
from crafteditor.shapes.faces import find_faces


def _figure_like(seed: int, h: int = 203, w: int = 317) -> np.ndarray:
    """A page with flat boxes, strokes, anti-aliased-looking noise and a noisy 'photo' patch."""
    rng = np.random.default_rng(seed)
    rgb = np.full((h, w, 3), 255, np.uint8)
    for _ in range(6):
        y, x = rng.integers(0, h - 30), rng.integers(0, w - 40)
        rgb[y:y + rng.integers(12, 30), x:x + rng.integers(15, 40)] = rng.integers(0, 256, 3)
    rgb[rng.random((h, w)) < 0.02] = rng.integers(0, 256, 3)
    rgb[20:80, 200:290] = rng.integers(0, 256, (60, 90, 3))
    return rgb


def test_colour_counts_are_np_unique_s():
    for seed in range(4):
        rgb = _figure_like(seed)
        flat = ((rgb[..., 0].astype(np.int32) << 16) | (rgb[..., 1].astype(np.int32) << 8) | rgb[..., 2]).ravel()
        for arr in (flat, flat[::-1].copy(), np.full(50, 7, np.int32)):
            want = np.unique(arr, return_inverse=True, return_counts=True)
            got = _unique_colors(arr)
            for a, b in zip(want, got):
                assert a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b)


def _plain_spread(rgb: np.ndarray) -> np.ndarray:
    H, W = rgb.shape[:2]
    bh, bw = H // BLOCK, W // BLOCK
    blocks = rgb[:bh * BLOCK, :bw * BLOCK].reshape(bh, BLOCK, bw, BLOCK, 3).transpose(0, 2, 1, 3, 4)
    blocks = blocks.reshape(bh, bw, BLOCK * BLOCK, 3)
    return (blocks.max(axis=2).astype(np.int16) - blocks.min(axis=2)).max(axis=2)


def test_photo_blocks_look_at_the_same_blocks():
    for seed in range(3):
        rgb = _figure_like(seed)
        seeds, texture = photo_blocks(rgb)
        assert seeds.shape == _plain_spread(rgb).shape
        # a block is looked at only where its colours spread: the noisy patch's blocks are photo seeds
        assert seeds[3:9, 26:35].mean() > 0.5
        assert not (seeds & (_plain_spread(rgb) < 16)).any() and not (texture & (_plain_spread(rgb) < 16)).any()


def test_lossy_paints_and_faces_come_back_whole():
    rgb = _figure_like(7)
    plain = find_paints(rgb, Config())
    lossy = find_paints(rgb, Config.preset("scan"))
    assert plain.labels.shape == lossy.labels.shape == rgb.shape[:2]
    faces = find_faces(plain, 10.0)
    assert faces and all(f.w >= 10 and f.h >= 10 and f.mask.shape == (f.h, f.w) for f in faces)


def test_channel_maxima_and_mask_overlaps_are_numpy_s():
    """Dehatching's largest channel difference and a mask IoU, counted the fast way, are the plain
    numpy values (so a hatched fill and a face's outline class come out as before)."""
    from crafteditor.hatching import paper_distance
    from crafteditor.ocr.font_class import fit
    from crafteditor.shapes.outlines import mask_iou

    rng = np.random.default_rng(5)
    for seed in range(3):
        diff = _figure_like(seed)
        assert np.array_equal(paper_distance(diff, np.zeros(3)), diff.max(axis=2))
    for _ in range(20):
        h, w = rng.integers(3, 60, 2)
        a, b = rng.random((h, w)) < rng.random(), rng.random((h, w)) < rng.random()
        union = np.logical_or(a, b).sum()
        assert mask_iou(a, b.astype(np.uint8)) == (float(np.logical_and(a, b).sum()) / float(union) if union else 0.0)
        if a.any():  # the font fit's overlap term, as plain sums
            scaled = cv2.resize(b.astype(np.uint8), (w, h), interpolation=cv2.INTER_AREA) > 0
            aspect = abs(math.log((w / h) / (b.shape[1] / b.shape[0])))
            plain = float(np.logical_and(scaled, a).sum()) / max(float(np.logical_or(scaled, a).sum()), 1.0)
            assert fit(a, b) == plain - 0.5 * aspect


def test_a_points_distance_to_a_box_is_the_contains_point_reading():
    """A line end's distance to a box-like node (how ends are attached to nodes) is as it was read with
    the box's own contains_point: inside, to the nearest side; outside, to the box."""
    from crafteditor.assemble.geometry import dist_to_shape
    from crafteditor.shapes.detect import DetectedShape

    rng = np.random.default_rng(3)
    for _ in range(30):
        x, y, w, h = (float(v) for v in rng.integers(0, 40, 4) + rng.random(4) * rng.integers(0, 2))
        s = DetectedShape(shape="box", x=x, y=y, w=w + 1, h=h + 1, fill=(255, 255, 255), stroke=None, stroke_px=1.0,
                          iou=1.0, face=None)  # type: ignore[arg-type]
        for p in [tuple(float(v) for v in rng.integers(-5, 50, 2)) for _ in range(40)] + [(s.x, s.y), (s.right, s.bottom)]:
            inside = s.contains_point(*p)
            want = min(p[0] - s.x, s.right - p[0], p[1] - s.y, s.bottom - p[1]) if inside else math.hypot(
                max(s.x - p[0], 0, p[0] - s.right), max(s.y - p[1], 0, p[1] - s.bottom))
            assert dist_to_shape(p, s) == want


def test_the_longest_gap_is_the_longest_run_of_false():
    """blobs.longest_gap (a chart axis's broken ink, the space between two letters) is the plain loop's count."""
    from crafteditor.blobs import longest_gap

    def plain(a):
        best = run = 0
        for v in a:
            run = 0 if v else run + 1
            best = max(best, run)
        return best

    rng = np.random.default_rng(3)
    for n in (0, 1, 2, 7, 40):
        for p in (0.0, 0.3, 0.8, 1.0):
            a = rng.random(n) < p
            assert longest_gap(a) == plain(a)
            assert longest_gap(a.astype(np.int32) * 5) == plain(a)
