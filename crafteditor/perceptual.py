"""A perceptual score of a figure drawn back: GMSD, gradient magnitude similarity deviation.

Xue, Zhang, Mou and Bovik (2014), "Gradient Magnitude Similarity Deviation: A Highly Efficient
Perceptual Image Quality Index", IEEE TIP 23(2). Both images are made grey (ITU-R 601 luma,
0-255), averaged over 2×2 blocks and halved, then their Prewitt gradient magnitudes are compared
pixel by pixel, ``(2·g1·g2 + c) / (g1² + g2² + c)`` with ``c = 170``; GMSD is the standard
deviation of that map. 0 means the same edges everywhere; higher is worse (the paper's LIVE
images span about 0 to 0.35). It needs no learned weights, unlike LPIPS or DISTS, and
it weighs what a reader of a figure sees: where the strokes, edges and letters are.
"""

from __future__ import annotations

import numpy as np

from crafteditor.paint import luma_summed

_C = 170.0  # the paper's constant for 0-255 images


def _grey(a: np.ndarray) -> np.ndarray:
    return luma_summed(a) if a.ndim == 3 else a.astype(np.float64)


def _halved(g: np.ndarray) -> np.ndarray:
    h, w = g.shape[0] // 2 * 2, g.shape[1] // 2 * 2
    g = g[:h, :w]
    return (g[0::2, 0::2] + g[1::2, 0::2] + g[0::2, 1::2] + g[1::2, 1::2]) / 4.0


def _gradient(g: np.ndarray) -> np.ndarray:
    """Prewitt gradient magnitude (3×3, /3), on the image with its border repeated."""
    p = np.pad(g, 1, mode="edge")
    rows = p[:-2] + p[1:-1] + p[2:]  # vertical sums, for the horizontal derivative
    cols = p[:, :-2] + p[:, 1:-1] + p[:, 2:]
    dx = (rows[:, :-2] - rows[:, 2:]) / 3.0
    dy = (cols[:-2] - cols[2:]) / 3.0
    return np.sqrt(dx * dx + dy * dy)


def gmsd(a: np.ndarray, b: np.ndarray) -> float:
    """GMSD of two same-sized images (H×W×3 RGB or H×W grey, 0-255): 0 the same, higher worse."""
    if a.shape[:2] != b.shape[:2]:
        raise ValueError(f"gmsd needs images of one size, not {a.shape[:2]} and {b.shape[:2]}")
    ga, gb = _halved(_grey(a)), _halved(_grey(b))
    if ga.size == 0:
        return float("nan")
    ma, mb = _gradient(ga), _gradient(gb)
    sim = (2 * ma * mb + _C) / (ma * ma + mb * mb + _C)
    return float(sim.std())
