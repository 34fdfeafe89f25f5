"""What CraftEditor reads of a figure's text beyond the letters (issue 31): sub- and superscripts
(T₁, 10⁻³) as Crafter's markup, the font class of serif and monospaced labels, an ellipsis kept,
and how sure the reading is: ``text_confidence`` and ``unsure_words`` in the report, unsure
labels marked ``crafter-unsure`` in the SVG. Figures drawn here with matplotlib and PIL."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from crafteditor.convert import convert
from crafteditor.realset import svg_words
from crafter.spec.model import Text

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def _figure(items: list[tuple[float, float, str, dict]]) -> bytes:
    fig = plt.figure(figsize=(6, 2.4), dpi=150)
    for x, y, s, kw in items:
        fig.text(x, y, s, fontsize=13, **kw)
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    return buf.getvalue()


@pytest.fixture(scope="module")
def read():
    png = _figure([(0.05, 0.75, "Embedded tokens", {"family": "STIXGeneral"}),
                   (0.55, 0.75, "print(value)", {"family": "DejaVu Sans Mono"}),
                   (0.05, 0.45, r"$T_1$ encoder", {}),
                   (0.55, 0.45, r"rate $10^{-3}$", {}),
                   (0.05, 0.15, "a, b, \u2026, z", {}),
                   (0.55, 0.15, "Sans label", {}),
                   (0.3, 0.02, "W\u2081 + W\u2082", {})])
    conv = convert(png, name="text.png")
    return conv, {c.text: c for c in conv.figure.components if isinstance(c, Text)}


def test_subscript_and_superscript_read_as_markup(read):
    conv, texts = read
    assert "T_{1} encoder" in texts
    assert any(t.startswith("rate 10^{") and t.endswith("3}") for t in texts)
    assert '<tspan baseline-shift="sub"' in conv.svg and '<tspan baseline-shift="super"' in conv.svg
    assert "W_{1} + W_{2}" in texts  # Unicode's subscript digits, standing on the baseline
    words = svg_words(conv.svg)
    assert words["t1"] == 1 and words["103"] == 1


def test_font_class_of_serif_and_mono_labels(read):
    _, texts = read
    assert texts["Embedded tokens"].font == "serif"
    assert texts["print(value)"].font == "mono"
    assert texts["Sans label"].font is None  # sans: the theme's font


def test_ellipsis_kept_as_one_character(read):
    _, texts = read
    assert "a, b, …, z" in texts


def test_report_says_how_sure_the_reading_is(read):
    conv, _ = read
    json.dumps(conv.report)  # the app shows it: plain JSON
    unsure = {u["text"] for u in conv.report["unsure_words"]}
    assert not unsure & {"Embedded", "tokens", "print(value)", "Sans", "label"}  # clean words are sure
    assert 0.0 < conv.report["text_confidence"] <= 1.0


def test_blurred_faint_word_lands_in_unsure_words():
    """A small, faint, slightly blurred word is read (here 'wordls', 0.94 sure): listed, and marked."""
    im = Image.new("RGB", (520, 160), "white")
    ImageDraw.Draw(im).text((20, 20), "Clear label here", fill="black", font=ImageFont.truetype(FONT, 26))
    faint = Image.new("RGB", (300, 60), "white")
    # (grey 110 under a 0.7 px blur read right, 0.963 sure, once crops were read alone with a
    # margin, ocr.engine.REC_MARGIN: a shade fainter and blurrier it is the unsure 'wordls' again)
    ImageDraw.Draw(faint).text((5, 5), "Smudged words", fill=(120, 120, 120), font=ImageFont.truetype(FONT, 9))
    im.paste(faint.filter(ImageFilter.GaussianBlur(0.8)), (20, 90))
    buf = io.BytesIO()
    im.save(buf, format="PNG")
    conv = convert(buf.getvalue(), name="faint.png")
    rep = conv.report
    unsure = rep["unsure_words"]
    assert unsure, rep
    assert all({"text", "score", "box"} <= set(u) <= {"text", "score", "box", "maybe"} and len(u["box"]) == 4
               for u in unsure)
    assert rep["text_confidence"] < 1.0
    assert "Clear" not in {u["text"] for u in unsure}
    x, y, w, h = unsure[0]["box"]
    assert 85 <= y + h / 2 <= 120 and unsure[0]["score"] < 0.96  # the smudged line, where it was drawn
    assert 'class="crafter-unsure"' in conv.svg


def test_greek_sigma_in_an_activation_box():
    """σ is not in the recogniser's vocabulary: a lone σ in a filled box is read from its shape,
    and listed as unsure (scored under the gate) for the user to check."""
    im = Image.new("RGB", (420, 160), "white")
    d = ImageDraw.Draw(im)
    italic = ImageFont.truetype(FONT.replace("DejaVuSans.ttf", "DejaVuSans-Oblique.ttf"), 30)
    for x in (30, 240):
        d.rectangle((x, 40, x + 140, 110), fill=(90, 170, 240), outline="black", width=2)
        d.text((x + 58, 55), "σ", fill="black", font=italic)
    buf = io.BytesIO()
    im.save(buf, format="PNG")
    conv = convert(buf.getvalue(), name="sigma.png")
    labels = [getattr(c, "label", None) or getattr(c, "text", "") for c in conv.figure.components]
    assert labels.count("σ") == 2, labels
    assert {u["text"] for u in conv.report["unsure_words"]} == {"σ"}


def test_vertical_ellipsis_and_middle_dot():
    """'⋮' between stacked tokens (three dots no detector box holds) comes back as text, not
    three traced discs; the middle dot of 'x · y' is not a full stop."""
    im = Image.new("RGB", (300, 220), "white")
    d = ImageDraw.Draw(im)
    f = ImageFont.truetype(FONT, 24)
    d.text((40, 20), "token 1", fill="black", font=f)
    d.text((40, 60), "token 2", fill="black", font=f)
    d.text((70, 100), "\u22ee", fill="black", font=f)
    d.text((40, 150), "token n", fill="black", font=f)
    d.text((180, 100), "x \u00b7 y", fill="black", font=f)
    buf = io.BytesIO()
    im.save(buf, format="PNG")
    conv = convert(buf.getvalue(), name="dots.png")
    texts = [c.text for c in conv.figure.components if isinstance(c, Text)]
    assert "⋮" in texts and "x · y" in texts
    assert not [c for c in conv.figure.components if c.kind == "path"]


@pytest.mark.parametrize("gap", [-1, 0])
def test_labels_whose_descenders_touch_the_arrow_below_keep_those_letters(gap):
    """Sequence-diagram messages set their label right on the arrow: the descenders of q, y, p touch
    the shaft, joined into one stroke across the text box and dropped with it ('ExecRequest' came
    back 'ExecR uest', 'Proxy' 'Prox'). The shaft is taken out and the letters it touched are read."""
    from crafteditor.config import Config

    im = Image.new("RGB", (520, 200), "white")
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(FONT, 13)
    for i, (x0, x1, word) in enumerate(((40, 260, "ExecRequest"), (260, 460, "Proxy connection"), (40, 460, "proxy"))):
        y = 60 + i * 45
        bb = d.textbbox((0, 0), word, font=font)
        d.text(((x0 + x1) // 2 - (bb[2] - bb[0]) // 2, y - bb[3] - gap), word, fill="black", font=font)
        d.line((x0, y, x1 - 8, y), fill="black", width=1)
        d.polygon([(x1, y), (x1 - 9, y - 4), (x1 - 9, y + 4)], fill="black")
    for x in (40, 260, 460):
        d.line((x, 30, x, 190), fill="black", width=1)
    buf = io.BytesIO()
    im.save(buf, "PNG")
    words = svg_words(convert(buf.getvalue(), Config(quality=False)).svg)
    assert words["execrequest"] == 1 and words["proxy"] == 2 and words["connection"] == 1, dict(words)


def test_a_sure_misreading_is_doubted_by_the_lexicon():
    """The recogniser is sure of most of its misreadings ('Returmns', 'Z00' beside a legend swatch,
    'machine.lnfrastructure'): a word one OCR slip from a known word is unsure, listed with the word
    it may be; names and abbreviations the lexicon does not know are not (issue 31)."""
    import numpy as np

    from crafteditor.ocr.lexicon import lexicon, lexicon_doubt
    from crafteditor.ocr.runs import TextRun
    from crafteditor.ocr.sureness import reading_confidence

    if not lexicon():
        pytest.skip("the brief encoder's vocabulary is not installed")
    assert lexicon_doubt("Returmns") == "returns"
    assert lexicon_doubt("Z00") == "zoo"
    assert lexicon_doubt("Cluster.Spec.lnfrastructureRef") == "infrastructure"
    assert lexicon_doubt("instaling") == "installing"
    for right in ("Returns", "Zoo", "kubeadm", "WideResNet", "Dockerfile", "GM12878_R1", "JSON", "init", "100k",
                  "deleted", "metrics", "Router"):
        assert lexicon_doubt(right) is None, right
    run = TextRun(text="Returmns value", x=0.0, y=0.0, w=140.0, h=12.0, angle=0.0, font_px=12.0, bold=False,
                  color=(0, 0, 0), confidence=0.995, baseline=10.0, glyphs=np.zeros((12, 140), bool))
    rep = reading_confidence([run])
    assert rep["text_confidence"] == 0.5
    assert rep["unsure_words"] == [{"text": "Returmns", "score": 0.995, "box": [0.0, 0.0, 80.0, 12.0],
                                    "maybe": "returns"}]


def test_a_slanted_message_does_not_swallow_the_label_below_it():
    """A message along a diagonal arrow has a tall, wide upright box; a node's label below it, as wide,
    had been joined to it as one rotated line and lost with the node's fill (issue 31)."""
    import numpy as np

    from crafteditor.ocr.text_lines import line_boxes

    message = np.array([[420, 130], [560, 360], [548, 367], [408, 137]], np.float32)  # ~59° down the arrow
    label = np.array([[440, 385], [600, 385], [600, 410], [440, 410]], np.float32)
    assert len(line_boxes([message, label], 640, 440)) == 2
    # the words of one rotated line, cut apart by the detector, are still one line
    upper = np.array([[20, 100], [36, 100], [36, 160], [20, 160]], np.float32)
    lower = np.array([[20, 166], [36, 166], [36, 230], [20, 230]], np.float32)
    assert len(line_boxes([upper, lower], 640, 440)) == 1


