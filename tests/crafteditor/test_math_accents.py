"""Math accents over letters, drawn here in Computer Modern (matplotlib's mathtext, cm set): a
vector arrow over an italic x made the recogniser read 'Ereal' for ``\\vec{x}_{real}`` and '18' for a
lone ``\\vec{x}`` (the janosh/diagrams GAN, issue 31). The accent is found apart from its letter,
painted out, the line read again, and put back where the letter has a precomposed form."""

from __future__ import annotations

import io

import numpy as np
from ce_helpers import math_labels_png
from PIL import Image

from crafteditor.config import Config
from crafteditor.convert import convert
from crafteditor.ocr.accents import ARROW, BAR, HAT, find_accents, put_back
from crafteditor.realset import svg_words


def _math_row(labels: list[str], dpi: int = 200, circles: bool = True) -> bytes:
    """A row of math labels in Computer Modern, each in a filled circle (a TikZ layer's node)."""
    return math_labels_png(labels, dpi, 1.3, 1.2, 0.4 if circles else 0, 14, "#67b3b2")


def _crop(label: str) -> np.ndarray:
    """One label's line crop, BGR, tight around its ink with a margin."""
    rgb = np.asarray(Image.open(io.BytesIO(_math_row([label], circles=False))).convert("RGB"))
    ink = np.flatnonzero((rgb.min(axis=2) < 128).any(axis=1)), np.flatnonzero((rgb.min(axis=2) < 128).any(axis=0))
    crop = rgb[ink[0][0] - 4:ink[0][-1] + 5, ink[1][0] - 4:ink[1][-1] + 5]
    return np.ascontiguousarray(crop[:, :, ::-1])


def test_a_vector_arrow_and_a_hat_are_told_apart_and_an_equals_sign_is_no_accent():
    assert [a.mark for a in find_accents(_crop("$\\vec{x}_{\\mathrm{real}}$"))] == [ARROW]
    assert [a.mark for a in find_accents(_crop("$\\hat{y}_1$"))] == [HAT]
    assert [a.mark for a in find_accents(_crop("$\\bar{a}$"))] == [BAR]
    assert find_accents(_crop("$a = b$")) == []  # the upper bar of '=' sits mid-line
    assert find_accents(_crop("$x^{-1}$")) == []  # a superscript minus has no glyph under it
    for word in ("Circle", "Fira", "$ij$"):  # an i's or j's dot stands over a stem
        assert find_accents(_crop(word)) == [], word


def test_a_rule_just_over_a_word_is_no_accent():
    """A frame's side or a rule 4 px over 'Tree' spans the word, not one letter: no bar for put_back to set on
    the middle letter."""
    crop = _crop("Tree")
    ink = np.flatnonzero((crop.min(axis=2) < 128).any(axis=1))
    page = np.full((crop.shape[0] + 12, crop.shape[1], 3), 255, np.uint8)
    page[12:] = crop
    page[12 + ink[0] - 5:12 + ink[0] - 3, 4:-4] = 0  # a 2 px rule over the whole word
    assert find_accents(page) == []


def test_an_accent_goes_back_on_the_letter_under_it_where_a_precomposed_form_exists():
    from crafteditor.ocr.accents import Accent

    hat = Accent(8, 18, HAT, np.zeros((1, 1), bool))
    assert put_back("y1", [12.0, 24.0], [hat]) == "ŷ1"
    arrow = Accent(8, 18, ARROW, np.zeros((1, 1), bool))
    assert put_back("xreal", [12.0, 24.0, 30.0, 36.0, 42.0], [arrow]) == "xreal"  # no precomposed x⃗


def test_vector_math_labels_in_circles_are_read_as_their_letters():
    png = _math_row(["$\\vec{x}_{\\mathrm{real}}$", "$\\vec{x}_{\\mathrm{fake}}$", "$\\vec{x}$", "$G(\\vec{x})$"])
    words = svg_words(convert(png, Config()).svg)
    assert words["xreal"] + words["xfake"] >= 1, words
    assert words["x"] + words["gx"] >= 1, words



def _run(text: str, x: float, y: float, w: float, h: float):
    from crafteditor.ocr.runs import TextRun

    return TextRun(text=text, x=x, y=y, w=w, h=h, angle=0.0, font_px=h * 1.2, bold=False, color=(0, 0, 0),
                   confidence=0.98, baseline=y + 0.8 * h, glyphs=np.ones((int(h), int(w)), bool))


def test_a_subscript_boxed_apart_from_its_letter_is_joined_on():
    """h′₁ in nntikz's seq2seq: the detector boxed "h'" and a lower, smaller '1' apart."""
    from crafteditor.ocr.subscripts import join_subscripts

    rgb = np.full((100, 200, 3), 255, np.uint8)
    runs = [_run("h'", 50, 40, 30, 30), _run("1", 76, 56, 10, 20), _run("layer", 120, 40, 60, 30)]
    out = join_subscripts(runs, rgb, lambda crop: ("", 0.0, []))
    assert sorted(r.shown for r in out) == ["h'_{1}", "layer"]


def test_a_subscript_the_detectors_box_left_out_is_read_and_joined_on():
    """ŷ₁ in nntikz's seq2seq: the detector's box stopped at the ŷ; the 1 after it is read alone."""
    from PIL import ImageDraw, ImageFont

    from crafteditor.ocr.subscripts import join_subscripts

    img = Image.new("RGB", (200, 100), "white")
    ImageDraw.Draw(img).text((84, 52), "1", fill="black", font=ImageFont.truetype(
        "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf", 18))
    seen = []
    out = join_subscripts([_run("y", 50, 40, 30, 30)], np.asarray(img), lambda crop: seen.append(crop) or ("1", 0.99, [5.0]))
    assert len(seen) == 1 and [r.shown for r in out] == ["y_{1}"]
    # a line running on from the label is no subscript
    ImageDraw.Draw(img).line([84, 62, 199, 62], fill="black", width=2)
    out = join_subscripts([_run("y", 50, 40, 30, 30)], np.asarray(img), lambda crop: ("1", 0.99, [5.0]))
    assert [r.shown for r in out] == ["y"]
