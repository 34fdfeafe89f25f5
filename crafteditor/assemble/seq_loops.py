"""Messages a participant sends itself drawn as a curve: a stroke bulging out of the lifeline to the right and back
to it, an arrowhead at its end (Mermaid draws every self-message so, a cubic Bézier 20 px tall and about 45 px wide
at scale 1), and js-sequence-diagrams' as a small square loop taller than wide, its label against its side.
:func:`crafteditor.assemble.sequences._self_messages` reads the wider square loop (out 30 px or more, down, back)
other makers draw; these had read as none (an ellipse node, or a free path: every self-message of the drawn Mermaid
and js-sequence-diagrams sequences lost)."""

from __future__ import annotations

import numpy as np

from crafteditor.assemble.seq_parts import Lifeline, Message
from crafteditor.assemble.seq_strokes import median_colour
from crafteditor.blobs import find_blobs

GAP = 3  # px right of the lifeline's column (or past its half width) where the curve is looked for (the lifeline itself left out)
TALL = (8, 140)  # px: a loop's height, least and most (20 px at scale 1, a 4x export's 80)
STEPS = 8  # columns sampled along the curve for the message's route


def curved_self_messages(drawn: np.ndarray, rgb: np.ndarray, lines: list[Lifeline],
                         messages: list[Message]) -> list[Message]:
    """The self-messages drawn as a curve or a small loop (``drawn``: the ink less text; ``lines`` sorted left to right) on rows
    no message in ``messages`` takes: a blob of ink right of a lifeline that touches it at its top and bottom
    ends only, reaches farthest out between them, is a thin stroke (no box, no activation bar: their right side
    runs the whole height) and widens at one end into a head."""
    H, W = drawn.shape
    taken = [p[1] for m in messages for p in m.points]
    out: list[Message] = []
    for k, lf in enumerate(lines):
        x = int(round(lf.x))
        reach = int(min((lines[k + 1].x - lf.x) * 0.5 if k + 1 < len(lines) else W - x - 2, 220))
        y0, y1 = max(0, int(lf.y0) + 2), min(H, int(lf.y1) - 2)
        if reach < 20 or y1 - y0 < TALL[0]:
            continue
        gap = max(GAP, int(lf.width / 2) + 2)  # (a thick export's lifeline is wider than 2 * GAP)
        strip = drawn[y0:y1, x + gap:x + reach].astype(np.uint8)
        n, lab, stats, _ = find_blobs(strip)
        for c in range(1, n):
            cx, cy, w, h, area = (int(v) for v in stats[c])
            if cx > 2 or not TALL[0] <= h <= TALL[1] or not 0.4 * h <= w <= 4 * h + 10 or cx + w >= reach - 1:
                continue
            blob = lab[cy:cy + h, cx:cx + w] == c
            if area > 0.45 * w * h or not _loop(blob):
                continue
            top, bottom = y0 + cy, y0 + cy + h - 1
            if any(top - 3 <= t <= bottom + 3 for t in taken):
                continue
            pts = _route(blob, float(x + gap + cx), float(top), lf.x)
            pix = rgb[y0 + cy:y0 + cy + h, x + gap + cx:x + gap + cx + w][blob]
            out.append(Message(k, k, pts, _stroke(blob), median_colour(pix), "solid", True, False))
            taken += [float(top), float(bottom)]
    return out


def _loop(blob: np.ndarray) -> bool:
    """Whether ``blob`` (a component's mask, its box) is a curve out of its left side and back: its first columns
    inked at the top and at the bottom but not between (two ends on the lifeline), its last columns over the middle
    third (the bulge, or a square loop's side), and one end widening into a head (a column there three strokes tall or more)."""
    h, w = blob.shape
    left = blob[:, :max(2, w // 10)].any(axis=1)
    third = max(1, h // 3)
    if not (left[:third].any() and left[-third:].any()) or left[third:h - third].mean() > 0.5:
        return False
    right = blob[:, w - max(2, w // 10):].any(axis=1)
    # (a square loop's side, js-sequence-diagrams', runs the whole way; a curve's bulge over all of it but a row or
    # two: the head at its foot makes the blob taller below, and Mermaid's 1x curve, 3 px lifelines, 29 rows with
    # its head, bulged over rows 6-18, the middle third 9-19, and every self-message of a large figure was lost)
    if right[h // 3:h - h // 3].mean() < 0.8:
        return False
    stroke = _stroke(blob)
    ends = blob[:, :max(3, int(0.6 * w))].sum(axis=0)  # (a small loop's head runs over half its width)
    return bool(ends.max() >= 2 * stroke + max(3.0, 0.15 * h))


def _stroke(blob: np.ndarray) -> float:
    """The loop's stroke width: its ink per column (two strokes in a column) over the columns past its first
    quarter and short of its side, the lower quartile of them (a small loop's head reaches half way across)."""
    w = blob.shape[1]
    per = blob[:, w // 4:max(w // 4 + 1, w - max(2, w // 10))].sum(axis=0)
    return float(max(1.0, np.percentile(per, 25) / 2)) if len(per) else 1.0


def _route(blob: np.ndarray, x0: float, y0: float, xl: float) -> list[tuple[float, float]]:
    """The curve as a polyline from the lifeline (column ``xl``) out along its upper stroke and back along its lower
    one (``blob``'s box at ``x0``, ``y0``)."""
    h, w = blob.shape
    cols = [c for c in np.linspace(0, w - 1, STEPS).astype(int).tolist() if blob[:, c].any()]
    upper = [(x0 + c, y0 + float(np.flatnonzero(blob[:, c])[0])) for c in cols]
    lower = [(x0 + c, y0 + float(np.flatnonzero(blob[:, c])[-1])) for c in reversed(cols)]
    return [(xl, upper[0][1]), *upper, *lower, (xl, lower[-1][1])]
