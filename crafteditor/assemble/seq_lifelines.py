"""A sequence diagram's lifelines, read one participant at a time: whether a thin vertical ink column hangs from
the middle of a box's bottom (solid, dashed or dotted; read past the notes, fragment tags and activation bars
that hide stretches of it), how far down it runs (to the participant repeated at its foot, or to its last ink),
and how it is drawn (width, colour, style). It decides which columns are no lifeline: one too short for the box,
a solid connector on into the next box of a column, a column that runs into a box (or up into its own) through
an arrowhead (a top-down flowchart's chain of links). :mod:`crafteditor.assemble.sequences` asks it of every box
and of every name drawn with no box, and keeps the row of participants."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from crafteditor.assemble.seq_badges import FILL, SIZE
from crafteditor.assemble.seq_parts import Lifeline
from crafteditor.assemble.seq_strokes import bar_below, bar_rows, dotted, median_colour
from crafteditor.assemble.seq_strokes import thin_columns as _thin
from crafteditor.shapes.detect import DetectedShape

DASHED_MAX = 0.8  # share of a column's rows inked, at most, for a dashed lifeline (a solid connector: all)
# px: a name repeated at the foot may be read this much taller than at the top, whatever its size (OCR's box over
# PlantUML's foot name takes in the top of the icon under it: 'kube-apiserver' 14 px at the top, 20 at the foot)
FOOT_DH = 6.0
SIDE = 6  # px: a box's side this near a lifeline's column is ink beside it (:func:`_thin` looks 5 px aside)


def _dashed(share: np.ndarray) -> np.ndarray:
    """A column's strength as a dashed lifeline from the share of rows it is inked on: a third or more
    (0.3) reads as a lifeline (at least 0.4, the bar a solid one must clear); less, none."""
    return np.where(share >= 0.3, np.maximum(share, 0.4), 0.0)


def lifeline(rgb: np.ndarray, ink: np.ndarray, shapes: list[DetectedShape], i: int,
              foot: Callable[[int], bool] | None = None) -> Lifeline | None:
    """The thin vertical ink column hanging from the middle of box ``i``'s bottom, if long (read
    on the strip of columns under the box's middle only); ``ink``: the image's :func:`ink_mask`;
    ``foot``: which shapes below may be the participant repeated at its foot (default: any of its size)."""
    s = shapes[i]
    H, W = rgb.shape[:2]
    if s.is_group or s.w < 12 or s.h < 8:
        return None
    yb = int(math.ceil(s.y + s.h)) + 2
    band = int(max(40, 1.5 * s.h))
    if yb + band >= H:
        return None
    cx = s.x + s.w / 2
    xs = np.arange(max(5, int(cx - 0.2 * s.w)), min(W - 5, int(cx + 0.2 * s.w) + 1))
    if len(xs) == 0:
        return None
    c0 = int(xs[0]) - 5
    mid = int(round(cx))
    # the rows that hide the lifeline: an activation bar's (looked for over the strip's first rows) and, below, a box's
    under = np.zeros(H - yb, bool)
    b0 = max(0, mid - 19)
    under[:3 * band] = bar_rows(ink[yb:yb + 3 * band, b0:mid + 20], mid - b0)
    ink = ink[yb:, c0:int(xs[-1]) + 6]  # rows from yb, columns from c0
    xl = xs - c0
    # a box across the column under the participant (a note over its lifeline, a fragment's tag: PlantUML's and
    # Mermaid's notes and ``alt`` frames right under the row) hides the lifeline on its rows: read on the others.
    # So does one whose side stands within :func:`_thin`'s reach of it (PlantUML's ``note right of``, its side
    # 5 px off the lifeline: a cluster-api figure's controller had no lifeline, its messages lost)
    drawn_again = False  # a box of its own size among them: the participant drawn again (PlantUML's create), no note
    for j, t in enumerate(shapes):
        if j != i and not t.is_group and t.y > s.y + s.h and t.x - SIDE <= cx <= t.x + t.w + SIDE:
            under[max(0, int(t.y) - 2 - yb):max(0, int(math.ceil(t.y + t.h)) + 3 - yb)] = True
            drawn_again |= t.y < yb + band and _same_size(t, s)
    hidden = under[:band]
    # the strip run on past what hides it until it holds ``band`` rows they leave (``band`` rows if none hides it)
    longer = min(len(under), int(np.searchsorted(np.cumsum(~under), band)) + 1)
    thin_on = _thin(ink[:longer], xl)  # row by row: its first ``band`` rows are the strip's
    thin = thin_on[:band]
    frac = thin.mean(axis=0)
    if hidden.any() and (~hidden).sum() >= 20:
        frac = np.maximum(frac, thin[~hidden].mean(axis=0))
    dots = dotted(thin[~hidden])  # a dotted lifeline (pgf-umlsd's)
    frac = np.maximum(frac, np.where(dots, 0.4, 0.0))
    frac = np.maximum(frac, _first_stretch(ink, band, xl))
    if hidden.any() and not drawn_again:
        # the strip run on past what hides it: a dotted line there (one under an activation bar from the top,
        # pgf-umlsd's thread, shows a few dots above the bar, more below)
        seen = thin_on[~under[:longer]]
        if len(seen) >= 20:
            if len(seen) > (~hidden).sum():  # rows past the strip (none: the same rows ``dots`` was read on)
                dots = dots | dotted(seen)
            frac = np.maximum(frac, np.where(dots, 0.4, 0.0))
            if frac.max() < 0.4:
                # none there, where boxes hide most of the strip (a tall note right under the participant left it 8
                # rows: the note was read as the participant, cluster-api's PlantUML figures): read solid, or dashed
                # over a third of them or more on a column or the next (a hand-drawn dash wobbles a pixel)
                pair = np.append((seen[:, :-1] | seen[:, 1:]).mean(axis=0), 0.0)
                frac = np.maximum(seen.mean(axis=0), _dashed(pair))
    if frac.max() < 0.4:
        return None
    # the column nearest the middle among the strongest (not an activation bar's side)
    k = int(np.argmin(np.where(frac >= 0.8 * frac.max(), np.abs(xs - cx), np.inf)))
    x, lx = int(xs[k]), int(xl[k])
    # the participant repeated below: a box of its size on its column (not a cell
    # the lifelines and messages enclose, nor a note over the lifeline)
    below = [j for j, t in enumerate(shapes) if j != i and not t.is_group and t.y > s.y + s.h
             and abs(t.x + t.w / 2 - x) <= 0.2 * s.w and abs(t.w - s.w) <= 0.3 * s.w and abs(t.h - s.h) <= max(0.3 * s.h, FOOT_DH)
             and not _runs_on(ink, yb, lx, t) and (foot is None or foot(j))]
    if below:
        y1 = min(shapes[j].y for j in below)
    else:
        colx = ink[:, lx - 1:lx + 2].any(axis=1)
        y1 = yb + float(np.nonzero(colx)[0].max()) if colx.any() else yb
    # a short diagram's lifelines (two or three messages) are long enough where the box is repeated
    # below as drawn: the same shape, the same size
    repeated = any(shapes[j].shape == s.shape and _same_size(shapes[j], s) for j in below)
    # (so are a dotted line's: regular dots are no connector's)
    if y1 - yb < (max(40, 1.2 * s.h) if repeated or dots[k] else max(60, 2.5 * s.h)):
        return None
    if _heads_into_box(ink, yb, lx, x, y1, shapes, i, _icons_again(shapes, i, x, y1) if below else set()):
        return None
    width, color, style = _column_look(rgb, ink, yb, int(y1) - yb, x, lx)
    foot = min(below, key=lambda j: shapes[j].y) if below else None
    return Lifeline(node=i, x=float(x), y0=float(s.y + s.h), y1=float(y1), width=width, color=color,
                    style=style, bottom=foot)


def _first_stretch(ink: np.ndarray, band: int, xl: np.ndarray) -> np.ndarray:
    """A dashed lifeline's stretch from under the box (its border and shadow) to the first thing across it (a
    message, an activation bar from the first message on: PlantUML's), read on its own: each column's strength
    (:func:`_dashed`; zeros where there is no such stretch). Its dashes cover a third of it or more. It may run on
    past the strip, ``band`` rows at most: under a name whose box's filled face was not found (on a band) it starts
    20 rows down. ``ink``: rows from under the box, the strip's columns (``xl``) among them."""
    reach = ink[:2 * band]
    wide = reach.sum(axis=1) > 6
    start = int(np.argmin(wide[:band])) if wide[:band].any() else 0
    border = np.flatnonzero(wide[:8])
    if start == 0 and len(border):  # the border a name's box (not found) draws a few rows under the name
        start = int(border[0]) + int(np.argmin(wide[border[0]:band]))
    after = np.flatnonzero(wide[start:start + band])
    stop = start + int(after[0]) if len(after) else min(len(wide), start + band)
    # (a shorter stretch where an activation bar starts at the first message and hides the rest)
    bars = None if stop - start >= 20 or stop - start < 10 else bar_below(ink, stop, xl)
    if stop - start >= 20 or bars is not None and bars.any():
        return _dashed(_thin(reach[start:stop], xl).mean(axis=0) * (True if bars is None else bars))
    return np.zeros(len(xl))


