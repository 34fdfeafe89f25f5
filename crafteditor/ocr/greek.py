"""Greek letters the recogniser has no class for, read from a glyph's shape.

rapidocr's vocabulary holds α β ε θ μ π Λ Ω but not σ λ γ δ τ ω η ρ χ Σ Γ: the σ of an
activation box (an LSTM's gates, a Mamba block) was dropped as unreadable (issue 31). A line
the detector found that holds one glyph the recogniser could not read (or read as a Latin
look-alike, unsure) is set beside each of these letters and a set of Latin
look-alikes in upright and italic faces (:mod:`crafteditor.ocr.font_class`'s fit: overlap less
aspect misfit); a Greek letter is taken where it fits well and clearly better than every
look-alike. The faces include TeX's own (Computer Modern, as matplotlib ships it): a TikZ
figure's math is set in it, and its τ fitted a sans or Times T better than any τ of theirs.

A math label's lead letter is weighed the same way (:func:`greek_leads`): 'τ₁', 'φ_a' set by
LaTeX came back 'T1', 'Pa' (the recogniser reads a Greek letter it has no class for as its
nearest Latin one). So is a glyph inside a longer line read as a Greek letter's Latin look-alike
(:func:`greek_in_line`): TeX's ρ of 'ρ_ini(r)', 'E[ρ]' came back 'Pini(r)', 'E[p]'.
"""

from __future__ import annotations

import re
from dataclasses import replace

import numpy as np

from crafteditor.blobs import find_blobs
from crafteditor.ocr.font_class import fit, ink_box, load_face, template
from crafteditor.ocr.lexicon import lexicon
from crafteditor.ocr.math_letters import crop_ink, glyph_groups
from crafteditor.ocr.runs import TextRun

# (not φ Φ ψ Ψ: a marker with an error bar through it is their shape)
GREEK = "σλγδτωηρχΣΓ"
# a math label's lead letter may be φ too: a marker stands alone, with no subscript beside it
LEAD_GREEK = GREEK + "φ"
LOOKALIKES = "oa0d6bpqeucnvyxhkrt8OQDCGXYVATFLEPw"  # (F L: a Γ's; E: a Σ's; P: a φ's; w: an ω's)
FACES = ("DejaVuSans.ttf", "DejaVuSans-Oblique.ttf", "DejaVuSerif.ttf", "DejaVuSerif-Italic.ttf",
         "STIXGeneral.ttf", "STIXGeneralItalic.ttf")
# Computer Modern as matplotlib ships it (the BaKoMa fonts) keeps TeX's own character codes, not
# Unicode: each Greek letter's code in math italic (cmmi10) or roman (cmr10), from matplotlib's
# mathtext tables (``latex_to_bakoma``); both of TeX's phis (\phi, \varphi) are φ. Latin letters
# stand at their ASCII codes, italic in cmmi10 (digits in cmmi10 are old-style: cmr10's are used)
TEX_GREEK = {"σ": (("cmmi10.ttf", 190),), "λ": (("cmmi10.ttf", 184),), "γ": (("cmmi10.ttf", 176),),
             "δ": (("cmmi10.ttf", 177),), "τ": (("cmmi10.ttf", 191),), "ω": (("cmmi10.ttf", 33),),
             "η": (("cmmi10.ttf", 180),), "ρ": (("cmmi10.ttf", 189),), "χ": (("cmmi10.ttf", 194),),
             "φ": (("cmmi10.ttf", 193), ("cmmi10.ttf", 39)), "Σ": (("cmr10.ttf", 167),), "Γ": (("cmr10.ttf", 161),),
             "α": (("cmmi10.ttf", 174),), "μ": (("cmmi10.ttf", 185),), "ν": (("cmmi10.ttf", 186),),
             "ε": (("cmmi10.ttf", 34), ("cmmi10.ttf", 178)), "Δ": (("cmr10.ttf", 162),),
             "ℓ": (("cmmi10.ttf", 96),)}
