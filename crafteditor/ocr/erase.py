"""Erasing text: the glyph pixels the OCR explained painted over with their local background, so
shapes and lines are found without text."""

from __future__ import annotations

import cv2
import numpy as np

from crafteditor.ocr.runs import TextRun
from crafteditor.paint import Paints


def erase_text(rgb: np.ndarray, paints: Paints, runs: list[TextRun], ring: int = 1) -> None:
    """Paint the glyph pixels of ``runs`` with their local background, in place (image and labels).

    ``ring``: pixels around the glyphs erased with them: 1 holds their anti-aliasing; a JPEG's
    ringing reaches 2 (left behind, it drew each erased label's ghost as paths of the fill's
    colour, and cut the node's face open)."""
    H, W = paints.labels.shape
    b = ring + 1
    for r in runs:
        x0, y0 = int(r.x), int(r.y)
        hh, ww = r.glyphs.shape
        m = np.zeros((hh + 2 * b, ww + 2 * b), np.uint8)
        m[b:b + hh, b:b + ww] = r.glyphs
        m = cv2.dilate(m, np.ones((2 * ring + 1, 2 * ring + 1), np.uint8)).astype(bool)
        ya, xa = y0 - b, x0 - b
        yb, xb = ya + m.shape[0], xa + m.shape[1]
        cy0, cx0, cy1, cx1 = max(0, ya), max(0, xa), min(H, yb), min(W, xb)
        m = m[cy0 - ya:cy1 - ya, cx0 - xa:cx1 - xa]
        lab = paints.labels[cy0:cy1, cx0:cx1]
        around = cv2.dilate(m.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool) & ~m
        vals = lab[around]
        vals = vals[vals >= 0]
        paint = int(np.bincount(vals).argmax()) if vals.size else paints.background
        lab[m] = paint
        rgb[cy0:cy1, cx0:cx1][m] = paints.colors[paint]
