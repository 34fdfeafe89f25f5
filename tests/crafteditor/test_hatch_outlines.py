"""A hachure read out to the shape's outline however little of it the strokes' density covers (a small box
whose label fills most of it, a rough outline with pin gaps); dark text alone is no hachure. Figures drawn
here with OpenCV."""

from __future__ import annotations

import cv2
import numpy as np

from crafteditor.hatching import dehatched
from crafteditor.loading import load_image
from tests.crafteditor.test_hatch_kinds import _hatch

OUTLINE = (30, 30, 30)
CYAN = (165, 216, 255)  # RGB: Excalidraw's pale blue hachure


def _png(rgb: np.ndarray) -> bytes:
    return cv2.imencode(".png", rgb[..., ::-1])[1].tobytes()


def _left(img: np.ndarray, flat: np.ndarray, box: tuple[int, int, int, int], colour) -> float:
    """Share of the box's hachure pixels (near the strokes' colour) still there after dehatching."""
    x0, y0, x1, y1 = box
    near = lambda a: np.abs(a[y0:y1, x0:x1].astype(int) - np.array(colour)).max(axis=2) < 12  # noqa: E731
    was = near(img)
    return float((near(flat) & was).sum() / max(1, was.sum()))


def test_a_small_labelled_box_is_dehatched_out_to_its_rough_outline():
    img = np.full((320, 500, 3), 255, np.uint8)
    mask = np.zeros(img.shape[:2], np.uint8)
    cv2.rectangle(mask, (60, 60), (220, 160), 1, -1)  # the label covers most of it: the strokes' density stops short
    _hatch(img, mask, 12, 2, 40, CYAN)
    # a rough outline: a 3 px pin gap at a corner
    cv2.polylines(img, [np.array([[63, 60], [220, 60], [220, 160], [60, 160], [60, 63]])], False, OUTLINE, 5)
    cv2.putText(img, "Config", (70, 125), cv2.FONT_HERSHEY_SIMPLEX, 1.4, OUTLINE, 4)
    flat = dehatched(load_image(_png(img)))
    assert flat is not None
    assert _left(img, flat.rgb, (64, 64, 216, 156), CYAN) < 0.05  # by the label and the outline too
    dark = img.astype(int).sum(axis=2) < 150
    assert (flat.rgb[dark].astype(int).sum(axis=1) < 150).mean() > 0.97  # outline and letters untouched


def test_dark_text_alone_is_no_hachure():
    img = np.full((400, 700, 3), 255, np.uint8)
    for i, y in enumerate(range(40, 380, 26)):
        cv2.putText(img, "italic /// words ///" * 2, (10, y), cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, 0.8, OUTLINE, 1)
    assert dehatched(load_image(_png(img))) is None