GOOD_FIT = 0.62  # the Greek letter's fit, at least
CLEAR = 0.08  # and its lead over the best look-alike
# a math label's lead glyph, which the recogniser took for a letter, may fit less well where it leads
# by more: at 150 dpi a TikZ φ (13 px) fitted 0.57, its best look-alike 0.33
LEAD_FIT, LEAD_CLEAR = 0.5, 0.16
# a piece of ink is part of the lead glyph where this share of its width lies in the lead piece's columns
PART_INSIDE = 0.7
GREEK_SCORE = 0.9  # the confidence a letter read this way is given
MIN_HEIGHT = 8  # px: a glyph shorter than this is not told by its shape
# a glyph inside a line, read as the Latin look-alike of a Greek letter of TeX's math italic: the letter weighed there
# (the recogniser has classes for α μ ε, yet read TeX's as a u ∈; it has none for ρ σ τ ν ω)
IN_LINE = {"p": "ρ", "P": "ρ", "o": "σ", "t": "τ", "T": "τ", "r": "τ", "v": "ν", "V": "ν", "u": "μ", "a": "α", "e": "ε",
           "∈": "ε", "w": "ω", "A": "Δ", "△": "Δ"}
# the Greek letter's fit there, at least, and its lead over the reading and every look-alike: a 200 dpi TeX ρ
# fitted 0.71, its p 0.64; a sans p fits its own letter 0.9, a bold CM o fitted σ as well as o (0.64)
IN_LINE_FIT, IN_LINE_CLEAR = 0.65, 0.05
# px: a glyph inside a line shorter than this is not weighed (its shape too coarse to tell: an 11 px sans p, a 14 px
# matplotlib label's 'p(t)', '(ppm)', fitted TeX's ρ better than p; a TeX ρ under 17 px was told from p one time in 8)
IN_LINE_HEIGHT = 13
MATH_MARKS = "()[]{}=|"  # a word holding one of these is math


def _tex_templates(ch: str) -> list[np.ndarray | None]:
    if ch in TEX_GREEK:
        return [template(chr(code), face) for face, code in TEX_GREEK[ch] if load_face(face) is not None]
    faces = ("cmmi10.ttf", "cmr10.ttf") if ch.isascii() and ch.isalpha() else ("cmr10.ttf",)
    return [template(ch, face) for face in faces if load_face(face) is not None]


def _best(ch: str, ink: np.ndarray) -> float:
    tpls = [template(ch, f) for f in FACES if load_face(f) is not None] + _tex_templates(ch)
    fits = [fit(ink, t) for t in tpls if t is not None]
    return max(fits) if fits else -1.0


def read_greek(mask: np.ndarray, letters: str = GREEK, good_fit: float = GOOD_FIT, clear: float = CLEAR) -> str | None:
    """The Greek letter of ``letters`` a lone glyph's mask is: one that fits it ``good_fit`` at least and
    ``clear`` better than every look-alike (None: none, or the glyph under :data:`MIN_HEIGHT` px tall)."""
    ink = ink_box(mask)
    if ink is None or ink.shape[0] < MIN_HEIGHT:
        return None
    scores = {ch: _best(ch, ink) for ch in letters}
    letter = max(scores, key=lambda k: scores[k])
    if scores[letter] < good_fit:
        return None
    rival = max(_best(ch, ink) for ch in LOOKALIKES)
    return letter if scores[letter] >= rival + clear else None


def greek_leads(runs: list[TextRun]) -> list[TextRun]:
    """The runs with a math label's lead letter read as a Latin look-alike ('T1', 'Pa') made the Greek
    letter its glyph is, where it is clearly one (:func:`read_greek`). Only a math label's
    (:attr:`~crafteditor.ocr.runs.TextRun.math_label`: a variable's name and its scripts), and only a
    lead glyph that stands apart from the next: a word's first letter is no variable."""
    out = []
    for r in runs:
        lead = _lead_glyph(r) if r.math_label and r.text[0] in LOOKALIKES and len(r.text) >= 2 else None
        letter = None if lead is None else read_greek(lead, LEAD_GREEK, LEAD_FIT, LEAD_CLEAR)
        if letter is None:
            out.append(r)
            continue
        marked = r.marked
        if marked and marked[0] == r.text[0]:
            marked = letter + marked[1:]
        out.append(replace(r, text=letter + r.text[1:], marked=marked))
    return out


