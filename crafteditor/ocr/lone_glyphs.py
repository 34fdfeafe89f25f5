"""The second pass: lone glyphs the detector missed (single-digit tick labels, short labels, the
'+' of a summation node), found as isolated dark clusters on the canvas or on a light fill.

Round 14 (math14): a math label's own scripts had crowded its letter, and a circle node's outline the
label in it. Drawn real TikZ (``craftbench makers tikz-wild -n 110 --seed 0``: 106 figures) words found
1,077 -> 1,086 of 1,556 (never 345 -> 336), nodes (20 figures) 0.537 -> 0.556; dev 127 words 0.9116 ->
0.9124, nodes 0.8098 -> 0.8084, edges 0.6213 -> 0.6214.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections import Counter

import cv2
import numpy as np

from crafteditor.blobs import find_blobs
from crafteditor.config import Config
from crafteditor.ocr.accents import read_math
from crafteditor.ocr.engine import OcrEngine
from crafteditor.ocr.greek import GREEK_SCORE, LOOKALIKES, read_greek
from crafteditor.ocr.operators import sure_operator
from crafteditor.ocr.runs import TextRun, make_run
from crafteditor.ocr.text_lines import TextLine, line_crops
from crafteditor.paint import Paints, darkest_color, distances, luma

GREEK_SURE = 0.97  # a lone glyph read less surely than this (or as a Latin look-alike) may be a Greek letter
WIDE = 1.5  # a glyph's width, at most, of its height
SCRIPT_H = 0.2  # a sub- or superscript's height, at least, of the text's (a glyph's is 0.45 and more)
SCRIPT_WIDE = 2.5  # its width, at most, of its height (the arrow of h_{3→4})
LIGHT_FILL = 200.0  # luminance above which a paint is a fill, never a glyph's colour
ON_FILL = 0.5  # a cluster is on a fill where this share of a thin ring round its box is fill
SMALL_NODE = 2.5  # a node round a lone label is this many of the text's glyph heights across at most,
SMALL_NODE_OWN = 4.0  # or this many of the label's own height (a TikZ circle node round a math letter: 3-4)


def read_lone_glyphs(rgb: np.ndarray, paints: Paints, runs: list[TextRun], engine: OcrEngine, latin: bool,
                      config: Config) -> list[TextRun]:
    """Isolated dark glyph clusters on the canvas or on a light fill (single-digit ticks, short
    labels, the '+' in a summation node)."""
    labels = paints.labels
    # light fills (nodes, group frames) are not ink here, so a glyph on one stands alone too
    lum = luma(paints.colors)
    light = (labels != paints.background) & (labels >= 0) & (lum[np.maximum(labels, 0)] > LIGHT_FILL)
    ink = (labels != paints.background) & ~light
    # a fill is an area, not the light rim anti-aliasing leaves around dark glyphs
    light = cv2.morphologyEx(light.astype(np.uint8), cv2.MORPH_OPEN, np.ones((5, 5), np.uint8)).astype(bool)
    for r in runs:
        x0, y0 = int(r.x), int(r.y)
        hh, ww = r.glyphs.shape
        ink[y0:y0 + hh, x0:x0 + ww] &= ~cv2.dilate(r.glyphs.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    n, lab, stats, _ = find_blobs(ink)
    if n <= 1:
        return []
    glyph_h = text_height(runs)
    text_colors = np.array([r.color for r in runs], dtype=np.float32) if runs else np.zeros((1, 3), np.float32)
    bg = paints.background_rgb.astype(np.float32)
    # the labels read already line up with a pale glyph the detector left out of their row or column
    read = [(int(r.x), int(r.y), int(r.w), int(r.h), -1) for r in runs if r.angle == 0]
    cands, scripts, bars = _candidates(rgb, lab, stats, glyph_h, text_colors, bg, read, runs)
    cands = _drop_dashes(cands, stats, lab)
    scripts = _drop_dashes(scripts, stats, lab)  # a dash beside a lone letter is no script of it either
    dots = [(int(x), int(y), int(cw), int(ch), i) for i, (x, y, cw, ch, area) in enumerate(stats) if i
            and area >= 2 and max(cw, ch) <= 0.3 * glyph_h and cw <= 2 * ch and ch <= 2 * cw]
    words = _with_scripts(_with_accents(_cluster_glyphs(cands, glyph_h, dots), stats, glyph_h), scripts)
    ellipses = _ellipses(dots, lab, rgb, bg, text_colors, ink) + _lying_bars(rgb, lab, stats, bars, runs, paints)
    if not words:
        return ellipses
    crops, metas = [], []
    for members in words:
        x0 = min(m[0] for m in members)
        y0 = min(m[1] for m in members)
        x1 = max(m[0] + m[2] for m in members)
        y1 = max(m[1] + m[3] for m in members)
        if _crowded(ink, lab, members, (x0, y0, x1, y1), glyph_h, light):
            continue
        mask = np.isin(lab[y0:y1, x0:x1], [m[4] for m in members])
        region = rgb[y0:y1, x0:x1]
        bgc = paints.background_rgb
        line = TextLine(mask, 0, 0, False)
        crop = line_crops(region, line, bgc)[0][0]
        crops.append(crop)
        metas.append((line, region, bgc, (y0, x0)))
    results = engine.recognize(crops, latin, fold_case=True)
    out = []
    for (text, conf, centres), crop, (line, region, bgc, origin) in zip(results, crops, metas):
        text = text.strip()
        if len(text) <= 1 and (conf < GREEK_SURE or text in LOOKALIKES) and find_blobs(line.mask)[0] == 2:
            letter = read_greek(line.mask)  # a lone σ (an LSTM's gate box): no class in the recogniser
            if letter is not None:
                text, conf, centres = letter, GREEK_SCORE, [crop.shape[1] / 2]
        if config.ocr_math_letters and text:  # a math label's accents and italic lead letter (x_t read 't')
            text, conf, centres = read_math(text, conf, centres, crop,
                                            lambda c: engine.recognize([c], latin, fold_case=True)[0])
            text = text.strip()
        conf = sure_operator(text, conf, line.mask)  # a circled operator's × or +, read unsurely
        text, conf = bar_in_label_row(text, conf, line.mask, origin, runs)
        if not text or conf < max(0.85, config.ocr_min_confidence) or not _plausible_label(text):
            continue
        run = make_run(text, conf, centres, crop, line, 0.0, region, bgc, origin, "glyph")
        if run is not None:
            out.append(run)
    return out + ellipses


BAR_READINGS = frozenset("1lI|")  # what the recogniser makes of a bare vertical bar
BAR_SCORE = 0.9  # a bar's reading as its row's kind of glyph: over the lone-glyph gate
BAR_FLOOR = 0.75  # the least sure reading a bar's row may raise (a sans 'I' is read '1' at 0.83)


def bar_in_label_row(text: str, conf: float, mask: np.ndarray, origin: tuple[int, int],
                     runs: list[TextRun]) -> tuple[str, float]:
    """A lone glyph that is a bare bar (one width top to bottom: no flag, no foot) among upright
    labels of its height, in their row (an x axis's: tops shared) or their column (a y axis's,
    flush right: right edges shared): 'I' among capitals, '1' among numbers, at ``BAR_SCORE``; else
    ``(text, conf)`` as read. Sans-serif type draws 'I' as a bare bar, which the recogniser reads '1'
    at 0.83, under the gate: Vega-Lite's category 'I' after 'A'..'H' was lost and its bar named 'H'
    (17 of 101 drawn gallery charts lost a value so). A bar with a gap (a 1-px 'i' with its dot, '!',
    ':') is no bare bar, and a reading under ``BAR_FLOOR`` is no bar's. A sure '1' is such a bar too: a 2 px
    grey 'I' (Vega-Lite at 1x, its stroke between two pixel columns) read '1' at 0.96 named the last bar '1'."""
    rows = np.flatnonzero(mask.any(axis=1))
    if text not in BAR_READINGS or conf < BAR_FLOOR or rows.size < 6:
        return text, conf
    widths = mask[rows[0]:rows[-1] + 1].sum(axis=1)
    h = int(rows[-1] - rows[0] + 1)
    if widths.min() == 0 or int(widths.max() - widths.min()) > 1 or widths.max() > 0.3 * h:
        return text, conf
    top = origin[0] + rows[0]
    right = origin[1] + np.flatnonzero(mask.any(axis=0))[-1] + 1
    tol = max(1.0, 0.08 * h)
    kin = [r for r in runs if r.angle == 0 and r.text.strip() and abs(r.h - h) <= tol]
    # its row and its column apart: a bar's value printed in the row of a y axis's 'I' is no kin of it
    for line in ([r.text.strip() for r in kin if abs(r.y - top) <= tol],
                 [r.text.strip() for r in kin if abs(r.x + r.w - right) <= tol]):
        if len(line) < 2:
            continue
        if all(t.isalpha() and t.isupper() for t in line):
            return "I", max(conf, BAR_SCORE)
        if all(t.isdigit() for t in line):
            return "1", max(conf, BAR_SCORE)
    return text, conf


def _lying_bars(rgb: np.ndarray, lab: np.ndarray, stats: np.ndarray, bars: list[int], runs: list[TextRun],
                paints: Paints) -> list[TextRun]:
    """A bare bar lying in a row of single glyphs turned a quarter (x labels at -90 degrees): as long as
    they are wide, its top theirs: 'I' among capitals, '1' among digits, read at ``BAR_SCORE``. Too flat for
    a glyph, a turned 'I' was left out of the row and the last bar of Vega-Lite's ``simple_bar_chart``
    named 'H' (8 of 40 drawn gallery charts). The row's glyphs are read as upright look-alikes ('A', 'ω'),
    so their kind is told by the most of them. ``bars``: the flat components, their labels (:func:`_candidates`)."""
    single = [r for r in runs if len(r.text.strip()) == 1]
    if len(single) < 2:
        return []
    out = []
    for i in bars:
        x, y, cw, ch, area = (int(v) for v in stats[i])
        tol = max(1.0, 0.08 * cw)
        kin = [r.text.strip() for r in single if abs(r.y - y) <= tol and abs(r.w - cw) <= tol and r.h >= 2 * ch]
        if len(kin) < 2:
            continue
        letters, digits = sum(t.isalpha() and t.isupper() for t in kin), sum(t.isdigit() for t in kin)
        text = "I" if 2 * letters > len(kin) else "1" if 2 * digits > len(kin) else None
        if text is None:
            continue
        mask = lab[y:y + ch, x:x + cw] == i
        region = rgb[y:y + ch, x:x + cw]
        line = TextLine(mask, 0, 0, False)
        crop = line_crops(region, line, paints.background_rgb)[0][0]
        run = make_run(text, BAR_SCORE, [crop.shape[1] / 2], crop, line, 0.0, region, paints.background_rgb,
                       (y, x), "glyph")
        if run is not None:
            out.append(run)
    return out


def _read_already(x: int, y: int, cw: int, ch: int, runs: list[TextRun]) -> bool:
    """Whether the box (x, y, cw, ch) lies mostly (half its area) in a label read already, grown by a pixel: a
    '7''s top stroke, parted from its stem by antialiasing, is no 'I' lying in a heatmap's row of digits (a
    confusion matrix's cell read '7' and '1' both, and its 7 left the chart as loose text)."""
    for r in runs:
        w = min(x + cw, r.x + r.w + 1) - max(x, r.x - 1)
        h = min(y + ch, r.y + r.h + 1) - max(y, r.y - 1)
        if w > 0 and h > 0 and w * h >= 0.5 * cw * ch:
            return True
    return False


def text_height(runs: list[TextRun]) -> float:
    """The height of the upright text read, from runs with a letter or digit: a '>' or '·.' read from marks
    had pulled a 72 dpi plotnine's median to 6 px, and its 8 px '4' tick label fell out of the gate."""
    heights = [r.h for r in runs if r.angle == 0 and any(c.isalnum() for c in r.text)] \
        or [r.h for r in runs if r.angle == 0] or [0.11 * 96 * 1.0]
    return float(np.median(heights))


ELLIPSIS_SCORE = 0.9  # an ellipsis read from its dots: under the reader's gate, listed for the user to check


def _ellipses(dots: list[tuple[int, int, int, int, int]], lab: np.ndarray, rgb: np.ndarray, bg: np.ndarray,
              text_colors: np.ndarray, ink: np.ndarray) -> list[TextRun]:
    """Three like dots evenly spaced in a row or a column with no other ink for two steps around
    them, as '…' or '⋮' (the recogniser never sees them: no detector box holds dots alone; the
    vertical ellipsis of a stack of tokens was lost, issue 31; the dots of a dotted frame have
    dashes or dots beyond them). In DejaVu Sans '…' is 0.77 em wide, '⋮' 0.81 em tall."""
    # the dots as arrays in their order (a first match in that order wins, as in a scan of them):
    # scanning every dot for every dot was quadratic (0.9 s of a figure with ~700 dots)
    cxs = np.array([d[0] + d[2] / 2 for d in dots], np.float64)
    cys = np.array([d[1] + d[3] / 2 for d in dots], np.float64)
    sizes = np.array([max(d[2], d[3]) for d in dots], np.float64)
    used = np.zeros(len(dots), bool)

    def like(size: float) -> np.ndarray:
        return ~used & (np.abs(sizes - size) <= max(1.0, 0.4 * size))

    def at(x: float, y: float, size: float) -> int | None:
        """The first unused like dot at (x, y): its place in ``dots``."""
        hit = np.flatnonzero(like(size) & (np.abs(cxs - x) <= 1.5) & (np.abs(cys - y) <= 1.5))
        return int(hit[0]) if hit.size else None

    out = []
    for axis, ch, em, lo in ((0, "…", 0.77, 0.0), (1, "⋮", 0.81, -0.093)):
        along, across = (cxs, cys) if axis == 0 else (cys, cxs)
        for j in np.argsort(along, kind="stable").tolist():
            ax, ay, size = float(cxs[j]), float(cys[j]), float(sizes[j])
            if used[j]:
                continue
            # the nearest like dot after it along the axis, on its line, within 5 dot sizes
            step_along = along - along[j]
            nxt = like(size) & (np.abs(across - across[j]) <= 1.5) & (step_along > 0) & (step_along <= 5 * size)
            nxt[j] = False
            if not nxt.any():
                continue
            cand = np.flatnonzero(nxt)
            jb = int(cand[np.argmin(along[cand])])
            dx, dy = float(cxs[jb]) - ax, float(cys[jb]) - ay
            jc = at(ax + 2 * dx, ay + 2 * dy, size)
            if jc is None or at(ax - dx, ay - dy, size) is not None or at(ax + 3 * dx, ay + 3 * dy, size) is not None:
                continue
            trio = [dots[k] for k in (j, jb, jc)]
            a, b, c = (d[4] for d in trio)
            x0, y0 = min(d[0] for d in trio), min(d[1] for d in trio)
            x1, y1 = max(d[0] + d[2] for d in trio), max(d[1] + d[3] for d in trio)
            step = int(round(2 * max(abs(dx), abs(dy))))
            H, W = ink.shape
            ya, yb, xa, xb = max(0, y0 - step), min(H, y1 + step), max(0, x0 - step), min(W, x1 + step)
            if (ink[ya:yb, xa:xb] & ~np.isin(lab[ya:yb, xa:xb], [a, b, c])).any():
                continue
            mask = np.isin(lab[y0:y1, x0:x1], [a, b, c])
            col = darkest_color(rgb[y0:y1, x0:x1], mask, bg)
            if col is None or (np.linalg.norm(text_colors - col[None, :], axis=1).min() > 60 and float(col.mean()) > 90):
                continue
            font_px = (x1 - x0 if axis == 0 else y1 - y0) / em
            out.append(TextRun(text=ch, x=float(x0), y=float(y0), w=float(x1 - x0), h=float(y1 - y0), angle=0.0,
                               font_px=float(font_px), bold=False, color=tuple(int(v) for v in col),  # type: ignore[arg-type]
                               confidence=ELLIPSIS_SCORE, baseline=float(y1 + lo * font_px), glyphs=mask, source="glyph"))
            used[[j, jb, jc]] = True
    return out


def _candidates(rgb: np.ndarray, lab: np.ndarray, stats: np.ndarray, glyph_h: float, text_colors: np.ndarray,
                bg: np.ndarray, read: list[tuple[int, int, int, int, int]] = (), runs: list[TextRun] = ()
                ) -> tuple[list[tuple[int, int, int, int, int]], list[tuple[int, int, int, int, int]], list[int]]:
    """The components the size of a glyph, no marker, in a text colour: (x, y, w, h, label); those
    in a text colour the size of a math label's sub- or superscript (:func:`_with_scripts`); and the labels of
    the flat filled components, a glyph turned a quarter perhaps (:func:`_lying_bars`), that lie in no label
    read already (:func:`_read_already`, ``runs``). ``read``: the boxes of the upright labels read already,
    which a pale glyph may line up with (:func:`_tick_rows`)."""
    cands, pale, scripts, bars = [], [], [], []
    for i in range(1, len(stats)):
        x, y, cw, ch, area = (int(v) for v in stats[i])
        if cw >= 6 and ch <= 0.3 * cw and area >= 0.6 * cw * ch:  # too flat for a glyph or a script either way
            if not _read_already(x, y, cw, ch, runs):
                bars.append(i)
            continue
        script = SCRIPT_H * glyph_h <= ch < 0.45 * glyph_h and cw <= SCRIPT_WIDE * ch
        if not (script or (0.45 * glyph_h <= ch <= 1.3 * glyph_h and cw <= WIDE * ch)) or cw < 1:
            continue
        comp = lab[y:y + ch, x:x + cw] == i
        # a filled square or disc: a marker, not a glyph (but a tiny digit's anti-aliasing fills its box too)
        marker = area / float(cw * ch) > 0.85 and cw > 0.5 * ch
        # a glyph is drawn in a text colour: dark, or the colour of text already read
        col = darkest_color(rgb[y:y + ch, x:x + cw], comp, bg)
        if col is None:
            continue
        if script:
            if not marker and (np.linalg.norm(text_colors - col[None, :], axis=1).min() <= 60 or float(col.mean()) <= 90):
                scripts.append((x, y, cw, ch, i))
            continue
        if marker or (np.linalg.norm(text_colors - col[None, :], axis=1).min() > 60 and float(col.mean()) > 90):
            if float(col.max() - col.min()) < PALE_CHROMA and float(col.mean()) <= PALE_GREY \
                    and not (marker and _core_fill(rgb[y:y + ch, x:x + cw], comp, bg) >= PALE_CORE):
                pale.append((x, y, cw, ch, i))
            continue
        # and it stands alone: nothing else within half a glyph around it except other glyphs
        cands.append((x, y, cw, ch, i))
    return cands + _tick_rows(pale, [*cands, *read]), scripts, bars


def _core_fill(rgb: np.ndarray, comp: np.ndarray, bg: np.ndarray) -> float:
    """The share of a component's box its strong ink (half its greatest contrast or more) fills."""
    d = distances(rgb.reshape(-1, 3).astype(np.float32), bg).reshape(comp.shape)
    return float((comp & (d >= 0.5 * d[comp].max())).sum()) / comp.size


PALE_CHROMA = 24.0  # a grey glyph: its channels this close together
PALE_GREY = 170.0  # a grey this light is still a small tick label's darkest ink (anti-aliased 7 pt at 72 dpi)
PALE_CORE = 0.6  # a tiny digit's strong ink fills at most about half its box, a marker's nearly all


def _tick_rows(pale: list[tuple[int, int, int, int, int]],
               sure: list[tuple[int, int, int, int, int]]) -> list[tuple[int, int, int, int, int]]:
    """Of glyphs too pale for the colour gate (or filled like a marker), those that line up as tick
    labels do: three or more glyphs (``sure`` ones counted) sharing a row (top and height within a
    pixel) or a column (right edge and height within a pixel). plotnine's grey30 axis text at 7 pt
    and 72 dpi is anti-aliased to greys of 110..150 that fill a 4x6 box, and with no text read to
    match, every x tick label had been dropped."""
    # counted by (top, height) and (right edge, height) keys, each within a pixel: linear in the glyphs
    # (a page of 10,000 grey specks must not cost 10^8 comparisons)
    rows = Counter((b[1], b[3]) for b in (*pale, *sure))
    cols = Counter((b[0] + b[2], b[3]) for b in (*pale, *sure))

    def near(counts: Counter, u: int, h: int) -> int:
        return sum(counts[(u + du, h + dh)] for du in (-1, 0, 1) for dh in (-1, 0, 1))

    # three or more, itself included
    return [a for a in pale if max(near(rows, a[1], a[3]), near(cols, a[0] + a[2], a[3])) >= 3]


BAR_CORE = 0.8  # a dash drawn one column wide: that column inked over this share of its height at least,
BAR_RIM = 0.25  # and at most this share of its height inked beside it


def _drop_dashes(cands: list[tuple[int, int, int, int, int]], stats: np.ndarray,
                 lab: np.ndarray) -> list[tuple[int, int, int, int, int]]:
    """Drop the dashes of vertical dashed lines: solid bars stacked in a column with a like bar.

    Each dash is glyph-sized and reads as '1' or 'I' (rejected, at 0.35–0.87 confidence), but
    at the lone-glyph pad of 320 px each cost ~24 ms: 61 of them were 1.4 s of the transformer
    block example's 4 s. Dash patterns leave gaps up to ~2.5 dash lengths, and ~3 where a dash
    between two is lost (a q75 JPEG of rag_pipeline: two dashes 18 px apart read as two '1' labels,
    and the dashed edge ended at them). A lone label 'I' or 'l' has no bar of its size right
    above or below it.

    A bar is solid (its anti-aliased rims half in), or one full column with a stray rim pixel or
    two: a 1 px dash of a dashed frame's side (a pale rim column is no ink) read as seven '1' labels
    down Crafter's training_loop example at 150 dpi, and the side's other dashes as a loose path.
    """
    def bar(c) -> bool:
        x, y, cw, ch, i = c
        if cw > 0.4 * ch:
            return False
        area = int(stats[i][4])
        if area >= 0.6 * cw * ch:
            return True
        core = int((lab[y:y + ch, x:x + cw] == i).sum(axis=0).max())
        return core >= BAR_CORE * ch and area - core <= BAR_RIM * ch

    # by column (a px wide) and height: a dash looks only at the bars within 1.5 px of its column and a
    # few dash lengths of it (each against every bar was 10 s of a tall sequence diagram's 2500 lifeline dashes)
    cols: dict[int, list] = {}
    for c in sorted((c for c in cands if bar(c)), key=lambda c: c[1]):
        cols.setdefault(math.floor(c[0] + c[2] / 2), []).append(c)
    tops = {k: [c[1] for c in col] for k, col in cols.items()}

    def dash(c) -> bool:
        x, y, cw, ch, _ = c
        mid = x + cw / 2
        for k in range(math.floor(mid - 1.5), math.floor(mid + 1.5) + 1):
            if k not in cols:
                continue
            # a like bar (its height within 2 px) ends at most 3.2 dash heights above or starts as far below
            near = cols[k][bisect_left(tops[k], y - 4.2 * ch - 2):bisect_right(tops[k], y + 4.2 * ch)]
            for o in near:
                if o is c:
                    continue
                ox, oy, ocw, och, _ = o
                gap = max(oy - (y + ch), y - (oy + och))
                if abs((ox + ocw / 2) - mid) <= 1.5 and abs(och - ch) <= 2 and 0 < gap <= 3.2 * ch:
                    return True
        return False

    return [c for c in cands if not (bar(c) and dash(c))]


def _cluster_glyphs(cands: list[tuple[int, int, int, int, int]], glyph_h: float,
                    dots: list[tuple[int, int, int, int, int]] = ()) -> list[list[tuple]]:  # type: ignore[assignment]
    """Glyphs a letter's gap apart on one line, as words. ``dots``: components too small to be
    glyphs; one on the baseline between two glyphs joins them across a wider gap, as itself (the
    point of a tick label '1.5', which had been read as '1' and '5')."""
    cands = sorted(cands, key=lambda c: c[0])
    words: list[list[tuple]] = []
    for c in cands:
        for word in words:
            last = word[-1]
            same_line = min(last[1] + last[3], c[1] + c[3]) - max(last[1], c[1]) > 0.5 * min(last[3], c[3])
            gap = c[0] - (last[0] + last[2])
            if not same_line or gap < 0:
                continue
            if gap <= 0.45 * glyph_h:
                word.append(c)
                break
            base = min(last[1] + last[3], c[1] + c[3])
            point = next((d for d in dots if last[0] + last[2] <= d[0] and d[0] + d[2] <= c[0]
                          and abs(d[1] + d[3] - base) <= 0.15 * glyph_h), None)
            if point is not None and gap <= 1.0 * glyph_h:
                word += [point, c]
                break
        else:
            words.append([c])
    return words


def _with_accents(words: list[list[tuple]], stats: np.ndarray, glyph_h: float) -> list[list[tuple]]:
    """Each word with the flat marks just above its glyphs (a vector arrow or hat over a lone math
    letter: x⃗ had been left unread, its arrow counted as a drawing crowding the letter); the
    recogniser's crop then holds the accent, which :mod:`crafteditor.ocr.accents` reads apart."""
    x, y, cw, ch, area = (stats[:, k].astype(np.int64) for k in range(5))
    flat = np.flatnonzero((area >= 3) & (ch <= 0.35 * glyph_h) & (cw >= 1.5 * ch))
    flat = flat[flat > 0]
    if flat.size == 0:
        return words
    out = []
    for word in words:
        marks = [(int(x[i]), int(y[i]), int(cw[i]), int(ch[i]), int(i)) for i in flat for m in word
                 if 0 <= m[1] - (y[i] + ch[i]) <= 0.4 * glyph_h
                 and min(x[i] + cw[i], m[0] + m[2]) - max(x[i], m[0]) >= 0.5 * min(cw[i], m[2])
                 and cw[i] <= 2.0 * m[2]]  # over its letter, not a rule or a frame's side over the word
        out.append(word + list(dict.fromkeys(marks)))
    return out


SCRIPT_GAP = 0.35  # a script's gap, at most, after its letter or the script before it, of the letter's height
SCRIPT_OF = 0.85  # a script's height, at most, of its letter's
SCRIPT_SHIFT = 0.25  # a subscript's top lies this share of its letter's height below the letter's top, at least
MATH_LABEL = 2  # glyphs a word may have to take scripts (a letter, a letter and its prime)


def _with_scripts(words: list[list[tuple]], scripts: list[tuple[int, int, int, int, int]]) -> list[list[tuple]]:
    """Each short word with the sub- and superscripts set after its last glyph, one after another
    (TeX's x_1, h_t, W^T, h^ℓ_3, γ_1^2): a script under a glyph's height is no glyph, and one the size of
    a small glyph is a word of its own; either had stood round its letter as ink crowding it, and the
    letter of every such label beside a line or in a circle was dropped with them (drawn real TikZ,
    issue 31). A subscript hangs from the letter's lower part below its line, a superscript rises from its
    upper part above it; the next script starts within a small gap of the last. A lone glyph taken as a
    script leaves the words."""
    singles = [w[0] for w in words if len(w) == 1]
    free = sorted([*scripts, *singles], key=lambda c: c[0])
    xs = [c[0] for c in free]  # each word looks only from its last glyph's middle on (not from the page's left edge)
    taken: set[int] = set()
    grown: dict[int, list[tuple]] = {}
    for k, word in enumerate(words):
        glyphs = [m for m in word if m[3] >= 0.5 * max(g[3] for g in word)]  # not the accents
        if len(glyphs) > MATH_LABEL or glyphs[0][4] in taken:
            continue
        lx, ly, lw, lh, _ = max(glyphs, key=lambda m: m[0] + m[2])
        edge = lx + lw
        added = []
        for q in range(bisect_left(xs, lx + 0.5 * lw), len(free)):
            sx, sy, sw, sh, i = s = free[q]
            if i in taken or any(i == m[4] for m in word):
                continue
            if sx - edge > SCRIPT_GAP * lh:
                break
            # shifted off the letter's line: a smaller letter on its baseline (or at its top) is no script
            sub = sy >= ly + SCRIPT_SHIFT * lh and sy + sh <= ly + 1.5 * lh and (sy + sh > ly + lh or sy >= ly + 0.5 * lh)
            sup = sy + sh <= ly + (1 - SCRIPT_SHIFT) * lh and sy >= ly - 0.5 * lh and (sy < ly or sy + sh <= ly + 0.5 * lh)
            if sh <= SCRIPT_OF * lh and (sub or sup):
                added.append(s)
                taken.add(i)
                edge = max(edge, sx + sw)
        if added:
            grown[k] = word + added
    return [grown.get(k, word) for k, word in enumerate(words) if not (len(word) == 1 and word[0][4] in taken)]


def _crowded(ink: np.ndarray, lab: np.ndarray, members: list[tuple], box: tuple[int, int, int, int],
             glyph_h: float, light: np.ndarray) -> bool:
    """Other ink right around the cluster means it is part of a drawing, not a label.

    On a light fill (a node, a group frame) the cluster must stand clear of all ink by 0.6 of
    a glyph's height: there a dash of a dashed line meeting a dashed frame read as 'L', and
    an arrowhead on its line as '1', at 0.95 and more; the '+' of a summation node stands clear.
    """
    x0, y0, x1, y1 = box
    H, W = ink.shape
    m = max(2, int(0.3 * glyph_h))
    ya, yb, xa, xb = max(0, y0 - m), min(H, y1 + m), max(0, x0 - m), min(W, x1 + m)
    if _on_fill(light, box):
        m = max(2, int(0.6 * glyph_h))
        ya, yb, xa, xb = max(0, y0 - m), min(H, y1 + m), max(0, x0 - m), min(W, x1 + m)
        other = ink[ya:yb, xa:xb] & ~np.isin(lab[ya:yb, xa:xb], [mm[4] for mm in members])
        if other.any():
            # a glyph alone inside a small filled node (the × of a circled operator): the node's
            # outline and the lines meeting it lie outside its fill, no crowding of the glyph
            inside = _small_node_inside(light, box, glyph_h)
            return inside is None or bool((other & inside[ya:yb, xa:xb]).any())
    around = ink[ya:yb, xa:xb] & ~np.isin(lab[ya:yb, xa:xb], [mm[4] for mm in members])
    # an axis line (or a frame's side) running past the label, as a tick label stands beside
    # its axis, is no drawing round it: the ink of a line that carries on a glyph beyond the
    # margin (mplhep's framed axes had kept every single-digit tick label from being read); a glyph is the
    # cluster's own height where it is smaller than the text's median (a math label's letter in a figure with
    # large titles: its line ran on past it, but not by a title's height before meeting a node)
    g = int(min(glyph_h, y1 - y0))
    for c in np.flatnonzero(around.any(axis=0)):
        around[:, c] &= ~_on_line(ink[max(0, ya - g):min(H, yb + g), xa + c], ya - max(0, ya - g), yb - ya, g)
    for r in np.flatnonzero(around.any(axis=1)):
        around[r, :] &= ~_on_line(ink[ya + r, max(0, xa - g):min(W, xb + g)], xa - max(0, xa - g), xb - xa, g)
    if around.sum() <= 0.02 * around.size:
        return False
    # a label alone in a small unfilled node (a TikZ circle round a math letter): the outline round it and the
    # lines meeting it lie outside the canvas it stands on, no crowding of the label
    inside = _small_node_inside(~ink, box, glyph_h)
    if inside is None:
        return True
    other = ink[ya:yb, xa:xb] & ~np.isin(lab[ya:yb, xa:xb], [mm[4] for mm in members])
    return bool((other & inside[ya:yb, xa:xb]).any())


def _on_fill(light: np.ndarray, box: tuple[int, int, int, int]) -> bool:
    """Whether the cluster is set on a light fill: most of a thin ring just outside its box (1 to 3 px off it) is
    fill. A label set on the canvas beside a node (a TikZ math label under a box, by the line leaving it: a Mamba
    block's A, X, B, C) has a fill near it, not under it; it had been held to the fill's stricter margin and
    dropped for the box's outline. (Inside the box the fill is opened away, in the counters and gaps of a small
    glyph: a 0, 8 or m 7-10 px high, measured there, was off the fill it stood on.)"""
    x0, y0, x1, y1 = box
    H, W = light.shape
    ya, yb, xa, xb = max(0, y0 - 3), min(H, y1 + 3), max(0, x0 - 3), min(W, x1 + 3)
    ring = np.ones((yb - ya, xb - xa), bool)
    ring[max(0, y0 - 1) - ya:min(H, y1 + 1) - ya, max(0, x0 - 1) - xa:min(W, x1 + 1) - xa] = False
    return bool(ring.any()) and float(light[ya:yb, xa:xb][ring].mean()) > ON_FILL


def _small_node_inside(light: np.ndarray, box: tuple[int, int, int, int], glyph_h: float) -> np.ndarray | None:
    """The inside (the fill with the glyphs' holes in it filled) of the light fill around ``box``,
    as a mask of the page, where that fill is a small node: one fill around the whole box, under
    SMALL_NODE glyph heights or SMALL_NODE_OWN heights of the box across; None otherwise (a group frame's
    fill, no fill, two fills). ``light`` may be the page's light fills or all that is no ink (the canvas
    inside an unfilled node's outline)."""
    x0, y0, x1, y1 = box
    H, W = light.shape
    small = max(SMALL_NODE * glyph_h, SMALL_NODE_OWN * (y1 - y0))
    r = int(small)
    ya, yb, xa, xb = max(0, y0 - r), min(H, y1 + r), max(0, x0 - r), min(W, x1 + r)
    n, lab, stats, _ = find_blobs(light[ya:yb, xa:xb])
    # the fill in a 2 px ring round the box (inside it, a glyph's counters may hold fill of their own: a θ's two)
    ry, rx = max(0, y0 - ya - 2), max(0, x0 - xa - 2)
    ring = lab[ry:y1 - ya + 2, rx:x1 - xa + 2].copy()
    ring[y0 - ya - ry:y1 - ya, x0 - xa - rx:x1 - xa] = 0
    ids = np.unique(ring[ring > 0])
    if ids.size != 1:
        return None
    i = int(ids[0])
    fx, fy, fw, fh = (int(v) for v in stats[i, :4])
    if max(fw, fh) > small or fx > x0 - xa or fy > y0 - ya or fx + fw < x1 - xa or fy + fh < y1 - ya \
            or fx == 0 or fy == 0 or fx + fw >= lab.shape[1] or fy + fh >= lab.shape[0]:
        return None
    outside = (lab != i).astype(np.uint8)
    cv2.floodFill(outside, None, (0, 0), 2)  # the fill's outside, reached from the window's corner
    out = np.zeros((H, W), bool)
    out[ya:yb, xa:xb] = outside != 2
    return out


def _on_line(strip: np.ndarray, start: int, n: int, g: int) -> np.ndarray:
    """Of a strip of ink flags through a window's ``n`` cells at ``start``, the cells on an
    unbroken run of ink that comes in from ``g`` cells (a glyph) beyond either end."""
    out = np.zeros(n, bool)
    before, after = strip[:start], strip[start + n:]
    if before.size >= g and before.all():
        run = np.cumprod(strip[start:start + n]).astype(bool)
        out |= run
    if after.size >= g and after.all():
        out |= np.cumprod(strip[start:start + n][::-1]).astype(bool)[::-1]
    return out


def _plausible_label(text: str) -> bool:
    """Lone-glyph reads are accepted only when they look like labels (digits, short words)."""
    t = text.replace(" ", "")
    if len(t) > 12:
        return False
    return all(ch.isalnum() or ch in ".,-−+%×^()/:" for ch in t)