def _same_size(t: DetectedShape, s: DetectedShape) -> bool:
    """Whether box ``t`` is box ``s``'s size, within max(3 px, 4 %) each way: the participant drawn again."""
    return abs(t.w - s.w) <= max(3.0, 0.04 * s.w) and abs(t.h - s.h) <= max(3.0, 0.04 * s.h)


def _column_look(rgb: np.ndarray, ink: np.ndarray, yb: int, n: int, x: int, lx: int) -> tuple[float, tuple, str]:
    """A lifeline's (ink width, colour, 'solid' or 'dashed') on its ``n`` rows from ``yb`` (``ink``'s first row;
    column ``x`` of ``rgb``, ``lx`` of ``ink``): width and colour on the rows where it stands alone."""
    alone = ink[:n, lx - 4:lx + 5].sum(axis=1)
    lone = (alone > 0) & (alone <= 4)
    width = float(np.median(alone[lone])) if lone.any() else 1.0
    color = median_colour(rgb[yb:yb + n, x][ink[:n, lx]])
    on = ink[:n, lx - 1:lx + 2].any(axis=1).mean()
    return width, color, "solid" if on > 0.85 else "dashed"


def _icons_again(shapes: list[DetectedShape], i: int, x: float, y1: float, gap: float = 12.0) -> set[int]:
    """The shapes just over the foot at ``y1`` on column ``x`` that are a shape just over participant ``i``'s name
    drawn again: its icon repeated at the foot (Mermaid's typed participants draw the name under the icon at both
    ends; a ``control`` icon's arrowhead on top of its circle read as a head into a box, the lifeline lost)."""
    s = shapes[i]
    heads = [u for u in shapes if not u.is_group and abs(u.x + u.w / 2 - x) <= 0.3 * u.w + 3
             and -2 <= s.y - (u.y + u.h) <= gap]
    return {j for j, t in enumerate(shapes) if j != i and not t.is_group and -2 <= y1 - (t.y + t.h) <= gap
            and abs(t.x + t.w / 2 - x) <= 0.3 * t.w + 3 and any(t is not u and _same_size(t, u) for u in heads)}


