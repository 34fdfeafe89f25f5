"""A dash of a vertical dashed line beside a lone math letter is no subscript of it: the dashes are
dropped from the lone-glyph pass's script pool as from its glyphs (review of math14: 'W' beside a
dashed line read 'W.'). The fixture (crops/README.md) is matplotlib's ``$x$``, ``$h$``, ``$W$``, ``$y$``
each set left of a ``dashes=(3, 3)`` vertical line."""

from __future__ import annotations

from pathlib import Path

from crafteditor.convert import convert

FIXTURE = Path(__file__).parent / "crops" / "math_letters_beside_dashed_lines.png"


def test_a_dash_beside_a_math_letter_is_no_script():
    texts = [r.text for r in convert(FIXTURE.read_bytes()).vectorized.texts]
    assert "W." not in texts, texts  # the dash at the W's foot had been taken as its subscript
    assert "h" in texts, texts  # what read already still does
