"""A recogniser's reading corrected from the glyphs' own ink (FIELD-NOTES: "Accuracybymodel").

Word spaces the recogniser dropped, from the ink gaps; hyphen, en dash, minus and em dash told
apart by the width of the bar (the recogniser only knows '-' and '—'); the case of c o s v w x z
from the glyph's height; a zero read as the letter O; symbols the recogniser has no class for
(Δ, ∇, κ); an e read as c; a middle dot read as a full stop; a quote mark at a line's end
that is an axis tick; ink beyond the first and last character (an arrowhead inside the
detector's box).
"""

from __future__ import annotations

import bisect
import math
import re
from typing import Callable

import cv2
import numpy as np

from crafteditor.blobs import find_blobs, longest_gap
from crafteditor.ocr.text_lines import TextLine

QUOTES = "'`‘’"
BARS = "lI|1ij"  # what a stroke's stub beside a word is read as


def _under(cx: float, n: int, stats: np.ndarray, min_h: float = 0) -> list[int]:
    """The components (OpenCV stats labels) whose columns span ``cx`` (±1 px), at least ``min_h`` tall."""
    x, w, h = stats[1:n, 0], stats[1:n, 2], stats[1:n, 3]
    return (np.flatnonzero((x - 1 <= cx) & (cx <= x + w + 1) & (h >= min_h)) + 1).tolist()


Labelling = Callable[[], tuple[int, np.ndarray, np.ndarray, np.ndarray]]  # find_blobs of a line's upright mask, on call


def labelled(upright: np.ndarray, blobs: Labelling | None) -> tuple[int, np.ndarray, np.ndarray]:
    """(count, labels, stats) of ``upright``'s components: from ``blobs`` where given (:func:`make_run
    <crafteditor.ocr.runs.make_run>` labels a line's mask once, on the first pass that asks, for all its passes;
    the arrays are only read), else found here."""
    return (find_blobs(upright) if blobs is None else blobs())[:3]


def lone_glyph(i: int, centres: list[float], pad: int, blobs: tuple[int, np.ndarray, np.ndarray], min_h: float,
               margin: int) -> np.ndarray | None:
    """The i-th character's glyph (a bool mask over its box): the one component at least ``min_h`` tall under its
    centre (``centres`` in crop pixels, ``pad`` columns into the crop; ``blobs`` the line mask's labels, as
    :func:`~crafteditor.blobs.find_blobs` gives them), no neighbour's centre over it (its box widened by ``margin``
    px each side); None where there is no such glyph."""
    n, lab, stats = blobs
    hit = _under(centres[i] - pad, n, stats, min_h)
    if len(hit) != 1:
        return None
    x, y, w, h, _ = stats[hit[0]]
    if any(x - margin <= centres[j] - pad <= x + w + margin for j in (i - 1, i + 1) if 0 <= j < len(centres)):
        return None
    return lab[y:y + h, x:x + w] == hit[0]


def drop_stray_quote(text: str, centres: list[float], crop: np.ndarray,
                     line: TextLine) -> tuple[str, list[float], TextLine]:
    """A quote mark read at a line's end whose ink is no quote mark: an axis tick beside a
    category label ('ResNet '' for 'ResNet' and the stub of the tick by the frame); or a bar
    ('l', '|') read at a word's end whose ink is a stub at the line's top or bottom. A quote's
    glyph is taller than wide, a fifth of an em or more, and starts in the line's top third; a
    tick is a level bar or a stub in the middle. The character, its centre and its ink are
    dropped (the ink would be erased with the text)."""
    if len(text) < 3 or len(centres) != len(text):
        return text, centres, line
    pad = (crop.shape[0] - line.mask.shape[0]) // 2
    n, lab, stats, _ = find_blobs(line.mask)
    for i in (len(text) - 1, 0):
        bar = text[i] in BARS and text[1:-1].isalpha() and len(text) >= 5
        if text[i] not in QUOTES and not bar:
            continue
        hit = _under(centres[i] - pad, n, stats)
        if len(hit) != 1:
            continue
        _x, y, w, h, _a = stats[hit[0]]
        lh = line.mask.shape[0]  # about an em
        if bar:
            # a letter's stem stands most of the line's height; a box's corner or side cut off by
            # the detector's box is a stub at its top or bottom ('challengel', 'Ingress|'; issue 31)
            if h >= 0.4 * lh or not (y <= 0 or y + h >= lh):
                continue
        elif w < h and h >= 0.2 * lh and y <= 0.3 * lh:  # a quote mark's ink
            continue
        mask = line.mask & (lab != hit[0])
        xs = np.flatnonzero(mask.any(axis=0))
        if xs.size == 0:
            continue
        x0, x1 = int(xs[0]), int(xs[-1]) + 1
        j = i - 1 if i else 1  # a space that set it apart goes with it
        keep = [k for k in range(len(text)) if k != i and not (k == j and text[j] == " ")]
        # only columns are cut (the rows, and so the crop's padding above the ink, stay): the
        # centres, in crop pixels, move by the columns cut on the left
        line = TextLine(mask[:, x0:x1], line.y0, line.x0 + x0, line.vertical)
        return "".join(text[k] for k in keep), [centres[k] - x0 for k in keep], line
    return text, centres, line


