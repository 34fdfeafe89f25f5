"""Reading a figure's text (:func:`read_text`): lines detected and recognised in two rounds (each
line at its likeliest angle, then the other angles of a rotated line only where the first
reading was unsure), made into text runs, rotated lines the detector cut or cut short rejoined
and extended, and lone glyphs the detector missed read in a second pass; a math label's Greek lead letter read from
its shape; last, words one OCR slip from a word the figure reads elsewhere mended to it.
"""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np

from crafteditor.blobs import find_blobs
from crafteditor.config import Config, past
from crafteditor.ocr.accents import read_accented, with_math
from crafteditor.ocr.engine import REC_WORD_WIDTH, OcrEngine, ProbsMemo, get_engine
from crafteditor.ocr.greek import GREEK_SCORE, LOOKALIKES, greek_in_line, greek_leads, read_greek
from crafteditor.ocr.lexicon import mend_from_figure
from crafteditor.ocr.lone_glyphs import read_lone_glyphs, text_height
from crafteditor.ocr.math_letters import add_hats, join_script_minus
from crafteditor.ocr.run_ends import whole_words
from crafteditor.ocr.runs import TextRun, dedupe, joined_glyphs, make_run
from crafteditor.ocr.small_lexicon import MEND_LINE, mend_small_print
from crafteditor.ocr.small_print import reread_small_print, small_lines
from crafteditor.ocr.subscripts import join_subscripts, join_superscripts, read_stacked
from crafteditor.ocr.text_lines import glyph_mask, line_jobs, region_background
from crafteditor.paint import Paints, distances
from crafteditor.reader import GATE
from crafter.spec.markup import plain

LINES_AT_ONCE = 256  # lines recognised between looks at the deadline (a figure has far fewer)
SURE_READING = 0.97  # a rotated line read this confidently is not tried at its other angles
SURE_SLANT = GATE  # a slanted line's deskewed reading is kept this sure at least: its box may be a diagonal stroke's


