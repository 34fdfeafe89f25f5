"""One BT.601 luma for CraftEditor (crafteditor.paint): light fills read light and ink dark, each
form gives exactly what the formula written out at its call sites gave, and no module writes the
weights out again."""

from __future__ import annotations

from pathlib import Path

import numpy as np

import crafteditor
from crafteditor.paint import luma, luma_summed


def test_pale_fills_read_light_and_ink_dark():
    colours = {"white": (255, 255, 255), "pale blue fill": (218, 232, 252), "black ink": (0, 0, 0),
               "dark grey line": (64, 64, 64)}
    lum = {k: float(luma(c)) for k, c in colours.items()}
    assert abs(lum["white"] - 255) < 1e-3 and abs(lum["black ink"]) < 1e-6
    assert lum["pale blue fill"] > 225 > 90 > lum["dark grey line"]
    assert abs(float(luma_summed((218, 232, 252))) - lum["pale blue fill"]) < 1e-3


def test_each_form_is_the_formula_it_replaced_bit_for_bit():
    rng = np.random.default_rng(7)
    img = rng.integers(0, 256, (37, 53, 3)).astype(np.uint8)
    w = [0.299, 0.587, 0.114]
    assert np.array_equal(luma(img), img.astype(np.float32) @ np.array(w, np.float32))
    assert np.array_equal(luma(img[5]), img[5].astype(np.float32) @ np.array(w, np.float32))
    blocks = img.reshape(-1, 37, 3).astype(np.int32)
    assert np.array_equal(luma(blocks, np.float64), blocks @ np.array(w))
    f = img.astype(np.float64)
    assert np.array_equal(luma_summed(img), f[..., 0] * 0.299 + f[..., 1] * 0.587 + f[..., 2] * 0.114)
    # one colour as Python sums it: greys sit exactly at the thresholds (225, 235), so the last bit counts
    for v in range(256):
        assert float(luma_summed((v, v, v))) == 0.299 * v + 0.587 * v + 0.114 * v
        c = np.array([v, v, v], np.uint8)
        assert float(luma(c, np.float64)) == float(np.dot(c.astype(np.float32), w))


def test_no_module_writes_the_weights_out_again():
    root = Path(crafteditor.__file__).parent
    spelled = [p.relative_to(root).as_posix() for p in root.rglob("*.py")
               if "0.587" in p.read_text(encoding="utf-8") and p.name != "paint.py"]
    assert spelled == [], f"use crafteditor.paint.luma / luma_summed in {spelled}"
