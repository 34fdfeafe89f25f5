"""Round 14's speed-ups of issue 31 change no reading: a skeleton pixel's neighbours read from one
filter byte are the ones a lookup finds, and find_blobs (now every labelling with stats at OpenCV's default,
8-connected, that reads no centroids; plain ``cv2.connectedComponents`` calls, with no stats, are not routed)
gives the labels and stats of OpenCV's default scan on drawn masks of any size."""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import numpy as np

from crafteditor.blobs import find_blobs
from crafteditor.lines.skeleton import _NEIGH, neighbour_offsets, skeleton, trace_skeleton


def _drawn_mask(rng: np.random.Generator, h: int, w: int, kind: int) -> np.ndarray:
    """Strokes, outlines, discs or grain on a page (255 where drawn, as masks from OpenCV are)."""
    m = np.zeros((h, w), np.uint8)
    for _ in range(int(rng.integers(0, 25))):
        x0, x1 = (int(v) for v in rng.integers(0, w, 2))
        y0, y1 = (int(v) for v in rng.integers(0, h, 2))
        if kind == 0:
            cv2.line(m, (x0, y0), (x1, y1), 255, int(rng.integers(1, 8)))
        elif kind == 1:
            cv2.rectangle(m, (x0, y0), (x1, y1), 255, int(rng.choice([-1, 1, 2])))
        elif kind == 2:
            cv2.circle(m, (x0, y0), int(rng.integers(1, 60)), 255, int(rng.choice([-1, 1, 3])))
    if kind == 3:
        m[rng.random((h, w)) < 0.02] = 255
    return m


def test_a_skeleton_pixels_neighbours_are_those_a_lookup_finds():
    rng = np.random.default_rng(14)
    for t in range(120):
        h, w = (int(v) for v in rng.integers(1, 90, 2))
        m = _drawn_mask(rng, h, w, t % 4) > 0
        skel = skeleton(m) if t % 2 else m  # thinned, and dense (every byte, the image's edges)
        ys, xs = np.nonzero(skel)
        pix = set(zip(ys.tolist(), xs.tolist()))
        got = neighbour_offsets(skel, ys, xs)
        assert list(got) == list(zip(ys.tolist(), xs.tolist()))
        for (y, x), offsets in got.items():
            assert offsets == [(dy, dx) for dy, dx in _NEIGH if (y + dy, x + dx) in pix]


def test_a_crossing_and_a_lone_pixel_trace_into_their_paths():
    skel = np.zeros((20, 30), bool)
    skel[5, 2:13] = True  # a horizontal stroke crossing a vertical one at (5, 7)
    skel[1:10, 7] = True
    skel[0, 29] = True  # a lone pixel at the corner
    paths = trace_skeleton(skel)
    arms = [p for p in paths if len(p) > 1]
    # four arms, each from its tip to the crossing's cluster of junction pixels (within a pixel of it)
    assert len(arms) == 4
    tips = {(1, 7), (9, 7), (5, 2), (5, 12)}
    for arm in arms:
        tip, hub = (arm[0], arm[-1]) if arm[0] in tips else (arm[-1], arm[0])
        assert tip in tips and max(abs(hub[0] - 5), abs(hub[1] - 7)) <= 1
        tips.discard(tip)
    assert not tips
    assert [(0, 29)] in paths


def test_blobs_are_opencvs_default_scan_on_drawn_masks():
    rng = np.random.default_rng(41)
    for t in range(160):
        h, w = (int(v) for v in rng.integers(1, 700, 2))
        m = _drawn_mask(rng, h, w, t % 4)
        for mask in (m, m > 0):  # uint8 0/255 and bool, as the callers pass them
            want = cv2.connectedComponentsWithStats(m, connectivity=8)
            got = find_blobs(mask)
            assert got[0] == want[0]
            for g, x in zip(got[1:3], want[1:3]):
                assert g.dtype == x.dtype and np.array_equal(g, x)


def _glyph_line(boxes: list[tuple[int, int, int]], width: int = 60, height: int = 14) -> np.ndarray:
    """An upright line mask with a bar per glyph: (x, w, h), standing on the baseline."""
    m = np.zeros((height, width), np.uint8)
    for x, w, h in boxes:
        m[height - h:, x:x + w] = 1
    return m


def test_a_glyphs_case_reads_its_own_height_whatever_stands_beside_it():
    """restore_case (the other letters' centres found by bisection): a glyph's height counts only where no
    other letter's centre lies over it, its columns' ends included; a space over it does not count."""
    from crafteditor.ocr.corrections import restore_case

    # 'D', 'O', 'C' as tall as the 'D', 'S' x-high: 'DOCs'
    up = _glyph_line([(2, 6, 10), (12, 6, 10), (22, 6, 10), (32, 6, 6)])
    assert restore_case("DOcS", [5.0, 15.0, 25.0, 35.0], up, 0) == "DOCs"
    # a space's centre over the 'c' leaves its height read
    assert restore_case("DO c", [5.0, 15.0, 24.0, 25.0], up, 0) == "DO C"
    # another mark's centre (a full stop) on the 'c''s last column (27): the 'c''s height is not read and
    # it keeps its case; past that column it is read
    assert restore_case("DOc.", [5.0, 15.0, 24.0, 27.0], up, 0) == "DOc."
    assert restore_case("DOc.", [5.0, 15.0, 24.0, 27.5], up, 0) == "DOC."


def test_a_skeleton_of_255s_has_the_neighbours_of_a_boolean_one():
    skel = np.zeros((12, 12), bool)
    skel[3, 2:9] = True
    skel[4:9, 5] = True
    ys, xs = np.nonzero(skel)
    assert neighbour_offsets(skel.astype(np.uint8) * 255, ys, xs) == neighbour_offsets(skel, ys, xs)


def test_every_default_labelling_with_stats_and_no_centroids_goes_through_find_blobs():
    root = Path(__file__).resolve().parents[2] / "crafteditor"
    call = re.compile(r"\w+, \w+, \w+, _ = cv2\.connectedComponentsWithStats\(([^()]|\([^()]*\))*\)")
    direct = [f"{p.relative_to(root)}: {m.group(0)}" for p in sorted(root.rglob("*.py")) if p.name != "blobs.py"
              for m in call.finditer(p.read_text(encoding="utf-8")) if "connectivity=4" not in m.group(0)]
    assert direct == []