def read_text(rgb: np.ndarray, paints: Paints, config: Config, deadline: float | None = None) -> list[TextRun]:
    """All text runs in the image (nothing is modified). Past ``deadline`` (:func:`~crafteditor.config.budget_clock`)
    only the first reading of each line is kept: no other angles, no extended or lone glyphs."""
    engine = get_engine(config.ocr_threads)
    latin = config.ocr_scripts == "latin"
    bgr = cv2.cvtColor(np.ascontiguousarray(rgb), cv2.COLOR_RGB2BGR)  # a strided numpy copy: 5 ms at 150 dpi
    jobs = line_jobs(rgb, bgr, engine, config.ocr_regions)
    # round 1 reads each line at its likeliest angle; round 2 tries the other angles of a
    # rotated line only where round 1 was unsure (most vertical text is read at once)
    fast = config.ocr_reader
    # where small print will be weighed against the lexicon, the recogniser's outputs are kept for it: it weighs
    # a line on the crops the first reading and the re-read at working sizes ran the recogniser on already
    memo = ProbsMemo(engine.latin_mask) if latin and small_lines(jobs, MEND_LINE) else None
    cuts: dict = {}  # and the crops the re-read cuts at working sizes
    first: list = []
    for k in range(0, len(jobs), LINES_AT_ONCE):  # a page of dust can hold thousands of "lines"
        if past(deadline):
            jobs = jobs[:k]  # past the budget the rest is left unread (its ink is traced)
            break
        first += engine.recognize([job[1][0][0] for job in jobs[k:k + LINES_AT_ONCE]], latin, REC_WORD_WIDTH,
                                  fast=fast, memo=memo)
    late = past(deadline)
    if not late:  # small print read again at a working size, where the lexicon knows more of that reading
        first = reread_small_print(
            jobs, first, lambda cs: engine.recognize(cs, latin, REC_WORD_WIDTH, fast=fast, memo=memo), deadline, cuts)
        if latin:  # its words the English lexicon does not know weighed against known ones on the recogniser's odds
            first = mend_small_print(jobs, first, lambda c: engine.class_probs(c, latin, memo=memo),
                                     engine.class_indices, deadline, cuts)
    memo, cuts = None, {}  # let go before the rest of the reading
    unsure = [] if late else [j for j, job in enumerate(jobs) if len(job[1]) > 1 and first[j][1] < SURE_READING]
    second = engine.recognize([c for j in unsure for c, _ in jobs[j][1][1:]], latin, REC_WORD_WIDTH, fast=fast)
    results: list[list[tuple[str, float, list[float]]]] = [[r] for r in first]
    k = 0
    for j in unsure:
        n_more = len(jobs[j][1]) - 1
        results[j] += second[k:k + n_more]
        k += n_more
    runs: list[TextRun] = []
    for (bg, crops, (y0, x0), line, region), cands in zip(jobs, results):
        # a TeX math label's accents are read apart from their letters, upright, before the angles
        # are weighed (a lone x⃗ read '18' sideways, surer than its upright reading with the arrow)
        accented = _read_accented(cands, crops, engine, latin, fast) if config.ocr_math_letters else {}
        # upright text wins ties: a lone '5' reads as well sideways
        best = max(range(len(cands)), key=lambda i: cands[i][1] + (0.03 if crops[i][1] == 0 else 0.0))
        text, conf, centres = cands[best]
        crop, angle = crops[best]
        if len(text.strip()) <= 1 and (conf < SURE_READING or text.strip() in LOOKALIKES) and angle == 0:
            letter = read_greek(line.mask) if find_blobs(line.mask)[0] == 2 else None
            if letter is not None:  # one glyph, a Greek letter the recogniser has no class for (σ)
                text, conf, centres = letter, GREEK_SCORE, [crop.shape[1] / 2]
        stacked = None
        if angle == 0 and config.ocr_math_letters:  # a TeX math label's italic lead letter, its accents
            plain_crop = accented.get(best, (crop, []))[0]
            # a stack of scripts after the letter, read apart (h^ℓ_3 read 'hg')
            text, centres, stacked = read_stacked(text, centres, plain_crop,
                                                  lambda cs: engine.recognize(cs, latin, fold_case=True))
            text, centres = with_math(text, conf, centres, *accented.get(best, (crop, [])))
            text = greek_in_line(text, centres, crop)  # TeX's ρ inside a line, read 'p'
        if not text.strip() or conf < (SURE_SLANT if line.slant else config.ocr_min_confidence) or _drawn_arrow(text):
            continue
        text, centres = _without_drawn_tip(text, centres)
        run = make_run(text, conf, centres, crop, line, angle, region, bg, (y0, x0), "det")
        if run is not None and stacked is not None:
            scripts = len(plain(stacked)) - 1  # the letter's accent, put back, stands before its scripts
            marked = run.text[:-scripts] + stacked[1:]
            run = replace(run, marked=marked) if plain(marked) == run.text else run
        if run is not None:
            runs.append(run)
    if past(deadline):
        return _own_words(dedupe(runs))
    runs = _extend_rotated(_join_rotated(dedupe(runs)), rgb, engine, latin)
    runs = whole_words(runs, rgb, lambda c: engine.recognize([c], latin, REC_WORD_WIDTH, fast=fast)[0])
    runs = _with_lone_glyphs(runs, rgb, paints, engine, latin, config)
    runs = _join_underscored(runs, rgb)
    if not config.ocr_math_letters:
        return _own_words(runs)
    runs = join_script_minus(add_hats(runs, rgb), rgb)
    # a math label's subscript the detector boxed apart or left out ('ŷ' and a lone '1'); its lead letter
    # a Greek one the recogniser read as its Latin look-alike ('T1' for τ₁)
    runs = join_subscripts(runs, rgb, lambda c: engine.recognize([c], latin, fold_case=True)[0])
    runs = join_superscripts(runs)  # a wide superscript boxed apart over them (h^{(1)}_2 read '(1)', 'h2')
    return _own_words(greek_leads(runs))


def _own_words(runs: list[TextRun]) -> list[TextRun]:
    """The runs with words misread by one slip from a word the figure reads elsewhere mended
    (:func:`~crafteditor.ocr.lexicon.mend_from_figure`); a run with scripts keeps its reading."""
    texts = mend_from_figure([r.text for r in runs])
    return [replace(r, text=t) if t != r.text and r.marked is None else r for r, t in zip(runs, texts)]


DOUBTFUL_ROTATED = 0.97  # a sideways run of one or two glyphs read less surely may be a tick label and its tick


