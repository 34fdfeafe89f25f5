"""Sub- and superscripts read from the glyphs: smaller characters lowered or raised next to a word.

The recogniser reads 'T₁' as 'T1' and '10⁻³' as '10-3' (FIELD-NOTES: real figures, issue 31):
its line crops are scaled to one height and it has no notion of a baseline. Each character's
ink (the components under its centre) gives its own size and baseline against DejaVu Sans'
glyph extents; the line's size and baseline are those of its full-size characters, and a
character after them at most 0.82 of that size whose baseline sits 0.08 em or more below
the line's is a subscript, 0.2 em or more above it a superscript. The reading then carries
Crafter's markup (``T_{1}``, ``10^{-3}``, :mod:`crafter.spec.markup`).
"""

from __future__ import annotations

import re

import numpy as np

from crafteditor.ocr.corrections import Labelling, labelled
from crafteditor.ocr.font_metrics import ink_extent_em
from crafter.spec.markup import mark

SCRIPT_MAX = 0.82  # a script character's size, at most, of the line's
SUB_DROP = 0.08  # ems below the line's baseline
SUPER_RISE = 0.2  # ems above it
COMMA_DROP = 0.25  # ems below the baseline a 'comma' must hang to be a subscript t
SMALL_DIGIT = 0.7  # a digit at most this size of the line's, on its baseline, is a subscript too
_MINUS = re.compile(r"[-–](?=\d)")
_SCRIPTABLE = set("0123456789+-−–=()ijklmnpqrstuvwxyzabcdefghoTKNQ*′'")  # what figures raise or lower


def find_shifts(text: str, centres: list[float], upright: np.ndarray, pad: int, blobs: Labelling | None = None
                ) -> tuple[str, list[str], float, float] | None:
    """The reading (a subscript t read as a comma put right, a subscript zero read as an o), each
    character's shift ('', 'sub', 'super'), the line's font size and baseline (upright mask rows) from
    its full-size characters; None where no character is a script (or it cannot tell).

    The recogniser reads TeX's subscript zero as an 'o' (q_0, w_0 read 'qo', 'wo' in real TikZ Feynman
    diagrams and conformal maps): an 'o' after a letter is a zero where, sized as one, it is a subscript.
    Sized as an 'o' it is not (a lowered zero is as tall as the line's x-height), and an 'o' of a word,
    sized as a zero, stands on the baseline (it is not taken for a small inferior digit here: an x-height 'o'
    sized as a zero is as small as one)."""
    zeros = [i for i in range(1, len(text)) if text[i] in "oO" and text[i - 1].isalpha() and not text[i + 1:i + 2].isalpha()]
    if zeros:
        read = _shifts("".join("0" if i in zeros else ch for i, ch in enumerate(text)), centres, upright, pad,
                       zeros=zeros, blobs=blobs)
        if read is not None and all(read[1][i] == "sub" for i in zeros):
            return read
    return _shifts(text, centres, upright, pad, blobs=blobs)


