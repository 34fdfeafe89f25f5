"""A horizontal run's first or last letters that its line left out, put back (:func:`whole_words`; issue 31).

A line's crop holds only the glyph mask's ink, and the mask drops whatever touches the detector
box's sides: a letter a connector or a box's rim runs into ('Level 3' read 'evel 3' where an arrow
ends at its L, 'Transform' read 'Transfo' under a curved arrow, 'Pool' read 'Poo' against a
sketched box's corner), a letter touching another colour's shape ('Sunny' read 'unny' beside a
pie's wedge), or a letter the detector's box stopped short of ('resume signa' on a tight plate).
Where ink of the run's colour goes on within a letter gap past an end, in the run's rows, the
line is read again with that ink and kept if it reads the same letters and more, as surely.
"""

from __future__ import annotations

import math
import re
from dataclasses import replace

import numpy as np

from crafteditor.blobs import find_blobs
from crafteditor.ocr.lexicon import lexicon
from crafteditor.ocr.runs import TextRun, ink_gaps, make_run
from crafteditor.ocr.text_lines import TextLine, crop_pad, line_crops, region_background
from crafteditor.paint import distances

LETTER_GAP = 0.2  # font sizes: an end letter stands this close to the run's ink at most (a word space is wider)
REACH = 1.2  # font sizes: at most this much ink is taken past an end (a letter or two)
INK = 60.0  # RGB distance from the ground at which a pixel is ink
CONF_LOSS = 0.1  # the longer reading may be this much less sure than the run's
SCRIPT_DROP = 0.4  # font sizes: how far under a short run a subscript it left out may hang (TeX's H_t, x_t)
SCRIPT_RUN = 3  # letters and digits a run may hold at most for its rows to be taken lower
_JUNK = re.compile(r"^[\s\-_|~—–'`.,]+|[\s\-_|~—–'`.,]+$")  # a stray stroke read at the new end


def whole_words(runs: list[TextRun], rgb: np.ndarray, recognize) -> list[TextRun]:
    """``runs`` with each horizontal detector run grown over end letters it left out. ``recognize``:
    a BGR crop -> (text, confidence, character centres)."""
    out = list(runs)  # each run grown in place: the next one's walk stops at the grown run, not the old box
    for i, r in enumerate(runs):
        grown = None
        if r.angle == 0 and r.glyphs is not None and r.source == "det":
            grown = _grown(r, rgb, out, recognize)
            if grown is None and _hangs_right(r, rgb):
                grown = _grown(r, rgb, out, recognize, drop=SCRIPT_DROP)
        out[i] = grown or r
    return out


