"""A pale band only just past the ink threshold off the page (Mermaid's ``box LightYellow``: 255,255,224, 31 off
white), its colour jittered as a q70 JPEG jitters it, some pixels under the threshold: the band is paper, and no
speck of it stays ink beside the lifeline in it. Specks had read as an arrowhead up into the participant's box and
every lifeline of the drawn seq23 set's bx_013 (a real kubernetes/enhancements Mermaid block in two ``box``
groups, through JPEG) was lost; its messages 0 -> 11 of 11."""

from __future__ import annotations

import numpy as np

from crafteditor.assemble.seq_ink import ink_mask


def _page() -> np.ndarray:
    rng = np.random.default_rng(23)
    rgb = np.full((400, 420, 3), 255, np.uint8)
    band = np.zeros((320, 300, 3), np.int16) + (255, 255, 224)
    # JPEG's chroma noise, block by block: a few 8x8 blocks a little paler (under the threshold), most as drawn
    blocks = np.where(rng.random((40, 38)) < 0.15, 3, rng.integers(-3, 1, (40, 38)))
    band[:, :, 2] += np.kron(blocks, np.ones((8, 8), np.int16))[:320, :300].astype(np.int16)
    rgb[40:360, 60:360] = np.clip(band, 0, 255).astype(np.uint8)
    rgb[40:360, 209:212] = (205, 205, 205)  # a grey lifeline down the band
    rgb[200:202, 100:320] = (40, 40, 40)  # a message across it
    return rgb


def test_a_jittered_pale_band_is_paper_and_its_lines_stay_ink():
    ink = ink_mask(_page(), (255, 255, 255))
    inside = ink[60:340, 80:340].copy()
    assert inside[:, 129:132].all()  # the lifeline
    assert inside[140:142, 20:240].all()  # the message
    inside[:, 129:132] = False
    inside[140:142, :] = False
    assert inside.sum() == 0  # no speck of the band
