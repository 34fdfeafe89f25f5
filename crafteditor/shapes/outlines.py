"""The outlines Crafter draws (rectangles, ellipses, diamonds, parallelograms, hexagons,
documents, cylinders), with the renderer's own proportions (:mod:`crafter.render.shapes`), and
which of them a face is: its best match by IoU, and the box of the outline it lies inside."""

from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np

from crafteditor.shapes.faces import Face
from crafteditor.shapes.polygons import fit_trapezoid

# shapes whose ideal masks we compare against (stack is found from its offset sheets)
_CANDIDATES = ("box", "ellipse", "diamond", "parallelogram", "parallelogram_l", "hexagon", "document", "cylinder")


@lru_cache(maxsize=512)
def ideal_mask(shape: str, w: int, h: int) -> np.ndarray:
    """The shape as the renderer draws it, filling a w×h box (same proportions as crafter.render.shapes);
    read-only, and drawn once per shape and size (faces of one size are compared with every shape, and
    again by the sketch and cylinder tests: 8 of 10 asks on three dev figures were repeats). The repeats
    are within a figure: 512 masks (8 shapes × 64 face sizes) keep them while a batch of thousands of
    figures, each with sizes of its own, does not pile up masks (4,096 of a 500×300 face are 600 MB)."""
    m = _drawn(shape, int(w), int(h))
    m.flags.writeable = False
    return m


def _drawn(shape: str, w: int, h: int) -> np.ndarray:
    m = np.zeros((h, w), np.uint8)
    W, H = w - 1, h - 1
    if shape == "box":
        m[:] = 1
    elif shape == "ellipse":
        cv2.ellipse(m, ((W / 2, H / 2), (w, h), 0), 1, thickness=-1)
    elif shape == "diamond":
        _poly(m, [(W / 2, 0), (W, H / 2), (W / 2, H), (0, H / 2)])
    elif shape == "diamond_round":
        # Excalidraw's rounded diamond: each corner cut a quarter of the way along its sides and
        # drawn as a cubic with both controls at the corner; the box is the curves' tips, so the
        # sharp corners lie outside it (by 1/16 of the sharp diamond's width and height)
        sx, sy = W / (1 - 0.0625), H / (1 - 0.0625)
        ox, oy = (sx - W) / 2, (sy - H) / 2
        corners = [(W / 2, -oy), (W + ox, H / 2), (W / 2, H + oy), (-ox, H / 2)]
        pts: list[tuple[float, float]] = []
        for k, c in enumerate(corners):
            a, b = corners[k - 1], corners[(k + 1) % 4]
            p0 = (c[0] + 0.25 * (a[0] - c[0]), c[1] + 0.25 * (a[1] - c[1]))
            p3 = (c[0] + 0.25 * (b[0] - c[0]), c[1] + 0.25 * (b[1] - c[1]))
            pts += [p0, *_cubic(p0, c, c, p3)]
        _poly(m, pts)
    elif shape in ("parallelogram", "parallelogram_l"):
        s = min(h * 0.35, w * 0.2)
        pts = [(s, 0), (W, 0), (W - s, H), (0, H)]
        if shape == "parallelogram_l":
            pts = [(0, 0), (W - s, 0), (W, H), (s, H)]
        _poly(m, pts)
    elif shape == "hexagon":
        s = min(h * 0.3, w * 0.2)
        _poly(m, [(s, 0), (W - s, 0), (W, H / 2), (W - s, H), (s, H), (0, H / 2)])
    elif shape == "document":
        amp = min(h * 0.1, 5.0 * h / 40.0)  # the renderer caps the wave at 5 px for ~40 px nodes
        base = H - amp
        pts = [(0, 0), (W, 0), (W, base)]
        pts += _cubic((W, base), (W * 0.75, base - 2 * amp), (W * 0.6, base - 1.2 * amp), (W / 2, base))
        pts += _cubic((W / 2, base), (W * 0.35, base + 1.6 * amp), (W * 0.2, base + 1.6 * amp), (0, base))
        _poly(m, pts)
    elif shape == "cylinder_body":
        # the part below the rim: a band whose top and bottom edges are lower half-ellipses
        ry = min(h * 0.14, w * 0.25)
        xs = np.arange(w)
        u = np.clip((xs - W / 2) / max(W / 2, 1), -1, 1)
        sag = ry * np.sqrt(1 - u * u)
        top = sag
        bottom = H - ry + sag
        ys = np.arange(h)[:, None]
        m = ((ys >= top[None, :]) & (ys <= bottom[None, :])).astype(np.uint8)
    elif shape == "cylinder":
        ry = min(h * 0.12, w * 0.25)
        xs = np.arange(w)
        u = np.clip((xs - W / 2) / max(W / 2, 1), -1, 1)
        sag = ry * np.sqrt(1 - u * u)
        ys = np.arange(h)[:, None]
        m = ((ys >= (ry - sag)[None, :]) & (ys <= (H - ry + sag)[None, :])).astype(np.uint8)
    return m.astype(bool)