def trim_to_text(line: TextLine, centres: list[float], crop: np.ndarray, text: str) -> TextLine | None:
    """Drop ink the recogniser did not read: an arrowhead or stroke end inside the detector's
    box lies beyond the first or last character (and must not be erased with the text)."""
    mask = line.mask
    lh, lw = mask.shape
    pad = (crop.shape[0] - lh) // 2
    em = lh  # the line's ink height: about one em for mixed text
    lo = centres[0] - pad - 0.9 * em
    hi = centres[-1] - pad + 0.9 * em
    n, lab, stats, _ = find_blobs(mask)
    keep = np.zeros(n, bool)
    for i in range(1, n):
        x, _, w, _, _ = stats[i]
        keep[i] = x + w > lo and x < hi
    trimmed = keep[lab]
    if not trimmed.any():
        return None
    if trimmed.sum() == mask.sum():
        return line
    ys, xs = np.nonzero(trimmed)
    y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    return TextLine(trimmed[y0:y1, x0:x1], line.y0 + int(y0), line.x0 + int(x0), line.vertical)


def restore_spaces(text: str, centres: list[float], upright: np.ndarray, pad: int, font_px: float,
                   ink: np.ndarray | None = None) -> str:
    """Insert the word spaces the recogniser dropped, where the ink has a word-sized gap; ``ink``:
    all the ink over the line's box, the glyphs' and any other (a point too small for a glyph)."""
    if len(text) < 2 or len(centres) != len(text):
        return text
    cols = upright.any(axis=0)
    all_cols = cols if ink is None or ink.shape != upright.shape else ink.any(axis=0) | cols
    # letters sit ≤ 0.2 em apart (i–n in DejaVu); a word space is ~0.32 em plus bearings
    threshold = max(2.0, 0.27 * font_px)
    # digits take one advance each, however narrow their ink: between two digits, and a '1' beside a capital,
    # the gap of a number's own glyphs passed the word gap ('1 00', 'GM 1 2878_R1', 'K5 62_R1', 'bf1 6'
    # on 7 dev figures, issue 31); numbers a line holds apart (tick labels '450 500') stand an em apart
    numeric = max(2.0, 0.5 * font_px)
    out = [text[0]]
    for i in range(1, len(text)):
        a = centres[i - 1] - pad
        b = centres[i] - pad
        if text[i] != " " and text[i - 1] != " " and b > a:
            lo, hi = max(0, int(a)), min(len(cols), int(math.ceil(b)))
            run = longest_gap(cols[lo:hi])
            pair = text[i - 1] + text[i]
            # (a lower-case letter and a '1' keep the word gap: 'Stage 1' read 'Stage1'; and so does a
            # gap with ink in it between two glyphs' halves: a decimal point the recogniser dropped, whose
            # space the charts' spaced_decimal reads back as the point: '2 5' for 2.5)
            tight = (pair.isdigit() or ("1" in pair and not any(ch.islower() for ch in pair))) \
                and _ink_pieces(all_cols[lo:hi]) <= 2
            if run >= (numeric if tight else threshold):
                out.append(" ")
        out.append(text[i])
    return "".join(out)