def _grown(r: TextRun, rgb: np.ndarray, runs: list[TextRun], recognize, drop: float = 0.0) -> TextRun | None:
    """``r`` read again with the ink past its ends; ``drop`` (font sizes) takes its rows that much lower
    (a subscript the detector's box left out hangs under the run's bottom)."""
    H, W = rgb.shape[:2]
    f = r.font_px
    if f < 6 or not any(ch.isalnum() for ch in r.text):
        return None
    y0, y1 = max(0, int(r.y - 0.1 * r.h)), min(H, int(math.ceil(r.bottom + 0.05 * r.h + drop * f)))
    x0, x1 = int(r.x), int(math.ceil(r.right))
    bg = region_background(rgb[y0:y1, max(0, x0 - 2):min(W, x1 + 2)])
    color = np.asarray(r.color, np.float32)
    reach, gap = int(math.ceil(REACH * f)), max(2, int(round(LETTER_GAP * f)))
    left, right = x0, x1
    space = _word_space(r)
    cols_in = np.flatnonzero(r.glyphs.any(axis=0)) + int(round(r.x))
    # the other runs on these rows, found once: a walk stops at any of them
    mates = [q for q in runs if q is not r and q.y < y1 and y0 < q.bottom]
    for side in (0, 1):
        a, b = (x1, min(W, x1 + reach)) if side else (max(0, x0 - reach), x0)
        if b - a < 2:
            continue
        strip = rgb[y0:y1, a:b]
        ink = _run_ink(strip, bg, color)
        cols = ink.any(axis=0)
        # a border or a line across the run's rows and on above and below them stops the walk
        tall = _through(rgb, a, b, y0, y1, bg)
        order = range(b - a) if side else range(b - a - 1, -1, -1)
        # the run's own ink edge, as a walk step (-1: the strip's first column); no gap as wide as
        # the run's own word spaces is bridged (a word space of 2 px at 10 px type)
        ink_edge = (cols_in[-1] - a if side else b - 1 - cols_in[0]) if cols_in.size else -1
        last, end = None, None
        for k, c in enumerate(order):
            if tall[c] or any(q.x <= a + c < q.right for q in mates):
                break
            if cols[c]:
                last, end = k, c
            elif (k if last is None else k - last) > gap or (space and k - (ink_edge if last is None else last) >= space):
                break
        if end is None:
            continue
        if side:
            right = a + end + 1
        else:
            left = a + end
    # both ends grown, else each alone: a sketched box's rim taken in at one end spoils the reading
    tries = [(lo, hi) for lo, hi in ((left, right), (x0, right), (left, x1))
             if (lo, hi) != (x0, x1) and max(x0 - lo, hi - x1) >= 0.15 * f]
    for lo, hi in dict.fromkeys(tries):
        grown = _read_grown(r, rgb, lo, hi, y0, y1, bg, color, recognize, drop > 0)
        if grown is not None:
            return grown
    return None


def _hangs_right(r: TextRun, rgb: np.ndarray) -> bool:
    """Whether a short run (a math letter, 'H', 'c') has ink of its colour just past its right end that
    reaches its bottom row and hangs on under it: a subscript the detector's box cut off (d2l's bold
    H_t read 'H'). Only then are its rows taken lower (:data:`SCRIPT_DROP`), so no other run reads again."""
    H, W = rgb.shape[:2]
    f = r.font_px
    letters = _letters(r.text)
    if f < 6 or not 0 < len(letters) <= SCRIPT_RUN or not letters[-1:].isalpha():
        return False
    x1 = int(math.ceil(r.right))
    a, b = x1, min(W, x1 + max(2, int(round(0.6 * f))))
    yb = min(H, int(math.ceil(r.bottom + 0.05 * r.h)))
    y0, y1 = max(0, int(r.y + 0.3 * r.h)), min(H, int(math.ceil(r.bottom + 0.05 * r.h + SCRIPT_DROP * f)))
    if b - a < 2 or y1 - yb < 2:
        return False
    x0 = int(r.x)
    bg = region_background(rgb[max(0, int(r.y - 0.1 * r.h)):yb, max(0, x0 - 2):min(W, x1 + 2)])
    color = np.asarray(r.color, np.float32)
    strip = rgb[y0:y1, a:b]
    ink = _run_ink(strip, bg, color)
    if not ink.any():
        return False
    n, lab, stats, _ = find_blobs(ink)
    edge = yb - y0  # the run's bottom row in the strip
    # a blob of script size that starts within the run's rows and ends under them, clear of the strip's far side
    return any(stats[i, 1] < edge <= stats[i, 1] + stats[i, 3] - 1 < ink.shape[0] - 1
               and stats[i, 0] + stats[i, 2] < ink.shape[1] and stats[i, 3] <= 0.8 * f for i in range(1, n))


def _run_ink(region: np.ndarray, bg: np.ndarray, color: np.ndarray) -> np.ndarray:
    """The pixels of ``region`` that are ink of the run's ``color``: :data:`INK` or more from the ground ``bg``,
    and nearer the run's colour than the ground."""
    from_bg = distances(region, bg)
    return (from_bg > INK) & (distances(region, color) < from_bg)


