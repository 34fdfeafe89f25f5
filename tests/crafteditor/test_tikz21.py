"""TikZ math labels (issue 31, round 21): what a reader of a LaTeX figure relies on."""

import numpy as np

from crafteditor.ocr.greek import greek_in_line, greek_leads
from crafteditor.ocr.runs import TextRun
from crafteditor.ocr.subscripts import join_superscripts

# the glyph mask of janosh/diagrams' feynman-diagram-4 'φ_b' at 150 dpi (makers tikz-wild, seed 21): TeX's \varphi,
# its hairline loop broken from its stem, the arc starting left of the stem's middle; read 'Pb'
PHI_B = """\
.#.....####........
.#....##..##.......
#.....#....#..##...
#....#.....#...#...
#.............##...
#...#.....#...#....
#...#....#....##.##
.##.#..##.....#...#
..######.....##...#
...##........#...##
...#.........#...#.
..##..........###..
..##..............."""


def _run(text: str, art: str) -> TextRun:
    mask = np.array([[ch == "#" for ch in row] for row in art.splitlines()])
    h, w = mask.shape
    return TextRun(text=text, x=28.0, y=6.0, w=float(w), h=float(h), angle=0.0, font_px=13.0, bold=False,
                   color=(0, 0, 0), confidence=0.6, baseline=17.0, glyphs=mask)


def test_a_varphi_broken_in_two_pieces_is_read_as_the_lead_of_its_label():
    assert greek_leads([_run("Pb", PHI_B)])[0].text == "φb"


def test_a_word_led_by_p_stays_latin():
    # the same subscript after a plain upright p (no φ's loop): the lead is not made Greek
    p = PHI_B.splitlines()
    upright = [".#######....." + row[13:] if k < 9 else ".##.........." + row[13:] for k, row in enumerate(p)]
    upright[0] = "############." + p[0][13:]
    assert greek_leads([_run("pb", "\n".join(upright))])[0].text == "pb"


def test_a_membership_sign_before_an_equals_sign_is_tex_epsilon():
    # TeX's \epsilon is the shape of ∈; 'Legendre in ϵ = E/N' (janosh/diagrams) had been read 'Legendre in ∈ ='
    crop = np.full((20, 200, 3), 255, np.uint8)
    for text, want in (("Legendre in ∈ =", "Legendre in ε ="), ("∈=", "ε="), ("ω = 2 ∈ Q", "ω = 2 ∈ Q")):
        assert greek_in_line(text, [float(i) for i in range(len(text))], crop) == want


def _box_run(text: str, marked: str | None, x: float, y: float, w: float, h: float) -> TextRun:
    return TextRun(text=text, x=x, y=y, w=w, h=h, angle=0.0, font_px=0.75 * h, bold=False, color=(0, 0, 0),
                   confidence=0.99, baseline=y + 0.8 * h, glyphs=np.ones((int(h), int(w)), bool), marked=marked)


def test_a_wide_superscript_boxed_apart_over_a_subscript_joins_its_label():
    # h^{(1)}_2 of a drawn layer diagram (makers tikz, seed 20): the detector boxed '(1)' apart from 'h_2'
    label = _box_run("h2", "h_{2}", 283, 440, 37, 41)
    sup = _box_run("(1)", None, 308, 426, 37, 29)
    (run,) = join_superscripts([label, sup])
    assert (run.text, run.marked) == ("h(1)2", "h^{(1)}_{2}")
    # a number standing clear above the label (a layer's size over its node) is no superscript
    above = _box_run("(1)", None, 308, 395, 37, 29)
    assert [r.text for r in join_superscripts([label, above])] == ["h2", "(1)"]
    # nor a word to the right, level with the label
    beside = _box_run("ReLU", None, 330, 445, 60, 30)
    assert [r.text for r in join_superscripts([label, beside])] == ["h2", "ReLU"]