def _ink_pieces(cols: np.ndarray) -> int:
    """How many runs of inked columns ``cols`` holds."""
    c = cols.astype(np.int8)
    return int(np.count_nonzero(np.diff(np.concatenate(([0], c))) == 1))


# Ink widths of the dashes in DejaVu Sans (em): hyphen 0.26, en dash 0.40, minus 0.63, em dash
# 0.90. The recogniser knows only '-' and '—', so '1–2' came back as '1-2' (FIELD-NOTES font).
_DASHES = ((0.33, "-"), (0.52, "–"), (0.78, "−"), (math.inf, "—"))


def _per_glyph(text: str, centres: list[float], upright: np.ndarray, pad: int, font_px: float, chars: str,
               fix, blobs: Labelling | None = None) -> str:
    """``text`` with each character in ``chars`` replaced by ``fix(ch, cx, components, font_px)``
    where that returns one: cx is the character's centre in the upright line mask, components
    are OpenCV's (n, labels, stats) of the mask."""
    if len(centres) != len(text) or not any(ch in chars for ch in text) or font_px < 6:
        return text
    comps = labelled(upright, blobs)
    out = list(text)
    for i, ch in enumerate(text):
        if ch in chars:
            out[i] = fix(ch, centres[i] - pad, comps, font_px) or ch
    return "".join(out)


def restore_dashes(text: str, centres: list[float], upright: np.ndarray, pad: int, font_px: float,
                   blobs: Labelling | None = None) -> str:
    """Tell hyphen, en dash, minus and em dash apart by the width of the bar's ink."""
    return _per_glyph(text, centres, upright, pad, font_px, "-–—−", _dash, blobs)


def _dash(ch: str, cx: float, comps, font_px: float) -> str | None:
    n, _, stats = comps
    best = None
    for k in range(1, n):
        x, _, w, h, _ = stats[k]
        # a dash is a flat bar under the character's centre
        if x - 1 <= cx <= x + w + 1 and h <= 0.2 * font_px + 2 and w >= h and (best is None or w > best):
            best = w
    if best is None:
        return None
    em = (best - 0.6) / font_px  # the mask's anti-aliased rim adds about half a pixel
    return next(d for limit, d in _DASHES if em < limit)


SCRIPT_GAP = 0.65  # em: a dropped dash's neighbours stand at most this far apart, twice where no space was read
_SAME_SHAPE = "cosvwxzCOSVWXZ"  # letters whose two cases differ only in size
_TALL = "ABDEFGHIJKLMNPQRTUY0123456789bdfhkl"  # cap or ascender height, whatever the reading
_SHORT = "aemnru"  # x-height


