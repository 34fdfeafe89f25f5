"""Small pieces: number parsing, axis calibration, path translation, quality metrics, OCR spacing."""

import math

import numpy as np
import pytest

from crafteditor.charts.detect import _fit_axis, parse_number
from crafteditor.quality import ssim, svg_element_count
from crafteditor.trace import absolute_path


@pytest.mark.parametrize("text,value", [("10", 10.0), ("−2.5", -2.5), ("1,000", 1000.0), ("45%", 45.0),
                                        ("1e-3", 0.001), ("2k", 2000.0), ("ResNet", None), ("", None)])
def test_parse_number(text, value):
    assert parse_number(text) == value


def test_linear_and_log_axes_are_told_apart():
    lin = _fit_axis([(400, "0"), (300, "10"), (200, "20"), (100, "30")])
    assert not lin.log and lin.value(250) == pytest.approx(15)
    log = _fit_axis([(400, "1"), (300, "10"), (200, "100"), (100, "1000")])
    assert log.log and log.value(250) == pytest.approx(10 ** 1.5)
    sup = _fit_axis([(400, "100"), (300, "101"), (200, "102")])  # 10⁰ 10¹ 10² read without superscripts
    assert sup.log and sup.value(200) == pytest.approx(100)


def test_vtracer_paths_are_made_absolute():
    assert absolute_path("M0 0 C1 2 3 4 5 6 Z", 10, 20, 0.5) == "M 5 10 C 5.5 11 6.5 12 7.5 13 Z"
    assert absolute_path("m0 0 l1 1", 0, 0, 1) is None


def test_quality_metrics():
    a = np.random.RandomState(0).randint(0, 255, (40, 50, 3)).astype(np.uint8)
    assert ssim(a, a) == pytest.approx(1.0)
    assert svg_element_count('<svg><metadata><rect/></metadata><g><rect/><text>x</text><path d=""/></g></svg>') == 3


def test_word_spaces_are_restored_from_ink_gaps():
    from crafteditor.ocr import _restore_spaces

    # three letters, a wide gap, two letters: the recogniser dropped the space
    cols = np.zeros((10, 60), bool)
    for x0 in (0, 8, 16, 36, 44):
        cols[:, x0:x0 + 6] = True
    centres = [3.0, 11.0, 19.0, 39.0, 47.0]
    assert _restore_spaces("abcde", centres, cols, 0, font_px=14.0) == "abc de"
    assert not math.isnan(centres[0])
