"""Wedges between frame borders: where edges leave nested frames (Mermaid's subgraph in a subgraph, a
cluster in a cluster), two lines crossing the two borders close a face between them, bounded by one
frame's side and the next frame's side (or a border that runs on past it: an inner frame whose own face
the edges cut up is no shape, only its drawn side). Read as an unlabelled node (a parallelogram or trapezoid when
the lines slant), it took the edges' ends: each edge out of the inner frame ended on it, and the figure's
edges out of a nested subgraph were lost. Such a face is no node: it holds no text, and two of its
opposite sides lie on frame borders, or one on a frame and the other on a line drawn on past both its ends."""

from __future__ import annotations

import numpy as np

from crafteditor.assemble.plates import join_across
from crafteditor.lines.paths import LinePath
from crafteditor.ocr.runs import TextRun
from crafteditor.shapes.detect import DetectedShape, keep_shapes

SIDE_TOL = 3.0  # px: a wedge's side lies on a frame's side within this, plus the strokes' widths
RUN_ON = (4, 14)  # px past a side's ends where its line is looked for, drawn on
INK = 30  # a pixel this far (largest channel difference) from the page is ink
DRAWN = 0.8  # a line drawn on covers this share of the stretch past each end


def without_frame_wedges(rgb: np.ndarray, background: tuple[int, int, int], shapes: list[DetectedShape],
                         runs: list[TextRun], lines: list[LinePath]) -> tuple[list[DetectedShape], list[LinePath]]:
    """``shapes`` without the wedges between frame borders (group members renumbered), and ``lines`` with
    the pieces that end on a wedge's opposite sides joined across it (the edges run on through)."""
    frames = [s for s in shapes if s.is_group]
    if not frames:
        return shapes, lines
    bg = np.asarray(background, np.int16)
    keep = [i for i, s in enumerate(shapes) if s.is_group or not _wedge(rgb, bg, s, frames, runs)]
    if len(keep) == len(shapes):
        return shapes, lines
    joined: list[LinePath | None] = list(lines)
    for i in sorted(set(range(len(shapes))) - set(keep)):
        s = shapes[i]
        join_across(joined, (s.x, s.y, s.w, s.h), plate=False)
    return keep_shapes(shapes, keep), [ln for ln in joined if ln is not None]


def _wedge(rgb: np.ndarray, bg: np.ndarray, s: DetectedShape, frames: list[DetectedShape], runs: list[TextRun]) -> bool:
    if any(s.x <= r.cx <= s.x + s.w and s.y <= r.cy <= s.y + s.h for r in runs):
        return False
    for horizontal in (True, False):
        lo, hi = (s.y, s.y + s.h) if horizontal else (s.x, s.x + s.w)
        a, b = (s.x, s.x + s.w) if horizontal else (s.y, s.y + s.h)
        on_lo, on_hi = set(), set()
        for g in frames:
            tol = SIDE_TOL + s.stroke_px + g.stroke_px
            g0, g1 = (g.y, g.y + g.h) if horizontal else (g.x, g.x + g.w)
            c0, c1 = (g.x, g.x + g.w) if horizontal else (g.y, g.y + g.h)
            if a < c0 - tol or b > c1 + tol:  # the wedge runs along the frame's side, within its span
                continue
            if min(abs(lo - g0), abs(lo - g1)) <= tol:
                on_lo.add(id(g))
            if min(abs(hi - g0), abs(hi - g1)) <= tol:
                on_hi.add(id(g))
        if any(g != h for g in on_lo for h in on_hi):  # one side on one frame, the other on another
            return True
        if (on_lo and _runs_on(rgb, bg, horizontal, hi, a, b)) or (on_hi and _runs_on(rgb, bg, horizontal, lo, a, b)):
            return True
    return False


def _runs_on(rgb: np.ndarray, bg: np.ndarray, horizontal: bool, pos: float, a: float, b: float) -> bool:
    """A line along ``pos`` (a row when ``horizontal``, else a column) drawn on past both ends ``a``, ``b``."""
    H, W = rgb.shape[:2]
    p = int(round(pos))
    for lo, hi in ((int(a) - RUN_ON[1], int(a) - RUN_ON[0]), (int(b) + RUN_ON[0], int(b) + RUN_ON[1])):
        if lo < 0 or hi > (W if horizontal else H) or not 1 <= p < (H if horizontal else W) - 1:
            return False
        patch = rgb[p - 1:p + 2, lo:hi] if horizontal else rgb[lo:hi, p - 1:p + 2]
        ink = np.abs(patch.astype(np.int16) - bg).max(axis=2) > INK
        if ink.any(axis=0 if horizontal else 1).mean() < DRAWN:
            return False
    return True