def restore_case(text: str, centres: list[float], upright: np.ndarray, pad: int, blobs: Labelling | None = None) -> str:
    """The case of c, o, s, v, w, x, z from the glyph's height against the line's own letters:
    as tall as its capitals, upper; as short as its x-height letters, lower (a 100 dpi 'ViT'
    read 'viT'). Needs letters of known height in the same line to compare with."""
    if len(centres) != len(text) or not any(ch in _SAME_SHAPE for ch in text):
        return text
    n, _, stats = labelled(upright, blobs)

    # a glyph's own component: one holding no other letter's centre (italic 'ts' touch: that
    # 's' is as tall as its 't', and had read 'gradientS')
    xs = [c - pad for c in centres]
    letters = sorted(x for x, ch in zip(xs, text) if ch != " ")  # the other letters' centres, counted by bisection

    def rows(i: int) -> tuple[int, int] | None:  # the glyph's top row and height
        hit = _under(xs[i], n, stats, 3)
        if len(hit) != 1:
            return None
        x0, x1 = stats[hit[0], 0] + 1, stats[hit[0], 0] + stats[hit[0], 2] - 1
        inside = bisect.bisect_right(letters, x1) - bisect.bisect_left(letters, x0)
        if inside > (1 if text[i] != " " and x0 <= xs[i] <= x1 else 0):
            return None
        return int(stats[hit[0], 1]), int(stats[hit[0], 3])

    boxes = [rows(i) for i in range(len(centres))]
    heights = [b[1] if b else None for b in boxes]

    def lowered(i: int) -> bool:
        # a digit whose top and foot both hang below the glyph before it: a subscript (z₁'s 1 is no cap height:
        # it had read 'Z1'), where a label's digits stand level with its capitals
        if i == 0 or boxes[i] is None or boxes[i - 1] is None:
            return False
        (t0, h0), (t1, h1) = boxes[i - 1], boxes[i]
        drop = max(1.0, 0.12 * h1)
        return t1 - t0 >= drop and t1 + h1 - (t0 + h0) >= drop

    tall = [h for i, (ch, h) in enumerate(zip(text, heights)) if ch in _TALL and h and not (ch.isdigit() and lowered(i))]
    short = [h for ch, h in zip(text, heights) if ch in _SHORT and h]
    cap = float(np.median(tall)) if tall else None
    xh = float(np.median(short)) if short else None
    if cap is None or (xh is not None and xh >= 0.85 * cap):
        return text  # nothing tall to compare with, or no telling x-height from cap height
    out = list(text)
    for i, (ch, h) in enumerate(zip(text, heights)):
        if ch not in _SAME_SHAPE or not h:
            continue
        if h >= 0.88 * cap:
            out[i] = ch.upper()
        elif h <= (1.12 * xh if xh is not None else 0.8 * cap):
            out[i] = ch.lower()
    return "".join(out)


def restore_symbols(text: str, centres: list[float], upright: np.ndarray, pad: int, font_px: float,
                    blobs: Labelling | None = None) -> str:
    """Mathematical symbols the recogniser has no class for, read back from their glyph.

    Its vocabulary lacks Δ, ∇ and κ (it has △, the white triangle, V and K): 'ΔW = BA' read
    '△W = BA', '∇ loss' 'V loss', 'κ ≥ 0.7' 'K ≥ 0.7'. A K or k no taller than an x is κ,
    unless a Latin letter stands next to it: a word's K in a hand-lettered face is as short
    ('Kubeadm' came back 'κubeadm', issue 31). A
    'V' whose glyph is a closed triangle with a bar on top is ∇; a '△' that stands where the
    other letters stand, 0.92 as wide as tall, is Δ (the white triangle dips 0.12 em below the
    baseline and is as wide as tall).
    """
    out = _per_glyph(text, centres, upright, pad, font_px, "V△Kk", _symbol, blobs)
    return "".join(text[i] if ch == "κ" and _in_latin_word(text, i) else ch for i, ch in enumerate(out))


def _in_latin_word(text: str, i: int) -> bool:
    """Whether the letter at ``i`` stands in a Latin word: a Latin letter beside it, or a Latin word of
    three letters and more in its token, joined by a path's or a name's punctuation (Kubernetes'
    repository names in Excalidraw's hand font, 'k/api', 'k/client-go', had come back 'κ/api')."""
    if any(0 <= j < len(text) and text[j].isascii() and text[j].isalpha() for j in (i - 1, i + 1)):
        return True
    a, b = text.rfind(" ", 0, i) + 1, text.find(" ", i)
    return re.search(r"[A-Za-z]{3}", text[a:b if b >= 0 else len(text)]) is not None