def _through(rgb: np.ndarray, a: int, b: int, y0: int, y1: int, bg: np.ndarray) -> np.ndarray:
    """Per column of a:b, whether ink runs through all the rows y0:y1 and on past both."""
    H = rgb.shape[0]
    h = y1 - y0
    t0, t1 = max(0, y0 - h // 2), min(H, y1 + h // 2)
    col = rgb[t0:t1, a:b]
    ink = distances(col, bg) > INK
    run = np.zeros(ink.shape[1], int)
    best = np.zeros(ink.shape[1], int)
    for row in ink:
        run = (run + 1) * row
        np.maximum(best, run, out=best)
    return best >= 0.95 * (t1 - t0)


def _word_space(r: TextRun) -> int | None:
    """The narrowest of the run's word spaces in px (its glyphs' widest column gaps, one a space in its
    text), None for a run of one word."""
    words = len(r.text.split())
    found = ink_gaps(r) if words >= 2 else None
    if found is None:
        return None
    gaps = sorted(e1 - e0 for e0, e1 in found[1])
    return gaps[-(words - 1)] if len(gaps) >= words - 1 else None


def _read_grown(r: TextRun, rgb: np.ndarray, left: int, right: int, y0: int, y1: int, bg: np.ndarray,
                color: np.ndarray, recognize, script: bool = False) -> TextRun | None:
    """The run read again over ``left:right``; None unless it reads the same letters and more. ``script``:
    the rows reach under the run for a subscript, and a comma read last may be TeX's italic subscript t
    (the recogniser reads H_t 'H,'), which :func:`make_run`'s shifts put right: it is judged after that."""
    region = rgb[y0:y1, left:right]
    ink = _run_ink(region, bg, color)
    mask = np.zeros(region.shape[:2], bool)
    gy, gx = int(round(r.y)) - y0, int(round(r.x)) - left
    part = r.glyphs[max(0, -gy):, max(0, -gx):]
    mask[max(0, gy):max(0, gy) + part.shape[0], max(0, gx):max(0, gx) + part.shape[1]] = \
        part[:mask.shape[0] - max(0, gy), :mask.shape[1] - max(0, gx)]
    mask[:, :max(0, gx)] |= ink[:, :max(0, gx)]
    end = max(0, gx) + part.shape[1]
    mask[:, end:] |= ink[:, end:]
    ys, xs = np.nonzero(mask)
    if ys.size == 0:
        return None
    line = TextLine(mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1], int(ys.min()), int(xs.min()), False)
    crop = line_crops(region, line, bg)[0][0]
    text, conf, centres = recognize(crop)
    text = text.strip()
    comma = script and len(text) > 1 and text.endswith(",") and len(centres) == len(text)  # a subscript t?
    body = text[:-1] if comma else text
    core = _JUNK.sub("", body)
    if core != body and len(centres) == len(text):
        i = body.index(core)
        text, centres = core + ("," if comma else ""), list(centres[i:i + len(core)]) + (centres[-1:] if comma else [])
    old, new = _letters(r.text), _letters(text) + ("t" if comma else "")  # the comma read as its t
    if len(new) <= len(old) or old not in new or len(new) - len(old) > 3 or conf < r.confidence - CONF_LOSS \
            or not _grown_letters(old, new) or _unworded(r.text, text):
        return None
    # ink past the new end letter's half width is no letter (a node's rim the letter touches):
    # cut off and read once more, so it is not erased with the text
    pad = crop_pad(line)  # a horizontal line: line_crops' padding
    lo, hi = int(centres[0] - pad - 0.45 * r.font_px) + line.x0, int(math.ceil(centres[-1] - pad + 0.45 * r.font_px)) + line.x0
    keep = np.zeros_like(mask)
    keep[:, max(0, min(lo, gx)):max(hi, end)] = True
    if (mask & ~keep).any():
        mask &= keep
        ys, xs = np.nonzero(mask)
        line = TextLine(mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1], int(ys.min()), int(xs.min()), False)
        crop = line_crops(region, line, bg)[0][0]
        again, conf, centres = recognize(crop)
        if again.strip() != text or len(centres) != len(again):
            return None
        i = again.index(text)
        centres = list(centres[i:i + len(text)])
    grown = make_run(text, conf, centres, crop, line, 0.0, region, bg, (y0, left), r.source)
    if grown is None or len(_letters(grown.text)) <= len(old) or old.lower() not in _letters(grown.text).lower():
        return None
    return _unerased_strokes(grown, r, rgb, y0, y1, bg, color)


