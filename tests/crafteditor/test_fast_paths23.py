"""Round 23's fast paths in the hachure pass give what the slower ones gave: the density windows counted in 16
bits against the share's whole part, the sparse passes skipped on a page with no coloured ink, the line kernels
drawn once. Pages drawn here with OpenCV (rough.js's hachure spacing), as in test_hatch_kinds."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import crafteditor.hatching as hatching
from crafteditor.hatching import DENSE, SLIT_DENSE, SPARSE, WINDOW, hatch_regions, paper_distance


def _float_dense(mask: np.ndarray, share: float, window: int) -> np.ndarray:
    """The density test as first written: the window's mean coverage over ``share``."""
    got = cv2.boxFilter(mask.astype(np.float64), cv2.CV_64F, (window, window), normalize=False,
                        borderType=cv2.BORDER_CONSTANT)
    return (got > share * window * window + 1e-9).astype(np.uint8)


@pytest.mark.parametrize("share, window", [(DENSE, WINDOW), (SLIT_DENSE, WINDOW), *((d, w) for d, w, _, _ in SPARSE)])
def test_dense_windows_as_the_float_mean(share: float, window: int) -> None:
    rng = np.random.default_rng(23)
    for fill in (0.02, 0.1, 0.2, 0.5, 1.0):
        mask = (rng.random((120, 170)) < fill).astype(np.uint8)
        assert np.array_equal(hatching._dense(mask, share, window), _float_dense(mask, share, window))


def _hatched_page(colour: tuple[int, int, int]) -> np.ndarray:
    img = np.full((300, 420, 3), 255, np.uint8)
    for k in range(-420, 420, 9):  # 1 px strokes at 45 degrees, 9 px apart, inside a box
        cv2.line(img, (60 + k, 250), (60 + k + 190, 60), colour, 1, cv2.LINE_AA)
    img[:60], img[250:], img[:, :60], img[:, 360:] = 255, 255, 255, 255
    cv2.rectangle(img, (60, 60), (360, 250), (30, 30, 30), 2)
    cv2.putText(img, "Slanted text", (80, 290), cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, 0.9, (40, 40, 40), 1, cv2.LINE_AA)
    return img


@pytest.mark.parametrize("colour", [(90, 90, 90), (200, 200, 200), (240, 140, 60)])
def test_sparse_passes_skipped_only_where_they_could_keep_nothing(colour, monkeypatch) -> None:
    rgb = _hatched_page(colour)
    off = paper_distance(rgb, hatching._paper(rgb))
    fast = hatch_regions(rgb, off)
    monkeypatch.setattr(hatching, "_any_coloured", lambda rgb, ink: True)  # every pass run, as before
    slow = hatch_regions(rgb, off)
    assert len(fast) == len(slow)
    for (sa, ra, ka), (sb, rb, kb) in zip(fast, slow):
        assert sa == sb and np.array_equal(ra, rb) and np.array_equal(ka, kb)


def test_coloured_ink_is_told_from_grey() -> None:
    grey, orange = _hatched_page((90, 90, 90)), _hatched_page((240, 140, 60))
    for rgb, coloured in ((grey, False), (orange, True)):
        off = paper_distance(rgb, hatching._paper(rgb))
        assert hatching._any_coloured(rgb, off > hatching.FAINT_CONTRAST) is coloured


def test_line_kernels_shared_and_read_only() -> None:
    k = hatching._line_kernel(15, 45)
    assert k is hatching._line_kernel(15, 45) and not k.flags.writeable
    fresh = np.zeros((15, 15), np.uint8)
    c = 7.0
    dx, dy = np.cos(np.deg2rad(45)) * c, -np.sin(np.deg2rad(45)) * c
    cv2.line(fresh, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1, 1)
    assert np.array_equal(k, fresh)
