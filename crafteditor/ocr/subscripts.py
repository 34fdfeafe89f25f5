"""Subscripts the detector left out of a math label's box, or boxed apart from it.

TeX sets a subscript small, low and close after its letter, and the text detector often stops its
box at the letter: ``\\hat{y}_1`` came back as 'ŷ' (the 1 never read, left as ink to trace) and
``h'_1`` as two runs "h'" and '1' (nntikz's seq2seq, issue 31), so neither label matched. A short
run followed within a third of an em by a smaller glyph group that hangs lower (its top below the
letter's top, its bottom at or below the letter's baseline) is one label: the group is read (where
it was not a run already) and joined on as a subscript, ``ŷ_{1}``.

A superscript stacked over a subscript (``\\vec{h}^\\ell_3``, ``x_i^2``) is inside the line's box, but the
recogniser reads the stack as one glyph ('hg') or not at all ('h'): :func:`read_stacked` reads its two
parts apart, and the label is the letter, the superscript and the subscript, ``h^{ℓ}_{3}``.

A wide superscript the detector boxed apart over the subscript (``h^{(1)}_2`` read '(1)' over 'h2') joins the label
under it (:func:`join_superscripts`; round 21): ``makers tikz --seed 20 -n 30`` words 89.2 -> 90.5 %, nodes 0.87 -> 0.88,
edges 0.65 -> 0.67 (its layer diagrams: words 71.4 -> 78.0 %, nodes 0.70 -> 0.77); dev unmoved.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from crafteditor.blobs import find_blobs
from crafteditor.ocr.greek import read_greek
from crafteditor.ocr.math_letters import MAX_CHARS, crop_ink, glyph_groups
from crafteditor.ocr.runs import TextRun, joined_glyphs
from crafter.spec.markup import has_markup, segments

GAP = 0.35  # ems: the most a subscript stands off its letter
SMALL = (0.35, 0.85)  # a subscript's height, of its letter's run
DROP = 0.2  # its top lies this share of the run's height below the run's top, at least
SURE = 0.9  # a subscript read here must be read this surely
STACK_PART = 0.8  # each part of a stack of scripts is at most this share of its letter's height
STACK_SURE = 0.6  # and read this surely
# a superscript read unsure is TeX's ℓ where it fits it this well and this much better than every look-alike: a
# 20 px ℓ over its subscript fitted 0.40 to 0.53, its best look-alike 0.32 to 0.35
ELL_FIT = (0.38, 0.05)
PRIMES = ("'", "/", "′", "`")  # what a prime over a subscript was read as
DOT_FILL = 0.75  # a dot's ink fills this share of its box, at least
# a superscript the detector boxed apart, over a math label's subscript (h^{(1)}_2 read '(1)' and 'h2'): its height at
# most this share of the label's, its bottom inside the label's upper part (between these shares of its height)
SUPER_TALL = 0.85
SUPER_BOTTOM = (0.15, 0.6)
SUPER_CHARS = 4  # its characters, at most: '(1)', 'ℓ+1'


def _hangs_after(a: TextRun, x: float, y: float, w: float, h: float) -> bool:
    """Whether a box (x, y, w, h) sits where a subscript of run ``a`` sits."""
    return (-GAP * a.font_px <= x - a.right <= GAP * a.font_px and x >= a.x + 0.5 * a.w and SMALL[0] * a.h <= h <= SMALL[1] * a.h
            and y >= a.y + DROP * a.h and y + h >= a.baseline - 1 and y < a.bottom)


def _math_label(a: TextRun) -> bool:
    t = a.text
    return a.angle == 0 and 0 < len(t) <= MAX_CHARS and " " not in t and t[0].isalpha() and a.glyphs is not None \
        and not has_markup(a.marked) and not t[-1].isdigit()


def _joined(a: TextRun, b_text: str, box: tuple[float, float, float, float], glyphs: np.ndarray, conf: float
            ) -> TextRun:
    x0, y0 = min(a.x, box[0]), min(a.y, box[1])
    x1, y1 = max(a.right, box[0] + box[2]), max(a.bottom, box[1] + box[3])
    out = np.zeros((int(math.ceil(y1 - y0)), int(math.ceil(x1 - x0))), bool)
    for gx, gy, g in ((a.x, a.y, a.glyphs), (box[0], box[1], glyphs)):
        oy, ox = int(round(gy - y0)), int(round(gx - x0))
        h, w = min(g.shape[0], out.shape[0] - oy), min(g.shape[1], out.shape[1] - ox)
        out[oy:oy + h, ox:ox + w] |= g[:h, :w]
    return replace(a, text=a.text + b_text, marked=f"{a.text}_{{{b_text}}}", x=x0, y=y0, w=x1 - x0, h=y1 - y0,
                   glyphs=out, confidence=min(a.confidence, conf))


def join_subscripts(runs: list[TextRun], rgb: np.ndarray, reread) -> list[TextRun]:
    """Runs with the subscripts after them joined on: a short run read apart ('1' after "h'"), or
    ink the detector's box left out, read with ``reread`` (a BGR crop in, (text, confidence,
    centres) out)."""
    out = list(runs)
    k = 0
    while k < len(out):
        a = out[k]
        k += 1
        if not _math_label(a):
            continue
        b = next((q for q in out if q is not a and q.angle == 0 and 0 < len(q.text) <= 2 and q.text.isalnum()
                  and q.glyphs is not None and _hangs_after(a, q.x, q.y, q.w, q.h)), None)
        if b is not None:
            out[k - 1] = _join_runs(a, b, a.text + b.text, f"{a.text}_{{{b.text}}}")
            del out[next(i for i, q in enumerate(out) if q is b)]  # by identity: equality reaches the glyph arrays
            k = 0
            continue
        found = _left_out(a, rgb, out)
        if found is None:
            continue
        (x, y, w, h), mask, crop = found
        text, conf, _ = reread(crop)
        text = text.strip()
        if 0 < len(text) <= 2 and text.isalnum() and conf >= SURE:
            out[k - 1] = _joined(a, text, (x, y, w, h), mask, conf)
    return out


def _left_out(a: TextRun, rgb: np.ndarray, runs: list[TextRun]
              ) -> tuple[tuple[int, int, int, int], np.ndarray, np.ndarray] | None:
    """The one small glyph group right after run ``a`` where a subscript sits, with clear page
    beyond it and inside no other run: (its box, its mask, a BGR crop of it with a margin)."""
    H, W = rgb.shape[:2]
    # the window starts half an em inside the run: a glyph the run's box cut (the last stem of a small
    # 'm' one antialiased column past the box had been read '1', 'sum' -> sum_1) is seen whole, and
    # then is no small low group
    x0, x1 = max(0, int(a.right - 0.5 * a.font_px)), min(W, int(math.ceil(a.right + (GAP + 1.0) * a.font_px)))
    edge = int(math.ceil(a.right)) - x0  # the run's right edge, in the window
    y0, y1 = max(0, int(a.y)), min(H, int(math.ceil(a.bottom + 0.4 * a.h)))
    if x1 - x0 - edge < 4 or y1 - y0 < 4:
        return None
    window = rgb[y0:y1, x0:x1]
    ink = crop_ink(window)
    n, lab, stats, _ = find_blobs(ink)
    inside = {i for i in range(1, n) if stats[i, 0] + stats[i, 2] <= edge}  # the run's own glyphs
    near = [i for i in range(1, n) if i not in inside and stats[i, 4] >= 3 and stats[i, 0] <= edge + GAP * a.font_px + 2]
    if not near:
        return None
    bx0 = min(int(stats[i, 0]) for i in near)
    bx1 = max(int(stats[i, 0] + stats[i, 2]) for i in near)
    by0 = min(int(stats[i, 1]) for i in near)
    by1 = max(int(stats[i, 1] + stats[i, 3]) for i in near)
    # the group ends inside the window and nothing touches the window's edges (a line running on)
    if bx1 >= ink.shape[1] - 2 or by0 == 0 or by1 >= ink.shape[0] or bx1 - bx0 > 0.8 * a.font_px:
        return None
    others = [i for i in range(1, n) if i not in near and i not in inside and stats[i, 4] >= 3]
    if any(stats[i, 0] < bx1 + 0.3 * a.font_px for i in others):
        return None
    box = (x0 + bx0, y0 + by0, bx1 - bx0, by1 - by0)
    if not _hangs_after(a, *box) or any(r is not a and r.x < box[0] + box[2] and box[0] < r.right
                                         and r.y < box[1] + box[3] and box[1] < r.bottom for r in runs):
        return None
    mask = np.isin(lab[by0:by1, bx0:bx1], near)
    m = max(2, int(0.3 * box[3]))
    cy0, cy1, cx0, cx1 = max(0, box[1] - m), min(H, box[1] + box[3] + m), max(0, box[0] - m), min(W, box[0] + box[2] + m)
    crop = np.ascontiguousarray(rgb[cy0:cy1, cx0:cx1][:, :, ::-1])
    return box, mask, crop


def read_stacked(text: str, centres: list[float], crop: np.ndarray, reread) -> tuple[str, list[float], str | None]:
    """A short reading of a letter and a stack of scripts after it (``crop``: the recogniser's BGR line crop,
    ``centres``: the characters' x centres in it) read as the letter, the superscript and the subscript:
    (text, centres, the marked reading ``h^{ℓ}_{3}``), or the reading as it was and None. The ink after the
    letter parts in two bands with clear rows between (not three: a fraction has its bar), each as tall as a
    subscript (:data:`SMALL`'s least) and no taller than :data:`STACK_PART` of the letter, the upper reaching
    above the letter's middle and the lower down to its baseline; each band is read apart with ``reread``
    (crops in, (text, confidence, centres) out), each reading holding a letter or digit (or the upper a prime)."""
    if not text or len(text) > MAX_CHARS or not text[0].isalpha() or len(text) != len(centres) or " " in text:
        return text, centres, None
    groups = glyph_groups(crop_ink(crop))
    if len(groups) < 2 or sum(groups[0][0] - 1 <= c <= groups[0][1] + 1 for c in centres) != 1:
        return text, centres, None
    n, _, stats, _ = find_blobs(groups[0][2])
    if n < 2:
        return text, centres, None
    body = 1 + int(np.argmax(stats[1:, 4]))  # the letter without an accent over it
    top, bottom = int(stats[body, 1]), int(stats[body, 1] + stats[body, 3])
    x0 = groups[0][1]
    rest = np.zeros_like(groups[0][2])
    for g in groups[1:]:
        rest |= g[2]
    rows = rest.any(axis=1)
    tall = bottom - top
    bands = _dots_joined(_bands(rows), tall)
    # (each part a glyph's height: the two dots of a colon after 'D' had been read as two scripts '■')
    if len(bands) != 2 or any(not SMALL[0] * tall <= b1 - b0 <= STACK_PART * tall for b0, b1 in bands):
        return text, centres, None
    (u0, u1), (l0, l1) = bands
    if u0 >= top + 0.5 * tall or l1 < bottom - 0.1 * tall or l0 <= top + 0.3 * tall or _dot(rest[u0:u1]):
        return text, centres, None
    cols = np.flatnonzero(rest.any(axis=0))
    c0, c1 = int(cols[0]), int(cols[-1]) + 1
    pad = max(2, (u1 - u0) // 3)
    parts = [np.ascontiguousarray(np.pad(crop[max(0, b0 - 1):b1 + 1, max(x0, c0 - 1):c1 + 1], ((pad, pad), (pad, pad), (0, 0)),
                                         mode="edge")) for b0, b1 in bands]
    (sup, sup_conf, _), (sub, sub_conf, _) = reread(parts)
    sup, sub = sup.strip(), sub.strip()
    if sup_conf < STACK_SURE and read_greek(crop_ink(parts[0]), "ℓ", *ELL_FIT) is not None:
        sup, sup_conf = "ℓ", STACK_SURE  # a layer's ℓ, which the recogniser has no class for (it read 'C', 'e')
    sup = "′" if sup in PRIMES else sup  # h'_1: a prime over the subscript, read '/'
    if not (0 < len(sup) <= 3 and 0 < len(sub) <= 3) or min(sup_conf, sub_conf) < STACK_SURE or " " in sup + sub \
            or not any(ch.isalnum() or ch == "′" for ch in sup) or not any(ch.isalnum() for ch in sub):
        return text, centres, None
    middle = (c0 + c1) / 2
    return text[0] + sup + sub, [centres[0]] + [middle] * (len(sup) + len(sub)), f"{text[0]}^{{{sup}}}_{{{sub}}}"


def _dot(band: np.ndarray) -> bool:
    """Whether a band's ink is one dot: about as wide as tall and filling :data:`DOT_FILL` of its box (a colon's or
    semicolon's upper dot after a bold 'x', as tall as a script there; no digit, letter or prime is that solid)."""
    rows, cols = np.flatnonzero(band.any(axis=1)), np.flatnonzero(band.any(axis=0))
    h, w = rows[-1] - rows[0] + 1, cols[-1] - cols[0] + 1
    return bool(max(h, w) <= 1.5 * min(h, w) and band.sum() >= DOT_FILL * h * w)


def _dots_joined(bands: list[tuple[int, int]], tall: int) -> list[tuple[int, int]]:
    """``bands`` with each one shorter than a script (:data:`SMALL`'s least of ``tall``) joined to the band under it
    where the gap between is at most twice its height: an i's or j's dot over its stem (``x_i^2``'s subscript
    had parted in three bands and the stack was not read); a colon's two small dots become one band."""
    out: list[tuple[int, int]] = []
    for b in bands:
        if out and out[-1][1] - out[-1][0] < SMALL[0] * tall and b[0] - out[-1][1] <= 2 * (out[-1][1] - out[-1][0]):
            out[-1] = (out[-1][0], b[1])
        else:
            out.append(b)
    return out


def _bands(rows: np.ndarray) -> list[tuple[int, int]]:
    """The runs of inked rows: (first, past last)."""
    out: list[tuple[int, int]] = []
    for y in np.flatnonzero(rows):
        if out and out[-1][1] == y:
            out[-1] = (out[-1][0], y + 1)
        else:
            out.append((int(y), int(y) + 1))
    return out


def _join_runs(a: TextRun, b: TextRun, text: str, marked: str) -> TextRun:
    """Run ``a`` with run ``b``'s ink taken in: the box around both, their glyphs pasted together, the lower
    confidence, read ``text`` (``marked`` with its scripts)."""
    x0, y0, x1, y1 = min(a.x, b.x), min(a.y, b.y), max(a.right, b.right), max(a.bottom, b.bottom)
    return replace(a, text=text, marked=marked, x=x0, y=y0, w=x1 - x0, h=y1 - y0,
                   glyphs=joined_glyphs((a, b), x0, y0, x1, y1), confidence=min(a.confidence, b.confidence))


def join_superscripts(runs: list[TextRun]) -> list[TextRun]:
    """Runs with a superscript the detector boxed apart joined to the math label under it: TeX sets a wide
    superscript over its subscript (``h^{(1)}_2``), and the detector boxed the stack's upper part '(1)' apart from
    'h_2' (every hidden unit of a drawn layer diagram, ``craftbench makers tikz``). The superscript is a short run
    (:data:`SUPER_CHARS`) starting past the label's lead letter's left half and no further than a subscript stands
    off (:data:`GAP`), at most :data:`SUPER_TALL` of the label's height, its top above the label's and its bottom in
    the label's upper part (:data:`SUPER_BOTTOM`); the label, a math label with no superscript yet, takes it after
    its lead letter: 'h(1)2', ``h^{(1)}_{2}``. One superscript to a label and one label to a superscript."""
    out = list(runs)
    for a in runs:
        if not any(q is a for q in out):  # taken already as another label's superscript
            continue
        pieces = segments(a.shown)
        if not a.math_label or a.glyphs is None or not pieces or pieces[0][1] or any(k == "super" for _, k in pieces):
            continue
        ups = [b for b in out if b is not a and _over_scripts(a, b)]
        if len(ups) != 1 or sum(_over_scripts(q, ups[0]) for q in out if q is not ups[0] and q.math_label) != 1:
            continue
        b = ups[0]
        body = pieces[0][0]
        rest = a.shown[len(body):]
        joined = _join_runs(a, b, body + b.text + a.text[len(body):], f"{body}^{{{b.text}}}{rest}")
        i = next(k for k, q in enumerate(out) if q is a)  # by identity: equality reaches the glyph arrays
        out[i] = joined
        del out[next(k for k, q in enumerate(out) if q is b)]
    return out


def _over_scripts(a: TextRun, b: TextRun) -> bool:
    """Whether run ``b`` sits where a superscript over math label ``a``'s scripts sits (:func:`join_superscripts`)."""
    t = b.text
    return (b.angle == 0 and 0 < len(t) <= SUPER_CHARS and " " not in t and any(ch.isalnum() for ch in t)
            and b.glyphs is not None and not has_markup(b.marked or "")
            and a.x + 0.3 * a.w <= b.x <= a.right + GAP * a.font_px and b.h <= SUPER_TALL * a.h and b.y < a.y
            and a.y + SUPER_BOTTOM[0] * a.h <= b.bottom <= a.y + SUPER_BOTTOM[1] * a.h)