def _lead_glyph(r: TextRun) -> np.ndarray | None:
    """The mask of ``r``'s first glyph: its leftmost piece of ink with the pieces that lie mostly in its columns
    (a 150 dpi TeX φ's hairline loop breaks it in two, its arc starting left of the stem's middle), where every
    other piece starts past the glyph's middle (an italic τ's tail reaches over its subscript's first columns)."""
    n, labels, stats, _ = find_blobs(r.glyphs)
    if n < 3:
        return None
    order = sorted(range(1, n), key=lambda i: stats[i, 0])
    first = order[0]
    x0, x1 = stats[first, 0], stats[first, 0] + stats[first, 2]
    parts = [first] + [i for i in order[1:]
                       if min(x1, stats[i, 0] + stats[i, 2]) - stats[i, 0] >= PART_INSIDE * stats[i, 2]]
    rest = [i for i in order if i not in parts]
    middle = x0 + 0.5 * (max(stats[i, 0] + stats[i, 2] for i in parts) - x0)
    if not rest or any(stats[i, 0] < middle for i in rest):
        return None
    return np.isin(labels, parts)


def greek_in_line(text: str, centres: list[float], crop: np.ndarray) -> str:
    """``text`` with each character of :data:`IN_LINE` the glyph under it shows to be its Greek letter made that
    letter: the glyph stands alone under that character (``centres``: the characters' x centres in ``crop``, the
    recogniser's line crop), fits the Greek letter :data:`IN_LINE_FIT` at least and :data:`IN_LINE_CLEAR` better
    than the reading and every look-alike (:func:`read_greek`'s faces). Only a math word's letters are weighed
    (:func:`_math_word`): a small sans p fitted ρ as clearly as TeX's ρ did ('displ', 'bacillus_10p_5' on real
    charts), and the font class of a line of TeX's math, its letters misread, was sans as often as serif."""
    text = _epsilon_before_equals(text)
    if len(text) != len(centres) or not any(ch in IN_LINE for ch in text):
        return text
    chars = list(text)
    groups = None
    start = 0
    for word in text.split(" "):
        if _math_word(word):
            for i in range(start, start + len(word)):
                if chars[i] in IN_LINE:
                    groups = glyph_groups(crop_ink(crop)) if groups is None else groups
                    chars[i] = _greek_glyph(chars[i], centres[i], centres, groups) or chars[i]
        start += len(word) + 1
    return "".join(chars)


def _epsilon_before_equals(text: str) -> str:
    """``text`` with each '∈' an equals sign follows made 'ε': no relation stands on an equation's left, and TeX's
    \\epsilon (ϵ) is the membership sign's shape, smaller (janosh/diagrams' 'Legendre in ϵ = E/N' read '∈ =')."""
    return re.sub(r"∈(?= ?=)", "ε", text)


def _math_word(word: str) -> bool:
    """A word that is math: a function's argument or an index in brackets ('ρ(r)', 'E[ρ]'), or an equation's
    side, and no word the lexicon knows."""
    return any(ch in MATH_MARKS for ch in word) and word.strip(MATH_MARKS).lower() not in lexicon()


def _greek_glyph(read: str, centre: float, centres: list[float], groups: list[tuple[int, int, np.ndarray]]) -> str | None:
    """:data:`IN_LINE`'s Greek letter for ``read`` where the one glyph group under ``centre`` is clearly that
    letter and no other character's centre is nearer its middle than the neighbouring groups' (a ρ's tail
    reaches under its subscript's first centre); else None."""
    under = [k for k, g in enumerate(groups) if g[0] - 1 <= centre <= g[1] + 1]
    if len(under) != 1:
        return None
    k = under[0]
    x0, x1, glyph = groups[k]
    middles = [(g[0] + g[1]) / 2 for g in groups]
    if sum(x0 - 1 <= c <= x1 + 1 and min(range(len(groups)), key=lambda j: abs(middles[j] - c)) == k
           for c in centres) != 1:
        return None
    ink = ink_box(glyph)
    if ink is None or ink.shape[0] < IN_LINE_HEIGHT:
        return None
    letter = IN_LINE[read]
    score = _best(letter, ink)
    # the reading first, the look-alikes only where the letter beats it (a line's every 'o', 't', 'a' is weighed)
    if score < IN_LINE_FIT or score < _best(read, ink) + IN_LINE_CLEAR:
        return None
    return letter if score >= max(_best(ch, ink) for ch in LOOKALIKES) + IN_LINE_CLEAR else None
