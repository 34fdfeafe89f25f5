"""Geometry between line points and detected shapes, in image pixels: distances to a frame,
an outline or a polyline, where a ray enters a box, and routes made exactly axis-parallel."""

from __future__ import annotations

import math
from typing import Callable

import cv2
import numpy as np

from crafteditor.shapes.detect import DetectedShape

# shapes whose outline is their box, as far as a line end is concerned
_RECT_LIKE = {"box", "round", "stack", "document", "cylinder"}


def box_distance(p: tuple[float, float], box: tuple[float, float, float, float]) -> float:
    """Distance from a point to the border of the box (x, y, w, h), inside or out."""
    x, y = p
    bx, by, bw, bh = box
    if bx <= x <= bx + bw and by <= y <= by + bh:
        return min(x - bx, bx + bw - x, y - by, by + bh - y)
    return outside_distance(p, box)


def outside_distance(p: tuple[float, float], box: tuple[float, float, float, float]) -> float:
    """Distance from a point to the box (x, y, w, h): 0 inside it."""
    x, y = p
    bx, by, bw, bh = box
    return math.hypot(max(bx - x, 0, x - bx - bw), max(by - y, 0, y - by - bh))


def frame_distance(p: tuple[float, float], g: DetectedShape) -> float:
    """Distance from a point to the outline of a group's frame rectangle."""
    return box_distance(p, (g.x, g.y, g.w, g.h))


def unit(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float] | None:
    """The unit vector from a to b, or None where they (nearly) coincide."""
    d = math.dist(a, b)
    if d < 1e-6:
        return None
    return ((b[0] - a[0]) / d, (b[1] - a[1]) / d)


def dist_to_shape(p: tuple[float, float], s: DetectedShape) -> float:
    """Distance from a point to a shape's outline (its box for rectangles, its face contour otherwise)."""
    x, y = p
    if s.shape in _RECT_LIKE or s.is_group:
        dx = max(s.x - x, 0, x - (s.x + s.w))
        dy = max(s.y - y, 0, y - (s.y + s.h))
        if dx == 0 and dy == 0:  # in its box (s.contains_point's test, without the call: ~500,000 asks a dev run)
            return min(x - s.x, s.x + s.w - x, y - s.y, s.y + s.h - y)
        return math.hypot(dx, dy)
    f = s.face
    c = _outline(f)
    if c is None:
        return math.inf
    d = cv2.pointPolygonTest(c, (float(x - f.x), float(y - f.y)), True)
    return abs(float(d)) - s.stroke_px / 2


class OutlineBoxes:
    """The shapes whose :func:`dist_to_shape` from a point can be within a distance, found from the
    bounding boxes of their outlines at once (an outline is no nearer than its box, a face's less half
    its stroke): a sketched line end carried on step by step asked every shape at every step (200,000
    calls over eleven dev figures). Only those are to be asked; the answers are the same."""

    def __init__(self, shapes: list[DetectedShape]) -> None:
        self.boxes = np.array([_outline_box(s) for s in shapes], np.float64).reshape(-1, 5)

    def within(self, p: tuple[float, float], d: float) -> np.ndarray:
        """The indices (in order) of the shapes that :func:`dist_to_shape` may put within ``d`` of ``p``."""
        x0, y0, x1, y1, slack = self.boxes.T
        gap = np.hypot(np.maximum(np.maximum(x0 - p[0], p[0] - x1), 0.0), np.maximum(np.maximum(y0 - p[1], p[1] - y1), 0.0))
        return np.flatnonzero(gap - slack <= d + 1e-6)  # (a margin for the rounding of either sum)


def _outline_box(s: DetectedShape) -> tuple[float, float, float, float, float]:
    """(x0, y0, x1, y1, half stroke) of what :func:`dist_to_shape` measures to; an empty box far off
    where it measures to nothing (inf)."""
    if s.shape in _RECT_LIKE or s.is_group:
        return s.x, s.y, s.x + s.w, s.y + s.h, 0.0
    f = s.face
    c = _outline(f)
    if c is None:
        return math.inf, math.inf, math.inf, math.inf, 0.0
    pts = c.reshape(-1, 2)
    return (f.x + float(pts[:, 0].min()), f.y + float(pts[:, 1].min()), f.x + float(pts[:, 0].max()),
            f.y + float(pts[:, 1].max()), s.stroke_px / 2)


def inside_shape(p: tuple[float, float], s: DetectedShape) -> bool:
    """Whether a point lies inside a shape's outline (its box for rectangles)."""
    if s.shape in _RECT_LIKE or s.is_group:
        return s.x <= p[0] <= s.x + s.w and s.y <= p[1] <= s.y + s.h
    f = s.face
    c = _outline(f)
    return c is not None and cv2.pointPolygonTest(c, (float(p[0] - f.x), float(p[1] - f.y)), False) >= 0


