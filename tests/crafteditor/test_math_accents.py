"""Math accents over letters, drawn here in Computer Modern (matplotlib's mathtext, cm set): a
vector arrow over an italic x made the recogniser read 'Ereal' for ``\\vec{x}_{real}`` and '18' for a
lone ``\\vec{x}`` (the janosh/diagrams GAN, issue 31). The accent is found apart from its letter,
painted out, the line read again, and put back where the letter has a precomposed form."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

from crafteditor.config import Config
from crafteditor.convert import convert
from crafteditor.ocr.accents import ARROW, BAR, HAT, find_accents, put_back
from crafteditor.realset import svg_words


def _math_row(labels: list[str], dpi: int = 200, circles: bool = True) -> bytes:
    """A row of math labels in Computer Modern, each in a filled circle (a TikZ layer's node)."""
    import matplotlib  # heavy: the test's own drawing

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # heavy: as above

    with matplotlib.rc_context({"mathtext.fontset": "cm"}):
        fig, ax = plt.subplots(figsize=(1.3 * len(labels), 1.2), dpi=dpi)
        ax.set_xlim(0, len(labels))
        ax.set_ylim(0, 1)
        ax.set_aspect("equal")
        ax.axis("off")
        for i, lab in enumerate(labels):
            if circles:
                ax.add_patch(plt.Circle((i + 0.5, 0.5), 0.4, color="#67b3b2"))
            ax.text(i + 0.5, 0.5, lab, ha="center", va="center", fontsize=14)
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=dpi)
        plt.close(fig)
    return buf.getvalue()


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
