"""Round 20's speed-ups of issue 31 change no reading: an elliptical dilation built as a chain of
rectangles' dilations is OpenCV's elliptical dilation, pixel for pixel, ink on the edges included."""

from __future__ import annotations

import cv2
import numpy as np

from crafteditor.shapes.sketch import ROUND_RECTS_FROM, _dilate_rects, _kernel_rects, close_round


def test_a_chain_of_rectangles_dilates_as_opencvs_ellipse():
    rng = np.random.default_rng(20)
    for radius in (1, 3, ROUND_RECTS_FROM, 13, 16, 27, 39):
        k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
        for shape, share in (((150, 210), 0.003), ((40, 300), 0.05), ((1, 120), 0.2), ((90, 2), 0.3)):
            m = (rng.random(shape) < share).astype(np.uint8)
            m[0, ::11] = 1  # ink on the edges: none of its dilation may be lost or come back
            m[:, -1] = m[:, -1] | (rng.random(shape[0]) < 0.2)
            assert np.array_equal(_dilate_rects(m, _kernel_rects(k)), cv2.dilate(m, k)), (radius, shape)
            assert np.array_equal(close_round(m, radius), cv2.morphologyEx(m, cv2.MORPH_CLOSE, k)), (radius, shape)

