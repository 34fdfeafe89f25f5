"""Chart text: the figure's text measure, cached, and where a label's baseline sits."""

from __future__ import annotations

from functools import lru_cache

from crafter.base.text import text_width as _text_width

BASELINE_SHIFT = 0.35  # of the font size: baseline below a label's visual centre (DejaVu digits/caps)


@lru_cache(maxsize=8192)
def text_width(text: str, font_size: float, *, bold: bool = False) -> float:
    """The figure's text measure (DejaVu Sans advances), cached: tick and legend labels repeat."""
    return _text_width(text, font_size, bold=bold)