def _poly(m: np.ndarray, pts: list[tuple[float, float]]) -> None:
    arr = np.round(np.asarray(pts, dtype=np.float64) * 16).astype(np.int32)
    cv2.fillPoly(m, [arr], 1, lineType=cv2.LINE_8, shift=4)


def _cubic(p0, p1, p2, p3, n: int = 12) -> list[tuple[float, float]]:
    t = np.linspace(0, 1, n)[1:, None]
    pts = ((1 - t) ** 3) * np.array(p0) + 3 * ((1 - t) ** 2) * t * np.array(p1) \
        + 3 * (1 - t) * t * t * np.array(p2) + (t ** 3) * np.array(p3)
    return [tuple(p) for p in pts]


def mask_iou(a: np.ndarray, b: np.ndarray) -> float:
    # counted, not summed: numpy's sum of a bool mask adds it up as integers (9 us a 80x120 pair, 2.5
    # counted; a dev run asks ~50,000 of these)
    inter = np.count_nonzero(np.logical_and(a, b))
    union = np.count_nonzero(np.logical_or(a, b))
    return float(inter) / float(union) if union else 0.0


def classify(face: Face) -> tuple[str, float]:
    """(shape name, IoU with its ideal mask) for the face's filled outline.

    Read once per face (kept on it, as its outline is): shape detection asks again of the same
    face as it merges and splits faces (a paper figure's 313 faces were classified 751 times,
    0.4 CPU-s of its shapes)."""
    if "_classified" not in face.__dict__:
        face.__dict__["_classified"] = _classify(face)
    return face.__dict__["_classified"]


def _classify(face: Face) -> tuple[str, float]:
    m = face.filled
    best, best_iou = "box", -1.0
    ious = {}
    for shape in _CANDIDATES:
        ideal = ideal_mask(shape, face.w, face.h)
        iou = ious[shape] = mask_iou(m, ideal)
        if iou > best_iou:
            best, best_iou = shape, iou
    if best == "cylinder":
        # one face shaped like a whole cylinder (its rim line, which makes a cap face, unseen)
        # differs from a box only in four corner slivers (~5% of the box): it must beat the box
        # by half of them. A JPEG's dashed frame gnaws its face's edges evenly, which favoured
        # the cylinder's trimmed corners (0.954 vs 0.943 on a group of encoder_decoder)
        corners = 1.0 - float(ideal_mask("cylinder", face.w, face.h).mean())
        if best_iou - ious["box"] < 0.5 * corners:
            best = max((c for c in _CANDIDATES if c != "cylinder"), key=ious.__getitem__)
            best_iou = ious[best]
    if best == "parallelogram_l":
        best = "parallelogram"
    if best == "diamond":  # drawn with rounded corners (Excalidraw's default): 0.89 against a sharp one
        best_iou = max(best_iou, mask_iou(m, ideal_mask("diamond_round", face.w, face.h)))
    trapezoid = fit_trapezoid(m)  # any slant (an encoder in a paper figure), not Crafter's proportions only
    if trapezoid is not None and trapezoid[1] > best_iou + 0.01:
        return trapezoid
    if best == "ellipse" and abs(face.w - face.h) <= max(2, 0.04 * max(face.w, face.h)):
        best = "circle"
    # Crafter's rounded corners have a radius of 7–9 px at 150 dpi; a q75 JPEG leaves a sharp
    # corner looking 2.2 px round
    if best == "box" and _corner_radius(m) >= (3.5 if face.soft else 1.5):
        best = "round"
    return best, best_iou