def test_a_sans_capital_i_read_as_l_is_mended_where_the_lexicon_says():
    """One glyph in sans-serif faces: 'Machine.Infrastructure' came back 'Machinelnfrastructure'
    (issue 31). Mended only where cut there the run is two known words; names stay as read."""
    from crafteditor.ocr.lexicon import capital_i, lexicon

    if not lexicon():
        pytest.skip("the brief encoder's vocabulary is not installed")
    assert capital_i("Machinelnfrastructure.status") == "MachineInfrastructure.status"
    assert capital_i("sizelnFeet") == "sizeInFeet"
    assert capital_i("Spec.lnfrastructureRef") == "Spec.InfrastructureRef"
    for kept in ("Single-machine", "ln(x)", "Glabron", "flushUnschedulableQLeftover", "mlp", "log_level", "Flipper", "leaf1"):
        assert capital_i(kept) == kept


def test_a_stroke_under_a_letter_is_no_part_of_it_when_sizing_scripts():
    """A participant's name with no box (PlantUML's stick-figure actor) has its lifeline's first dash right under
    it, inside the line's box: sized with it, the 'e' of 'User' set the line's base and 's', 'r' read as raised
    ('U^{s}e^{r}', the actor's messages lost). An 'i' keeps its dot: no script either way."""
    import numpy as np

    from crafteditor.ocr.scripts import find_shifts

    font = ImageFont.truetype(FONT, 14)

    def upright(word: str, under: int) -> tuple[np.ndarray, list[float]]:
        im = Image.new("L", (60, 22), 0)
        draw = ImageDraw.Draw(im)
        draw.text((2, 0), word, font=font, fill=255)
        x = 2 + font.getlength(word[:under]) + font.getlength(word[under]) / 2
        draw.line([(x, 15), (x, 21)], fill=255, width=1)  # a dash starting 2 px under the baseline
        centres = [2 + font.getlength(word[:k]) + font.getlength(word[k]) / 2 for k in range(len(word))]
        return (np.array(im) > 128).astype(np.uint8), centres

    for word, under in (("User", 2), ("Client", 3)):
        mask, centres = upright(word, under)
        assert find_shifts(word, centres, mask, 0) is None, word
    # an 'å' the recogniser reads 'a' keeps its body (its ring above is no body of its own): 'Visar', no 'Vis^{a}r'
    im = Image.new("L", (70, 22), 0)
    ImageDraw.Draw(im).text((2, 0), "Visår", font=font, fill=255)
    centres = [2 + font.getlength("Visår"[:k]) + font.getlength("Visår"[k]) / 2 for k in range(5)]
    assert find_shifts("Visar", centres, (np.array(im) > 128).astype(np.uint8), 0) is None