def _with_lone_glyphs(runs: list[TextRun], rgb: np.ndarray, paints: Paints, engine: OcrEngine, latin: bool,
                      config: Config) -> list[TextRun]:
    """The runs with the lone glyphs added. A doubtful sideways run of one or two glyphs, or no longer
    than two glyphs of the upright text are tall, does not hide its ink from the lone-glyph pass, and
    gives way to a number read there upright: the detector had boxed a small '3' with its tick mark
    above as a vertical line read 'w−' (plotnine at 72 dpi); upscaled further for small print, a '5'
    with its tick (11 px, 6 px glyphs) was read as three glyphs '=16', and a count of glyphs read missed it.
    Any such short sideways run, however sure, gives way to a stacked fraction's parts read upright
    (:func:`_stacked_fraction`)."""
    text_h = text_height([r for r in runs if r.angle == 0])
    short = [r for r in runs if r.angle != 0 and (len(r.text.replace(" ", "")) <= 2 or max(r.w, r.h) <= 2 * text_h)]
    doubtful = [r for r in short if r.confidence < DOUBTFUL_ROTATED]
    # a sure one only where it may be a stacked fraction (its ink two or three parts one above the other):
    # a rotated tick label's glyphs are not read again to be dropped
    ink = paints.ink_mask() if len(doubtful) < len(short) else None
    hidden = [r for r in short if r.confidence < DOUBTFUL_ROTATED or _stacked_ink(r, ink)]
    lone = read_lone_glyphs(rgb, paints, [r for r in runs if not any(r is d for d in hidden)], engine, latin,
                            config)

    def meets(a: TextRun, b: TextRun) -> bool:
        return a.x < b.x + b.w and b.x < a.x + a.w and a.y < b.y + b.h and b.y < a.y + a.h

    numbers = [g for g in lone if g.text.strip().lstrip("-−").replace(".", "").isdigit()]
    beaten = [d for d in doubtful if any(meets(d, g) for g in numbers)]
    # a stacked fraction (TeX's F over N) the detector boxed as one sideways line, however sure: its parts
    # read upright, one above the other with the rule between them
    stacks = [(d, parts) for d in hidden if not any(d is x for x in beaten)
              for parts in [[g for g in lone if meets(d, g)]] if len(parts) >= 2]
    ink = paints.ink_mask() if stacks and ink is None else ink
    fractions = [d for d, parts in stacks if _stacked_fraction(d, parts, ink)]
    beaten += fractions
    kept = [d for d in short if not any(d is x for x in beaten)]
    # (a number read there beat its doubtful run, so it meets none kept; under a sure one it is dropped)
    lone = [g for g in lone if not any(meets(g, d) for d in kept)]
    return [r for r in runs if not any(r is b for b in beaten)] + lone


FRACTION_SURE = 0.95  # each part of a stacked fraction read upright at least this surely


def _stacked_fraction(run: TextRun, parts: list[TextRun], ink: np.ndarray | None) -> bool:
    """Whether a sideways run is a stacked fraction read sideways: two upright glyphs read surely lie one
    above the other over most of its length, with a rule of ink across between their middles wider than
    the narrower of the two and near the wider's width (thermo-ensemble's F over N had read 'FN' at 90°; the
    lone-glyph pass may box the rule with either part). A word set sideways has no such rule: the rule is a
    flat piece of ink of its own, so a 'T' bar or an 'E' arm (joined to their stems) is none, nor a gridline
    running on past both parts."""
    parts = sorted((g for g in parts if g.angle == 0 and g.confidence >= FRACTION_SURE
                    and any(ch.isalnum() for ch in g.text)), key=lambda g: g.y)
    if ink is None or len(parts) != 2:
        return False
    top, low = parts
    narrow = min(top.w, low.w)
    if min(top.x + top.w, low.x + low.w) - max(top.x, low.x) < 0.5 * narrow or low.y + low.h / 2 <= top.y + top.h \
            or low.y + low.h - top.y < 0.8 * max(run.w, run.h):
        return False
    y0, y1 = int(top.y + top.h / 2), int(np.ceil(low.y + low.h / 2))
    pad = int(0.5 * narrow) + 2
    x0, x1 = int(min(top.x, low.x)) - pad, int(np.ceil(max(top.x + top.w, low.x + low.w))) + pad
    band = ink[max(0, y0):y1, max(0, x0):x1].astype(np.uint8)
    if band.size == 0:
        return False
    n, labels, stats, _ = find_blobs(band)
    wide, flat = max(1.15 * narrow, narrow + 3, 0.9 * max(top.w, low.w)), max(2.0, 0.25 * min(top.h, low.h))
    return any(stats[i, cv2.CC_STAT_HEIGHT] <= flat and 0 < stats[i, cv2.CC_STAT_LEFT]
               and stats[i, cv2.CC_STAT_LEFT] + stats[i, cv2.CC_STAT_WIDTH] < band.shape[1]
               and longest_run(labels == i) >= wide for i in range(1, n))


