"""The recogniser reads a crop that appears twice in one batch once, and both get its reading."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("rapidocr_onnxruntime")

from crafteditor.ocr.engine import get_engine  # noqa: E402


def _crop(text: str) -> np.ndarray:
    import cv2

    img = np.full((32, 120, 3), 255, np.uint8)
    cv2.putText(img, text, (4, 23), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (0, 0, 0), 2, cv2.LINE_AA)
    return img


def test_twin_crops_are_read_once_with_the_same_reading():
    engine = get_engine(1)
    a, b = _crop("Encoder"), _crop("Decoder")
    rows = []
    session = engine.recognizer.session

    class Counting:
        def __call__(self, x):
            rows.append(x.shape[0])
            return session(x)

    alone = engine.recognize([a, b], latin=True, word_width=96)
    engine.recognizer.session = Counting()
    try:
        twice = engine.recognize([a, b, a.copy(), b.copy()], latin=True, word_width=96)
    finally:
        engine.recognizer.session = session
    assert twice == [alone[0], alone[1], alone[0], alone[1]]
    assert sum(rows) == 2
