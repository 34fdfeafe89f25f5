"""Math accents over letters: a hat, a tilde, a bar or a vector arrow, read apart from their letter.

The recogniser never saw TeX's math accents: ``\\vec{x}_{real}`` in a TikZ figure came back as
'Ereal', ``\\vec{x}`` alone as '18', ``G(\\vec{x})`` as 'G(z)' (the janosh/diagrams GAN; issue 31):
the accent sat on the letter as part of one glyph it had no class for. An accent is a flat mark
of its own, over a taller glyph with a gap between them, in the top of the line: it is painted
out of the line's crop, the crop read again, and the accent put back on the letter under it as a
combining mark where the letter has a precomposed form ('ŷ', 'ñ', 'ā'; an arrow or a hat over a
letter without one is dropped, as :mod:`crafteditor.ocr.math_letters` drops a hat: the word is
compared on its letters).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

import cv2
import numpy as np

from crafteditor.blobs import find_blobs
from crafteditor.ocr.math_letters import crop_ink, italic_letter, read_math_lead

HAT, TILDE, BAR, ARROW = "\u0302", "\u0303", "\u0304", "\u20d7"
MAX_HEIGHT = 0.3  # an accent's height, at most, of the line's inked height
FLAT = 1.5  # its width, at least, over its height
TOP = 0.45  # its bottom lies in this top share of the line's inked height
MIN_INK = 3  # pixels: less is a speck
OVER = 0.5  # of the narrower of accent and glyph, overlapping in x
TALLER = 1.5  # the glyph under it is this much taller than the accent
RE_READ_LOSS = 0.15  # the reading without the accents is kept unless it is this much less sure
WIDE = 0.25  # an accent's width, at least, of the line's inked height (an i's dot is narrower)
DOTTED = "ijìíîïĳ!?;:"  # letters and marks whose dot sits where an accent would
STEM = 0.5  # a glyph narrower than this share of its height is a stem (an i or j under its dot)
SPAN = 2.0  # an accent is at most this many times as wide as the widest glyph under it
MAX_LINE = 12  # characters: a math label, not prose (where an i's dot or a stray mark is no accent)


@dataclass(frozen=True)
class Accent:
    x0: int  # columns of the crop it spans
    x1: int
    mark: str  # the combining character (HAT, TILDE, BAR, ARROW)
    mask: np.ndarray  # its pixels in the crop
    letter: np.ndarray | None = None  # the pixels of the glyph under it


def find_accents(crop: np.ndarray) -> list[Accent]:
    """The accents over letters in a BGR line crop: flat marks in the line's top, each over a taller
    glyph with a gap between (not the upper bar of an '=', which sits mid-line; not an i's dot,
    which is no wider than tall; not a superscript minus, which has no glyph under it)."""
    ink = crop_ink(crop)
    n, labels, stats, _ = find_blobs(ink)
    if n < 3:
        return []
    rows = np.flatnonzero(ink.any(axis=1))
    top, height = int(rows[0]), int(rows[-1] - rows[0] + 1)
    out = []
    for i in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[i, :5])
        if area < MIN_INK or h > MAX_HEIGHT * height or w < FLAT * h or w < WIDE * height or y + h > top + TOP * height:
            continue
        under = [k for k in range(1, n) if k != i and stats[k, 1] >= y + h and stats[k, 3] >= TALLER * h
                 and min(x + w, stats[k, 0] + stats[k, 2]) - max(x, stats[k, 0]) >= OVER * min(w, stats[k, 2])]
        # over a narrow stem it is an i's or j's dot ('Circle' read again undotted was 'Clrcle'); a
        # letter under an accent is wider (the recogniser reads ŷ as 'j': its glyph is no stem)
        # an accent spans its letter, not a word: a rule or a frame's side just over a label is no accent
        if under and max(stats[k, 2] / stats[k, 3] for k in under) >= STEM \
                and w <= SPAN * max(stats[k, 2] for k in under):
            mask = labels == i
            # the letter: the largest glyph under it, with the specks a thin hairline broke off it
            # inside its span (a 200 dpi italic x's hooks)
            k = max(under, key=lambda q: stats[q, 4])
            lx0, lx1 = stats[k, 0] - 1, stats[k, 0] + stats[k, 2] + 1
            parts = [q for q in range(1, n) if q != i and stats[q, 1] >= y + h and lx0 <= stats[q, 0]
                     and stats[q, 0] + stats[q, 2] <= lx1]
            out.append(Accent(x, x + w, _kind(mask[y:y + h, x:x + w]), mask, np.isin(labels, parts)))
    return out


def _kind(mark: np.ndarray) -> str:
    """Which accent a mark's shape is: an arrow's head makes its right end taller than its middle;
    a hat peaks in its middle; a tilde's top rises on one side and falls on the other; else a bar."""
    h, w = mark.shape
    heights = mark.sum(axis=0)
    tops = np.array([np.flatnonzero(mark[:, c])[0] if mark[:, c].any() else h for c in range(w)])
    k = max(1, w // 5)
    middle = tops[w // 3:w - w // 3]
    if h >= 3 and heights[-k:].max() >= 2 * max(1, np.median(heights[k:-k] if w > 2 * k else heights)):
        return ARROW
    if middle.size and middle.min() < min(tops[:k].min(), tops[-k:].min()) - 0.25 * h:
        return HAT
    if h >= 3 and tops[:w // 2].min() < tops[:w // 2].max() and tops[w // 2:].min() < tops[w // 2:].max() \
            and abs(int(np.argmin(tops[:w // 2])) - int(np.argmin(tops[w // 2:])) - w // 2) > w // 4:
        return TILDE
    return BAR


def without_accents(crop: np.ndarray, accents: list[Accent]) -> np.ndarray:
    """The crop with its accents painted in its border's colour (their anti-aliased rims too)."""
    out = crop.copy()
    border = np.concatenate([crop[0], crop[-1], crop[:, 0], crop[:, -1]])
    for a in accents:
        rim = cv2.dilate(a.mask.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
        out[rim] = np.median(border, axis=0)
    return out


def put_back(text: str, centres: list[float], accents: list[Accent]) -> str:
    """``text`` with each accent on the letter whose centre lies under it, where that letter has a
    precomposed accented form (NFC: 'y' and a hat make 'ŷ')."""
    chars = list(text)
    for a in accents:
        i = _under(a, centres)
        if i is None or not chars[i].isalpha() or chars[i] in DOTTED + "ıȷ":  # (an i's own dot)
            continue
        accented = unicodedata.normalize("NFC", chars[i] + a.mark)
        if len(accented) == 1:
            chars[i] = accented
    return "".join(chars)


def _under(a: Accent, centres: list[float]) -> int | None:
    """The character under an accent: the one whose centre is nearest the accent's middle, within
    the accent's width of it (the recogniser's centres are a few pixels off)."""
    if not centres:
        return None
    mid = (a.x0 + a.x1) / 2
    i = min(range(len(centres)), key=lambda k: abs(centres[k] - mid))
    return i if abs(centres[i] - mid) <= a.x1 - a.x0 else None


def over_lead(accents: list[Accent], centres: list[float]) -> bool:
    """An accent stands over the line's first character (a math label's lead letter)."""
    return any(_under(a, centres) == 0 for a in accents)


def read_accented(text: str, conf: float, centres: list[float], crop: np.ndarray, reread
                  ) -> tuple[str, float, list[float], np.ndarray, list[Accent]]:
    """The line read again without its accents: (text, confidence, centres, the crop without them,
    the accents); the first reading where the line has none, or the new one reads nothing or is
    much less sure. ``reread``: the recogniser, a crop in, (text, confidence, centres) out."""
    # (a number wears no accent: a mark over Altair's '82.3' read again as '8ẑ.3')
    # (two digits alone may be a misread lone x⃗: '18')
    number = any(ch in ".,%" for ch in text) and all(ch.isdigit() or ch in ".,%+-−" for ch in text.strip())
    accents = find_accents(crop) if len(text.strip()) <= MAX_LINE and not number else []
    if not accents:
        return text, conf, centres, crop, []
    plain = without_accents(crop, accents)
    again, again_conf, again_centres = reread(plain)
    if not again.strip() or again_conf < conf - RE_READ_LOSS or len(again) != len(again_centres):
        return text, conf, centres, crop, []
    return again, again_conf, again_centres, plain, accents


def read_math(text: str, conf: float, centres: list[float], crop: np.ndarray, reread
              ) -> tuple[str, float, list[float]]:
    """A line's reading with its math put right: read again without its accents
    (:func:`read_accented`), then :func:`with_math`. ``reread`` as for :func:`read_accented`."""
    text, conf, centres, plain, accents = read_accented(text, conf, centres, crop, reread)
    text, centres = with_math(text, conf, centres, plain, accents)
    return text, conf, centres


def with_math(text: str, conf: float, centres: list[float], plain: np.ndarray, accents: list[Accent]
              ) -> tuple[str, list[float]]:
    """A reading of the crop ``plain`` (its ``accents`` painted out) with its lead letter read as a
    math italic (:func:`~crafteditor.ocr.math_letters.read_math_lead`) and its accents put back."""
    text, centres = read_math_lead(text, conf, centres, plain, accented=over_lead(accents, centres))
    chars = list(text)
    for a in accents:  # a letter under an accent is a math letter, wherever it stands ('a(c)' for a(x⃗))
        i = _under(a, centres)
        if i is not None and i > 0 and a.letter is not None and chars[i].isalpha():
            chars[i] = italic_letter(a.letter, chars[i]) or chars[i]
    return put_back("".join(chars), centres, accents), centres