def _heads_into_box(ink: np.ndarray, yb: int, lx: int, x: float, y1: float, shapes: list[DetectedShape],
                    i: int, again: set[int] | frozenset[int] = frozenset()) -> bool:
    """Whether the column on ``lx`` of ``ink`` (its rows from ``yb``) runs into a box under box ``i`` through an
    arrowhead: a top-down flowchart's chain of links (each node's link into the next), no lifeline. A lifeline
    carries no head along itself (a real Mermaid flowchart's column of seven nodes had read as two lifelines,
    its links as messages between them). Or it leaves box ``i`` itself through a head pointing up into it: a link
    drawn bottom-up into the box (a hand-drawn Excalidraw page's dashed 'with' arrow up into a box, and another up
    into the box beside it, read as two lifelines and a link across as their message: a false sequence that took
    the page's tree of links with it). The head's test: :func:`_head_into`; its sizes in the column's ink width
    (``u``: a 1x link's 2 px stroke, 3 px of ink with its rim, to 1; a 2x export's head and shaft are twice as
    wide), the width of its narrower rows (activation bars along half a lifeline had doubled the median, and the
    strip above its foot took in a message's head at a bar). The shapes ``again`` (:func:`_icons_again`: the
    participant's icon drawn again at its foot, a ``control``'s with a head on its circle) are no such box."""
    col = ink[:max(0, int(y1) - yb), max(0, lx - 8):lx + 9].sum(axis=1)
    u = max(1.0, (float(np.percentile(col[col > 0], 25)) - 1) / 2) if (col > 0).any() else 1.0
    r = int(round(7 * u))
    strip = ink[:, max(0, lx - r):lx + r + 1]
    c = lx - max(0, lx - r)  # the column in the strip
    # up into box i: the tip at its bottom border (2 rows over the strip's first), the shaft under it
    if _head_into(strip[:int(12 * u)][::-1], strip[int(16 * u):int(30 * u)], c, u):
        return True
    for j, t in enumerate(shapes):
        if j == i or j in again or t.is_group or not (t.x < x < t.x + t.w) or not (yb + 12 * u < t.y <= y1 + 2 * u):
            continue
        if _badge(ink, yb, x - lx, x, t):
            continue
        top = int(t.y) - yb
        if _head_into(strip[max(0, top - int(12 * u)):max(0, top - 1)],
                      strip[max(0, top - int(30 * u)):max(0, top - int(16 * u))], c, u):
            return True
    return False


