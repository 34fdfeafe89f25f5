"""One 2-decimal number format for every writer: SVG, TikZ and draw.io print the same coordinate alike."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from crafter.base.markup import num
from crafter.formats.drawio.style import decimals

FINITE = st.floats(allow_nan=False, allow_infinity=False)


def rounded_then_trimmed(v: float) -> str:
    """The formula the TikZ and draw.io writers had before they used ``num``: round, then drop zeros."""
    r = round(v, 2)
    if r == int(r):
        return str(int(r))
    return f"{r:.2f}".rstrip("0")


@given(FINITE)
def test_num_is_the_tikz_and_drawio_format(v: float) -> None:
    assert num(v) == rounded_then_trimmed(v)


@given(FINITE)
def test_drawio_decimals_at_two_is_num(v: float) -> None:
    assert decimals(v, 2) == num(v)


def test_num_at_the_edges() -> None:
    for v, text in ((0.0, "0"), (-0.0, "0"), (-0.004, "0"), (0.005, "0.01"), (1.005, "1"), (2.675, "2.67"),
                    (0.125, "0.12"), (-1.5, "-1.5"), (10.10, "10.1"), (1e20, "100000000000000000000")):
        assert num(v) == text == rounded_then_trimmed(v), v
