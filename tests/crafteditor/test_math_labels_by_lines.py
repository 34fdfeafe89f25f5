"""Math labels set on the canvas beside a connector, just under the node it leaves (TikZ's
``node[left] {$A$}`` on a line out of a box: a Mamba block's A, X, B, C under its SSM box). In a figure whose
text is mostly large (titles, a legend) the lone-glyph pass's margins, a share of that text's height, reached
the box's fill; it then held the labels to the margin of a glyph set *on* a fill and dropped each for the box's
outline beside it (issue 31)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from crafteditor import convert
from crafteditor.ocr.lone_glyphs import _crowded
from crafteditor.realset import svg_words

CROP = Path(__file__).parent / "crops" / "mamba_block_math_labels.png"  # README.md there: its provenance


def test_math_labels_beside_lines_under_a_box_are_read():
    words = svg_words(convert(CROP.read_bytes()).svg)
    assert {"a", "c"} <= set(words), words
    assert {"conv", "σ"} <= set(words), words


def _page(glyph_at: tuple[int, int], fill_under: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A light box wider than a small node (its outline ink) with a 20 px glyph at ``glyph_at``, on the fill or
    on the canvas under it."""
    ink = np.zeros((200, 200), bool)
    light = np.zeros((200, 200), bool)
    bottom = 160 if fill_under else 100
    light[40:bottom, 6:194] = True
    ink[38:40, 4:196] = ink[bottom:bottom + 2, 4:196] = True
    y, x = glyph_at
    ink[y:y + 20, x:x + 3] = ink[y:y + 3, x:x + 12] = True  # a 'Γ'
    lab = np.zeros((200, 200), np.int32)
    lab[y:y + 20, x:x + 12][ink[y:y + 20, x:x + 12]] = 7
    return ink, lab, light


def test_only_a_glyph_on_a_fill_is_held_to_the_fills_margin():
    member = [(0, 0, 0, 0, 7)]
    # set on the canvas 4 px under the box's outline: its margin reaches the fill, but it stands on the canvas
    ink, lab, light = _page((106, 90), fill_under=False)
    assert not _crowded(ink, lab, member, (90, 106, 102, 126), 60.0, light)
    # set on the fill, as near the outline: a piece of the drawing (a dash meeting a frame read as 'L')
    ink, lab, light = _page((136, 90), fill_under=True)
    assert _crowded(ink, lab, member, (90, 136, 102, 156), 60.0, light)
