"""The text detector on a mosaic of text regions (crafteditor.text_regions): the same lines as
on the whole image, for a fraction of its pixels, and the whole image where that saves nothing."""

from __future__ import annotations

import re

import cv2
import numpy as np
import pytest

from crafteditor.loading import load_image
from crafteditor.ocr.engine import get_engine
from crafteditor.ocr.text_lines import detection_scale
from crafteditor.text_regions import find_text_regions, plan_mosaic, region_probabilities


def _box(q):
    return float(q[:, 0].min()), float(q[:, 1].min()), float(q[:, 0].max()), float(q[:, 1].max())


def _iou(a, b):
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


@pytest.mark.parametrize("name", ["diagram_150", "diagram_100", "chart_line_200", "chart_scatter_100"])
def test_the_mosaic_finds_the_lines_the_whole_image_does(golden, name):
    """Line for line, within a pixel or two (the detector's boxes grow from its map's blobs)."""
    engine = get_engine()
    rgb = load_image(golden[name][0]).rgb
    bgr = np.ascontiguousarray(rgb[:, :, ::-1])
    gray = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    regions = find_text_regions(gray)
    assert regions is not None
    H, W = gray.shape
    covered = sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in regions.rects)
    assert covered < 0.6 * H * W  # a fraction of the image goes to the detector
    scale = detection_scale(rgb)
    whole = [_box(q) for q in engine.detect_scaled(bgr, scale)]
    mosaic = [_box(q) for q in engine.detect_scaled(bgr, scale, regions)]
    assert len(whole) > 3
    for b in whole:  # every line of the whole image is found, in the same place
        assert max(_iou(b, m) for m in mosaic) > 0.7, b
    assert len(mosaic) == len(whole)


def test_a_page_full_of_texture_is_detected_whole():
    """Noise everywhere (a photo, a dense pattern): no saving, so no regions."""
    rng = np.random.default_rng(0)
    gray = rng.integers(0, 256, (300, 400)).astype(np.uint8)
    gray = cv2.GaussianBlur(gray, (5, 5), 1.5)
    gray = np.where(gray < 128, 0, 255).astype(np.uint8)
    assert find_text_regions(gray) is None


def test_a_blank_page_has_no_regions():
    assert find_text_regions(np.full((200, 300), 255, np.uint8)) is None


def test_tiles_pack_without_overlap_and_each_tile_lands_where_it_came_from():
    image = np.random.default_rng(1).integers(0, 256, (320, 480, 3)).astype(np.uint8)
    rects = [(10, 10, 90, 40), (200, 100, 260, 130), (0, 290, 480, 320), (400, 5, 470, 60)]
    m = plan_mosaic(rects, image.shape[:2])
    assert m.size[0] % 32 == 0 and m.size[1] % 32 == 0
    placed = [(X, Y, X + x1 - x0, Y + y1 - y0) for (x0, y0, x1, y1), (X, Y) in zip(m.tiles, m.places)]
    for i, a in enumerate(placed):
        assert a[2] <= m.size[1] and a[3] <= m.size[0]
        for b in placed[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
    canvas = m.compose(image, (255, 255, 255))
    for (x0, y0, x1, y1), (X, Y) in zip(m.tiles, m.places):
        assert (canvas[Y:Y + y1 - y0, X:X + x1 - x0] == image[y0:y1, x0:x1]).all()


def test_probabilities_are_pasted_back_in_place():
    """With an identity 'detector' (the mosaic's red channel as the map) the composite is the
    image inside the regions and zero outside them."""
    from crafteditor.text_regions import TextRegions

    image = np.zeros((256, 320, 3), np.uint8)
    image[:, :, 2] = np.random.default_rng(2).integers(1, 256, (256, 320))
    regions = TextRegions([(20, 20, 120, 60), (200, 150, 300, 200)], glyph_h=10.0)

    def infer(mosaic):
        return mosaic[None, None, :, :, 2].astype(np.float32) / 255.0 * 0.2  # under the threshold

    probs = region_probabilities(infer, image, regions)
    assert probs.shape == (1, 1, 256, 320)
    inside = np.zeros((256, 320), bool)
    for x0, y0, x1, y1 in regions.rects:
        inside[y0:y1, x0:x1] = True
    assert np.allclose(probs[0, 0][inside], image[:, :, 2][inside] / 255.0 * 0.2)
    assert not probs[0, 0][~inside].any()


@pytest.mark.parametrize("name", ["diagram_150", "diagram_100", "chart_bar_150", "chart_line_200", "chart_scatter_100"])
def test_conversion_reads_the_same_words_with_and_without_regions(golden, name):
    """What a user gets: the same text (a y title the first mosaic cut in two is looked at
    again, or joined after) and the same chart values, to a hundredth of a percent."""
    from crafteditor.config import Config
    from crafteditor.convert import convert

    png = golden[name][0]
    on = convert(png, Config(quality=False))
    off = convert(png, Config(quality=False, ocr_regions=False))

    def words(r):
        return sorted((getattr(c, "text", None) or getattr(c, "label", None) or "") for c in r.figure.components)

    assert words(on) == words(off)

    def values(r):  # every number of the chart components (data, scales, layout)
        return [float(v) for c in r.figure.components if c.kind == "chart"
                for v in re.findall(r"-?\d+(?:\.\d+)?", c.model_dump_json())]

    a, b = values(on), values(off)
    assert len(a) == len(b)
    assert np.allclose(a, b, rtol=1e-3, atol=0.5)

