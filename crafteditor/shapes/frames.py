"""Frames that hold a drawing: a box with lines (arrows, strokes) inside it is a frame, not a node.

A node's inside, once its label is erased, is one clean face; a frame drawn around a group
of labels and arrows (no boxes among them, so no member made it a group) has the arrows as
long holes in its face. Read as a node it swallowed everything inside: the labels became one
centred label and the arrows vanished under its mask. Marked a group frame (with no member
shapes), its labels stay where they are and its lines are read as lines.
"""

from __future__ import annotations

import cv2
import numpy as np

from crafteditor.blobs import find_blobs
from crafteditor.shapes.faces import Face

LONG_HOLE = 0.3  # a hole this share of the face's side long is a drawn line, not a glyph left over
RIM_PX = 3  # holes this close to the outline are its own rim (a JPEG's ringing, anti-aliasing), not a drawing


def holds_drawing(f: Face) -> bool:
    """Whether a box's face has long holes: lines drawn inside it (a frame, not a node)."""
    holes = f.filled & ~f.mask
    if holes.sum() < 20:
        return False
    n, lab, stats, _ = find_blobs(holes)
    if n <= 1:
        return False
    sides = stats[1:, 2:4].astype(np.float64)  # widths, heights of the holes
    long = (sides[:, 0] >= LONG_HOLE * f.w) | (sides[:, 1] >= LONG_HOLE * f.h)
    if not long.any():
        return False
    # a hole lying along the outline is its rim, not a drawing: a lossy image leaves 1-4 px slivers
    # there as long as a side (a JPEG's round node had a 210×4 px one under its top edge)
    depth = cv2.distanceTransform(np.pad(f.filled, 1).astype(np.uint8), cv2.DIST_L2, 3)[1:-1, 1:-1]
    rim = np.bincount(lab[holes & (depth <= RIM_PX + 2)], minlength=n)[1:]
    return bool((long & (rim < 0.8 * stats[1:, cv2.CC_STAT_AREA])).any())
