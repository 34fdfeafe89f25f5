"""Trapezoids of any slant: the encoders and decoders of ML architecture figures.

Crafter's own shapes are matched against ideal masks of fixed proportions
(:mod:`crafteditor.shapes.outlines`); a trapezoid in a paper figure narrows by whatever the
author dragged (its narrow side 40–90 % of the wide one). Its face's extent across the axis
of the narrowing falls linearly from the wide side to the narrow one, symmetrically about the
middle: that line is fitted, the trapezoid it describes drawn, and the face is a trapezoid
when that drawing covers it as well as an ideal shape must (``shape_min_iou``). Before this a
trapezoid became a box plus two stray diagonal lines.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from crafteditor.paint import to_hex
from crafter.spec.model import Path

# the narrowing must be at least this share of the wide side (each end), else the face is a box
MIN_INSET = 0.06
# the narrow side must be at least this share of the wide one (a triangle has none)
MIN_NARROW = 0.2
# the middle of the extent may wander this share of the wide side (a symmetric trapezoid does not)
MAX_SKEW = 0.05


def fit_trapezoid(filled: np.ndarray) -> tuple[str, float] | None:
    """(trapezoid shape name, IoU with the fitted trapezoid), or None where the face is no trapezoid.

    ``filled``: the face's inside, h×w bool. The name says where the narrow side is
    (``trapezoid``: up, ``trapezoid_down``, ``trapezoid_left``, ``trapezoid_right``)."""
    h, w = filled.shape
    if h < 8 or w < 8:
        return None
    # cheap refusals first (classify asks this of every face): a trapezoid covers 1 - inset/wide
    # of its box, and its extent changes monotonically along one axis
    cover = float(filled.mean())
    if not 0.5 <= cover <= 1 - MIN_INSET:
        return None
    best: tuple[str, float] | None = None
    for across_columns in (True, False):
        m = filled if across_columns else filled.T  # extents are measured per column of m
        probe = m[:, np.linspace(0.1 * (m.shape[1] - 1), 0.9 * (m.shape[1] - 1), 5).astype(int)].sum(axis=0)
        steps = np.diff(probe)
        if not ((steps >= -1).all() or (steps <= 1).all()) or abs(int(probe[-1]) - int(probe[0])) < 3:
            continue
        fit = _narrowing(m)
        if fit is None:
            continue
        wide_first, inset = fit
        if across_columns:
            shape = "trapezoid_right" if wide_first else "trapezoid_left"
        else:
            shape = "trapezoid_down" if wide_first else "trapezoid"
        iou = _iou(filled, _trapezoid_mask(shape, w, h, inset))
        if best is None or iou > best[1]:
            best = (shape, iou)
    return best


def _narrowing(m: np.ndarray) -> tuple[bool, float] | None:
    """(whether the wide side comes first, the inset at the narrow side in pixels) of a face
    whose per-column extent falls linearly and symmetrically, or None."""
    h, w = m.shape
    any_px = m.any(axis=0)
    top = np.argmax(m, axis=0).astype(np.float64)
    bottom = (h - 1 - np.argmax(m[::-1], axis=0)).astype(np.float64)
    cols = np.arange(w)
    sel = any_px & (cols >= 0.1 * w) & (cols <= 0.9 * w)
    if sel.sum() < 6:
        return None
    extent = bottom[sel] - top[sel] + 1
    mid = (bottom[sel] + top[sel]) / 2
    slope, icpt = np.polyfit(cols[sel], extent, 1)
    wide = max(icpt, icpt + slope * (w - 1))
    inset = abs(slope) * (w - 1) / 2
    if inset < MIN_INSET * wide or inset < 2.0 or wide - 2 * inset < MIN_NARROW * wide:  # a box; a triangle
        return None
    resid = extent - (icpt + slope * cols[sel])
    if float(np.abs(resid).mean()) > 0.03 * wide + 1.0:  # not straight sides
        return None
    if float(mid.max() - mid.min()) > MAX_SKEW * wide + 2.0:  # a slanted band, not a symmetric narrowing
        return None
    return bool(slope < 0), float(inset)


def _trapezoid_mask(shape: str, w: int, h: int, inset: float) -> np.ndarray:
    W, H, s = w - 1, h - 1, inset
    pts = {"trapezoid": [(s, 0), (W - s, 0), (W, H), (0, H)],
           "trapezoid_down": [(0, 0), (W, 0), (W - s, H), (s, H)],
           "trapezoid_left": [(0, s), (W, 0), (W, H), (0, H - s)],
           "trapezoid_right": [(0, 0), (W, s), (W, H - s), (0, H)]}[shape]
    m = np.zeros((h, w), np.uint8)
    cv2.fillPoly(m, [np.round(np.asarray(pts) * 16).astype(np.int32)], 1, lineType=cv2.LINE_8, shift=4)
    return m.astype(bool)


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    union = np.logical_or(a, b).sum()
    return float(np.logical_and(a, b).sum()) / float(union) if union else 0.0


# -- other closed polygons ----------------------------------------------------------------------

POLYGON_MIN_IOU = 0.93  # the fitted polygon must cover the face this well
POLYGON_MAX_CORNERS = 8


def fit_polygon(filled: np.ndarray, grow: float) -> tuple[list[tuple[float, float]], float] | None:
    """(corners in face pixels, moved ``grow`` outward onto the stroke's centre line; IoU with the
    face) of a convex polygon of 3 to 8 corners the face fills, or None (a pentagon, a home-plate
    arrow, a triangle: no node shape, kept as a filled and stroked path)."""
    h, w = filled.shape
    if h < 8 or w < 8:
        return None
    contours, _ = cv2.findContours(filled.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return None
    c = max(contours, key=cv2.contourArea)
    approx = cv2.approxPolyDP(c, 0.02 * cv2.arcLength(c, True), True)
    if not 3 <= len(approx) <= POLYGON_MAX_CORNERS or not cv2.isContourConvex(approx):
        return None
    drawn = np.zeros((h, w), np.uint8)
    cv2.fillPoly(drawn, [approx], 1)
    iou = _iou(filled, drawn.astype(bool))
    if iou < POLYGON_MIN_IOU:
        return None
    pts = approx.reshape(-1, 2).astype(np.float64) + 0.5  # pixel centres
    centre = pts.mean(axis=0)
    out = []
    for p in pts:  # outward by ``grow`` along the corner's direction from the centre (enough for convex corners)
        d = p - centre
        n = float(np.hypot(*d)) or 1.0
        out.append((float(p[0] + d[0] / n * grow), float(p[1] + d[1] / n * grow)))
    return out, iou


def polygon_paths(b: Any, polygons: list[Any]) -> list[Path]:
    """Closed polygons (shape 'polygon' with their ``outline``) as filled, stroked path components;
    the text inside them stays free text. ``b``: the figure builder (ids, pixels to user units)."""
    out = []
    for s in polygons:
        pts = " L".join(f"{x * b.s:.2f},{y * b.s:.2f}" for x, y in s.outline)
        out.append(Path(kind="path", id=b.new_id("p"), d=f"M{pts} Z", fill=to_hex(s.fill),
                        stroke=to_hex(s.stroke) if s.stroke is not None else None,
                        stroke_width=round(s.stroke_px * b.s, 2) if s.stroke is not None else None))
    return out
