"""Operator glyphs alone in a small node: the × and + of a circled operator, read unsurely.

A GRU's or LSTM's gates are drawn as circles holding ×, + (nntikz, issue 31): the recogniser reads
a lone × at 0.53 and a lone + at 0.82, under the lone-glyph pass's 0.85 gate, so the circles came
back empty and every edge to them unlabelled. Both glyphs are one stroke group as symmetric about
their vertical and horizontal axes as about their diagonals' crossing, about as wide as tall; a
reading of one of them whose ink has that shape is taken at ``OPERATOR_SCORE``.
"""

from __future__ import annotations

import numpy as np

from crafteditor.blobs import find_blobs

OPERATORS = ("×", "+")  # each alone: a string would hold '' and '×+' too
OPERATOR_SCORE = 0.9  # the confidence a symbol read this way is given (listed for the user to check)
SYMMETRY = 0.6  # the ink's overlap (IoU) with its mirror images, at least
SQUARE = (0.7, 1.45)  # its width over its height


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    union = np.logical_or(a, b).sum()
    return float(np.logical_and(a, b).sum() / union) if union else 0.0


def operator_shaped(mask: np.ndarray) -> bool:
    """Whether a glyph mask is one stroke group, about square, mirror-symmetric both ways (× or +)."""
    if find_blobs(mask)[0] != 2:
        return False
    rows, cols = np.flatnonzero(mask.any(axis=1)), np.flatnonzero(mask.any(axis=0))
    if rows.size < 5 or cols.size < 5:
        return False
    ink = mask[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1]
    h, w = ink.shape
    return SQUARE[0] <= w / h <= SQUARE[1] and min(_iou(ink, ink[::-1]), _iou(ink, ink[:, ::-1])) >= SYMMETRY


def sure_operator(text: str, conf: float, mask: np.ndarray) -> float:
    """The confidence of a lone glyph's reading, raised to ``OPERATOR_SCORE`` where it reads × or +
    and its ink has that shape."""
    if text in OPERATORS and conf < OPERATOR_SCORE and operator_shaped(mask):
        return OPERATOR_SCORE
    return conf
