"""Round 19's speed-ups change no reading: a colour distance taken on a box cut from a page (by bytes, as
on a whole page) is numpy's, and a line's paint share measured on its own box is the page's there."""

from __future__ import annotations

import numpy as np

from crafteditor.charts.marks import _cover
from crafteditor.paint import distances, farther_than


def _page(seed: int, h: int = 157, w: int = 211, channels: int = 3) -> np.ndarray:
    rng = np.random.default_rng(seed)
    page = np.full((h, w, channels), 255, np.uint8)
    page[rng.random((h, w)) < 0.3] = rng.integers(0, 256, channels)
    page[40:90, 30:120] = rng.integers(0, 256, (50, 90, channels))
    return page


def test_a_colour_distance_on_a_box_cut_from_a_page_is_numpys():
    for seed in range(6):
        page = _page(seed, channels=4 if seed % 2 else 3)
        box = page[13:141, 7:190, :3]  # rows of a page, and an RGBA page's colour channels: not in C order
        assert not box.flags.c_contiguous
        for color in ((255, 255, 255), (12, 200, 77), (12.5, 200, 77)):
            want = np.linalg.norm(box.astype(np.float32) - np.asarray(color, np.float32), axis=-1)
            got = distances(box, color)
            assert got.dtype == np.float32 and np.allclose(got, want, rtol=0, atol=1e-4)
            assert np.array_equal(got, distances(np.ascontiguousarray(box), color))
            within = np.random.default_rng(seed).random(box.shape[:2]) < 0.2
            for threshold in (10.0, 60.5, 200.0):
                assert np.array_equal(farther_than(box, color, threshold), got > threshold)
                assert np.array_equal(farther_than(box, color, threshold, within=within), (got > threshold) & within)


def test_a_lines_paint_share_on_its_own_box_is_the_pages_there():
    page = _page(3)
    # a blue line's anti-aliased edge: blends of the line and the page on either side of its core
    for k, share in enumerate((1.0, 0.6, 0.25)):
        page[100 + k, 20:180] = np.rint(255 + share * (np.array([30, 60, 200]) - 255)).astype(np.uint8)
        page[100 - k, 20:180] = page[100 + k, 20:180]
    whole = _cover(page, np.array([255, 255, 255]), np.array([30, 60, 200]))
    for y, x, h, w in ((95, 15, 12, 170), (0, 0, 157, 211), (98, 100, 1, 1)):
        assert np.array_equal(_cover(page[y:y + h, x:x + w], np.array([255, 255, 255]), np.array([30, 60, 200])),
                              whole[y:y + h, x:x + w])
    assert whole[100, 50] == 1.0 and 0.2 < whole[102, 50] < 0.3


def test_a_blob_told_far_from_a_slice_by_its_blocks_is_so_pixel_by_pixel():
    """The pie finder's block bound never rules out a blob whose pixels lie near every slice paint: where
    it says far, the full-size distances say so too; and a page of boxes in three paints, each in its own
    corner, is told far by the blocks alone."""
    import cv2

    from crafteditor.charts.pie import _far_from_a_slice

    rng = np.random.default_rng(7)
    told = 0
    for trial in range(60):
        h, w = (int(v) for v in rng.integers(32, 160, 2))
        own = np.full((h, w), -1, np.int16)
        for p in range(4):
            for _ in range(int(rng.integers(1, 4))):
                y, x = int(rng.integers(0, h - 4)), int(rng.integers(0, w - 4))
                own[y:y + int(rng.integers(2, 20)), x:x + int(rng.integers(2, 20))] = p
        slices = np.array([p for p in range(4) if (own == p).any()])
        near = np.max([cv2.distanceTransform((own != p).astype(np.uint8), cv2.DIST_L2, cv2.DIST_MASK_PRECISE)
                       for p in slices], axis=0)
        for reach in (5.0, 0.25 * max(h, w), 60.0):
            if _far_from_a_slice(own, slices, reach):
                told += 1
                assert float(near.min()) > reach, (trial, reach)
    assert told > 0
    page = np.full((400, 600), -1, np.int16)
    page[:60, :80], page[:60, -80:], page[-60:, 250:330] = 0, 1, 2
    assert _far_from_a_slice(page, np.array([0, 1, 2]), 0.25 * 600)
