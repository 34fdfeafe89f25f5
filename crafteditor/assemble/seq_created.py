"""Participants created partway down a sequence diagram (UML's ``create``: sequencediagram.org's and
PlantUML's entity icons, Mermaid's ``create participant``): the participant's head stands below the
row of participants, level with the message that creates it, whose arrowhead touches the head's side,
and its lifeline hangs from it down to where the others end (or to a destroy mark above that).

Read as no participant, every message to or from such a one was lost, and a diagram whose row of
participants at the top exchanges no message directly read as no sequence at all (cluster-api's
ipam-integration: edges 0.14)."""

from __future__ import annotations

import numpy as np

from crafteditor.assemble.seq_parts import Lifeline, Message
from crafteditor.assemble.seq_strokes import head_at, median_colour
from crafteditor.shapes.detect import DetectedShape

COLUMN = 20.0  # px: two lifelines never stand closer (one participant's name over its icon)
REACH = 24  # px beside a head's side within which a creating message's arrowhead stops


def created_lifelines(ink: np.ndarray, candidates: list[Lifeline], row: list[Lifeline],
                      pool: list[DetectedShape], named: int) -> list[Lifeline]:
    """Of the ``candidates`` (lifelines under any shape or name of ``pool``; from ``named`` on, name
    boxes), those of participants created below the ``row``: on a column of their own, drawn as the
    row's lifelines are (solid or dashed), ending no lower than they do, and with a message's
    arrowhead at their head's side (an arrow into a box below the row that is no participant's, a
    note's or a label's, has no lifeline of the row's kind under it running to the row's foot)."""
    if len(row) < 2:
        return []
    top = min(ln.y0 for ln in row)
    end = max(ln.y1 for ln in row)
    styles = [ln.style for ln in row]
    style = max(styles, key=styles.count)  # a tie: the first lifeline's, not a set's order
    out: list[Lifeline] = []
    # a name (a higher index) before its icon on one column: the name labels the participant
    for ln in sorted(candidates, key=lambda ln: (ln.x, -ln.node)):
        if ln.y0 <= top + 10 or ln.y1 > end + 12 or ln.style != style:
            continue
        if any(abs(ln.x - o.x) <= COLUMN for o in (*row, *out)):
            continue
        if arrival(ink, heads(ln, pool, named)) is None:
            continue
        out.append(ln)
    return out


def heads(ln: Lifeline, pool: list[DetectedShape], named: int) -> list[DetectedShape]:
    """The shapes lifeline ``ln`` hangs from: its own, and where that is a name, the icon set just
    above the name on its column (an entity's circle, an actor's figure)."""
    s = pool[ln.node]
    out = [s]
    if ln.node >= named:
        out += [t for t in pool[:named] if not t.is_group and abs(t.x + t.w / 2 - ln.x) <= 0.3 * t.w + 3
                and -2 <= s.y - (t.y + t.h) <= max(12.0, t.h)]
    return out


def arrival(ink: np.ndarray, shapes: list[DetectedShape]) -> tuple[int, float, int] | None:
    """Where a message's arrowhead points at one of ``shapes``' sides: (row, the tip's x, -1 from
    the left or 1 from the right), a row in the shape's middle half whose ink, nearest the side
    within :data:`REACH` px (sequencediagram.org stops the arrow short of an entity's circle), runs
    on outward as a shaft with a head at its tip."""
    H, W = ink.shape
    for s in shapes:
        ys = range(max(12, int(s.y + 0.25 * s.h)), min(H - 13, int(s.y + 0.75 * s.h) + 1))
        for side, x in ((-1, s.x), (1, s.x + s.w)):
            x = int(x)
            hits = []
            for y in ys:
                near = ink[y, max(0, x - 2 - REACH):x - 2][::-1] if side < 0 else ink[y, x + 3:x + 3 + REACH]
                if not near.any():
                    continue
                tip = x - 2 - int(np.argmax(near)) if side < 0 else x + 3 + int(np.argmax(near))
                shaft = ink[y, max(0, tip - 14):tip + 1] if side < 0 else ink[y, tip:tip + 15]
                if len(shaft) == 15 and shaft.mean() >= 0.9 and head_at(ink, y, tip - side, side, 1.0):
                    hits.append((y, tip))
            if hits:
                y, tip = hits[len(hits) // 2]
                return y, float(tip), side
    return None


def creation_messages(ink: np.ndarray, rgb: np.ndarray, lines: list[Lifeline], pool: list[DetectedShape],
                      named: int) -> list[Message]:
    """The messages creating the lifelines that start below the others: each traced from its
    arrowhead at the created participant's head back along its row (gaps of a dash aside) to the
    lifeline it leaves."""
    top = min(ln.y0 for ln in lines)
    out = []
    W = ink.shape[1]
    for k, ln in enumerate(lines):
        if ln.y0 <= top + 10:
            continue
        hit = arrival(ink, heads(ln, pool, named))
        if hit is None:
            continue
        y, x, side = hit
        c, gap = int(x), 0
        step = -1 if side < 0 else 1
        while 0 <= c + step < W and gap <= 8:  # back along the row to where its ink ends
            c += step
            gap = 0 if ink[y - 1:y + 2, c].any() else gap + 1
        tail = c - step * gap
        src = [j for j, o in enumerate(lines) if j != k and abs(o.x - tail) <= 8 and o.y0 - 2 <= y <= o.y1 + 2]
        if not src:
            continue
        j = min(src, key=lambda i: abs(lines[i].x - tail))  # the lifeline nearest the tail
        lo, hi = sorted((int(lines[j].x), int(x)))
        pix = rgb[y, lo:hi][ink[y, lo:hi]]
        on = ink[y - 1:y + 2, lo + 4:hi - 4].any(axis=0).mean() if hi - lo > 8 else 1.0
        out.append(Message(j, k, [(lines[j].x, float(y)), (x, float(y))], 1.0, median_colour(pix),
                           "solid" if on > 0.85 else "dashed", True, False))
    return out
