"""User text → LaTeX source that pdflatex typesets with no extra packages.

The output is pure ASCII: special characters become their LaTeX commands, accented
letters become accent commands (``é`` → ``\\'{e}``), Greek letters and mathematical
symbols go through ``\\ensuremath``, typographic punctuation through its text command.
That works in the default OT1 encoding with only the LaTeX kernel loaded, so the same
string is safe in a standalone file and in a user's own document, whatever fontenc or
inputenc it uses. A character with no mapping (emoji, CJK, …) is replaced by ``?`` and
reported, so the caller can leave a ``%`` comment saying what was dropped.
"""

from __future__ import annotations

import unicodedata

# The ten characters LaTeX treats specially, plus the ASCII ones OT1 has no glyph for.
_ASCII = {
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "%": r"\%", "#": r"\#",
    "_": r"\_", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    "<": r"\ensuremath{<}", ">": r"\ensuremath{>}", "|": r"\ensuremath{|}",
    '"': "''",  # OT1 has no straight double quote; a closing quote reads the same in a label
}

# Letters that are not "base letter + combining accent".
_LETTERS = {
    "ß": r"\ss{}", "æ": r"\ae{}", "Æ": r"\AE{}", "œ": r"\oe{}", "Œ": r"\OE{}", "ø": r"\o{}", "Ø": r"\O{}",
    "å": r"\aa{}", "Å": r"\AA{}", "ł": r"\l{}", "Ł": r"\L{}", "ı": r"\i{}", "ȷ": r"\j{}",
    "ð": "d", "Ð": "D", "þ": "th", "Þ": "Th", "đ": "d", "Đ": "D", "ħ": "h", "Ħ": "H",
}

# Combining accents → the LaTeX accent command that puts them on a letter.
_ACCENTS = {
    "\u0300": "`", "\u0301": "'", "\u0302": "^", "\u0303": "~", "\u0304": "=", "\u0306": "u", "\u0307": ".",
    "\u0308": '"', "\u030a": "r", "\u030b": "H", "\u030c": "v", "\u0327": "c", "\u0328": "k", "\u0323": "d",
    "\u0331": "b",
}

_GREEK = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "ϵ": "epsilon", "ζ": "zeta",
    "η": "eta", "θ": "theta", "ϑ": "vartheta", "ι": "iota", "κ": "kappa", "λ": "lambda", "μ": "mu", "ν": "nu",
    "ξ": "xi", "π": "pi", "ϖ": "varpi", "ρ": "rho", "ϱ": "varrho", "σ": "sigma", "ς": "varsigma", "τ": "tau",
    "υ": "upsilon", "φ": "phi", "ϕ": "phi", "χ": "chi", "ψ": "psi", "ω": "omega",
    "Γ": "Gamma", "Δ": "Delta", "Θ": "Theta", "Λ": "Lambda", "Ξ": "Xi", "Π": "Pi", "Σ": "Sigma",
    "Υ": "Upsilon", "Φ": "Phi", "Ψ": "Psi", "Ω": "Omega",
}
# Capital Greek letters that look like Latin ones have no TeX command.
_GREEK_LATIN = {"Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N",
                "Ο": "O", "Ρ": "P", "Τ": "T", "Χ": "X", "ο": "o"}

_MATH = {
    "×": r"\times", "÷": r"\div", "±": r"\pm", "∓": r"\mp", "·": r"\cdot", "∙": r"\cdot", "⋅": r"\cdot",
    "≤": r"\leq", "≥": r"\geq", "≠": r"\neq", "≈": r"\approx", "≃": r"\simeq", "≅": r"\cong", "≡": r"\equiv",
    "∼": r"\sim", "∝": r"\propto", "≪": r"\ll", "≫": r"\gg", "∞": r"\infty", "∂": r"\partial",
    "∇": r"\nabla", "∑": r"\sum", "∏": r"\prod", "∫": r"\int", "√": r"\surd", "∈": r"\in", "∉": r"\notin",
    "⊂": r"\subset", "⊆": r"\subseteq", "⊃": r"\supset", "∪": r"\cup", "∩": r"\cap", "∅": r"\emptyset",
    "∀": r"\forall", "∃": r"\exists", "¬": r"\neg", "∧": r"\wedge", "∨": r"\vee", "⊕": r"\oplus",
    "⊗": r"\otimes", "⊙": r"\odot", "∘": r"\circ", "°": r"^\circ", "′": r"\prime", "″": r"\prime\prime",
    "→": r"\rightarrow", "←": r"\leftarrow", "↔": r"\leftrightarrow", "⇒": r"\Rightarrow",
    "⇐": r"\Leftarrow", "⇔": r"\Leftrightarrow", "↑": r"\uparrow", "↓": r"\downarrow", "↦": r"\mapsto",
    "⟨": r"\langle", "⟩": r"\rangle", "‖": r"\|", "−": "-", "ℓ": r"\ell", "ℏ": r"\hbar", "ℵ": r"\aleph",
    "∗": "*", "★": r"\star", "⋆": r"\star", "†": r"\dagger", "‡": r"\ddagger", "µ": r"\mu",
    "∖": r"\setminus", "⊥": r"\perp", "∥": r"\parallel", "∠": r"\angle", "△": r"\triangle",
    "⌈": r"\lceil", "⌉": r"\rceil", "⌊": r"\lfloor", "⌋": r"\rfloor",
}