def _badge(ink: np.ndarray, yb: int, c0: float, x: float, t: DetectedShape) -> bool:
    """Whether ``t`` is an autonumber badge on the column at ``x`` (``ink``'s rows from ``yb``, columns from
    ``c0``): a filled disc of a badge's size centred on it, no box a link runs into (Mermaid's: the words of a
    self-message over the lifeline, just above the badge that starts it, read as a head into it, and the
    lifeline was lost with its messages)."""
    if t.shape != "circle" or not SIZE[0] <= max(t.w, t.h) <= SIZE[1] or abs(t.x + t.w / 2 - x) > 3:
        return False
    y0, x0 = int(t.y) - yb, int(t.x - c0)
    box = ink[max(0, y0):max(0, y0 + int(t.h)), max(0, x0):max(0, x0 + int(t.w))]
    return box.size > 0 and float(box.mean()) >= FILL[0]


def _head_into(tip: np.ndarray, shaft: np.ndarray, c: int, u: float) -> bool:
    """Whether rows ``tip`` of a strip of ink (its column ``c``), the last nearest a box, hold an arrowhead into
    the box from a thin ``shaft``: rows inked 2.5 strokes wide or more but not across the whole strip (a message
    crossing there), on both sides of the column (a message's head arriving at the lifeline from one side is no
    head along it) and narrowing towards the box (a message's head beside it, pointing aside, widens first), two
    such rows at least (one is the antialiased seam where a 1x lifeline meets the box at its foot: a Mermaid
    figure's lifeline lost, and every message with it); ``u``: the column's stroke width (:func:`_heads_into_box`)."""
    if not len(tip) or not len(shaft) or shaft.sum(axis=1).max() > 3 * u:
        return False
    wide = tip.sum(axis=1)
    k = int(math.ceil(u)) + 1  # past the column's own stroke
    both = tip[:, :max(0, c - k)].any(axis=1) & tip[:, c + k + 1:].any(axis=1)
    head = wide[(wide >= 5 * u) & ~tip[:, 0] & ~tip[:, -1] & both]
    return bool(len(head) >= 2 and (np.diff(head) <= u).all())


def _runs_on(ink: np.ndarray, yb: int, lx: int, t: DetectedShape) -> bool:
    """Whether the dashed lifeline on column ``lx`` of ``ink`` (its rows from ``yb``) runs on under box ``t``: a
    note over it, no repeat of its participant at its foot (PlantUML's notes are a participant's size). A thin
    column: the icon PlantUML draws under an actor's or a database's name at the foot is no lifeline."""
    y = int(math.ceil(t.y + t.h)) + 3 - yb
    rows = ink[max(0, y):max(0, y + 16)]
    if len(rows) < 8 or lx < 6 or lx + 7 > rows.shape[1]:
        return False
    side = rows[:, lx - 6] | rows[:, lx + 6]
    on = rows[:, lx - 1:lx + 2].any(axis=1).mean()
    # dashed, as PlantUML draws a lifeline: a solid line on under a box of the same size is a connector to
    # the next box of a column (a state machine's; read as a note, its lifeline had made a false sequence)
    return 0.4 <= on <= DASHED_MAX and side.mean() < 0.3