def test_an_acronyms_last_capital_i_read_as_l_is_mended_where_the_lexicon_knows_it():
    """'Cluster API Cluster Controller' read 'Cluster APl ...' lost every message of a cluster-api sequence diagram
    (edges 0.08): the name matched no participant. The I-form must be a known acronym and the l-form none."""
    from crafteditor.ocr.lexicon import capital_i, lexicon

    if not lexicon():
        pytest.skip("the brief encoder's vocabulary is not installed")
    assert capital_i("Cluster APl Cluster Controller") == "Cluster API Cluster Controller"
    assert capital_i("GUl") == "GUI"
    for kept in ("SQl", "HCl", "NaCl", "Al", "APls"):
        assert capital_i(kept) == kept


def test_a_changed_vocabulary_file_is_refused_by_name_and_nothing_is_doubted(tmp_path):
    """The lexicon is a bundled file: checked by sha256 at load, a different one gives a warning naming it."""
    from crafteditor.ocr.lexicon import words_of_vocab

    bad = tmp_path / "vocab.txt"
    with pytest.warns(UserWarning, match="vocab.txt: not the pinned vocabulary"):
        assert words_of_vocab(bad, b"returns\nzoo\n") == frozenset()


def test_a_tex_math_labels_greek_lead_letter():
    """A TikZ figure's math is set in TeX's Computer Modern: 'τ₁' and 'φ_a' came back 'T1' and 'Pa' (the
    recogniser has no class for τ or φ and reads its Latin look-alike). Their lead glyph is weighed
    against Computer Modern's Greek and Latin letters; Latin labels in the same face and in a sans stay
    Latin."""
    with matplotlib.rc_context({"mathtext.fontset": "cm"}):
        png = _figure([(0.08, 0.6, r"$\tau_1$", {}), (0.38, 0.6, r"$\varphi_a$", {}),
                       (0.68, 0.6, r"$p_1$", {}), (0.08, 0.15, r"$T_2$", {}),
                       (0.38, 0.15, "Pa", {}), (0.68, 0.15, "T1", {})])
    conv = convert(png, name="greek-leads.png")
    words = svg_words(conv.svg)
    for want in ("τ1", "φa", "p1", "t2", "pa", "t1"):  # (compared as the real-set score does: lower case)
        assert want in words, (want, words)


