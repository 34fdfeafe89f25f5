"""Participants drawn as an icon under their name: a protocol figure's person pictogram, server rack, database
cylinder or cloud, the name set above it and the lifeline hanging from the icon's foot (papers' TikZ message
sequence charts, slides). The shape pass finds no box there (a picture, a rack of small boxes, a cloud), and the
name's own lifeline test meets the icon right under the name: no participant, and every message was lost. Here
the icon is read off the ink under the name (rows wider than a lifeline, with small gaps, ending on a thin column)
and the lifeline is read from under it, named by the name."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from crafteditor.assemble.seq_lifelines import lifeline
from crafteditor.assemble.seq_parts import Lifeline
from crafteditor.ocr.runs import TextRun
from crafteditor.shapes.detect import DetectedShape

GAP = 4  # px: blank rows an icon may hold (between a server rack's boxes), at most
THIN = 5  # px of ink on a row, at most, for the lifeline's column (wider: the icon)
TALL = 8.0  # name heights: the tallest icon


def icon_lifelines(rgb: np.ndarray, ink: np.ndarray, pool: list[DetectedShape], base: int,
                   found: list[Lifeline]) -> list[Lifeline]:
    """Lifelines hanging from an icon drawn right under a name (``pool[base:]``: the names' boxes) whose own
    lifeline was not found, on columns no lifeline takes; each one's ``node`` is the name's box (widened in
    ``pool``, in place), its ``y0`` the icon's foot, its ``icon`` set."""
    out: list[Lifeline] = []
    for i in range(base, len(pool)):
        s = pool[i]
        cx = s.x + s.w / 2
        if any(abs(ln.x - cx) <= max(20.0, 0.5 * s.w) for ln in [*found, *out]):
            continue
        icon = _icon_under(ink, s)
        if icon is None:
            continue
        ln = lifeline(rgb, ink, [icon], 0)
        # the lifeline on the name's column (a picture's ink is seldom centred: within a third of the name's width)
        if ln is None or abs(ln.x - cx) > max(8.0, s.w / 3):
            continue
        ln.node, ln.bottom, ln.icon = i, None, True
        pool[i] = _widened(s)
        out.append(ln)
    return out


def _widened(name: DetectedShape) -> DetectedShape:
    """A name's box (the participant) a little wider than its letters: a bold name over an icon, set in a box its
    text's width, was drawn wrapped ('Alic' / 'e')."""
    pad = max(4.0, 0.15 * name.w)
    return replace(name, x=name.x - pad, w=name.w + 2 * pad)


def _icon_under(ink: np.ndarray, s: DetectedShape) -> DetectedShape | None:
    """The foot of the icon right under name box ``s``: rows of ink wider than a lifeline (:data:`THIN`) on the
    name's column (or spread wider than one), starting within one and a half name heights of it, holding gaps of
    :data:`GAP` rows at most, between one and :data:`TALL` name heights tall, and ending where a thin column (a
    lifeline) goes on down; else None."""
    H, W = ink.shape
    h = max(8.0, s.h)
    cx = s.x + s.w / 2
    half = int(max(0.75 * s.w, 3 * h))
    c0, c1 = max(0, int(cx - half)), min(W, int(cx + half) + 1)
    y0 = int(s.y + s.h) + 1
    y1 = min(H, y0 + int((TALL + 2) * h) + 40)
    win = ink[y0:y1, c0:c1]
    if win.shape[0] < 20 or win.shape[1] < 12:
        return None
    # a row of the icon: more ink than a lifeline's, or ink spread wider than one (a cloud's or cylinder's two sides)
    inked = win.any(axis=1)
    first = np.where(inked, win.argmax(axis=1), 0)
    last = np.where(inked, win.shape[1] - 1 - win[:, ::-1].argmax(axis=1), 0)
    wide = (win.sum(axis=1) > THIN) | (last - first >= 2 * THIN)
    rows = np.flatnonzero(wide)
    if not len(rows) or rows[0] > 1.5 * h:
        return None
    top = int(rows[0])
    bottom = top
    for r in rows[1:].tolist():
        if r - bottom - 1 > GAP:
            break
        bottom = r
    tall = bottom - top + 1
    if not h <= tall <= TALL * h:
        return None
    # a thin column on down from the icon's foot, near the name's column: the lifeline (20 rows of it at least)
    below = win[bottom + 1:bottom + 31]
    mid = int(cx) - c0
    column = below[:, max(0, mid - 12):mid + 13]
    lone = (column.sum(axis=1) >= 1) & ~wide[bottom + 1:bottom + 31]
    if len(below) < 20 or lone.mean() < 0.6:
        return None
    cols = np.flatnonzero(win[top:bottom + 1].any(axis=0))
    x0, x1 = c0 + int(cols[0]), c0 + int(cols[-1]) + 1
    # its foot only, a name's height and a half: the lifeline's tests weigh its length against the box's height (a
    # person pictogram 117 px tall over a 250 px lifeline was 'too short' for it)
    foot = min(float(tall), 1.5 * h)
    return DetectedShape(shape="box", x=float(x0), y=float(y0 + bottom + 1) - foot, w=float(x1 - x0), h=foot,
                         fill=(255, 255, 255), stroke=None, stroke_px=0.0, iou=0.0, face=None)  # type: ignore[arg-type]


def names_over_icons(found: list[Lifeline], pool: list[DetectedShape], base: int, runs: list[TextRun]) -> None:
    """Each lifeline hanging from a shape with no text in it (an icon the shape pass found: a cylinder, a laptop's
    screen) under a name (``pool[base:]``: the names' boxes) that no lifeline hangs from is the name's: its ``node``
    set to the name's box (widened in ``pool``), in place. The participant is the name; the icon had been a
    nameless participant and the name a loose text, every message of it joined to no one."""
    taken = {ln.node for ln in found}
    for ln in found:
        if ln.node >= base:
            continue
        s = pool[ln.node]
        if any(r.angle == 0 and s.contains_point(r.cx, r.cy) for r in runs):
            continue
        over = [j for j in range(base, len(pool)) if j not in taken
                and abs(pool[j].x + pool[j].w / 2 - (s.x + s.w / 2)) <= max(8.0, 0.25 * s.w)
                and -2.0 <= s.y - (pool[j].y + pool[j].h) <= 1.5 * max(8.0, pool[j].h)]
        if len(over) != 1:
            continue
        j = over[0]
        pool[j] = _widened(pool[j])
        ln.node = j
        taken.add(j)