def _shifts(text: str, centres: list[float], upright: np.ndarray, pad: int, zeros: list[int] | tuple[int, ...] = (),
            blobs: Labelling | None = None) -> tuple[str, list[str], float, float] | None:
    """:func:`find_shifts` of the reading as it stands; ``zeros``: the characters that were read 'o' (no small digit
    on the baseline is an inferior then, and these hang below the glyph before them too)."""
    if len(centres) != len(text) or len(text.replace(" ", "")) < 2:
        return None
    n, _, stats = labelled(upright, blobs)
    if n < 3:
        return None
    left, right = stats[1:n, 0], stats[1:n, 0] + stats[1:n, 2]

    def under(ch: str, cx: float) -> set[int]:
        for tol in (1, 2) if ch in ",." else (1,):  # the recogniser centres a comma's step loosely
            hit = np.flatnonzero((left - tol <= cx - pad) & (cx - pad <= right + tol))
            if hit.size:
                return set((hit + 1).tolist())
        return set()

    hits = [set() if ch.isspace() else under(ch, cx) for ch, cx in zip(text, centres)]
    for i in range(1, len(text)):  # a comma centred in the gap touches the letter before it too (C_t read 'C,')
        if text[i] in ",." and len(hits[i]) > 1 and hits[i] - hits[i - 1]:
            hits[i] = hits[i] - hits[i - 1]
    hits = [_without_ink_below(hit, stats) if ch.isascii() and ch.isalpha() else hit for ch, hit in zip(text, hits)]
    est: list[tuple[float, float] | None] = []  # per character: (font size, baseline row) from its own ink
    tall: dict[int, tuple[int, int]] = {}  # commas and dots after a letter: their ink rows
    for i, ch in enumerate(text):
        lo, hi = ink_extent_em(ch) if not ch.isspace() else (0.0, 0.0)
        hit = hits[i]
        # glyphs run together (a blurred 'ud') give no size of their own
        shared = (i > 0 and hit & hits[i - 1]) or (i + 1 < len(text) and hit & hits[i + 1])
        if ch in ",." and i > 0 and text[i - 1].isalnum() and hit and not shared:
            tall[i] = (min(stats[k, 1] for k in hit), max(stats[k, 1] + stats[k, 3] for k in hit))
        if ch.isspace() or not hit or shared or hi - lo < 0.3:  # dashes, dots: too flat to size
            est.append(None)
            continue
        top = min(stats[k, 1] for k in hit)
        bottom = max(stats[k, 1] + stats[k, 3] for k in hit)
        size = (bottom - top) / (hi - lo)
        est.append((size, bottom + lo * size))
    sizes = sorted(e[0] for e in est if e is not None)
    if len(sizes) < (1 if tall else 2):
        return None
    line_fs = float(np.median(sizes[len(sizes) // 2:]))  # the upper half: full-size characters
    main = [e for e in est if e is not None and e[0] >= SCRIPT_MAX * line_fs]
    if not main or line_fs < 6:
        return None
    base = float(np.median([e[1] for e in main]))
    shifts = [""] * len(text)
    chars = list(text)
    for i, (top, bottom) in tall.items():
        # a comma is 0.23 em tall and hangs 0.12 em below the baseline (0.15 with its rim); one a
        # third of an em tall hanging a quarter em below is a subscript letter the recogniser took
        # for one: in figures the time index t (C_t read 'C,'; real commas at 0.15 stayed commas
        # in 'Pluto, where' and '(threads, processes,')
        if bottom - top >= 0.32 * line_fs and bottom >= base + COMMA_DROP * line_fs:
            chars[i], shifts[i] = "t", "sub"
    text = "".join(chars)
    for i, (ch, e) in enumerate(zip(text, est)):
        if i == 0 or ch not in _SCRIPTABLE:
            continue
        prev = text[i - 1]
        if prev.isspace() or (shifts[i - 1] == "" and est[i - 1] is None and prev not in "-−–"):
            continue
        if e is None:  # a minus sign: raised with the digits after it
            if ch in "-−–" and i + 1 < len(text) and est[i + 1] is not None \
                    and est[i + 1][0] < SCRIPT_MAX * line_fs and est[i + 1][1] < base - SUPER_RISE * line_fs:
                shifts[i] = "super"
            continue
        size, b = e
        if size >= SCRIPT_MAX * line_fs:
            continue
        lowered = b > base + SUB_DROP * line_fs
        if i in zeros:
            # below the glyph before it and the line's baseline where it passes, too: the last 'o' of a word on a
            # slanted line (hand-drawn 'Demo' at 4°) sinks with its neighbours below the line's middle, where a
            # subscript zero hangs below its letter
            lowered = lowered and est[i - 1] is not None and b > est[i - 1][1] + SUB_DROP * line_fs \
                and b > _baseline_at(text, centres, est, line_fs, centres[i]) + SUB_DROP * line_fs
        if lowered:
            shifts[i] = "sub"
        elif b < base - SUPER_RISE * line_fs:
            shifts[i] = "super"
        elif not zeros and ch.isdigit() and size < SMALL_DIGIT * line_fs:
            # a digit this small standing on the baseline is an inferior (W₁ set in Unicode's
            # subscript digits); letters are not judged so (a Times x-height is 0.45 em)
            shifts[i] = "sub"
    for i in range(len(text) - 2, 0, -1):  # a dash between a script and the next: a minus in it (C_{t−1})
        if text[i] in "-−–" and not shifts[i] and shifts[i + 1] and shifts[i - 1] in ("", shifts[i + 1]):
            shifts[i] = shifts[i + 1]
    if not any(shifts):
        return None
    return text, shifts, line_fs, base


def _baseline_at(text: str, centres: list[float], est: list[tuple[float, float] | None], line_fs: float,
                 x: float) -> float:
    """The baseline row of a line's full-size characters (``est``: each one's size and baseline) at column ``x``:
    the line through them (least squares) where three or more tell its slant, else their median."""
    main = [(cx, e[1]) for ch, cx, e in zip(text, centres, est) if e is not None and e[0] >= SCRIPT_MAX * line_fs]
    xs, ys = np.array([m[0] for m in main], float), np.array([m[1] for m in main], float)
    if len(main) < 3 or np.ptp(xs) < line_fs:
        return float(np.median(ys))
    slope, at0 = np.polyfit(xs, ys, 1)
    return float(slope * x + at0)


def with_markup(text: str, spaced: str, shifts: list[str]) -> str:
    """``spaced`` (``text`` with word spaces put in) written in the markup, from ``text``'s shifts."""
    out: list[tuple[str, str]] = []
    k = 0
    for ch in spaced:
        while k < len(text) and text[k] != ch and text[k].isspace():
            k += 1
        shift = shifts[k] if k < len(text) and text[k] == ch else ""
        if k < len(text) and text[k] == ch:
            k += 1
        if out and out[-1][1] == shift:
            out[-1] = (out[-1][0] + ch, shift)
        else:
            out.append((ch, shift))
    # a dash raised or lowered before digits is a minus sign (10⁻³ read '10–3', C_{t−1})
    return "".join(mark(_MINUS.sub("−", piece) if shift else piece, shift) for piece, shift in out)


def _without_ink_below(hit: set[int], stats: np.ndarray) -> set[int]:
    """A letter's components (OpenCV stats labels) less any that stands wholly below its tallest past a blank row:
    no Latin letter has a piece under its body (an 'i' has its dot above, an 'å' read 'a' its ring), so it is a
    stroke the line's box took in under the letter: the first dash of a lifeline hanging from a sequence diagram's
    participant named with no box. Sized with it, the letter stood for the line's size and base, and the letters around it read
    as raised ('User' under PlantUML's stick-figure actor read 'U^{s}e^{r}', a cluster-api figure's messages
    from 'User' lost)."""
    if len(hit) < 2:
        return hit
    body = max(hit, key=lambda k: stats[k, 3])
    floor = stats[body, 1] + stats[body, 3]  # the bottom of the tallest piece (an accent over it stays: 'å' read 'a')
    low = {k for k in hit if stats[k, 1] > floor}
    return hit - low if low and len(low) < len(hit) else hit
