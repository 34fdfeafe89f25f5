"""A traced route made few-pointed and square: simplified (Douglas–Peucker), moved onto the ink's
sub-pixel centre line, rounded corners squared off, straight runs and folds dropped.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from crafteditor.lines.paths import Pt


def simplify(pts: list[Pt], eps: float) -> list[Pt]:
    if len(pts) <= 2:
        return [pts[0], pts[-1]] if len(pts) == 2 else list(pts)
    arr = np.asarray(pts, dtype=np.float32).reshape(-1, 1, 2)
    closed = math.dist(pts[0], pts[-1]) < 1.0 and len(pts) > 4
    approx = cv2.approxPolyDP(arr, eps, closed)
    out = [(float(p[0][0]), float(p[0][1])) for p in approx]
    if not closed:
        out[0], out[-1] = pts[0], pts[-1]
    return out


def refine(pts: list[Pt], coverage: np.ndarray, lw: float) -> list[Pt]:
    """Move each straight segment onto the ink's sub-pixel centre line (coverage-weighted).

    Skeleton pixels are whole pixels and snap a line drawn at x = 132.8 to 132.5 or 131.5;
    the anti-aliased coverage across the line says where its centre really is. Corners are
    re-intersected from the refined segments, so the route stays connected.
    """
    if len(pts) < 2:
        return pts
    H, W = coverage.shape
    lines = []
    for a, b in zip(pts, pts[1:]):
        ax, ay = a
        bx, by = b
        L = math.dist(a, b)
        if L < 4:
            lines.append(None)
            continue
        ux, uy = (bx - ax) / L, (by - ay) / L
        nx, ny = -uy, ux
        half = lw / 2 + 2.0
        x0, x1 = int(max(0, min(ax, bx) - half - 1)), int(min(W, max(ax, bx) + half + 2))
        y0, y1 = int(max(0, min(ay, by) - half - 1)), int(min(H, max(ay, by) + half + 2))
        if x1 <= x0 or y1 <= y0:
            lines.append(None)
            continue
        yy, xx = np.mgrid[y0:y1, x0:x1]
        cx, cy = xx + 0.5 - ax, yy + 0.5 - ay
        along = cx * ux + cy * uy
        off = cx * nx + cy * ny
        sel = (along > 2.0) & (along < L - 2.0) & (np.abs(off) <= half)
        wts = coverage[y0:y1, x0:x1][sel]
        if wts.sum() < 1.0:
            lines.append(None)
            continue
        shift = float((off[sel] * wts).sum() / wts.sum())
        lines.append((ax + nx * shift, ay + ny * shift, ux, uy))
    out = list(pts)
    for j, q in enumerate(pts):
        before = lines[j - 1] if j >= 1 else None  # the segment ending at point j
        after = lines[j] if j < len(lines) else None  # the segment starting at point j
        if before is not None and after is not None:
            hit = _intersect(before, after)
            if hit is not None and math.dist(hit, q) < 3 * lw + 3:
                out[j] = hit
                continue
        ln = after if after is not None else before
        if ln is not None:
            px, py, ux, uy = ln
            t = (q[0] - px) * ux + (q[1] - py) * uy
            out[j] = (px + ux * t, py + uy * t)
    return out


def _intersect(a, b) -> Pt | None:
    ax, ay, aux, auy = a
    bx, by, bux, buy = b
    den = aux * buy - auy * bux
    if abs(den) < 1e-6:
        return None
    t = ((bx - ax) * buy - (by - ay) * bux) / den
    return (ax + aux * t, ay + auy * t)


def _is_axis(a: Pt, b: Pt, tol: float = 1.6) -> str | None:
    if abs(a[1] - b[1]) <= tol and abs(a[0] - b[0]) > tol:
        return "h"
    if abs(a[0] - b[0]) <= tol and abs(a[1] - b[1]) > tol:
        return "v"
    return None


def orthogonalize(pts: list[Pt], max_cut: float) -> list[Pt]:
    """Square off rounded corners: short slanted pieces between a horizontal and a vertical run
    become the corner point where those runs meet (the renderer rounds it again)."""
    pts = list(pts)
    changed = True
    while changed and len(pts) >= 4:
        changed = False
        for i in range(len(pts) - 1):
            first = _is_axis(pts[i], pts[i + 1]) if i + 1 < len(pts) else None
            if first is None:
                continue
            # the slanted run after segment i, then the next axis-aligned segment
            j = i + 1
            cut = 0.0
            while j + 1 < len(pts) and _is_axis(pts[j], pts[j + 1]) is None:
                cut += math.dist(pts[j], pts[j + 1])
                j += 1
            if j == i + 1 or j + 1 >= len(pts) or cut > max_cut:
                continue
            second = _is_axis(pts[j], pts[j + 1])
            if second is None or second == first:
                continue
            corner = (pts[j][0], pts[i][1]) if first == "h" else (pts[i][0], pts[j][1])
            pts = pts[:i + 1] + [corner] + pts[j + 1:]
            changed = True
            break
    return pts


def merge_collinear(pts: list[Pt], lw: float) -> list[Pt]:
    """Drop points where the route goes straight on (within ~5°) or that make a tiny jog."""
    out = list(pts)
    i = 1
    while 0 < i < len(out) - 1:
        a, b, c = out[i - 1], out[i], out[i + 1]
        if (turn := _turn(a, b, c)) is None:
            del out[i]
            continue
        cos = turn[2]
        # distance of b from the chord a–c: a bend of a pixel or two is skeleton noise
        chord = math.dist(a, c)
        off = abs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])) / chord if chord > 1e-6 else 0.0
        if cos > 0.996 or off < 0.6 * lw + 0.6:
            del out[i]
            continue
        i += 1
    return out


def _turn(a: Pt, b: Pt, c: Pt) -> tuple[float, float, float] | None:
    """The lengths of the legs a→b and b→c and the cosine of the turn at b; None where a leg has no length."""
    v1 = (b[0] - a[0], b[1] - a[1])
    v2 = (c[0] - b[0], c[1] - b[1])
    n1, n2 = math.hypot(*v1), math.hypot(*v2)
    if n1 < 1e-6 or n2 < 1e-6:
        return None
    return n1, n2, (v1[0] * v2[0] + v1[1] * v2[1]) / (n1 * n2)


def drop_backtrack(pts: list[Pt]) -> list[Pt]:
    """Remove a point that makes the route fold back on itself (a skeleton spur near a head)."""
    if len(pts) < 3:
        return pts
    out = list(pts)
    changed = True
    while changed and len(out) >= 3:
        changed = False
        for i in range(1, len(out) - 1):
            if (turn := _turn(out[i - 1], out[i], out[i + 1])) is None:
                del out[i]
                changed = True
                break
            n1, n2, cos = turn
            if cos < -0.5 or (min(n1, n2) < 4 and cos < 0.7):
                del out[i]
                changed = True
                break
    return out
