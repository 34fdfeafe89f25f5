"""Hand-drawn messages that wander: a napkin-style sequence diagram (websequencediagrams', js-sequence-
diagrams' ``hand`` theme) draws each message as a bowed, wavering stroke whose rows drift by tens of px
between its ends, far past the :data:`~crafteditor.assemble.seq_strokes.WAVE` the row reading allows
(a real set of js-sequence-diagrams hand figures drawn from Kubernetes KEPs read edge F1 0.26 where
its simple theme read 0.82: lifelines found, messages none).

Such a message is read as a stroke, not a row: the ink left once text and the lifelines' columns are
taken out is cut into connected pieces (rejoined across a lifeline a message passes over), and a piece
that runs from one lifeline's column to another's, one stroke high in most of its columns, is a message;
its head is at the end where a column stands far taller than the stroke."""

from __future__ import annotations

import cv2
import numpy as np

from crafteditor.assemble.seq_parts import Lifeline, Message
from crafteditor.assemble.seq_strokes import median_colour
from crafteditor.blobs import find_blobs

REACH = 14  # px beyond a lifeline's cleared band a message's end may stop short (an arrowhead's tip)
HEAD = 40  # px inward from a lifeline's band where a message's head is looked for


def wandering_messages(drawn: np.ndarray, rgb: np.ndarray, lines: list[Lifeline],
                       found: list[Message]) -> list[Message]:
    """The wandering messages of ``drawn`` (ink less text) between ``lines`` (sorted by x) that no
    message ``found`` already explains."""
    if len(lines) < 2:
        return []
    w = max(1.0, float(np.median([ln.width for ln in lines])))
    r = int(round(3 * w + 6))  # a lifeline's band, its lean and wobble in it
    mask = drawn.copy()
    for ln in lines:
        mask[int(ln.y0):int(ln.y1) + 1, max(0, int(ln.x) - r):int(ln.x) + r + 1] = False
    # a message passing over a lifeline is cut by its band: rejoined over it (rows as they wander)
    joined = cv2.dilate(mask.astype(np.uint8), np.ones((7, 2 * r + 7), np.uint8))
    n, lab, stats, _ = find_blobs(joined)
    out: list[Message] = []
    xs = np.array([ln.x for ln in lines])
    for k in range(1, n):
        x0, y0, cw, ch = (int(v) for v in stats[k, :4])
        x1 = x0 + cw - 1
        i = _end(xs, x0 + r + 3, r, 1)  # (the dilation widened the piece by r + 3 each side)
        j = _end(xs, x1 - r - 3, r, -1)
        if i is None or j is None or j <= i or ch > 0.15 * (xs[j] - xs[i]) + 8 * w + 24:
            continue
        sel = (lab[y0:y0 + ch, x0:x1 + 1] == k) & mask[y0:y0 + ch, x0:x1 + 1]  # the piece's own ink
        ys, cx = np.nonzero(sel)
        m = _stroke(ys + y0, cx + x0, w, xs[i] + r, xs[j] - r)
        if m is None:
            continue
        ya, yb = m
        # a message runs between its lifelines' rows (a curved edge below two short stubs is none)
        top, foot = max(lines[i].y0, lines[j].y0) - 2 * w, min(lines[i].y1, lines[j].y1) + 2 * w
        if not (top <= min(ya, yb) and max(ya, yb) <= foot):
            continue
        if any(_explains(f, lines, i, j, ya, yb, ch) for f in found + out):
            continue
        left = _head(ys + y0, cx + x0, int(xs[i]) + r + 1, 1, w)
        right = _head(ys + y0, cx + x0, int(xs[j]) - r - 1, -1, w)
        if not (left or right):  # a bowed stroke with no head: a chart's line, a rule, no message
            continue
        color = median_colour(rgb[y0:y0 + ch, x0:x1 + 1][sel])
        a, b = (float(xs[i]), ya), (float(xs[j]), yb)
        if left and not right:  # drawn from right to left
            out.append(Message(j, i, [b, a], w, color, "solid", True, False))
        else:
            out.append(Message(i, j, [a, b], w, color, "solid", True, left and right))
    return out


def _end(xs: np.ndarray, x: float, r: int, side: int) -> int | None:
    """The lifeline whose cleared band a piece's end ``x`` abuts (``side`` 1: its left end, right of the lifeline)."""
    d = (x - xs) * side  # how far inward of each lifeline's column the end lies
    ok = np.flatnonzero((d >= r - 4) & (d <= r + REACH))
    return int(ok[0]) if len(ok) else None


def _stroke(ys: np.ndarray, xs: np.ndarray, w: float, xa: float, xb: float) -> tuple[float, float] | None:
    """The rows a one-stroke piece's ends sit on, if it covers most columns between ``xa`` and ``xb``
    one stroke high (a note's frame, a fragment's, a label's remnant: two strokes or a block)."""
    span = int(xb - xa)
    if span < 20 or len(xs) == 0:
        return None
    cols = np.clip((xs - xa).astype(int), 0, span - 1)
    top = np.full(span, np.iinfo(np.int64).max)
    bot = np.full(span, -1)
    np.minimum.at(top, cols, ys)
    np.maximum.at(bot, cols, ys)
    has = bot >= 0
    if has.mean() < 0.8:
        return None
    tall = (bot - top + 1)[HEAD:-HEAD][has[HEAD:-HEAD]]  # (heads at the ends aside)
    if len(tall) < 10 or np.median(tall) > 2 * w + 3 or (tall > 4 * w + 8).mean() > 0.2:
        return None
    inner = np.flatnonzero(has)
    q = max(1, len(inner) // 20)
    ya = float(np.median((top[inner[:q]] + bot[inner[:q]]) / 2))
    yb = float(np.median((top[inner[-q:]] + bot[inner[-q:]]) / 2))
    return ya, yb


def _head(ys: np.ndarray, xs: np.ndarray, x: int, inward: int, w: float) -> bool:
    """An arrowhead at a piece's end by the band edge ``x``: a column within :data:`HEAD` px inward whose
    ink on the piece stands far taller than the stroke."""
    near = (xs - x) * inward
    sel = (near >= 0) & (near < HEAD)
    if not sel.any():
        return False
    cols = xs[sel]
    tall = max(int(ys[sel][cols == c].max() - ys[sel][cols == c].min() + 1) for c in np.unique(cols))
    return tall >= max(3 * w, w + 8)


def _explains(f: Message, lines: list[Lifeline], i: int, j: int, ya: float, yb: float, h: int) -> bool:
    """Whether message ``f`` already found is this piece: between the same lifelines, on its rows."""
    lo, hi = sorted((f.source, f.target))
    if hi <= i or lo >= j:  # spans that do not overlap (one drawn message over 0-1 is not also 0-2)
        return False
    fy = [p[1] for p in f.points]
    return min(fy) <= max(ya, yb) + h / 2 + 6 and max(fy) >= min(ya, yb) - h / 2 - 6