def _symbol(ch: str, cx: float, comps, font_px: float) -> str | None:
    n, lab, stats = comps
    # the character's glyph: the component under its centre at least 0.4 em tall
    hit = _under(cx, n, stats, 0.4 * font_px)
    if len(hit) != 1:
        return None
    x, y, w, h, _ = stats[hit[0]]
    glyph = (lab[y:y + h, x:x + w] == hit[0]).astype(np.uint8)
    # a hole: background the glyph encloses
    inner = cv2.floodFill(np.pad(1 - glyph, 1, constant_values=1), None, (0, 0), 0)[1][1:-1, 1:-1]
    closed = int(inner.sum()) >= 2
    if ch in "Kk":
        # κ is x-height tall (0.55 em), K and k cap and ascender height (0.73, 0.76 em); the
        # font size is the line's, from its reading as a K: a K that short is κ
        return "κ" if h <= 0.64 * font_px and w <= 0.75 * font_px else None
    if ch == "V":
        top = glyph[: max(1, int(round(0.15 * h)))]
        bar = float(top.any(axis=0).mean()) >= 0.8 and top.sum(axis=1).max() >= 0.7 * w
        return "∇" if closed and bar else None
    # where the other letters stand (the baseline estimate assumed the white triangle)
    others = [stats[k, 1] + stats[k, 3] for k in range(1, n) if k != hit[0] and stats[k, 3] >= 0.4 * font_px]
    on_line = bool(others) and abs(y + h - float(np.median(others))) <= 1
    # Δ is 0.92 as wide as tall, the white triangle 1.0
    return "Δ" if closed and on_line and w <= 0.96 * h else None


def restore_e(text: str, centres: list[float], upright: np.ndarray, pad: int, font_px: float,
              blobs: Labelling | None = None) -> str:
    """An 'e' read as 'c' (serif faces: 'Embedded Patches' came back 'Embcddcd Patchcs', issue
    31): a 'c' whose glyph, on its own (no neighbour's centre over it: a 'co' run together has
    the o's hole), encloses a hole, the e's eye, is an e."""
    if "c" not in text or len(centres) != len(text) or font_px < 6:
        return text
    comps = labelled(upright, blobs)
    out = list(text)
    for i, ch in enumerate(text):
        if ch != "c":
            continue
        lone = lone_glyph(i, centres, pad, comps, 0.3 * font_px, 1)
        if lone is None:
            continue
        glyph = lone.astype(np.uint8)
        inner = cv2.floodFill(np.pad(1 - glyph, 1, constant_values=1), None, (0, 0), 0)[1][1:-1, 1:-1]
        if int(inner.sum()) >= 2:
            out[i] = "e"
    return "".join(out)


def restore_middle_dots(text: str, centres: list[float], upright: np.ndarray, pad: int, font_px: float,
                        blobs: Labelling | None = None) -> str:
    """A middle dot read as a full stop ('x · y' came back 'x . y'): a '.' whose dot sits
    0.2 em or more above the line's baseline (the bottoms of its letters) is '·'."""
    return _per_glyph(text, centres, upright, pad, font_px, ".", _middle_dot, blobs)


def _middle_dot(ch: str, cx: float, comps, font_px: float) -> str | None:
    n, _, stats = comps
    dot = [k for k in _under(cx, n, stats) if max(stats[k, 2], stats[k, 3]) <= 0.25 * font_px]
    letters = [stats[k, 1] + stats[k, 3] for k in range(1, n) if stats[k, 3] >= 0.4 * font_px]
    if len(dot) != 1 or not letters:
        return None
    base = float(np.median(letters))
    centre = stats[dot[0], 1] + stats[dot[0], 3] / 2
    return "·" if base - centre >= 0.2 * font_px else None


_NUMERIC = set("0123456789O.,%+-−")


def restore_zeros(text: str, centres: list[float], upright: np.ndarray, pad: int, font_px: float,
                  blobs: Labelling | None = None) -> str:
    """A zero read as the letter O ('Node O (NVLink)' for a bold 'Node 0', an arrow crossing
    the label beside it painted out of the crop). An O that is a token of its own or stands
    among digits ('1O', 'O.5') is 0 where its glyph is as narrow as a zero's: under 0.82 as
    wide as tall. Measured at 14 and 40 px, regular and bold, in DejaVu Sans and Serif,
    Liberation Sans and Serif, FreeSans and STIX: zeros 0.60–0.80, O 0.90–1.10 (that bold
    'Node 0': 10 × 13 px, 0.77). Roboto's O (0.73–0.83) and a monospaced O (a zero's shape)
    can pass for a zero, where one stands alone. A word's O ('OK', 'O(n)') is never looked at."""
    if "O" not in text or len(centres) != len(text) or font_px < 6:
        return text
    comps = None
    out = list(text)
    for i, ch in enumerate(text):
        if ch != "O":
            continue
        a, b = i, i
        while a > 0 and text[a - 1] != " ":
            a -= 1
        while b + 1 < len(text) and text[b + 1] != " ":
            b += 1
        if not set(text[a:b + 1]) <= _NUMERIC:
            continue
        if comps is None:
            comps = labelled(upright, blobs)
        n, _, stats = comps
        hit = _under(centres[i] - pad, n, stats, 0.4 * font_px)
        if len(hit) == 1 and stats[hit[0], 2] < 0.82 * stats[hit[0], 3]:
            out[i] = "0"
    return "".join(out)