def test_a_tex_greek_letter_inside_a_line():
    """TeX's ρ inside a line ('Supply initial density guess ρ_ini(r)' on a Kohn-Sham flowchart) came back 'Pini(r)':
    the recogniser has no class for ρ. The glyph under the 'P' is weighed against Computer Modern's ρ and the
    Latin look-alikes; the p, o and t of a line in a sans face, and of the words the lexicon knows, stay Latin."""
    with matplotlib.rc_context({"mathtext.fontset": "cm"}):
        png = _figure([(0.05, 0.7, r"guess $\rho_{ini}(r)$ here", {"family": "serif"}),
                       (0.05, 0.25, "Supply top output", {}), (0.55, 0.25, r"$\alpha_t = \tau$", {})])
    conv = convert(png, name="greek-in-line.png")
    words = svg_words(conv.svg)
    assert any(w.startswith("ρ") for w in words), words
    for want in ("guess", "here", "supply", "top", "output"):  # (as the real-set score compares: lower case)
        assert want in words, (want, words)


def test_a_stack_of_scripts_is_kept_as_a_superscript_and_a_subscript():
    """TeX stacks a superscript over a subscript (W^k_1, a layer's h^ℓ_3): the recogniser read the stack as one
    glyph or none ('W', 'hg'). Its two parts are read apart and kept as raised and lowered tspans, the
    superscript first; a label with a subscript alone keeps it."""
    with matplotlib.rc_context({"mathtext.fontset": "cm"}):
        fig = plt.figure(figsize=(6, 2.4), dpi=150)
        fig.text(0.4, 0.6, r"$W^{k}_{1}$", fontsize=18)
        fig.text(0.08, 0.2, r"$y_1$", fontsize=18)
        buf = io.BytesIO()
        fig.savefig(buf, format="png")
        plt.close(fig)
    conv = convert(buf.getvalue(), name="stacked-scripts.png")
    words = svg_words(conv.svg)
    assert "wk1" in words and "y1" in words, words
    stacked = next(t for t in conv.svg.split("<text")[1:] if ">W<" in t)
    assert stacked.index('baseline-shift="super"') < stacked.index('baseline-shift="sub"'), stacked