def _stacked_ink(run: TextRun, ink: np.ndarray | None) -> bool:
    """Whether ``run``'s ink lies in two or three pieces one above the other (a stacked fraction's parts,
    its rule a third where it touches neither): where a sideways run may be one (:func:`_stacked_fraction`)."""
    if ink is None:
        return False
    y0, x0 = max(0, int(run.y) - 2), max(0, int(run.x) - 2)
    box = ink[y0:int(np.ceil(run.y + run.h)) + 2, x0:int(np.ceil(run.x + run.w)) + 2].astype(np.uint8)
    if box.size == 0:
        return False
    n, _, stats, _ = find_blobs(box)
    pieces = sorted((stats[i, cv2.CC_STAT_TOP], stats[i, cv2.CC_STAT_HEIGHT]) for i in range(1, n)
                    if stats[i, cv2.CC_STAT_AREA] >= 3)
    return 2 <= len(pieces) <= 3 and all(t + h <= t2 for (t, h), (t2, _) in zip(pieces, pieces[1:]))


def longest_run(mask: np.ndarray) -> int:
    """The longest horizontal run of True in any row of ``mask``."""
    best = 0
    for row in mask:
        edges = np.flatnonzero(np.diff(np.concatenate(([0], row.astype(np.int8), [0]))))
        if len(edges):
            best = max(best, int((edges[1::2] - edges[::2]).max()))
    return best


def _read_accented(cands: list, crops: list, engine: OcrEngine, latin: bool, fast: bool) -> dict[int, tuple]:
    """The upright candidates read again without their accents (:func:`~crafteditor.ocr.accents.read_accented`),
    put in ``cands`` in place: {candidate: (crop without the accents, the accents)} for those that had any."""
    out = {}
    for i, (crop, angle) in enumerate(crops):
        if angle != 0:
            continue
        text, conf, centres, plain, accents = read_accented(
            *cands[i], crop, lambda c: engine.recognize([c], latin, REC_WORD_WIDTH, fast=fast)[0])
        if accents:
            cands[i] = (text, conf, centres)
            out[i] = (plain, accents)
    return out


def _extend_rotated(runs: list[TextRun], rgb: np.ndarray, engine: OcrEngine, latin: bool) -> list[TextRun]:
    """A rotated line whose detector box stopped short of its first or last letters (a y title
    'Accuracy' came back 'curacy'): where glyph ink goes on along the line's column past an
    end, within a letter gap, the longer box is read again and kept if it reads more, as well."""
    H, W = rgb.shape[:2]
    out = []
    for r in runs:
        if r.angle not in (-90.0, 90.0) or r.glyphs is None:
            out.append(r)
            continue
        x0, x1 = max(0, int(r.x) - 2), min(W, int(math.ceil(r.right)) + 2)
        y0, y1 = int(r.y), int(math.ceil(r.bottom))
        band = rgb[:, x0:x1]
        bg = region_background(rgb[max(0, y0 - 4):min(H, y1 + 4), x0:x1])
        dist = distances(band, bg)
        inked = (dist > 60).any(axis=1)
        gap = max(2, int(0.5 * r.w))
        top, bottom = y0, y1
        while top > 0 and inked[max(0, top - gap):top].any():
            top = max(0, top - gap) + int(np.flatnonzero(inked[max(0, top - gap):top])[0])
        while bottom < H and inked[bottom:min(H, bottom + gap)].any():
            bottom = bottom + int(np.flatnonzero(inked[bottom:min(H, bottom + gap)])[-1]) + 1
        if (y0 - top) + (bottom - y1) < 0.3 * r.w or bottom - top > 4 * (y1 - y0):
            out.append(r)
            continue
        region = rgb[top:bottom, x0:x1]
        crop = np.rot90(region, k=-1 if r.angle == -90.0 else 1)
        text, conf, _ = engine.recognize([cv2.cvtColor(np.ascontiguousarray(crop), cv2.COLOR_RGB2BGR)], latin)[0]
        if len(text.strip()) <= len(r.text.strip()) or conf < r.confidence - 0.1:
            out.append(r)
            continue
        glyph, _ = glyph_mask(region, bg)
        out.append(replace(r, text=text.strip(), x=float(x0), y=float(top), w=float(x1 - x0), h=float(bottom - top),
                           confidence=conf, glyphs=glyph))
    return out