_CASE_JOIN = re.compile(r"(?<=[a-z0-9_])(?=[A-Z]{5,}(?![A-Za-z]))")


def split_case_joins(text: str) -> str:
    """A space between a lower-case name and the all-capitals word the recogniser ran into it: a
    schema's column and its type set close ('achievement_idINTEGER', the name overflowing its
    column); a capitals run of five or more to the end of the word, so 'getHTTPResponse',
    'parseJSON' and 'macOS' stay whole."""
    return _CASE_JOIN.sub(" ", text)


def restore_script_minus(text: str, centres: list[float], upright: np.ndarray, pad: int,
                         font_px: float, blobs: Labelling | None = None) -> tuple[str, list[float]]:
    """A minus inside a sub- or superscript the recogniser dropped (TeX's ``h_{t-1}`` read 'ht 1' or
    'ht1': two words, or a lost sign): a flat bar close between two glyphs, at their middle height and
    under no character, goes back in as '-' (the markup makes it a minus within a script)."""
    if len(centres) != len(text) or len(text) < 3 or font_px < 6:
        return text, centres
    n, _, stats = labelled(upright, blobs)
    if n < 4:
        return text, centres
    xs = [c - pad for c in centres]
    # each glyph's columns, a pixel wider on either side, and its height (the page, 0, left out):
    # asked for all glyphs at once per character (a list over the glyphs was most of this pass)
    lo, hi, tall = stats[1:n, 0] - 1, stats[1:n, 0] + stats[1:n, 2] + 1, stats[1:n, 3]

    def glyph_at(cx: float) -> int | None:
        hit = np.flatnonzero((lo <= cx) & (cx <= hi))
        return int(hit[np.argmax(tall[hit])]) + 1 if hit.size else None  # the tallest, the first of equals

    # the flat bars a fifth of an em wide at least (a JPEG's speck between 'i' and 'T' is none), found once: the
    # test below went through every glyph for every gap (0.6% of the CPU of the dev split's small figures)
    w_all, h_all = stats[1:n, 2], stats[1:n, 3]
    bars = (np.flatnonzero((w_all >= np.maximum(np.maximum(1.5 * h_all, 3), 0.2 * font_px))
                           & (h_all <= 0.2 * font_px + 2)) + 1).tolist()
    if not bars:
        return text, centres
    for i in range(1, len(text)):
        j = i + 1 if text[i] == " " else i  # the character after the gap
        if j >= len(text) or not text[i - 1].isalnum() or not text[j].isalnum():
            continue
        a, b = glyph_at(xs[i - 1]), glyph_at(xs[j])
        if a is None or b is None or a == b:
            continue
        left, right = stats[a, 0] + stats[a, 2], stats[b, 0]
        # a dash between two words stands farther apart, and the recogniser reads their space
        if right - left > (SCRIPT_GAP if j > i else 2 * SCRIPT_GAP) * font_px:
            continue
        for k in bars:
            x, y, w, h, _ = stats[k]
            mid = y + h / 2
            if left - 1 <= x and x + w <= right + 1 \
                    and max(stats[a, 1], stats[b, 1]) <= mid <= min(stats[a, 1] + stats[a, 3], stats[b, 1] + stats[b, 3]):
                cx = x + w / 2 + pad  # in the space's place, or put in before the character after the gap
                return restore_script_minus(text[:i] + "-" + text[j:], [*centres[:i], cx, *centres[j:]], upright,
                                            pad, font_px, blobs)
    return text, centres
