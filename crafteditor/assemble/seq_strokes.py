"""What a sequence diagram's rows and columns of ink are (:mod:`crafteditor.assemble.sequences`
reads the lifelines and messages with them): a row joining two lifelines, solid or dashed, stopping
at them and running on to them; a stroke with paper above and below; an arrowhead by a lifeline;
an activation bar hanging about one; a name's box border; a hand-drawn wave."""

from __future__ import annotations

import math

import cv2
import numpy as np

from crafteditor.shapes.detect import DetectedShape

WAVE = 6  # px a hand-drawn message wanders up or down along its way


def border_under(ink: np.ndarray, s: DetectedShape, yb: int) -> int | None:
    """The row of a box's bottom border just under name ``s`` (within its height): ink across the
    whole name and past both its ends (an arrowhead under a name is narrow), rising at one end of
    it at least as the box's side does (a fragment's top under the participants, its sides going
    down, is no box of the name's: PlantUML's ``loop`` right under them had moved a name's
    lifeline's top down 20 px, out of the participants' row)."""
    x0, x1 = int(s.x) - 3, int(math.ceil(s.x + s.w)) + 4
    if x0 < 0 or x1 > ink.shape[1]:
        return None
    rows = ink[max(0, yb - 2):yb + max(6, int(s.h)), x0:x1].mean(axis=1)
    hit = np.flatnonzero(rows >= 0.95)
    if not len(hit):
        return None
    k = 0
    while k + 1 < len(hit) and hit[k + 1] == hit[k] + 1:  # the border's rows (antialiased, thick)
        k += 1
    y = max(0, yb - 2) + int(hit[k])
    line = ink[y - int(hit[k] - hit[0]):y + 1].any(axis=0)
    left, right = x0, x1 - 1
    while left > 0 and line[left - 1]:
        left -= 1
    while right + 1 < len(line) and line[right + 1]:
        right += 1
    up = int(0.8 * s.h)
    if not any(ink[max(0, y - up - 2):max(0, y - 2), max(0, c - 2):c + 3].any(axis=1).mean() >= 0.8
               for c in (left, right)):
        return None
    return y


def head_under(strip: np.ndarray) -> bool:
    """Whether a strip of ink 13 px wide under a name holds an arrowhead: a row inked more than 4 px but not
    across (a line across is a fragment's top under the participants, no head)."""
    inked = strip.sum(axis=1)
    return bool(((inked > 4) & (inked < strip.shape[1])).any())


def bar_below(ink: np.ndarray, y: int, xl: np.ndarray) -> np.ndarray:
    """For each column ``xl``: whether an activation bar hangs about it from row ``y`` on: ink
    3-7 px to either side (its two sides) down 20 rows, nearly unbroken."""
    rows = ink[y + 3:y + 23]
    if len(rows) < 20:
        return np.zeros(len(xl), bool)
    W = rows.shape[1]
    side = rows.mean(axis=0) >= 0.8  # columns inked down the 20 rows
    out = np.zeros(len(xl), bool)
    for d in range(3, 8):
        left, right = xl - d, xl + d
        ok = (left >= 0) & (right < W)
        out |= ok & side[np.clip(left, 0, W - 1)] & side[np.clip(right, 0, W - 1)]
    return out