_TEXT = {
    "\u00a0": "~", "\u2009": r"\,", "\u202f": r"\,", "\u2002": r"\enspace{}", "\u2003": r"\quad{}",
    "\u200b": "", "\u200c": "", "\u200d": "", "\ufeff": "", "\u00ad": r"\-",
    "–": "--", "—": "---", "‐": "-", "‑": "-", "‒": "--", "…": r"\ldots{}",
    "‘": "`", "’": "'", "‚": ",", "“": "``", "”": "''", "„": ",,", "«": "<<", "»": ">>",
    "‹": "<", "›": ">", "•": r"\ensuremath{\bullet}", "§": r"\S{}", "¶": r"\P{}", "©": r"\copyright{}",
    "®": r"(R)", "™": r"(TM)", "£": r"\pounds{}", "€": "EUR", "¥": "JPY", "¢": "c",
    "¡": "!`", "¿": "?`", "ª": r"\textsuperscript{a}", "º": r"\textsuperscript{o}",
    "½": r"\ensuremath{\frac12}", "¼": r"\ensuremath{\frac14}", "¾": r"\ensuremath{\frac34}",
    "ℝ": r"\ensuremath{\mathbf{R}}", "ℕ": r"\ensuremath{\mathbf{N}}", "ℤ": r"\ensuremath{\mathbf{Z}}",
    "ℚ": r"\ensuremath{\mathbf{Q}}", "ℂ": r"\ensuremath{\mathbf{C}}", "✓": r"\ensuremath{\surd}",
}
_SUPERSCRIPTS = {"⁰": "0", "¹": "1", "²": "2", "³": "3", "⁴": "4", "⁵": "5", "⁶": "6", "⁷": "7", "⁸": "8",
                 "⁹": "9", "⁺": "+", "⁻": "-", "ⁿ": "n", "ⁱ": "i"}
_SUBSCRIPTS = {"₀": "0", "₁": "1", "₂": "2", "₃": "3", "₄": "4", "₅": "5", "₆": "6", "₇": "7", "₈": "8",
               "₉": "9", "₊": "+", "₋": "-", "ₐ": "a", "ₑ": "e", "ₒ": "o", "ₓ": "x", "ₜ": "t", "ᵢ": "i",
               "ⱼ": "j", "ₖ": "k", "ₙ": "n"}


def escape_latex(text: str, *, dropped: list[str] | None = None, newline: str = r"\\") -> str:
    """``text`` as LaTeX source (ASCII only). Line breaks become ``newline``.

    Characters that cannot be typeset are replaced by ``?`` and appended to ``dropped``
    as ``U+XXXX`` names, so the caller can say so in a comment.
    """
    out: list[str] = []
    for ch in text:
        out.append(_char(ch, dropped, newline))
    return "".join(out)


def _char(ch: str, dropped: list[str] | None, newline: str) -> str:
    if ch == "\n":
        return newline
    if ch in "\t\r\f\v":
        return " "
    if ch in _ASCII:
        return _ASCII[ch]
    if " " <= ch <= "~":
        return ch
    for table in (_TEXT, _LETTERS, _GREEK_LATIN):
        if ch in table:
            return table[ch]
    if ch in _GREEK:
        return rf"\ensuremath{{\{_GREEK[ch]}}}"
    if ch in _MATH:
        return rf"\ensuremath{{{_MATH[ch]}}}"
    if ch in _SUPERSCRIPTS:
        return rf"\textsuperscript{{{_SUPERSCRIPTS[ch]}}}"
    if ch in _SUBSCRIPTS:
        return rf"\ensuremath{{_{{\mathrm{{{_SUBSCRIPTS[ch]}}}}}}}"
    accented = _accented(ch)
    if accented is not None:
        return accented
    if unicodedata.category(ch) in ("Mn", "Me", "Cc", "Cf"):
        return ""  # a stray combining mark or control character: nothing to typeset
    if unicodedata.category(ch) == "Zs":
        return " "
    if dropped is not None:
        dropped.append(f"U+{ord(ch):04X}")
    return "?"


def _accented(ch: str) -> str | None:
    """'é' → \\'{e}, 'ǘ' → \\'{\\"{u}}: NFD decomposition into a base and accents TeX knows."""
    parts = unicodedata.normalize("NFD", ch)
    if len(parts) < 2:
        # compatibility forms: 'ﬁ' → 'fi', full-width 'Ａ' → 'A'
        compat = unicodedata.normalize("NFKC", ch)
        if compat != ch and all(" " <= c <= "~" for c in compat):
            return "".join(_ASCII.get(c, c) for c in compat)
        return None
    base, marks = parts[0], parts[1:]
    if not (" " <= base <= "~") or any(m not in _ACCENTS for m in marks):
        return None
    # i and j lose their dot under an accent above
    out = {"i": r"\i", "j": r"\j"}.get(base, base) if marks[0] not in ("\u0327", "\u0328", "\u0323", "\u0331") else base
    for m in marks:
        cmd = _ACCENTS[m]
        out = rf"\{cmd}{{{out}}}"
    return out
