"""Round 20 (issue 31): a filled rectangle is no pie. Mermaid's tinted participant ``box`` band, with
notes out past its sides, fills pi/4 of its nearly square box as a disc does; it had been read as a
five-slice pie and the sequence diagram inside it lost (mmvars_00: nodes and edges 0)."""

from __future__ import annotations

import cv2
import numpy as np

from crafteditor.charts.pie import _fill_holes, find_pies
from crafteditor.config import Config
from crafteditor.paint import find_paints


def _page() -> np.ndarray:
    return np.full((620, 620, 3), 255, np.uint8)


def _pies(rgb: np.ndarray) -> list:
    return find_pies(rgb, find_paints(rgb, Config()), [], set(), [])


def test_a_tinted_band_with_notes_past_its_sides_is_no_pie():
    rgb = _page()
    cv2.rectangle(rgb, (150, 30), (450, 590), (222, 236, 252), -1)  # the band, its border
    cv2.rectangle(rgb, (150, 30), (450, 590), (60, 100, 170), 2)
    cv2.rectangle(rgb, (30, 70), (150, 352), (255, 243, 214), -1)  # notes out past its sides
    cv2.rectangle(rgb, (450, 260), (590, 542), (255, 243, 214), -1)
    cv2.rectangle(rgb, (190, 60), (300, 120), (30, 50, 80), -1)  # participants and a lifeline
    cv2.rectangle(rgb, (320, 60), (430, 120), (120, 200, 120), -1)
    cv2.line(rgb, (245, 120), (245, 560), (30, 50, 80), 2)
    # the old test alone takes it for a disc: as square as one, and as full
    ink = np.any(rgb != 255, axis=2)
    ys, xs = np.nonzero(ink)
    box = ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    assert 0.9 <= box.shape[1] / box.shape[0] <= 1.1 and 0.72 <= _fill_holes(box).mean() <= 0.83
    assert _pies(rgb) == []


def test_a_drawn_pie_is_still_read():
    rgb = _page()
    start = 0.0
    for share, colour in ((0.5, (31, 119, 180)), (0.3, (255, 127, 14)), (0.2, (44, 160, 44))):
        cv2.ellipse(rgb, (310, 310), (250, 250), -90, start, start + 360 * share, colour, -1, cv2.LINE_AA)
        start += 360 * share
    (pie,) = _pies(rgb)
    shares = sorted(row["y"] for row in pie.spec["data"]["values"])
    assert np.allclose(shares, [20, 30, 50], atol=1.0)
