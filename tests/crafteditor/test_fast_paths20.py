"""Round 20's speed-ups of issue 31 change no reading: an elliptical dilation built as a chain of
rectangles' dilations is OpenCV's elliptical dilation, pixel for pixel, ink on the edges included;
a tall page closed in bands is closed as OpenCV closes it whole."""

from __future__ import annotations

import cv2
import numpy as np

from crafteditor.shapes.sketch import CLOSE_BAND, ROUND_RECTS_FROM, _dilate_rects, _kernel_rects, close_round


def test_a_chain_of_rectangles_dilates_as_opencvs_ellipse():
    rng = np.random.default_rng(20)
    for radius in (1, 3, ROUND_RECTS_FROM, 13, 16, 27, 39):
        k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
        for shape, share in (((150, 210), 0.003), ((40, 300), 0.05), ((1, 120), 0.2), ((90, 2), 0.3), ((700, 60), 0.01)):
            m = (rng.random(shape) < share).astype(np.uint8)
            m[0, ::11] = 1  # ink on the edges: none of its dilation may be lost or come back
            m[:, -1] = m[:, -1] | (rng.random(shape[0]) < 0.2)
            assert np.array_equal(_dilate_rects(m, _kernel_rects(k)), cv2.dilate(m, k)), (radius, shape)
            assert np.array_equal(close_round(m, radius), cv2.morphologyEx(m, cv2.MORPH_CLOSE, k)), (radius, shape)



def test_a_stroke_across_the_bands_edges_closes_as_on_the_whole_page():
    """Ink lying right at a band's edge, and a gap that spans two bands, close as OpenCV closes them whole."""
    for radius in (ROUND_RECTS_FROM, 39):
        k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
        m = np.zeros((3 * CLOSE_BAND + 17, 140), np.uint8)
        for y in (CLOSE_BAND - 1, CLOSE_BAND, 2 * CLOSE_BAND + 3):
            m[y, 10:130] = 1  # rows at and beside the bands' edges
        m[CLOSE_BAND - radius:CLOSE_BAND + radius, 20] = 1  # a stroke across an edge, and one just short of it
        m[CLOSE_BAND + radius // 2:CLOSE_BAND + 2 * radius, 25] = 1
        m[-1, ::5] = 1
        assert np.array_equal(close_round(m, radius), cv2.morphologyEx(m, cv2.MORPH_CLOSE, k)), radius