def _corner_radius(m: np.ndarray) -> float:
    """Radius of rounded corners from the empty pixels in the four corners (mean over corners)."""
    h, w = m.shape
    k = max(2, min(h, w) // 4)
    empties = []
    for ys, xs in ((slice(0, k), slice(0, k)), (slice(0, k), slice(w - k, w)),
                   (slice(h - k, h), slice(0, k)), (slice(h - k, h), slice(w - k, w))):
        empties.append(float((~m[ys, xs]).sum()))
    cut = float(np.median(empties))
    # a corner of radius r leaves (1 - π/4)·r² uncovered
    return float(np.sqrt(cut / (1 - np.pi / 4)))


def fit_polygon_box(f: Face, shape: str, grow: float) -> tuple[float, float, float, float] | None:
    """The box of a polygonal shape from straight-line fits to its face's edges.

    A sharp vertex loses its anti-aliased tip, so the face's bounding box is short there;
    the edges' middles are reliable. Each edge is fitted, neighbours intersected, and the
    polygon moved outward by ``grow`` to the stroke's centre line.
    """
    ideal = _outline(shape, float(f.w), float(f.h))
    if ideal is None:
        return None
    contours, _ = cv2.findContours(f.filled.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return None
    pts = max(contours, key=len).reshape(-1, 2).astype(np.float64) + 0.5  # pixel centres
    n = len(ideal)
    fitted = []
    for i in range(n):
        a, b = np.array(ideal[i]), np.array(ideal[(i + 1) % n])
        d = b - a
        L = float(np.hypot(*d))
        u = d / L
        rel = pts - a
        t = rel @ u
        off = np.abs(rel[:, 0] * u[1] - rel[:, 1] * u[0])
        sel = pts[(t > 0.2 * L) & (t < 0.8 * L) & (off < 3.0)]
        if len(sel) < 4:
            return None
        vx, vy, x0, y0 = cv2.fitLine(sel.astype(np.float32), cv2.DIST_L2, 0, 0.01, 0.01).ravel()
        # the contour runs through the face's edge pixels: the true edge is half a pixel further out
        nx, ny = -u[1], u[0]  # inward normal (clockwise on screen)
        fitted.append((x0 - nx * (grow + 0.5), y0 - ny * (grow + 0.5), vx, vy))
    corners = []
    for i in range(n):
        p, q = fitted[i - 1], fitted[i]
        den = p[2] * q[3] - p[3] * q[2]
        if abs(den) < 1e-9:
            return None
        t = ((q[0] - p[0]) * q[3] - (q[1] - p[1]) * q[2]) / den
        corners.append((p[0] + p[2] * t, p[1] + p[3] * t))
    xs = [c[0] for c in corners]
    ys = [c[1] for c in corners]
    x0, y0 = f.x + min(xs), f.y + min(ys)
    w, h = max(xs) - min(xs), max(ys) - min(ys)
    if not (0.8 * f.w <= w <= 1.3 * f.w + 8 and 0.8 * f.h <= h <= 1.3 * f.h + 8):
        return None
    return x0, y0, w, h


def _outline(shape: str, w: float, h: float) -> list[tuple[float, float]] | None:
    """The polygon the renderer draws for a polygonal shape in a w×h box (clockwise on screen)."""
    if shape == "diamond":
        return [(w / 2, 0), (w, h / 2), (w / 2, h), (0, h / 2)]
    if shape == "parallelogram":
        sk = min(h * 0.35, w * 0.2)
        return [(sk, 0), (w, 0), (w - sk, h), (0, h)]
    if shape == "hexagon":
        sk = min(h * 0.3, w * 0.2)
        return [(sk, 0), (w - sk, 0), (w, h / 2), (w - sk, h), (sk, h), (0, h / 2)]
    return None


def inset_margins(shape: str, w: float, h: float, g: float) -> tuple[float, float, float, float]:
    """How far the face's bounding box sits inside the shape's box on each side.

    The face is the outline moved inward by ``g`` (half the stroke plus anti-aliasing). At a
    sharp vertex (a diamond's left tip) the inward move along the axis is g / sin(half angle),
    much more than g: intersect the moved edges to find it.
    """
    pts = _outline(shape, w, h)
    if pts is None:
        return g, g, g, g
    n = len(pts)
    lines = []
    for i in range(n):
        (ax, ay), (bx, by) = pts[i], pts[(i + 1) % n]
        L = math.hypot(bx - ax, by - ay)
        nx, ny = -(by - ay) / L, (bx - ax) / L  # inward normal for clockwise-on-screen order
        lines.append((ax + nx * g, ay + ny * g, (bx - ax) / L, (by - ay) / L))
    inner = []
    for i in range(n):
        p, q = lines[i - 1], lines[i]
        den = p[2] * q[3] - p[3] * q[2]
        if abs(den) < 1e-9:
            inner.append((q[0], q[1]))
            continue
        t = ((q[0] - p[0]) * q[3] - (q[1] - p[1]) * q[2]) / den
        inner.append((p[0] + p[2] * t, p[1] + p[3] * t))
    xs = [x for x, _ in inner]
    ys = [y for _, y in inner]
    return min(xs), min(ys), w - max(xs), h - max(ys)
