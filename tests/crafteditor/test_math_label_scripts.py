"""A lone math letter's sub- and superscripts are part of its label in the lone-glyph pass (TeX's h_t, x_1,
h^ℓ_3 set beside a line or in a circle). They are smaller than a glyph, or the size of a small glyph and a
word of their own; either way they had stood round the letter as ink crowding it, and the letter was
dropped with them (drawn real TikZ, issue 31)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from crafteditor.ocr.lone_glyphs import _candidates, _crowded, _with_scripts

H_LETTER = (100, 50, 14, 20, 1)  # an italic 'h', 20 px high (x, y, w, h, component)


def test_a_subscript_and_a_superscript_join_their_letter():
    sub = (116, 62, 7, 10, 2)  # hangs from the letter's lower part, 2 px after it
    sup = (116, 44, 6, 10, 3)  # rises from its upper part, above it
    prime = (124, 44, 5, 9, 4)  # the next script, close after the superscript
    words = _with_scripts([[H_LETTER]], [sub, sup, prime])
    assert sorted(m[4] for m in words[0]) == [1, 2, 3, 4]


def test_a_small_glyph_word_in_a_script_place_joins_and_leaves_the_words():
    digit = (116, 58, 9, 13, 5)  # a '1' subscript tall enough to be a glyph of its own, read as a word
    words = _with_scripts([[H_LETTER], [digit]], [])
    assert words == [[H_LETTER, digit]]


def test_what_is_no_script_stays_apart():
    level = (117, 58, 8, 12, 2)  # a smaller letter on the letter's baseline: no shift
    far = (140, 62, 7, 10, 3)  # a subscript's height and place, but a letter's width off
    before = (80, 62, 7, 10, 4)  # before the letter
    word = [H_LETTER, (116, 50, 14, 20, 6), (132, 50, 14, 20, 7)]  # three glyphs: a word, no math label
    after = (148, 62, 7, 10, 8)
    assert _with_scripts([[H_LETTER]], [level, far, before]) == [[H_LETTER]]
    assert _with_scripts([word], [after]) == [word]


def _page() -> tuple[np.ndarray, np.ndarray]:
    """An 'h' (20 px) with a subscript after it, beside an arrow whose head ends 6 px left of the letter."""
    ink = np.zeros((120, 220), bool)
    lab = np.zeros((120, 220), np.int32)
    ink[60:80, 100:103] = ink[68:71, 100:114] = ink[68:80, 111:114] = True  # the 'h'
    lab[60:80, 100:114][ink[60:80, 100:114]] = 1
    ink[72:82, 116:122] = True  # its subscript
    lab[72:82, 116:122] = 2
    ink[69, 20:94] = True  # the arrow's shaft, to the left, out of the window
    for k in range(8):
        ink[69 - k // 2:70 + k // 2, 86 + k] = True  # its head
    lab[ink & (lab == 0)] = 3
    return ink, lab


def test_a_letters_own_subscript_no_longer_crowds_it():
    ink, lab = _page()
    light = np.zeros_like(ink)
    letter = (100, 60, 14, 20, 1)
    script = (116, 72, 6, 10, 2)
    words = _with_scripts([[letter]], [script])
    assert words == [[letter, script]]
    assert not _crowded(ink, lab, words[0], (100, 60, 122, 82), 20.0, light)
    assert _crowded(ink, lab, [letter], (100, 60, 114, 80), 20.0, light)  # as before: its script crowds it


def test_an_arrowhead_at_the_letter_is_no_script():
    # the arrow's tip 2 px before the 'h', inside its crowding window; the pools built as the pass builds them
    ink = np.zeros((120, 220), np.uint8)
    ink[60:80, 100:103] = ink[68:71, 100:114] = ink[68:80, 111:114] = 1  # the 'h'
    ink[72:80, 118:120] = ink[74:76, 116:122] = 1  # its subscript t, under 0.45 of a glyph: in the script pool
    ink[69, 20:90] = 1  # the arrow's shaft
    for k in range(8):
        ink[69 - k // 2:70 + k // 2, 90 + k] = 1  # its head, the tip at x 97
    _, lab, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    rgb = np.where(ink[..., None] > 0, 0, 255).astype(np.uint8).repeat(3, axis=2)
    cands, scripts, _ = _candidates(rgb, lab, stats, 20.0, np.zeros((1, 3), np.float32),
                                    np.array([255, 255, 255], np.float32))
    letter = [c for c in cands if c[0] == 100]
    assert len(letter) == 1
    words = _with_scripts([letter], scripts)
    assert [m[0] for m in words[0]] == [100, 116]  # the letter and its subscript, not the arrowhead
    assert lab[69, 97] not in [m[4] for m in words[0]]


def test_a_math_label_in_a_circle_node_is_its_label():
    # a_rec (TikZ $\vec{a}_\text{rec}$) alone in an unfilled circle the lines meet: its 'rec' had crowded the 'a'
    # and the circle's outline the label, and the node came back with no label (crops/README.md: its provenance)
    from crafteditor import convert
    from crafteditor.realset import svg_words

    conv = convert((Path(__file__).parent / "crops" / "cyclegan_circled_math_label.png").read_bytes())
    assert "arec" in svg_words(conv.svg)
    assert "a_{rec}" in [c.label for c in conv.figure.components if c.kind == "node"]


def test_scripts_are_looked_for_from_the_letter_on_not_from_the_pages_left_edge():
    # a page of dust: 3000 one-glyph words on a row and 20000 specks to their left; each word had walked
    # every speck from x 0 (4.9 s on a scatter plot's specks); from its letter on, a few ms
    import time

    words = [[(30000 + 40 * k, 50, 14, 20, k + 1)] for k in range(3000)]
    specks = [(k, 200, 2, 2, 10000 + k) for k in range(20000)]
    t = time.process_time()
    out = _with_scripts(words, specks)
    assert time.process_time() - t < 1.0
    assert out == words
