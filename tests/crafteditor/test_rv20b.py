"""Review of round 20 (tikz20, mpl20, seq20): inputs the merged changes had not been tried on."""

import io
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from PIL import Image, ImageDraw, ImageFont  # noqa: E402

from crafteditor.ocr.greek import greek_in_line  # noqa: E402
from crafteditor.ocr.math_letters import crop_ink, glyph_groups  # noqa: E402
from crafteditor.ocr.subscripts import read_stacked  # noqa: E402

FONTS = os.path.join(os.path.dirname(matplotlib.__file__), "mpl-data", "fonts", "ttf")


def _line(text: str, face: str, size: int, shown: str | None = None) -> tuple[list[float], np.ndarray]:
    """``shown`` (default ``text``) set in ``face`` at ``size`` px: each character's x centre and the BGR crop."""
    shown = shown or text
    font = ImageFont.truetype(os.path.join(FONTS, face), size)
    img = Image.new("RGB", (size * len(shown) + 20, size * 2), "white")
    draw = ImageDraw.Draw(img)
    draw.text((10, size // 3), shown, font=font, fill="black")
    centres = [10 + (draw.textlength(shown[:i], font=font) + draw.textlength(shown[:i + 1], font=font)) / 2
               for i in range(len(shown))]
    return centres, np.ascontiguousarray(np.array(img)[:, :, ::-1])


def test_a_small_latin_p_or_v_in_a_formula_stays_latin():
    """matplotlib's default 10 pt label at 100 dpi (a 14 px DejaVu Sans line) set 'p(t)', 'E[p]', '(ppm)': each p
    fitted TeX's ρ a hair better than p at 11 px, and came back 'ρ(t)', 'E[ρ]', '(ρρm)'; so did an italic serif
    'v(t)' as 'ν(t)'. A glyph that small is not weighed; TeX's ρ set large enough still is."""
    for text, face, size in (("p(t)", "DejaVuSans.ttf", 14), ("E[p]", "DejaVuSans.ttf", 14),
                             ("(ppm)", "DejaVuSans.ttf", 14), ("p(v)", "DejaVuSerif-Italic.ttf", 12),
                             ("v(t)", "DejaVuSerif-Italic.ttf", 14)):
        centres, crop = _line(text, face, size)
        assert greek_in_line(text, centres, crop) == text, (text, face, size)
    centres, crop = _line("p(r)", "cmmi10.ttf", 32, chr(189) + "(r)")  # cmmi10's ρ
    assert greek_in_line("p(r)", centres, crop) == "ρ(r)"


def test_a_bold_letters_colon_is_no_stack_of_scripts():
    """A bold 'x:' or 'x;' (a label's name before its value): the colon's dots part in two bands as tall as scripts
    after an x-height letter, and had been reread as a superscript over a subscript ('x^{o}_{o}' where the
    recogniser read each dot 'o'). A dot is no script: the line stays as read."""
    for text in ("x:", "x;"):
        for size in (20, 24, 36):
            centres, crop = _line(text, "DejaVuSans-Bold.ttf", size)
            assert read_stacked(text, centres, crop, lambda parts: [("o", 0.95, [])] * len(parts))[2] is None, \
                (text, size)


def test_a_subscript_i_under_a_superscript_is_read_as_a_stack():
    """TeX's ``h^2_i`` (the module's own ``x_i^2``): the i's dot stands apart from its stem, so the ink after the letter
    parted in three bands, and the stack was never read. A band shorter than a script, just over the next, is one
    glyph's part (the dot over its stem): the superscript and the subscript are read apart."""
    for size in (14, 18, 24):
        with matplotlib.rc_context({"mathtext.fontset": "cm"}):
            fig = plt.figure(figsize=(1.2, 0.7), dpi=150)
            fig.text(0.1, 0.3, r"$h^{2}_{i}$", fontsize=size)
            buf = io.BytesIO()
            fig.savefig(buf, format="png")
            plt.close(fig)
        crop = np.ascontiguousarray(np.array(Image.open(buf).convert("RGB"))[:, :, ::-1])
        centres = [(a + b) / 2 for a, b, _ in glyph_groups(crop_ink(crop))]
        read = read_stacked("h" + "x" * (len(centres) - 1), centres, crop, lambda parts: [("2", 0.9, []), ("i", 0.9, [])])
        assert read[2] == "h^{2}_{i}", (size, read)
