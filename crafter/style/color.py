"""Colour distance for style learning: CIELAB and ΔE (CIE76, the Euclidean distance in L*a*b*).

A ΔE under about 2.3 is a just-noticeable difference; the learner treats colours within
:data:`SAME_COLOUR` as one colour (anti-aliasing and JPEG shift a fill by a few units).
"""

from __future__ import annotations

import math

from crafter.spec.colors import to_rgb

SAME_COLOUR = 5.0  # ΔE (CIE76): colours closer than this are one colour


def hex6(colour: str) -> str | None:
    """``#RRGGBB`` for any colour the FigureSpec holds (alpha dropped); None for 'none'."""
    if colour in (None, "none"):
        return None
    if colour.startswith("#") and len(colour) == 9:
        colour = colour[:7]
    r, g, b = to_rgb(colour)
    return "#{:02X}{:02X}{:02X}".format(round(r * 255), round(g * 255), round(b * 255))


def lab(colour: str) -> tuple[float, float, float]:
    """sRGB (D65) → CIELAB."""
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(c) for c in to_rgb(hex6(colour) or "#FFFFFF"))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(a: str, b: str) -> float:
    """ΔE (CIE76) between two colours."""
    return math.dist(lab(a), lab(b))
