"""User text → LaTeX: every special character escaped, Unicode mapped, the rest reported."""

from __future__ import annotations

import pytest

from crafter.formats.latex import escape_latex


@pytest.mark.parametrize("text, tex", [
    ("a & b", r"a \& b"),
    ("100%", r"100\%"),
    ("$5", r"\$5"),
    ("#1", r"\#1"),
    ("x_i", r"x\_i"),
    ("{y}", r"\{y\}"),
    ("~", r"\textasciitilde{}"),
    ("^", r"\textasciicircum{}"),
    ("\\", r"\textbackslash{}"),
    ("a < b > c | d", r"a \ensuremath{<} b \ensuremath{>} c \ensuremath{|} d"),
    ("κ ≥ 0.7", r"\ensuremath{\kappa} \ensuremath{\geq} 0.7"),
    ("ΔW × 2", r"\ensuremath{\Delta}W \ensuremath{\times} 2"),
    ("café", r"caf\'{e}"),
    ("naïve", r'na\"{\i}ve'),
    ("Straße", r"Stra\ss{}e"),
    ("1–2 — 3…", r"1--2 --- 3\ldots{}"),
    ("x²", r"x\textsuperscript{2}"),
    ("line\nbreak", r"line\\break"),
])
def test_escapes(text: str, tex: str) -> None:
    assert escape_latex(text) == tex


def test_output_is_ascii_and_dropped_characters_are_reported() -> None:
    dropped: list[str] = []
    out = escape_latex("emoji 🚀 and 中文", dropped=dropped)
    assert out == "emoji ? and ??"
    assert dropped == ["U+1F680", "U+4E2D", "U+6587"]
    assert out.isascii()


def test_no_user_text_can_close_a_group_or_start_a_command() -> None:
    out = escape_latex("}\\end{document}{")
    # every brace the user typed is escaped; the only live braces are in the commands we emit
    assert out == r"\}\textbackslash{}end\{document\}\{"
