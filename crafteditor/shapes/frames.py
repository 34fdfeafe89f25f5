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
from crafteditor.ocr.runs import TextRun
from crafteditor.shapes.faces import Face

LONG_HOLE = 0.3  # a hole this share of the face's side long is a drawn line, not a glyph left over
RIM_PX = 3  # holes this close to the outline are its own rim (a JPEG's ringing, anti-aliasing), not a drawing


def holds_drawing(f: Face, runs: list[TextRun]) -> bool:
    """Whether a box's face has long holes: lines drawn inside it (a frame, not a node). A hole within a
    horizontal line of text ``runs`` is what its erased glyphs left (a stem's antialiased rim), no drawing: in a
    note one line tall a 12 px stem is a third of the face's height (two Mermaid notes, 'During pod sync' and
    'Pull OCI object', came back as empty frames, their glyphs traced in scraps)."""
    holes = f.filled & ~f.mask
    if holes.sum() < 20:
        return False
    n, lab, stats, _ = find_blobs(holes)
    if n <= 1:
        return False
    sides = stats[1:, 2:4].astype(np.float64)  # widths, heights of the holes
    long = (sides[:, 0] >= LONG_HOLE * f.w) | (sides[:, 1] >= LONG_HOLE * f.h)
    long &= ~_in_text(stats[1:], f, runs)
    if not long.any():
        return False
    # a hole lying along the outline is its rim, not a drawing: a lossy image leaves 1-4 px slivers
    # there as long as a side (a JPEG's round node had a 210×4 px one under its top edge)
    depth = cv2.distanceTransform(np.pad(f.filled, 1).astype(np.uint8), cv2.DIST_L2, 3)[1:-1, 1:-1]
    rim = np.bincount(lab[holes & (depth <= RIM_PX + 2)], minlength=n)[1:]
    return bool((long & (rim < 0.8 * stats[1:, cv2.CC_STAT_AREA])).any())


def _in_text(stats: np.ndarray, f: Face, runs: list[TextRun]) -> np.ndarray:
    """Per hole (``stats``: its blob's x, y, w, h in face ``f``), whether it lies within a horizontal run's box
    (a fifth of the line's height past it, 2 px at least: a glyph's top stands above OCR's box)."""
    x0, y0 = stats[:, 0] + f.x, stats[:, 1] + f.y
    x1, y1 = x0 + stats[:, 2], y0 + stats[:, 3]
    out = np.zeros(len(stats), bool)
    for r in runs:
        if r.angle != 0:
            continue
        pad = max(2.0, 0.2 * r.h)
        out |= (x0 >= r.x - pad) & (y0 >= r.y - pad) & (x1 <= r.right + pad) & (y1 <= r.bottom + pad)
    return out