def _join_rotated(runs: list[TextRun]) -> list[TextRun]:
    """A rotated line the detector cut in two along its length is one line: two runs of one
    angle in one column, end to end (a y-axis title 'mAP' came back as 'AP' and a loose 'm').
    Read bottom to top at -90°, top to bottom at +90°; a space where the gap is a word gap."""
    out = list(runs)
    changed = True
    while changed:
        changed = False
        for i, a in enumerate(out):
            if a.angle not in (-90.0, 90.0):
                continue
            for j, b in enumerate(out):
                if j == i or b.angle != a.angle:
                    continue
                overlap = min(a.right, b.right) - max(a.x, b.x)
                gap = b.y - a.bottom  # b below a
                if overlap < 0.6 * min(a.w, b.w) or not -1 <= gap <= 0.8 * max(a.w, b.w) \
                        or abs(a.font_px - b.font_px) > 0.25 * max(a.font_px, b.font_px):
                    continue
                first, second = (b, a) if a.angle == -90.0 else (a, b)
                space = " " if gap > 0.3 * max(a.w, b.w) else ""
                x0, y0 = min(a.x, b.x), a.y
                x1, y1 = max(a.right, b.right), b.bottom
                glyphs = joined_glyphs((a, b), x0, y0, x1, y1)
                out[i] = replace(first, text=first.text + space + second.text, x=x0, y=y0, w=x1 - x0, h=y1 - y0,
                                 font_px=(a.font_px + b.font_px) / 2, confidence=min(a.confidence, b.confidence),
                                 glyphs=glyphs)
                del out[j]
                changed = True
                break
            if changed:
                break
    return out


def _join_underscored(runs: list[TextRun], rgb: np.ndarray) -> list[TextRun]:
    """Words an underscore joins, read apart: the underscore lies below the baseline, outside the
    detector's box, so 'LR_2' came back as two runs 'LR' '2' or as 'LR 2' (graphviz state
    names, schema columns 'member_id'; issue 31). A gap under an em wide, between two runs on
    one line or at a space of one run, empty but for one bar spanning it at or below the
    baseline, is an underscore."""
    out = sorted(runs, key=lambda r: (r.angle, r.y, r.x))
    k = 0
    while k < len(out):
        a = out[k]
        if a.angle == 0 and " " in a.text and a.glyphs is not None:
            out[k] = a = _underscored_spaces(a, rgb)
        b = next((q for q in out if q is not a and q.angle == 0 == a.angle and 0 < q.x - a.right <= a.font_px
                  and abs(q.baseline - a.baseline) <= 0.15 * a.font_px
                  and abs(q.font_px - a.font_px) <= 0.25 * a.font_px), None)
        bar = None if b is None or a.glyphs is None or b.glyphs is None else _underscore(
            rgb, int(math.ceil(a.right)), int(b.x), a.y, max(a.baseline, b.baseline), a.font_px)
        if bar is None:
            k += 1
            continue
        y0, rows = bar
        gx0, gy0 = min(a.x, b.x), min(a.y, b.y)
        gx1, gy1 = max(a.right, b.right), max(a.bottom, b.bottom, float(y0 + rows))
        glyphs = joined_glyphs((a, b), gx0, gy0, gx1, gy1)
        # the bar is the underscore's ink: erased with the text
        glyphs[int(y0 - gy0):int(y0 - gy0) + rows, int(math.ceil(a.right) - gx0):int(b.x - gx0)] = True
        out[k] = replace(a, text=a.text + "_" + b.text, w=gx1 - gx0, h=gy1 - gy0, y=gy0, x=gx0, glyphs=glyphs,
                         confidence=min(a.confidence, b.confidence), marked=None)
        out.remove(b)
    return out


