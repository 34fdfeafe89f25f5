"""Math letters the recogniser misreads: Computer Modern's italic lead letter, and a hat over it.

rapidocr never saw TeX's math italic: the ``x`` of ``x_1`` in a TikZ figure came back as 'C', 'T'
or 'Z', or was dropped (``x_1`` read '1'), on every drawn layer diagram and unrolled RNN
(``craftbench makers tikz``), and the hat of ``\\hat{y}_1`` was never read. A short reading (a math
label: one letter and its sub- or superscript) is checked here glyph by glyph against the lead glyph:

* the lead glyph (the leftmost glyph group, taller than a subscript) is set beside italic letters in
  CM math italic (``cmmi10``, shipped with matplotlib), STIX italic and DejaVu Serif italic, and
  beside what the recogniser read there in every face; an italic letter is taken where it fits well
  and clearly better than the reading (or where the reading has no character over that glyph);
* a small accent above the lead letter, apart from it (a hat's peak in its middle), adds the
  combining circumflex: 'y' becomes 'ŷ'.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import replace

import numpy as np

from crafteditor.blobs import find_blobs
from crafteditor.ocr.font_class import fit, ink_box, load_face, template
from crafteditor.ocr.lexicon import lexicon
from crafteditor.ocr.runs import joined_glyphs

SAME_SHAPE = "cosuvwxz"  # letters whose capital is the same shape, larger
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
ITALIC_FACES = ("cmmi10.ttf", "STIXGeneralItalic.ttf", "DejaVuSerif-Italic.ttf")
READ_FACES = ITALIC_FACES + ("cmr10.ttf", "STIXGeneral.ttf", "DejaVuSans.ttf", "DejaVuSerif.ttf")
MAX_CHARS = 4  # a math label: a letter, its subscript, a prime
MAX_ACCENTED = 8  # under an accent the lead is a math letter whatever follows: x⃗ and its subscript 'fake'
GOOD_FIT = 0.42  # the italic letter's fit, at least (a 9 px italic x fits cmmi10's 0.44 to 0.65)
CLEAR = 0.1  # and its lead over the letter read there
LEAD = 0.02  # and over every other letter (an italic x fits Z 0.03 less)
MIN_HEIGHT = 8  # px: a smaller lead glyph is too little to tell
# a lead glyph no taller than the subscript after it is a lower-case letter of x-height (a capital, an ascender
# or a digit stands taller than its subscript; a descender hangs lower): told among these alone it is told at
# 6 px too, where among all letters an italic x fitted Z as well (TikZ layers at 120 dpi read x_1 as '1', 'Z2')
X_HEIGHT_LETTERS = "acemnorsuvwxz"
MIN_X_HEIGHT = 6  # px: such a lead glyph smaller than this is too little to tell
SCRIPT_DROP = 0.12  # of the lead's height: how much lower a subscript's top and bottom lie, at least (z_1: 0.26)
UNSURE = 0.93  # a letter read this sure is left alone unless the rest of the label is its script
INK_CONTRAST = 60.0  # grey levels from the background that are ink


def _best(ch: str, ink: np.ndarray, faces: tuple[str, ...]) -> float:
    fits = [fit(ink, t) for t in (template(ch, f) for f in faces if load_face(f) is not None) if t is not None]
    return max(fits) if fits else -1.0


def glyph_groups(mask: np.ndarray) -> list[tuple[int, int, np.ndarray]]:
    """The mask's glyph groups, left to right: (x0, x1, component labels) of blobs overlapping in x."""
    n, labels, stats, _ = find_blobs(mask)
    spans = sorted((int(stats[i, 0]), int(stats[i, 0] + stats[i, 2]), i) for i in range(1, n)
                   if stats[i, 4] >= 2)
    groups: list[list] = []
    for x0, x1, i in spans:
        if groups and min(x1, groups[-1][1]) - x0 >= 0.3 * min(x1 - x0, groups[-1][1] - groups[-1][0]):
            groups[-1][1] = max(groups[-1][1], x1)
            groups[-1][2].append(i)
        else:
            groups.append([x0, x1, [i]])
    return [(x0, x1, np.isin(labels, ids)) for x0, x1, ids in groups]


