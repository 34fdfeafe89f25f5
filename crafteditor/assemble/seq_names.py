"""Participants' names set close in one line: PlantUML draws an icon participant's (``control``, ``entity``,
``actor``…) name with no box, under its icon at the top and over it at the foot, and where two neighbours' names
stand less than an em apart OCR reads them as one line ('FunctionComposer Function<Integer, Integer>',
'pod-snapshot-controller kubelet (owns the Pod)'). The gap alone does not part them (a wide word space in one name
is as wide), but the lifelines do: each name stands on its own lifeline's column, hanging below it at the top and
running into it from above at the foot. Cut so, the names at the foot are found as the participants drawn again
(the lifeline stops there, not in the icon under it), and a participant whose foot name was lost no longer ran past
the others' ends and was dropped, its messages with it."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from crafteditor.assemble.seq_strokes import thin_columns
from crafteditor.ocr.runs import TextRun, ink_gaps

CLOSE_GAP = 0.4  # em: the narrowest gap tried as the space between two names (a word space is ~0.3)
REACH = 30  # px above and below a name in which its lifeline's column is looked for
NEAR = 10  # px: the nearest of them, where the column must ink as often (it comes up to the name)
SHARE = 0.3  # of those rows a column must ink thin (a dashed lifeline's third), on one side at least


def names_on_lifelines(run: TextRun, ink: np.ndarray) -> list[TextRun]:
    """``run`` cut at the widest gaps of its ink where each piece stands on a lifeline's column of its own (each
    piece with the words whose share of the letters matches its share of the ink); ``[run]`` where none does."""
    words = run.text.split(" ")
    if run.angle != 0 or len(words) < 2 or not run.glyphs.size:
        return [run]
    found = ink_gaps(run)
    if found is None:
        return [run]
    inked, gaps = found
    gaps = sorted((g for g in gaps if g[1] - g[0] >= CLOSE_GAP * run.font_px), key=lambda g: g[0] - g[1])
    for c0, c1 in gaps[:3]:  # the widest first
        k = _word_cut(words, (c0 - inked[0]) / max(1, inked[-1] + 1 - inked[0]))
        if k is None:
            continue
        left = _piece(run, words[:k], int(inked[0]), c0)
        right = _piece(run, words[k:], c1, int(inked[-1]) + 1)
        if _on_column(ink, left) and _on_column(ink, right):
            return [*names_on_lifelines(left, ink), *names_on_lifelines(right, ink)]
    return [run]


def _word_cut(words: list[str], share: float) -> int | None:
    """The number of words before the cut whose letters (and spaces) take the ink's ``share`` best, within 0.15."""
    total = len(" ".join(words))
    best = min(range(1, len(words)), key=lambda k: abs(len(" ".join(words[:k])) / total - share))
    return best if abs(len(" ".join(words[:best])) / total - share) <= 0.15 else None


def _piece(run: TextRun, words: list[str], c0: int, c1: int) -> TextRun:
    rows = np.flatnonzero(run.glyphs[:, c0:c1].any(axis=1))
    r0, r1 = int(rows[0]), int(rows[-1]) + 1
    return replace(run, text=" ".join(words), marked=None, x=run.x + c0, y=run.y + r0, w=float(c1 - c0),
                   h=float(r1 - r0), glyphs=run.glyphs[r0:r1, c0:c1].copy())


def _on_column(ink: np.ndarray, r: TextRun) -> bool:
    """Whether a thin vertical ink column (no ink 5 px either side) stands under or over the middle fifth of
    ``r`` on a third of the :data:`REACH` rows or more."""
    H, W = ink.shape
    cx = r.x + r.w / 2
    xs = np.arange(max(5, int(cx - max(2.0, 0.1 * r.w))), min(W - 5, int(cx + max(2.0, 0.1 * r.w)) + 1))
    if len(xs) == 0:
        return False
    top, bottom = int(r.y) - 2, int(r.y + r.h) + 2
    for a, b in ((top - REACH, top), (bottom, bottom + REACH)):
        if a < 0 or b > H:
            continue
        rows = ink[a:b]
        thin = thin_columns(rows, xs)
        near = thin[-NEAR:] if a < top else thin[:NEAR]
        # the column comes up to the name: a line in a note over two lifelines has them beyond the note's border
        if (thin.mean(axis=0) >= SHARE).any() and (near.mean(axis=0) >= SHARE).any():
            return True
    return False
