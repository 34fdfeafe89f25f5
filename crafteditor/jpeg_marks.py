"""Whether an image that is no JPEG file carries a JPEG's marks: a screenshot of a rendered page saved as a
JPEG and later as a PNG, or a README picture re-saved. The auto preset reads a JPEG *file* as lossy
(:meth:`crafteditor.config.Config.for_image`); such a PNG was read as clean, and every pale fill, broken
into ringing, was traced as paths (Mermaid flowcharts scaled to 0.7 and saved at JPEG quality 70-85:
nodes 1.0 -> 0.0-0.5 on four of four drawn from three repositories).

Two marks together, each alone found on clean figures too:

- **ringing**: faint noise (a 3x3 range of 2-6 levels) on the page away from every stroke (over 4 px from
  any edge of more than 40 levels); a clean render's flat page is flat there. Gradients and hachures
  have some too (hand-drawn looks; a ggplot scatter's blended dots have 10-40 levels, not counted);
- **block edges**: small steps (1-12 levels of luma) more often between pixel columns (and rows) 8k-1
  and 8k than elsewhere, JPEG's 8x8 blocks; a clean Mermaid render's layout has an 8 px rhythm too.

Measured on the dev split's PNGs and nine drawn Mermaid sets against 8 PNG screenshots with JPEG marks
(Mermaid 11, three repositories, five themes): the screenshots have ringing (2-6 levels) 0.058-0.22 and
block ratio 1.13-1.65; on the clean figures looked at, ringing stayed under 0.015 (a ggplot scatter, whose
blended dots had passed a 2-40 level test, and lost 3 of 4 chart values read as a JPEG).
"""

from __future__ import annotations

import cv2
import numpy as np

from crafteditor.paint import channel_max, luma_summed

RINGING = 0.03  # share of the quiet page with a 3x3 range of 2-6 levels
BLOCK_RATIO = 1.1  # small steps at the 8-px block edges over those elsewhere, the weaker of the two axes
MIN_QUIET = 500  # quiet pixels needed to judge the ringing
SAMPLE = 1536  # the marks are judged on the top-left corner this size (the block grid starts at the origin)


def ringing_share(rgb: np.ndarray) -> float | None:
    """The share of pixels over 4 px from every strong edge whose 3x3 range is 2-6 levels (None: too
    little quiet page to tell): a JPEG's faint ringing, not a chart's blended marks (10-40 levels)."""
    spread = channel_max(cv2.morphologyEx(rgb, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8)))  # 3x3 range
    near = cv2.dilate((spread > 40).astype(np.uint8), np.ones((9, 9), np.uint8)) > 0
    quiet = spread[~near]
    if quiet.size < MIN_QUIET:
        return None
    return float(((quiet >= 2) & (quiet <= 6)).mean())


def block_ratio(rgb: np.ndarray) -> float:
    """How much more often a small luma step falls between columns (rows) 8k-1 and 8k than between
    others: the weaker of the two axes' ratios (1: no 8-px blocks)."""
    y = luma_summed(rgb)
    ratios = []
    for d in (np.abs(np.diff(y, axis=1)), np.abs(np.diff(y, axis=0)).T):
        small = (d >= 1) & (d <= 12)
        phases = np.array([small[:, k::8].mean() for k in range(8)])
        ratios.append((phases[7] + 1e-4) / (np.delete(phases, 7).mean() + 1e-4))
    return float(min(ratios))


def has_jpeg_marks(rgb: np.ndarray) -> bool:
    """Whether an RGB image (H×W×3, uint8) shows both JPEG ringing and JPEG's 8x8 block edges."""
    if rgb.shape[0] < 16 or rgb.shape[1] < 16:
        return False
    rgb = rgb[:SAMPLE, :SAMPLE]  # 0.45 -> 0.1 CPU-s on a 2292x2540 page
    share = ringing_share(rgb)
    return share is not None and share >= RINGING and block_ratio(rgb.astype(np.float32)) >= BLOCK_RATIO