def _split_accent(glyph: np.ndarray) -> tuple[np.ndarray, str]:
    """The letter without an accent above it, and the combining accent ('' where none)."""
    n, labels, stats, _ = find_blobs(glyph)
    if n < 3:
        return glyph, ""
    order = sorted(range(1, n), key=lambda i: stats[i, 1])
    top, rest = order[0], order[1:]
    letter = np.isin(labels, rest)
    rows = np.flatnonzero(letter.any(axis=1))
    ty0, th, tw = int(stats[top, 1]), int(stats[top, 3]), int(stats[top, 2])
    lh, lw = int(rows[-1] - rows[0] + 1), int(np.ptp(np.flatnonzero(letter.any(axis=0))) + 1)
    # an accent: above the letter with a gap, flat and about as wide as the letter
    if ty0 + th > rows[0] or th > 0.45 * lh or tw < 0.4 * lw or tw > 1.6 * lw or th * 1.2 > tw:
        return glyph, ""
    accent = labels == top
    cols = np.flatnonzero(accent.any(axis=0))
    tops = np.array([np.flatnonzero(accent[:, c])[0] for c in cols])
    middle, ends = _middle_and_ends(tops)
    return letter, ("\u0302" if middle < ends - 0.25 * th else "")


def _middle_and_ends(tops: np.ndarray) -> tuple[int, int]:
    """An accent's top row, per column: the highest in its middle third and at its two ends (a
    fifth each), to tell a hat (peaked in the middle) from a bar."""
    k = len(tops)
    return tops[k // 3:k - k // 3].min(), min(tops[:max(1, k // 5)].min(), tops[-max(1, k // 5):].min())


def crop_ink(crop: np.ndarray) -> np.ndarray:
    """A line crop's ink, thin strokes kept: pixels well apart from the crop's border colour (the
    line's glyph mask breaks a 120 dpi italic's hairlines)."""
    gray = crop.astype(np.float32).mean(axis=2)
    border = np.concatenate([gray[0], gray[-1], gray[:, 0], gray[:, -1]])
    return np.abs(gray - float(np.median(border))) > INK_CONTRAST


def _no_taller(groups: list[tuple[int, int, np.ndarray]], rows: np.ndarray, drop: float = 0.0) -> bool:
    """The lead glyph (its ``rows``) is no taller than the glyph after it and sits higher: a letter
    of x-height over its subscript, not a digit (a digit stands taller than its subscript). With ``drop``
    the glyph after it hangs that share of the lead's height lower at its top and at its bottom (a pixel
    at least): a number's digits stand level, though a round one's overshoot may hang a pixel lower
    ('75' in a chart had read 'J5' without it)."""
    if len(groups) < 2:
        return False
    nxt = np.flatnonzero(groups[1][2].any(axis=1))
    low = max(1.0, drop * (rows[-1] - rows[0] + 1)) if drop else 0.5
    return rows[-1] - rows[0] <= 1.1 * (nxt[-1] - nxt[0]) and nxt[-1] - rows[-1] >= low \
        and (not drop or nxt[0] - rows[0] >= low)


def read_math_lead(text: str, conf: float, centres: list[float], crop: np.ndarray,
                   accented: bool = False) -> tuple[str, list[float]]:
    """``text`` with its lead math letter read again (and its hat added) where the glyphs say so;
    ``conf`` is the recogniser's confidence in ``text`` (a letter read at :data:`UNSURE` or more is
    read again only as a math label's lead: before digits or a lower script, in no known word);
    ``centres`` are the characters' x centres in ``crop`` (the recogniser's BGR line crop).
    ``accented``: an accent over the lead glyph was painted out of ``crop``
    (:mod:`crafteditor.ocr.accents`), so the lead is a letter, read again as one under an accent is."""
    mask = crop_ink(crop)
    most = MAX_ACCENTED if accented else MAX_CHARS
    if not text or len(text) > most or " " in text or len(text) != len(centres) or mask.shape[0] < MIN_X_HEIGHT:
        return text, centres
    groups = glyph_groups(mask)
    if len(groups) < 1 or len(groups) > most + 1:
        return text, centres
    x0, x1, glyph = groups[0]
    rows = np.flatnonzero(glyph.any(axis=1))
    inked = np.flatnonzero(mask.any(axis=1))
    over = [i for i, c in enumerate(centres) if x0 - 1 <= c <= x1 + 1]
    if len(over) > 1 or (over and over[0] != 0):
        return text, centres
    read = text[0] if over else ""
    # an x-height letter over its subscript, which the recogniser read as no letter: told among those letters
    # (a letter it read stays the rival of all letters: among x-height ones alone an unsure 7 px c of c_{t-1} fitted e)
    low = rows.size > 0 and _no_taller(groups, rows, SCRIPT_DROP) and not read.isalpha()
    if rows.size == 0 or rows[-1] - rows[0] + 1 < max(MIN_X_HEIGHT if low else MIN_HEIGHT, 0.5 * (inked[-1] - inked[0] + 1)):
        return text, centres
    letter, accent = _split_accent(glyph)
    lead = read
    # read again: a glyph the reading missed; one under an accent (the recogniser reads ŷ as 'j', a
    # bold ô as '6': no digit wears a hat); an unsure letter; a sure one where the rest is its script
    # and no known word (the italic x of x_2, x_3 was read 'C2' at 0.93, 'C3' at 0.94, 'X1' at 0.98 in
    # a real TikZ figure: the recogniser is sure of letters it never saw; a sure 'in', 'Web' in bold or
    # mono type stays); a '0' no taller than the script after it (an italic o over its subscript), and any
    # digit over a script hanging clearly lower: CM's italic z reads '2' however sure (z_1, z_d read '21', '2d'
    # at 0.97 in real TikZ flows and conformal maps), where a number's digits stand level. A letter's reading
    # is the rival an italic letter must beat, by CLEAR
    over_script = _no_taller(groups, rows)
    sure_lead = conf < UNSURE or ((text[1:].isdigit() or over_script) and text.lower() not in lexicon())
    if not read or accent or accented or (read.isalpha() and sure_lead) or (read == "0" and over_script) \
            or (read.isdigit() and low):
        # a digit other than 0 is weighed as the rival there too: a chart's '5y', '8y' (a digit over a y hanging
        # lower) had read 'sy', 'ey' (the 0's own italic o is the older rule's, unweighed)
        lead = italic_letter(letter, read, rival=not accent, letters=X_HEIGHT_LETTERS if low else LETTERS,
                             digit=read.isdigit() and read != "0") or read
    if accent and lead.isalpha():
        lead = unicodedata.normalize("NFC", lead + accent)
        if len(lead) > 1:  # no precomposed letter ('x̂'): the plain letter
            lead = lead[0]
    if lead == read:
        return text, centres
    centre = (x0 + x1) / 2
    return (lead + text[1:], [centre, *centres[1:]]) if over else (lead + text, [centre, *centres])


def italic_letter(letter: np.ndarray, read: str, rival: bool = True, letters: str = LETTERS,
                  digit: bool = False) -> str | None:
    """The math italic letter of ``letters`` a glyph's mask is, where one fits well and clearly better than every
    other of them and than ``read`` (what the recogniser read there, in every face; not weighed
    with ``rival`` False; a digit read is weighed only with ``digit``); None where none does or the
    glyph is under 8 px tall (6 px, told among :data:`X_HEIGHT_LETTERS` alone)."""
    ink = ink_box(letter)
    if ink is None or ink.shape[0] < (MIN_X_HEIGHT if letters == X_HEIGHT_LETTERS else MIN_HEIGHT):
        return None
    scores = {ch: _best(ch, ink, ITALIC_FACES) for ch in letters}
    best = max(scores, key=lambda k: scores[k])
    if best.lower() in SAME_SHAPE and scores[best.lower()] >= scores[best] - 0.1:
        best = best.lower()  # (a lone x fits X about as well: a math label's letter is lower case)
    against = _best(read, ink, READ_FACES) if rival and (read.isalpha() or digit) else -1.0
    second = max(v for k, v in scores.items() if k.lower() != best.lower())
    if best != read and scores[best] >= GOOD_FIT and scores[best] >= max(against + CLEAR, second + LEAD):
        return best
    return None


def add_hats(runs: list, rgb: np.ndarray) -> list:
    """Runs whose short reading starts with a letter under a hat the line's box left out (the
    detector's box stops at the letter's top): the hat, an isolated small ink stroke above the lead
    glyph, peaked in its middle, adds the combining circumflex ('y1' → 'ŷ1')."""
    out = []
    for r in runs:
        t = r.text
        if r.angle != 0 or not t or len(t) > MAX_CHARS or not t[0].isascii() or not t[0].isalpha() or r.glyphs is None:
            out.append(r)
            continue
        hatted = unicodedata.normalize("NFC", t[0] + "\u0302")
        groups = glyph_groups(r.glyphs)
        if len(hatted) != 1 or not groups:
            out.append(r)
            continue
        g0, g1, glyph = groups[0]
        rows = np.flatnonzero(glyph.any(axis=1))
        lh = int(rows[-1] - rows[0] + 1)
        x0, x1 = int(r.x) + g0 - 2, int(r.x) + g1 + 2
        top = int(r.y) + int(rows[0])
        y0 = top - int(0.6 * lh) - 1
        if x0 < 0 or y0 < 0 or x1 > rgb.shape[1]:
            out.append(r)
            continue
        strip = rgb[y0:top, x0:x1]
        if strip.size == 0 or _hat_in(crop_ink(np.pad(strip, ((1, 1), (1, 1), (0, 0)), mode="edge")), g1 - g0, lh) is None:
            out.append(r)
            continue
        marked = r.marked
        if marked and marked[0] == t[0]:
            marked = hatted + marked[1:]
        out.append(replace(r, text=hatted + t[1:], marked=marked))
    return out


def _hat_in(ink: np.ndarray, letter_w: int, letter_h: int) -> np.ndarray | None:
    """The one hat-shaped blob in a strip's ink (none touching the strip's sides), or None."""
    n, labels, stats, _ = find_blobs(ink)
    blobs = [i for i in range(1, n) if stats[i, 4] >= 3]
    if len(blobs) != 1:
        return None
    i = blobs[0]
    x, y, w, h = (int(v) for v in stats[i, :4])
    if x <= 0 or x + w >= ink.shape[1] or y <= 0 or w < 0.4 * letter_w or w > 1.8 * letter_w or h > 0.45 * letter_h \
            or h * 1.2 > w:
        return None
    hat = labels[y:y + h, x:x + w] == i
    tops = np.array([np.flatnonzero(hat[:, c])[0] if hat[:, c].any() else h for c in range(w)])
    middle, ends = _middle_and_ends(tops)
    return hat if middle < ends - 0.25 * h or (h >= 2 and middle < ends) else None


def join_script_minus(runs: list, rgb: np.ndarray) -> list:
    """A label cut in two at a minus the recogniser never saw: ``c_{t-1}`` came back as runs 'ct' and
    '1' (the detector's boxes stop at the thin bar). A short run close after another on its line, a
    lone flat bar filling the gap between them at the later run's middle height, is one label with
    a minus: 'ct−1' (in the first run's subscript where it had one: c_{t−1})."""
    out = sorted(runs, key=lambda r: (r.angle, r.y, r.x))
    k = 0
    while k < len(out):
        a = out[k]
        b = next((q for q in out if q is not a and q.angle == 0 == a.angle and len(q.text) <= 3 and q.text[:1].isalnum()
                  and a.text[-1:].isalnum() and 0 < q.x - a.right <= a.font_px
                  and a.y <= q.y + q.h / 2 <= a.bottom and q.glyphs is not None and a.glyphs is not None), None)
        bar = None if b is None else _bar_between(rgb, int(math.ceil(a.right)), int(b.x), int(b.y), int(math.ceil(b.bottom)))
        if bar is None:
            k += 1
            continue
        gx0, gy0 = min(a.x, b.x), min(a.y, b.y)
        gx1, gy1 = max(a.right, b.right), max(a.bottom, b.bottom)
        glyphs = joined_glyphs((a, b), gx0, gy0, gx1, gy1)
        by, bx, bar_mask = bar  # the bar is the minus's ink: erased with the text
        sub = glyphs[by - int(gy0):by - int(gy0) + bar_mask.shape[0], bx - int(gx0):bx - int(gx0) + bar_mask.shape[1]]
        sub |= bar_mask[:sub.shape[0], :sub.shape[1]]
        marked = a.marked[:-1] + "−" + b.text + "}" if a.marked and a.marked.endswith("}") else None
        out[k] = replace(a, text=a.text + "−" + b.text, w=gx1 - gx0, h=gy1 - gy0, y=gy0, x=gx0, glyphs=glyphs,
                         confidence=min(a.confidence, b.confidence), marked=marked)
        out.remove(b)
    return out


def _bar_between(rgb: np.ndarray, x0: int, x1: int, y0: int, y1: int) -> tuple[int, int, np.ndarray] | None:
    """(top row, left column, mask) of the one flat bar filling most of columns x0..x1 between rows
    y0..y1 (its middle third), nothing else inked there; None where there is none."""
    if x1 - x0 < 2 or y1 - y0 < 3 or x0 < 1 or y0 < 1 or x1 >= rgb.shape[1] - 1 or y1 >= rgb.shape[0] - 1:
        return None
    ink = crop_ink(rgb[y0 - 1:y1 + 1, x0 - 1:x1 + 1])
    n, labels, stats, _ = find_blobs(ink)
    if n < 2:
        return None
    i = 1 + int(np.argmax(stats[1:, 4]))
    # nothing else but specks (the neighbours' anti-aliased rims at the gap's ends)
    if any(stats[k, 4] > max(3, 0.15 * stats[i, 4]) for k in range(1, n) if k != i):
        return None
    x, y, w, h = (int(v) for v in stats[i, :4])
    mid = y + h / 2
    if w < 0.5 * (x1 - x0) or h > max(2, 0.3 * (y1 - y0)) or w < 2 * h or not (y1 - y0) / 4 <= mid - 1 <= 3 * (y1 - y0) / 4:
        return None
    return y0 - 1 + y, x0 - 1 + x, labels[y:y + h, x:x + w] == i