def bar_rows(ink: np.ndarray, c: int, least: int = 15) -> np.ndarray:
    """Per row of ``ink`` (a strip of an ink mask), whether an activation bar stands about column ``c`` there (or a
    column up to 5 px aside: a box's shadow shifts its middle): its two straight sides 3-9 px to either side of one
    middle, ink there and none 4 px further out on either (a message crossing inks on), filled between them or blank
    but for the lifeline (the stems of a name's letters are neither: 'Bob' under an actor), the same two columns on
    ``least`` rows in a row or more (an actor's legs, spreading row by row, are no bar: read as one, the stick
    figure's head took the lifeline). A bar from right under the participant (pgf-umlsd's ``newthread``, an
    activation from the first row) hides the lifeline's first rows: read on the others, or the participant has
    none, and a two-participant diagram loses every message."""
    H, W = ink.shape
    keep = np.zeros(H, bool)
    ink = ink.astype(bool)
    if H < least or not (ink.sum(axis=1) >= 2).any():
        return keep
    col = ink.sum(axis=0)  # a bar's two sides are inked on ``least`` rows or more each
    if (col >= least).sum() < 2:
        return keep
    inked = np.concatenate((np.zeros((H, 1), np.int32), np.cumsum(ink, axis=1, dtype=np.int32)), axis=1)

    def count(a: int, b: int) -> np.ndarray:  # ink per row on columns a..b-1
        return inked[:, b] - inked[:, a]

    for m in range(max(7, c - 5), min(W - 8, c + 6)):
        for d in range(3, 10):
            if m - d - 4 < 0 or m + d + 4 >= W:
                break
            if col[m - d] < least or col[m + d] < least:
                continue
            on = ink[:, m - d] & ink[:, m + d] & ~ink[:, m - d - 4] & ~ink[:, m + d + 4]
            if on.sum() < least:
                continue
            # filled between its sides, or blank (but for the lifeline in it): a name's stems are neither
            on &= (count(m - d, m + d + 1) == 2 * d + 1) | ((count(m - d + 1, m - 1) == 0) & (count(m + 2, m + d) == 0))
            edges = np.diff(np.concatenate(([0], on.astype(np.int8), [0])))
            for a, b in zip(np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)):
                if b - a >= least:
                    keep[a:b] = True
    return keep


def dotted(thin: np.ndarray, least: int = 6) -> np.ndarray:
    """Per column of ``thin`` (rows x columns, ink standing alone on a row), whether it is a dotted line: dots at
    one pitch of 3 to 12 rows, ``least`` gaps of that pitch (within a row) or more and three in five gaps so (a
    message crossing the column takes out a dot, a label's glyph over it adds a speck), four in five dots at most
    half the pitch long. pgf-umlsd's lifelines are 1 px dots every 5 to 7 rows, a sixth of the rows: too few for
    a dashed line, and a TikZ sequence diagram read as none (no lifeline under its boxes, every message lost)."""
    out = np.zeros(thin.shape[1], bool)
    if not len(thin):
        return out
    on = thin.astype(bool)
    n_dots = on[0] + (on[1:] & ~on[:-1]).sum(axis=0)  # each column's dots (runs of ink)
    for c in np.flatnonzero(n_dots > least):
        edges = np.diff(np.concatenate(([0], thin[:, c].astype(np.int8), [0])))
        starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
        if len(starts) <= least:
            continue
        gaps = np.diff(starts)
        pitch = float(np.median(gaps))
        regular = np.abs(gaps - pitch) <= 1
        out[c] = 3 <= pitch <= 12 and regular.sum() >= least and regular.mean() >= 0.6 and \
            (ends - starts <= pitch / 2).mean() >= 0.8
    return out


