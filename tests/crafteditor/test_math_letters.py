"""Math labels in TeX's fonts and figures in faint ink (issue 31), drawn here: the italic ``x`` of
``x_1`` in Computer Modern (rapidocr read it 'C', 'T' or nothing: ``x_1`` came back '1'), the hat of
``\\hat{y}``, and a figure drawn all in grey ``black!55`` ink (no text region: nothing read). The
TikZ maker's own figures are checked where pdflatex is installed."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest
from ce_helpers import math_labels_png
from PIL import Image, ImageDraw, ImageFont

from crafteditor.config import Config
from crafteditor.convert import convert
from crafteditor.ocr.math_letters import crop_ink, glyph_groups, read_math_lead
from crafteditor.realset import svg_words, words_of
from crafteditor.text_regions import DARK, ink_level


def _math_layer(labels: list[str], dpi: int = 100) -> bytes:
    """A row of circles holding math labels in Computer Modern (matplotlib's mathtext, cm set)."""
    return math_labels_png(labels, dpi, 1.6, 1.4, 0.32, 13, None)


def test_computer_modern_italic_x_with_a_subscript_keeps_its_letter():
    svg = convert(_math_layer(["$x_1$", "$x_2$", "$x_3$", "$h_1$"]), Config()).svg
    words = svg_words(svg)
    assert sum(words[w] for w in ("x1", "x2", "x3")) >= 2, words
    assert words["h1"] == 1, words


def test_a_hat_over_a_math_letter_is_kept():
    svg = convert(_math_layer(["$\\hat{y}_1$", "$\\hat{y}_2$", "$\\hat{y}_3$"], dpi=150), Config()).svg
    words = svg_words(svg)
    assert sum(words[w] for w in ("ŷ1", "ŷ2", "ŷ3")) >= 2, words


def test_the_math_letters_pass_can_be_turned_off():
    svg = convert(_math_layer(["$x_1$", "$x_2$", "$x_3$"]), Config(ocr_math_letters=False)).svg
    assert isinstance(svg_words(svg), dict)  # runs without it (the reading is rapidocr's own)


def _faint_boxes(grey: int) -> np.ndarray:
    img = Image.new("RGB", (420, 120), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf", 15)
    for i, word in enumerate(["Encoder", "Sampler", "Router"]):
        x = 20 + i * 135
        d.rectangle([x, 40, x + 110, 80], outline=(grey,) * 3, width=1)
        d.text((x + 55, 60), word, fill=(grey,) * 3, font=font, anchor="mm")
    return np.asarray(img)


def test_ink_level_rises_only_for_a_figure_drawn_in_faint_ink():
    gray = lambda rgb: rgb.mean(axis=2).astype(np.uint8)  # noqa: E731
    assert ink_level(gray(_faint_boxes(0))) == DARK
    assert ink_level(gray(_faint_boxes(150))) > 150


def test_labels_in_faint_grey_ink_are_read():
    png = io.BytesIO()
    Image.fromarray(_faint_boxes(150)).save(png, format="PNG")
    words = svg_words(convert(png.getvalue(), Config()).svg)
    assert sum(words[w] for w in ("encoder", "sampler", "router")) >= 2, words


@pytest.mark.skipif(shutil.which("pdflatex") is None or shutil.which("pdftoppm") is None,
                    reason="the TikZ maker needs pdflatex and pdftoppm")
def test_the_tikz_maker_draws_figures_with_their_truth(tmp_path):
    from craftbench.makers import draw_makers

    manifest = draw_makers("tikz", tmp_path, n=4, seed=3)
    figures = json.loads(manifest.read_text())["figures"]
    assert [f["maker"] for f in figures] == ["tikz-mlp", "tikz-rnn", "tikz-cell", "tikz-block"]
    for f in figures:
        assert (tmp_path / f["file"]).is_file() and f["split"] == "drawn"
        assert words_of(f["text"]) and all(a in f["nodes"] and b in f["nodes"] for a, b in f["edges"])
    rnn = figures[1]
    svg = convert((tmp_path / rnn["file"]).read_bytes(), Config()).svg
    truth, read = words_of(rnn["text"]), svg_words(svg)
    x_words = [w for w in truth if w.startswith("x")]
    assert sum(min(truth[w], read[w]) for w in x_words) >= len(x_words) // 2, (truth, read)


def test_labels_on_light_pills_on_a_dark_page_are_read():
    """draw.io's dark theme: small dark labels on light pills, lines across a dark page; the detector's
    box holds the pill and some page, and the pill had been taken for one glyph ('e1-49' read '·')."""
    s = 4
    img = Image.new("RGB", (300 * s, 120 * s), (77, 87, 102))
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 9 * s)
    d.line([(20 * s, 10 * s), (280 * s, 110 * s)], fill=(152, 162, 174), width=3 * s)
    for i, word in enumerate(["eth2", "leaf", "e1-49"]):
        x, y = (30 + i * 90) * s, (30 + i * 25) * s
        w = d.textlength(word, font=font)
        d.rounded_rectangle([x - 3 * s, y - 2 * s, x + w + 3 * s, y + 12 * s], radius=4 * s, fill=(245, 245, 245))
        d.text((x, y), word, fill=(20, 20, 20), font=font)
    png = io.BytesIO()
    img.resize((300, 120), Image.LANCZOS).save(png, format="PNG")
    words = svg_words(convert(png.getvalue(), Config()).svg)
    assert sum(words[w] for w in ("eth2", "leaf", "e149")) >= 2, words


def _time_labels(labels: list[str], dpi: int = 150) -> bytes:
    import matplotlib  # heavy: the test's own drawing

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # heavy: as above

    with matplotlib.rc_context({"mathtext.fontset": "cm"}):
        fig = plt.figure(figsize=(1.5 * len(labels), 0.8), dpi=dpi)
        for i, lab in enumerate(labels):
            fig.text((i + 0.5) / len(labels), 0.5, lab, fontsize=14, ha="center", va="center")
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=dpi)
        plt.close(fig)
    return buf.getvalue()


