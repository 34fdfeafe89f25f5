"""Text measurement and wrapping with the font the renderer ships (DejaVu Sans).

Layout sizes boxes with these numbers and the renderer breaks lines with the same
:func:`wrap`, so a label never overflows the box it was measured for. Widths come
from the TTF's advance widths (plus kerning-free approximation), cached per font.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from importlib import resources
from pathlib import Path

from fontTools.ttLib import TTFont

from crafter.spec.markup import SCRIPT_SCALE, has_markup, segments

FONT_DIR = Path(str(resources.files("crafter") / "assets" / "fonts"))
_FONT_FILES = {
    (False, False): "DejaVuSans.ttf",
    (True, False): "DejaVuSans-Bold.ttf",
    (False, True): "DejaVuSans-Oblique.ttf",
    (True, True): "DejaVuSans-BoldOblique.ttf",
}
# the font-family each font class (FigureSpec ``font``) is drawn with, first choice first
FONT_CLASS_FAMILIES = {
    "sans": "DejaVu Sans, Arial, Helvetica, sans-serif",
    "serif": "DejaVu Serif, Times New Roman, Times, serif",
    "mono": "DejaVu Sans Mono, Courier New, Courier, monospace",
}
ASCENT = 0.76  # of the font size: DejaVu's cap/ascender height used for baseline placement
DESCENT = 0.24


def font_path(bold: bool = False, italic: bool = False) -> Path:
    return FONT_DIR / _FONT_FILES[(bold, italic)]


@lru_cache(maxsize=4)
def _advances(bold: bool, italic: bool) -> tuple[dict[int, float], float]:
    """Advance width of each code point, in ems, and the fallback for unknown glyphs."""
    font = TTFont(str(font_path(bold, italic)), lazy=True)
    upem = font["head"].unitsPerEm
    hmtx = font["hmtx"].metrics
    cmap = font.getBestCmap()
    widths = {cp: hmtx[name][0] / upem for cp, name in cmap.items() if name in hmtx}
    fallback = widths.get(ord("M"), 0.8)
    return widths, fallback


def _char_width(ch: str, widths: dict[int, float], fallback: float) -> float:
    w = widths.get(ord(ch))
    if w is not None:
        return w
    if unicodedata.combining(ch):
        return 0.0
    # wide East Asian characters and emoji are roughly one em in whatever font supplies them
    if unicodedata.east_asian_width(ch) in ("W", "F") or ord(ch) >= 0x1F000:
        return 1.0
    return fallback


def text_width(text: str, font_size: float, *, bold: bool = False, italic: bool = False) -> float:
    """Width in px of one line of text."""
    widths, fallback = _advances(bold, italic)
    if has_markup(text):  # sub- and superscripts are drawn smaller, their braces not at all
        return sum(sum(_char_width(ch, widths, fallback) for ch in piece) * (SCRIPT_SCALE if shift else 1.0)
                   for piece, shift in segments(text)) * font_size
    return sum(_char_width(ch, widths, fallback) for ch in text) * font_size


def _glyph_units(word: str) -> list[str]:
    """A word's glyphs, each with the script spans after it (braces balanced: x_{a_{b}} is one unit)."""
    units, i = [], 0
    while i < len(word):
        j = i + 1
        while j + 1 < len(word) and word[j] in "_^" and word[j + 1] == "{":
            depth, k = 0, j + 1
            while k < len(word):
                depth += {"{": 1, "}": -1}.get(word[k], 0)
                k += 1
                if depth == 0:
                    break
            if depth:  # an unclosed brace: no script span
                break
            j = k
        units.append(word[i:j])
        i = j
    return units


def wrap(text: str, font_size: float, max_width: float, *, bold: bool = False, italic: bool = False) -> list[str]:
    """Break text into lines no wider than ``max_width`` (explicit newlines kept).

    Words longer than a line are split by character, so nothing ever overflows.
    """
    lines: list[str] = []
    for para in text.split("\n"):
        words = para.split(" ")
        current = ""
        for word in words:
            candidate = word if not current else f"{current} {word}"
            if text_width(candidate, font_size, bold=bold, italic=italic) <= max_width or not current and not word:
                current = candidate
                continue
            if current:
                lines.append(current)
            # a single word wider than the line: split it by character
            current = ""
            for ch in _glyph_units(word):  # a glyph keeps its sub/superscript: n_{4} is never 'n_{', '4}'
                if current and text_width(current + ch, font_size, bold=bold, italic=italic) > max_width:
                    lines.append(current)
                    current = ch
                else:
                    current += ch
        lines.append(current)
    return lines


def text_block_size(
    lines: list[str], font_size: float, line_height: float, *, bold: bool = False, italic: bool = False
) -> tuple[float, float]:
    """(width, height) of a block of lines."""
    w = max((text_width(line, font_size, bold=bold, italic=italic) for line in lines), default=0.0)
    h = font_size * line_height * max(len(lines), 1)
    return w, h


def levenshtein(a: str, b: str) -> int:
    """Edit distance between two strings: insertions, deletions and substitutions, one each."""
    if len(a) < len(b):
        a, b = b, a
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]