def waves(raw: np.ndarray, xa: float, xb: float, band: list[int]) -> bool:
    """Whether the ink about rows ``band`` between two lifelines is one hand-drawn stroke: nearly
    every column crossed once, thinly, its middle wandering 3 px or more (a straight row would
    have been read as one, or was refused as one for good reason)."""
    m = int(min(28, 0.2 * (xb - xa)))
    span = raw[max(0, band[0] - WAVE - 4):band[-1] + WAVE + 5, int(xa) + m:int(xb) - m]  # the wave's reach
    # each column crossed once, by a thin stroke (no box, no second line beside it)
    starts = span[:1].astype(int).sum(axis=0) + (span[1:] & ~span[:-1]).sum(axis=0)
    on = (starts == 1) & (span.sum(axis=0) <= 2 * WAVE)
    if span.shape[1] < 10 or on.mean() < 0.85:
        return False
    rows = np.arange(span.shape[0])[:, None]
    mid = (span * rows).sum(axis=0)[on] / span.sum(axis=0)[on]
    k = max(1, len(mid) // 20)  # the middle over twentieths of the way (a glyph's stroke aside)
    steps = np.array([np.median(mid[t:t + k]) for t in range(0, len(mid), k)])
    return float(steps.max() - steps.min()) >= 3.0


def spread(mask: np.ndarray, r: int) -> np.ndarray:
    """``mask`` grown ``r`` rows up and down."""
    return cv2.dilate(mask.astype(np.uint8), np.ones((2 * r + 1, 1), np.uint8)) > 0


def runs_to_ends(ink: np.ndarray, y: int, xa: float, xb: float) -> bool:
    """Whether row ``y``'s ink (a row either side; a label's glyphs may take in its arrow) runs on to both lifelines through the
    margins :func:`joins` leaves by them: to within 12 px of each, or to an activation bar's side
    (a vertical line whose mirror across the lifeline is one too). A note set after a message's
    head ends short of the next lifeline, its side unmirrored."""
    H, W = ink.shape
    m = int(min(28, 0.2 * (xb - xa)))
    y0, y1 = max(0, y - 1), y + 2
    near = ink[y0:y1].any(axis=0)
    for x, inward in ((int(xa), 1), (int(xb), -1)):
        zone = [x + inward * t for t in range(6, m)]
        on = [c for c in zone if 0 <= c < W and near[c]]
        if not on:
            return False
        c = min(on, key=lambda c: abs(c - x))  # the ink nearest the lifeline
        if abs(c - x) <= 12:
            continue
        mirror = 2 * x - c
        if not (0 < mirror < W - 1 and y - 6 >= 0 and y + 7 <= H and ink[y - 6:y + 7, mirror - 1:mirror + 2].any(axis=1).all()):
            return False
    return True


def stroke_alone(ink: np.ndarray, text: np.ndarray, band: list[int], xa: float, xb: float) -> bool:
    """Whether the rows ``band`` between lifelines at ``xa`` and ``xb`` are a stroke with paper
    above and below it (text aside): a filled box's top and bottom rows (a note no shape was found
    for, on a band of its own colour) have its fill on one side all the way, and are as thick as
    the rows down to its text."""
    m = int(min(28, 0.2 * (xb - xa)))
    x0, x1 = int(xa) + m, int(xb) - m
    H = ink.shape[0]
    for y in (band[0] - 3, band[-1] + 3):
        free = ~text[y, x0:x1] if 0 <= y < H else None
        if free is not None and free.sum() >= 0.2 * (x1 - x0) and ink[y, x0:x1][free].mean() >= 0.6:
            return False
    return True


def joins(ink: np.ndarray, text: np.ndarray, y0: int, y1: int, x0: int, x1: int,
          ends: np.ndarray | None = None, dashes: bool = True, counts: np.ndarray | None = None) -> np.ndarray:
    """For each row y0..y1-1: whether its ink joins x0 to x1, solid or dashed, text aside. All
    rows at once: row by row in Python it was 0.5 s of a sequence diagram's 1.1 s CPU. Where
    ``ends`` (a row's ink stands by both lifelines, the rest mostly under a label box), a
    solid row may be mostly hidden. ``counts``: each row's ink between x0 and x1, if known: only
    rows inked over 14 % of the way (or with ``ends``) can join, and only they are looked at (every
    row of every pair of lifelines was a tall diagram's largest cost in its sequence reading)."""
    out = np.zeros(y1 - y0, bool)
    rows = np.arange(y1 - y0)
    if counts is not None:  # a joining row is 40 % free of text and 35 % of that ink, at least
        # (a pixel spare for rounding: 0.14 * 50 is 7.000000000000001, and 7 of 20 free joins)
        rows = np.flatnonzero((counts >= 0.14 * (x1 - x0) - 1) | (False if ends is None else ends))
        if not len(rows):
            return out
        ends = None if ends is None else ends[rows]
    free = ~text[y0 + rows, x0:x1]
    on = ink[y0 + rows, x0:x1] & free
    n_free, n_on = free.sum(axis=1), on.sum(axis=1)
    share = n_on / np.maximum(n_free, 1)
    # dashed: ink in every eighth of the way (an eighth mostly under text aside); the eighths
    # are np.array_split's: the first (width % 8) one column wider
    width = x1 - x0
    sizes = np.array([width // 8 + 1] * (width % 8) + [width // 8] * (8 - width % 8))
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    bin_free = np.add.reduceat(free.astype(np.int64), starts, axis=1)
    bin_on = np.add.reduceat(on.astype(np.int64), starts, axis=1)
    bins = np.where(bin_free / sizes >= 0.3, bin_on / np.maximum(bin_free, 1), 1.0)
    dashed = (share >= 0.35) & (bins.min(axis=1) >= 0.2)
    # a message runs on to both lifelines (a fragment's frame edge stops short of them, 90 % solid between)
    reach = (on[:, :8].any(axis=1) | ~free[:, :8].all(axis=1)) & (on[:, -8:].any(axis=1) | ~free[:, -8:].all(axis=1))
    ok = (n_free / width >= 0.4) & ((share >= 0.9) | (dashed & dashes)) & reach
    if ends is not None:  # what little is not hidden is solid (or nothing is)
        ok |= ends & ((share >= 0.9) | (n_free < 6))
    out[rows] = ok
    return out


def stops(ink: np.ndarray, text: np.ndarray, y0: int, y1: int, x: int, side: int) -> np.ndarray:
    """For each row y0..y1-1: whether its ink stops at lifeline ``x``: little ink 4-28 px beyond
    it (on ``side``), in the row or the rows next to it."""
    a, b = (x + 4, x + 29) if side > 0 else (x - 28, x - 3)
    a, b = max(0, a), min(ink.shape[1], b)
    if b - a < 4:
        return np.ones(y1 - y0, bool)
    H = ink.shape[0]
    near = ink[y0:y1, a:b].copy()
    near[1:] |= ink[y0:y1 - 1, a:b]
    if y0 > 0:
        near[0] |= ink[y0 - 1, a:b]
    below = ink[y0 + 1:min(H, y1 + 1), a:b]
    near[:len(below)] |= below
    seg = near & ~text[y0:y1, a:b]
    return seg.mean(axis=1) < 0.6


def runs_past(ink: np.ndarray, text: np.ndarray, y0: int, y1: int, x: int, side: int) -> np.ndarray:
    """For each row y0..y1-1: the share of the 4-28 px beyond lifeline ``x`` (on ``side``) where a thin row of ink
    runs on (inked in the row or the rows next to it, paper 4 rows above and below; text aside): a frame's edge
    crossing the lifeline, not an activation bar's fill or a box beside it."""
    a, b = (x + 4, x + 29) if side > 0 else (x - 28, x - 3)
    a, b = max(0, a), min(ink.shape[1], b)
    if b - a < 4:
        return np.zeros(y1 - y0)
    H = ink.shape[0]
    rows = np.arange(y0, y1)
    near = ink[rows, a:b] | ink[np.maximum(0, rows - 1), a:b] | ink[np.minimum(H - 1, rows + 1), a:b]
    off = ink[np.maximum(0, rows - 4), a:b] | ink[np.minimum(H - 1, rows + 4), a:b]
    return (near & ~off & ~text[y0:y1, a:b]).mean(axis=1)


def wavy_head(ink: np.ndarray, band: list[int], x: float, inward: int, width: float) -> bool:
    """A hand-drawn arrowhead by lifeline ``x``: 6-40 px inward, a column whose ink near the
    band stands far taller than the stroke."""
    H, W = ink.shape
    y0, y1 = max(0, band[0] - 14), min(H, band[-1] + 15)
    cols = [int(round(x + inward * t)) for t in range(6, 41)]
    tall = max((int(ink[y0:y1, c].sum()) for c in cols if 0 <= c < W), default=0)
    return tall >= max(3 * width, width + 8)


def median_colour(pix: np.ndarray) -> tuple[int, int, int]:
    """The median colour of ``pix`` (N×3 RGB), black where there are none."""
    return tuple(int(v) for v in np.median(pix, axis=0)) if len(pix) else (0, 0, 0)  # type: ignore[return-value]


def head_at(ink: np.ndarray, y: int, x: float, inward: int, width: float) -> bool:
    """An arrowhead by lifeline ``x`` on row ``y``: columns within 28 px inward where ink stands
    above and below the line (2-9 px off it) and is no vertical line (an activation bar's side)."""
    H, W = ink.shape
    count = 0
    off = int(width / 2) + 2
    for t in range(3, 29):
        cx = int(round(x + inward * t))
        if not (0 <= cx < W) or y - 12 < 0 or y + 13 > H:
            continue
        col = ink[y - 12:y + 13, cx]
        if col.all():
            continue
        up, down = col[12 - off - 7:12 - off + 1], col[12 + off:12 + off + 8]
        if up.any() and down.any() and col[:3].sum() + col[-3:].sum() < 6:
            count += 1
    return count >= 2


def thin_columns(rows: np.ndarray, xl: np.ndarray) -> np.ndarray:
    """Per row of ``rows`` (a band of an ink mask), whether each column ``xl`` is inked thin: no ink 5 px either
    side (a message crossing the column aside): a lifeline's column."""
    return rows[:, xl] & ~rows[:, xl - 5] & ~rows[:, xl + 5]
