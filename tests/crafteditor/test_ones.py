"""A one read as the letter l in a name (crafteditor.ocr.ones; issue 31)."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib import font_manager
from PIL import Image, ImageDraw, ImageFont

from crafteditor.ocr.ones import restore_ones


def _line(text: str, family: str, px: int, **style) -> tuple[np.ndarray, list[float]]:
    """The glyph mask of ``text`` drawn in ``family`` (cut to its inked rows) and each character's x centre."""
    font = ImageFont.truetype(font_manager.findfont(font_manager.FontProperties(family=family, **style)), px)
    im = Image.new("L", (int(font.getlength(text)) + 8, 2 * px), 0)
    ImageDraw.Draw(im).text((4, px // 3), text, fill=255, font=font)
    mask = np.asarray(im) > 100
    rows = np.flatnonzero(mask.any(axis=1))
    centres = [4 + font.getlength(text[:i]) + font.getlength(ch) / 2 for i, ch in enumerate(text)]
    return mask[rows[0]:rows[-1] + 1], centres


@pytest.mark.parametrize("px", [14, 20, 32])
def test_a_one_read_as_l_in_a_sans_name_is_a_one(px):
    """'kubeletl' for a sans kubelet1: the 1's flag, beside the bare stem of the line's l or i, tells it.
    (A bold one's flag reaches less than two of its strokes: it is not told.)"""
    for drawn, read in (("kubelet1", "kubeletl"), ("line1", "linel"), ("node1 list", "nodel list")):
        mask, centres = _line(drawn, "DejaVu Sans", px)
        assert restore_ones(read, centres, mask, 0) == drawn


@pytest.mark.parametrize("family", ["DejaVu Sans", "DejaVu Serif", "DejaVu Sans Mono"])
@pytest.mark.parametrize("px", [9, 14, 20, 32])
def test_a_letter_l_stays_whatever_the_face(family, px):
    """A serif or monospaced face's l has a top serif as long as a one's flag: its words keep their l."""
    for text in ("all local", "level", "Hello World", "file", "list item", "lol", "l2 loss"):
        mask, centres = _line(text, family, px)
        assert restore_ones(text, centres, mask, 0) == text, (family, px, text)

