"""Greek letters the recogniser has no class for, read from a lone glyph's shape.

rapidocr's vocabulary holds α β ε θ μ π Λ Ω but not σ λ γ δ τ ω η ρ χ Σ Γ: the σ of an
activation box (an LSTM's gates, a Mamba block) was dropped as unreadable (issue 31). A line
the detector found that holds one glyph the recogniser could not read (or read as a Latin
look-alike, unsure) is set beside each of these letters and a set of Latin
look-alikes in upright and italic faces (:mod:`crafteditor.ocr.font_class`'s fit: overlap less
aspect misfit); a Greek letter is taken where it fits well and clearly better than every
look-alike.
"""

from __future__ import annotations

import numpy as np

from crafteditor.ocr.font_class import fit, ink_box, load_face, template

# (not φ Φ ψ Ψ: a marker with an error bar through it is their shape)
GREEK = "σλγδτωηρχΣΓ"
LOOKALIKES = "oa0d6bpqeucnvyxhkrt8OQDCGXYVATFLE"  # (F L: a Γ's; E: a Σ's)
FACES = ("DejaVuSans.ttf", "DejaVuSans-Oblique.ttf", "DejaVuSerif.ttf", "DejaVuSerif-Italic.ttf",
         "STIXGeneral.ttf", "STIXGeneralItalic.ttf")
GOOD_FIT = 0.62  # the Greek letter's fit, at least
CLEAR = 0.08  # and its lead over the best look-alike
GREEK_SCORE = 0.9  # the confidence a letter read this way is given


def _best(ch: str, ink: np.ndarray) -> float:
    fits = [fit(ink, t) for t in (template(ch, f) for f in FACES if load_face(f) is not None) if t is not None]
    return max(fits) if fits else -1.0


def read_greek(mask: np.ndarray) -> str | None:
    """The Greek letter a lone glyph's mask is (None: none clearly, or under 8 px tall)."""
    ink = ink_box(mask)
    if ink is None or ink.shape[0] < 8:
        return None
    scores = {ch: _best(ch, ink) for ch in GREEK}
    letter = max(scores, key=lambda k: scores[k])
    if scores[letter] < GOOD_FIT:
        return None
    rival = max(_best(ch, ink) for ch in LOOKALIKES)
    return letter if scores[letter] >= rival + CLEAR else None