def test_a_minus_in_a_subscript_keeps_the_label_one_word():
    """h_{t-1}: the recogniser drops the thin minus and reads 'ht 1' (two words); it goes back in."""
    words = svg_words(convert(_time_labels(["$h_{t-1}$", "$c_{t-1}$", "$s_{t-1}$"]), Config()).svg)
    assert sum(words[w] for w in ("ht1", "ct1", "st1")) >= 2, words



@pytest.mark.parametrize(("crop", "read", "conf", "want"), [("bloch_italic_x2.png", "C2", 0.926, "x2"),
                                                          ("bloch_italic_x1.png", "X1", 0.982, "x1")])
def test_a_sure_misreading_of_an_italic_x_is_read_again(crop, read, conf, want):
    """Real TikZ (janosh/diagrams' Bloch sphere at 150 dpi): the recogniser was sure of 'C2' and 'X1' for the
    italic x of x_2 and x_1; a sure letter is weighed against the italic letters too."""
    img = cv2.imread(str(Path(__file__).parent / "crops" / crop))
    centres = [(a + b) / 2 for a, b, _ in glyph_groups(crop_ink(img))]
    assert read_math_lead(read, conf, centres, img)[0] == want


def test_a_sure_upright_letter_stays():
    """A sans 'C2' read surely is no italic x: the reading's own fit is the rival."""
    img = Image.new("RGB", (40, 24), "white")
    ImageDraw.Draw(img).text((3, 2), "C2", fill="black", font=ImageFont.truetype("DejaVuSans.ttf", 16))

    bgr = np.asarray(img)[:, :, ::-1].copy()
    centres = [(a + b) / 2 for a, b, _ in glyph_groups(crop_ink(bgr))]
    assert read_math_lead("C2", 0.97, centres, bgr)[0] == "C2"


@pytest.mark.parametrize(("face", "px", "word"), [("DejaVuSansMono-Bold.ttf", 19, "in"), ("DejaVuSansMono-Bold.ttf", 16, "Web"),
                                                  ("DejaVuSansMono-Bold.ttf", 18, "To"), ("DejaVuSerif-Bold.ttf", 16, "hour"),
                                                  ("DejaVuSerif-Bold.ttf", 18, "item")])
def test_a_sure_word_in_bold_or_mono_type_stays(face, px, word):
    """A short word read surely is no math label: its lead letter is not weighed against the italics
    ('in' had become 'xn', 'Web' 'ueb', 'hour' 'Rour')."""
    img = Image.new("RGB", (12 + px * len(word), px + 10), "white")
    ImageDraw.Draw(img).text((4, 3), word, fill="black", font=ImageFont.truetype(face, px))
    bgr = np.asarray(img)[:, :, ::-1].copy()
    centres = [(a + b) / 2 for a, b, _ in glyph_groups(crop_ink(bgr))]
    assert len(centres) == len(word) and read_math_lead(word, 0.97, centres, bgr)[0] == word


def test_computer_modern_italic_z_over_its_subscript_is_a_letter_and_numbers_stay_numbers():
    """CM's italic z reads '2' to the recogniser however sure (z_1, z_d of real TikZ flows read '21', '2d'): a lead digit
    no taller than the script hanging after it is a letter; a number's digits stand level and stay digits."""
    words = svg_words(convert(math_labels_png(["$z_1$", "$z_2$", "$z_d$"], 200, 1.6, 1.4, 0.32, 13, None),
                              Config()).svg)
    assert sum(words[w] for w in ("z1", "z2", "zd")) >= 2, words
    numbers = svg_words(convert(math_labels_png(["$21$", "$22$", "$23$"], 200, 1.6, 1.4, 0.32, 13, None),
                                Config()).svg)
    assert sum(numbers[w] for w in ("21", "22", "23")) == 3, numbers


def test_a_subscript_zero_read_as_o_is_a_zero_and_a_words_o_stays():
    """TeX's subscript zero reads 'o' to the recogniser (q_0 read 'qo' in real Feynman diagrams): an 'o' after a letter
    that hangs below the baseline as a subscript does is a zero; the o ending a word sits on the baseline."""
    words = svg_words(convert(math_labels_png(["$q_0$", "$w_0$", "$x_0$"], 200, 1.6, 1.4, 0.32, 13, None),
                              Config()).svg)
    assert sum(words[w] for w in ("q0", "w0", "x0")) >= 2, words
    plain = svg_words(convert(math_labels_png(["Photo", "go to", "Hello"], 200, 1.6, 1.4, 0, 13, None),
                              Config()).svg)
    assert all(plain[w] == 1 for w in ("photo", "go", "to", "hello")), plain


def test_a_small_italic_letter_over_its_subscript_is_told_among_x_height_letters():
    """At 100 dpi CM's italic x over its subscript is 6-7 px tall: among all letters it fitted an italic Z as well,
    and the label read 'Z2' or lost its letter ('1'). A lead no taller than its subscript is a lower-case letter of
    x-height, told among those alone."""
    words = svg_words(convert(math_labels_png(["$x_1$", "$x_2$", "$x_3$"], 100, 1.6, 1.4, 0.32, 12, None),
                              Config()).svg)
    assert sum(words[w] for w in ("x1", "x2", "x3")) >= 2, words
    assert not any(w.startswith("z") for w in words), words