def _unerased_strokes(run: TextRun, was: TextRun, rgb: np.ndarray, y0: int, y1: int, bg: np.ndarray,
                      color: np.ndarray) -> TextRun:
    """The grown run with ink that runs on out of its rows taken out of its glyphs: a letter joined to a
    connector or a node's rim is read, but erasing it would cut the line or the shape (a circle node
    whose rim 'setup' touched was lost), so it is left to them, as it was before the run grew."""
    H = rgb.shape[0]
    h = y1 - y0
    t0, t1 = max(0, y0 - h), min(H, y1 + h)
    gx0, gy0 = int(round(run.x)), int(round(run.y))
    gh, gw = run.glyphs.shape
    window = rgb[t0:t1, gx0:gx0 + gw]
    ink = _run_ink(window, bg, color)
    n, lab, stats, _ = find_blobs(ink)
    out = [i for i in range(1, n) if stats[i, 1] < y0 - t0 or stats[i, 1] + stats[i, 3] > y1 - t0]
    if not out:
        return run
    away = np.isin(lab, out)[gy0 - t0:gy0 - t0 + gh]
    away[:, max(0, int(was.x) - gx0):max(0, int(math.ceil(was.right)) - gx0)] = False  # the run's own glyphs stay
    glyphs = run.glyphs.copy()
    glyphs[:away.shape[0], :away.shape[1]] &= ~away
    return replace(run, glyphs=glyphs)


def _unworded(old: str, new: str) -> bool:
    """Whether growing made a known word at either end an unknown one: a connector's end or an
    arrowhead beside 'challenge' read 'Tchallenge'."""
    known = lexicon()
    a, b = old.split(), new.split()
    if not a or not b or len(a) != len(b):  # an end letter joins its word: a new word is a neighbour's mark
        return True
    # a letter grown on keeps the word's case: a lower-case glyph or a '1' before a capital ('iT1' from a
    # stroke before 'T1', '1Upload': an icon's edge), a capital after lower case, is a stroke read as one;
    # a capital before a capitalised word only where the word is all capitals ('DKafka': an arrowhead).
    # Head and tail each on its own: both ends may have grown ('iKafkaX')
    i, j = b[0].find(a[0]), b[-1].rfind(a[-1])
    head = _letters(b[0][:i]) if i > 0 else ""
    tail = _letters(b[-1][j + len(a[-1]):]) if j >= 0 else ""
    if (head and a[0][:1].isupper() and (head[-1] in "1I|!" or not _letters(b[0]).isupper())) \
            or (tail and a[-1][-1:].islower() and any(ch.isupper() for ch in tail)):
        return True
    return any(_plain(x) in known and _plain(y) not in known and _plain(y) != _plain(x)
               for x, y in ((a[0], b[0]), (a[-1], b[-1])))


def _grown_letters(old: str, new: str) -> bool:
    """Whether what grew is letters on a word: a number never grows (a log tick 10 with its raised
    exponent read as '102', two bar labels '8378' taking a neighbour's 6), nor does a word by digits."""
    return any(ch.isalpha() for ch in old) and new.replace(old, "", 1).isalpha()


def _plain(word: str) -> str:
    return "".join(ch for ch in word.lower() if ch.isalpha())


def _letters(text: str) -> str:
    return "".join(ch for ch in text if ch.isalnum())