def _outline(f) -> np.ndarray | None:
    """A face's outer contour, traced once (every line end of a figure asks for it)."""
    if "_outline" not in f.__dict__:
        contours, _ = cv2.findContours(f.filled.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        f.__dict__["_outline"] = max(contours, key=len) if contours else None
    return f.__dict__["_outline"]


def nearest_on_polyline(p, pts) -> tuple[tuple[float, float] | None, float]:
    """(the point of the polyline ``pts`` nearest ``p``, its distance); (``pts[0]``, inf) for a single
    point, (None, inf) for none."""
    best, at = math.inf, (pts[0] if len(pts) else None)
    for a, b in zip(pts, pts[1:]):
        ax, ay = a
        bx, by = b
        dx, dy = bx - ax, by - ay
        L2 = dx * dx + dy * dy
        t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / L2))
        qx, qy = ax + t * dx, ay + t * dy
        d = math.hypot(p[0] - qx, p[1] - qy)
        if d < best:
            best, at = d, (qx, qy)
    return at, best


def dist_to_polyline(p, pts) -> float:
    return nearest_on_polyline(p, pts)[1]


def ray_box(q, p, box) -> tuple[float, float] | None:
    """Where the ray q→p, continued past p, enters the box (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = box
    dx, dy = p[0] - q[0], p[1] - q[1]
    best = None
    for t_num, t_den, axis, lo, hi, fixed in (
        (x0 - q[0], dx, 1, y0, y1, x0), (x1 - q[0], dx, 1, y0, y1, x1),
        (y0 - q[1], dy, 0, x0, x1, y0), (y1 - q[1], dy, 0, x0, x1, y1),
    ):
        if abs(t_den) < 1e-9:
            continue
        t = t_num / t_den
        if t < 0:
            continue
        if axis == 1:
            yy = q[1] + t * dy
            if lo - 0.5 <= yy <= hi + 0.5 and (best is None or t < best[0]):
                best = (t, (fixed, yy))
        else:
            xx = q[0] + t * dx
            if lo - 0.5 <= xx <= hi + 0.5 and (best is None or t < best[0]):
                best = (t, (xx, fixed))
    return None if best is None else best[1]


def straighten(pts: list[tuple[float, float]], tol: float) -> list[tuple[float, float]]:
    """Make nearly horizontal or vertical segments exact (a rendered straight line is straight).

    A whole route within a few pixels of one vertical (horizontal) line is that line, at its
    longest segment's place: where a head lost a wing to an erased glyph, the line's end drifted
    3-4 px and the arrow came back slanted (training_loop's Tokenizer → Embedding layer).
    """
    pts = [(float(p[0]), float(p[1])) for p in pts]
    if len(pts) >= 2:
        seg = max(range(len(pts) - 1), key=lambda i: math.dist(pts[i], pts[i + 1]))
        for axis in (0, 1):
            other = 1 - axis
            extent = max(p[other] for p in pts) - min(p[other] for p in pts)
            at = (pts[seg][axis] + pts[seg + 1][axis]) / 2
            if extent > 8 * tol and max(abs(p[axis] - at) for p in pts) <= max(tol, min(5.0, 0.06 * extent)):
                return [(at, p[1]) if axis == 0 else (p[0], at) for p in pts]
    for i in range(len(pts) - 1):
        (ax, ay), (bx, by) = pts[i], pts[i + 1]
        if abs(ay - by) <= tol and abs(bx - ax) > 2 * tol:
            y = (ay + by) / 2
            pts[i], pts[i + 1] = (ax, y), (bx, y)
        elif abs(ax - bx) <= tol and abs(by - ay) > 2 * tol:
            x = (ax + bx) / 2
            pts[i], pts[i + 1] = (x, ay), (x, by)
    return pts


def axis_aligned(pts) -> bool:
    return all(abs(a[0] - b[0]) < 0.01 or abs(a[1] - b[1]) < 0.01 for a, b in zip(pts, pts[1:]))


def bounds(pts) -> tuple[float, float, float, float]:
    """The box (x0, y0, x1, y1) around points."""
    xs, ys = [x for x, _ in pts], [y for _, y in pts]
    return min(xs), min(ys), max(xs), max(ys)


def line_boxes(lines) -> np.ndarray:
    """The lines' boxes (:func:`bounds` of their points), one row each: N×4."""
    return np.array([bounds(ln.points) for ln in lines], np.float64).reshape(-1, 4)


def run_across(inked: Callable[[int, int], bool], shape: tuple[int, int], tip: tuple[float, float],
               u: tuple[float, float], t: float, reach: int) -> int:
    """The ink's width across a course, ``t`` px back from ``tip`` along the unit direction ``u``: the
    pixels ``inked(x, y)`` counts, outwards on both sides up to ``reach`` - 1 px, each side stopping at the
    first pixel off the ink or off the image (``shape``: H, W). How heads are told from a stroke."""
    H, W = shape
    cx, cy = tip[0] - u[0] * t, tip[1] - u[1] * t
    run = 0
    for side in (1, -1):
        for k in range(0 if side == 1 else 1, reach):
            x, y = int(round(cx - u[1] * k * side)), int(round(cy + u[0] * k * side))
            if not (0 <= x < W and 0 <= y < H) or not inked(x, y):
                break
            run += 1
    return run