def _underscore(rgb: np.ndarray, x0: int, x1: int, top: float, baseline: float,
                font_px: float) -> tuple[int, int] | None:
    """(first row, rows) of the bar spanning columns x0..x1 at or below ``baseline``, the gap
    otherwise empty from ``top`` down; None where there is none."""
    H = rgb.shape[0]
    y0, y1 = max(0, int(top)), min(H, int(math.ceil(baseline + 0.4 * font_px)))
    if x1 - x0 < 2 or y1 - y0 < 4:
        return None
    gap = rgb[y0:y1, x0:x1]
    ink = distances(gap, region_background(rgb[y0:y1, max(0, x0 - 4):x1 + 4])) > 60
    rows = np.flatnonzero(ink.mean(axis=1) >= 0.8)
    if rows.size == 0 or rows[-1] - rows[0] + 1 > max(2, 0.15 * font_px) or y0 + rows[0] < baseline - 0.1 * font_px \
            or ink.sum() > 1.5 * rows.size * ink.shape[1]:  # nothing else in the gap
        return None
    # an underscore ends with the gap; a message's arrow under a label runs on under the letters
    a, b = int(0.15 * font_px), int(0.6 * font_px)
    band = rgb[y0 + int(rows[0]):y0 + int(rows[-1]) + 1]
    bg = region_background(gap)
    for lo, hi in ((max(0, x0 - b), max(0, x0 - a)), (x1 + a, min(rgb.shape[1], x1 + b))):
        if hi > lo and (distances(band[:, lo:hi], bg) > 60).any(axis=0).mean() >= 0.5:
            return None
    return y0 + int(rows[0]), int(rows[-1] - rows[0] + 1)


def _underscored_spaces(r: TextRun, rgb: np.ndarray) -> TextRun:
    """A run whose spaces stand where its glyphs' column gaps are, each gap with an underscore
    below it made '_' (the bar is added to the glyphs)."""
    cols = r.glyphs.any(axis=0)
    edges = np.diff(np.concatenate(([1], cols.astype(np.int8), [1])))
    starts, ends = np.flatnonzero(edges == -1), np.flatnonzero(edges == 1)
    gaps = [(int(s), int(e)) for s, e in zip(starts, ends) if e - s >= 0.2 * r.font_px and 0 < s and e < cols.size]
    if len(gaps) != r.text.count(" "):
        return r
    text, glyphs = list(r.text), r.glyphs
    spaces = [i for i, ch in enumerate(r.text) if ch == " "]
    for i, (s, e) in zip(spaces, gaps):
        bar = _underscore(rgb, int(r.x) + s, int(r.x) + e, r.y, r.baseline, r.font_px)
        if bar is None:
            continue
        text[i] = "_"
        y0, rows = bar
        if y0 + rows > r.y + glyphs.shape[0]:
            glyphs = np.pad(glyphs, ((0, int(y0 + rows - r.y) - glyphs.shape[0]), (0, 0)))
        glyphs[int(y0 - r.y):int(y0 - r.y) + rows, s:e] = True
    if "".join(text) == r.text:
        return r
    return replace(r, text="".join(text), glyphs=glyphs, h=float(glyphs.shape[0]), marked=None)


def _without_drawn_tip(text: str, centres: list[float]) -> tuple[str, list[float]]:
    """A reading that starts with an arrow ('→ real?', '→out'), or ends with one:
    the arrow is the tip of a drawn arrow the detector's box took in (a TikZ line ending at a free
    label), not text; it is dropped with its centre (the ink is trimmed with it, :func:`make_run`)."""
    if len(text) > 2 and len(centres) == len(text):
        if text[0] in "→⟶" and text[1:].strip():
            k = 2 if text[1] == " " else 1
            return text[k:], centres[k:]
        if text[-1] in "←⟵" and text[:-1].strip():
            k = 2 if text[-2] == " " else 1
            return text[:-k], centres[:-k]
    return text, centres


def _drawn_arrow(text: str) -> bool:
    """A reading made only of arrow and rule glyphs is a drawn arrow or line inside the box, not text
    (a dashed arrow read sideways came back as '→' at 0.85)."""
    t = text.replace(" ", "")
    return bool(t) and all(ch in "→←↑↓↔⟶⟵-–—|_" for ch in t)
