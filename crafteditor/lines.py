"""Lines and arrows: the ink left after text and shapes, traced into polylines with arrowheads.

Steps (all in image pixels):

1. the line width is the median stroke thickness of the residual ink (distance transform
   along its skeleton);
2. arrowheads are what survives a morphological opening a little wider than the line:
   filled triangles keep a core, lines vanish; each head's tip is its pixel farthest from
   the line it sits on. Open 'V' heads are too thin to survive it and are found as two
   short arms in the skeleton; each head's kind (arrow, open, diamond) is read from slices
   across its axis;
3. the rest is skeletonised and split into paths at end points and junctions; crossing
   lines are paired through a junction by the straightest continuation;
4. dash pieces are chained end to end when the gap is short and the direction continues,
   and the chain is called dashed or dotted from its dash lengths;
5. each path is simplified (Douglas–Peucker) into a route of a few points.

Attaching ends to nodes happens in :mod:`crafteditor.assemble`, which knows the shapes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from crafteditor.blobs import find_blobs
from crafteditor.paint import distances

Pt = tuple[float, float]


@dataclass
class Arrowhead:
    tip: Pt
    base: Pt  # centre of the head's back, where the line enters
    length: float
    width: float
    mask_box: tuple[int, int, int, int]  # x0, y0, x1, y1 of the head pixels
    pixels: np.ndarray = field(repr=False, default_factory=lambda: np.zeros((0, 2)))  # N×2 pixel centres (x, y)
    weights: np.ndarray = field(repr=False, default_factory=lambda: np.zeros(0))  # ink coverage of each
    kind: str = "arrow"  # the IR's head names: arrow (filled triangle), open (a 'V'), diamond
    pointing: tuple[float, float] | None = None  # axis known from the head's own shape (a 'V': its bisector)
    axis_from_shape: bool = False  # set by axis(): the head's pixels (not the line) gave its axis

    def principal(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The pixels' coverage-weighted centre, and the eigenvalues and eigenvectors of their spread."""
        w = np.clip(self.weights, 0.05, 1.0)
        c = (self.pixels * w[:, None]).sum(axis=0) / w.sum()
        rel = self.pixels - c
        evals, evecs = np.linalg.eigh((rel * w[:, None]).T @ rel / w.sum())
        return c, evals, evecs

    def axis(self, entry: Pt, fallback: tuple[float, float]) -> tuple[tuple[float, float], Pt]:
        """(direction from the line into the head, a point on the head's axis).

        An arrowhead is longer than wide, so its pixels' principal direction is its axis
        (snapped to horizontal/vertical within ~12°); the line's own direction is only the
        fallback, because a route often turns a rounded corner just before its head.
        """
        c, evals, evecs = self.principal()
        self.axis_from_shape = True
        if self.pointing is not None:  # a 'V' is about as wide as long: its pixels give no axis
            d = np.asarray(self.pointing, dtype=np.float64)
        elif evals[0] <= 1e-9 or evals[1] / evals[0] < 1.4:
            d = np.asarray(fallback, dtype=np.float64)
            self.axis_from_shape = False
        else:
            d = evecs[:, int(np.argmax(evals))]
            if float(d @ (c - np.asarray(entry))) < 0:
                d = -d
            # the line enters a head on its axis: where the line's direction points at the head's
            # centre and the pixels' axis does not, the pixels mislead (a small 'V' swallowed by
            # its blob is wider than long); a route turning a corner just before its head
            # enters beside the line's direction, and keeps the pixels' axis
            v = c - np.asarray(entry)
            nv = float(np.hypot(*v))
            f = np.asarray(fallback, dtype=np.float64)
            if nv > 1e-6 and abs(float(f @ v)) / nv > 0.95 and abs(float(d @ v)) / nv < 0.5:
                d = f
                self.axis_from_shape = False
        if abs(d[1]) < 0.2:
            d = np.array([1.0 if d[0] > 0 else -1.0, 0.0])
        elif abs(d[0]) < 0.2:
            d = np.array([0.0, 1.0 if d[1] > 0 else -1.0])
        return (float(d[0]), float(d[1])), (float(c[0]), float(c[1]))

    def orient(self, origin: Pt, direction: tuple[float, float]) -> None:
        """Put tip and base on the axis through ``origin`` along ``direction`` (pointing to the tip)."""
        if len(self.pixels) == 0:
            return
        d = np.asarray(direction, dtype=np.float64)
        e = np.asarray(origin, dtype=np.float64)
        rel = self.pixels - e
        proj = rel @ d
        solid = self.weights >= 0.35
        far = float(proj[solid].max() if solid.any() else proj.max()) + 0.5
        near = float(proj.min())
        across = np.array([-d[1], d[0]])
        perp = rel @ across
        self.tip = tuple(e + d * far)  # type: ignore[assignment]
        self.base = tuple(e + d * max(near, far - self.length))  # type: ignore[assignment]
        self.width = float(perp.max() - perp.min()) + 1


@dataclass
class LinePath:
    """A traced line: points from one end to the other, in image pixels."""

    points: list[Pt]
    width: float  # stroke width, px
    color: tuple[int, int, int]
    style: str = "solid"  # solid, dashed, dotted
    head_start: Arrowhead | None = None
    head_end: Arrowhead | None = None
    pieces: int = 1  # dash pieces chained into this path
    ink: int = 0  # pixels of ink the path explains
    open_ends: list[bool] = field(default_factory=lambda: [True, True])  # False where it ends in a junction

    @property
    def length(self) -> float:
        return sum(math.dist(a, b) for a, b in zip(self.points, self.points[1:]))

    @property
    def start(self) -> Pt:
        return self.points[0]

    @property
    def end(self) -> Pt:
        return self.points[-1]


# -- skeleton graph ----------------------------------------------------------------------------

_NEIGH = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
_NEIGHBOURS = np.array([[1, 1, 1], [1, 0, 1], [1, 1, 1]], np.float32)


def _skeleton(mask: np.ndarray) -> np.ndarray:
    from skimage.morphology import skeletonize

    return skeletonize(mask)


def trace_skeleton(skel: np.ndarray) -> list[list[tuple[int, int]]]:
    """Pixel paths (as (y, x)) between end points and junctions of a skeleton; loops included."""
    ys, xs = np.nonzero(skel)
    pix = set(zip(ys.tolist(), xs.tolist()))
    if not pix:
        return []

    def neigh(p):
        y, x = p
        return [(y + dy, x + dx) for dy, dx in _NEIGH if (y + dy, x + dx) in pix]

    # each pixel's count of 8-neighbours, from one filter over the skeleton (a set lookup per
    # neighbour per pixel was 18 ms of a diagram's line finding); built in the set's order
    count = cv2.filter2D(skel.astype(np.uint8), -1, _NEIGHBOURS, borderType=cv2.BORDER_CONSTANT)
    by_pixel = dict(zip(zip(ys.tolist(), xs.tolist()), count[ys, xs].tolist()))
    deg = {p: by_pixel[p] for p in pix}
    nodes = {p for p, d in deg.items() if d != 2}
    # junction pixels come in small clusters; treat each cluster as one node
    visited_edges: set[tuple[tuple[int, int], tuple[int, int]]] = set()
    paths: list[list[tuple[int, int]]] = []
    for start in nodes:
        for nb in neigh(start):
            if (start, nb) in visited_edges:
                continue
            path = [start, nb]
            visited_edges.add((start, nb))
            visited_edges.add((nb, start))
            prev, cur = start, nb
            while cur not in nodes:
                nxt = [q for q in neigh(cur) if q != prev and (cur, q) not in visited_edges]
                if not nxt:
                    break
                q = nxt[0]
                visited_edges.add((cur, q))
                visited_edges.add((q, cur))
                path.append(q)
                prev, cur = cur, q
            paths.append(path)
    # isolated loops (every pixel of degree 2) and single pixels
    seen = {p for path in paths for p in path}
    for p in pix:
        if p in seen:
            continue
        if deg[p] == 0:
            paths.append([p])
            seen.add(p)
            continue
        loop = [p]
        seen.add(p)
        prev, cur = None, p
        while True:
            nxt = [q for q in neigh(cur) if q != prev and q not in seen]
            if not nxt:
                break
            prev, cur = cur, nxt[0]
            loop.append(cur)
            seen.add(cur)
        loop.append(p)
        paths.append(loop)
    return _merge_junction_clusters(paths, nodes, deg)


def _merge_junction_clusters(paths, nodes, deg):
    """Drop the 1–2 pixel stubs that connect pixels inside one junction cluster."""
    out = []
    for path in paths:
        if len(path) <= 3 and all(deg.get(p, 0) >= 3 for p in (path[0], path[-1])) and path[0] != path[-1]:
            continue
        out.append(path)
    return out


# -- the stage ----------------------------------------------------------------------------------

def detect_lines(rgb: np.ndarray, residual: np.ndarray, background: np.ndarray) -> tuple[list[LinePath], np.ndarray]:
    """Lines in the residual ink mask. Returns the paths and the mask of ink they explain."""
    if residual.sum() < 4:
        return [], np.zeros_like(residual)
    skel_all = _skeleton(residual)
    # each pixel's colour distance from the background, read by the coverage and the contrast
    dist = distances(rgb, background)
    coverage_all = _coverage(dist, residual)
    rough = _stroke_width(coverage_all, skel_all, 12.0)
    heads, head_mask = _find_heads(residual, rough, coverage_all)
    lines_mask = residual & ~head_mask
    # skeletonise the solid core only: faint anti-aliased pixels bridge the gaps between dots
    skel = _skeleton(lines_mask & (_local_contrast(dist) >= 0.35))
    coverage = np.where(lines_mask, coverage_all, 0).astype(np.float32)
    lw = _stroke_width(coverage, skel, rough * 1.2) if skel.any() else rough
    pieces = [_to_xy(p) for p in trace_skeleton(skel) if p]
    pieces, open_heads, heads = _find_open_heads(pieces, residual, coverage_all, lw, heads)
    for h in open_heads:
        x0, y0, x1, y1 = h.mask_box
        head_mask[y0:y1, x0:x1] |= _pixels_mask(h, (y1 - y0, x1 - x0))
    heads += open_heads
    pieces = _pair_through_junctions(pieces, lw)
    chains = _chain_dashes(pieces, lw)
    paths: list[LinePath] = []
    for chain in chains:
        pts = [pt for piece in chain for pt in piece]
        if len(pts) < 2:
            continue
        length = sum(math.dist(a, b) for a, b in zip(pts, pts[1:]))
        style = "solid"
        if len(chain) >= 3 and _dash_pattern(chain, lw):
            # the pattern's period tells dots (≈3.5 line widths: 1 dot + 1.5 gap) from dashes (≈8)
            period = length / (len(chain) - 0.5)
            style = "dotted" if period <= 5.5 * lw else "dashed"
        if length < max(6.0, 3 * lw) and len(chain) < 3:
            continue
        simple = simplify(pts, max(1.0, 0.8 * lw))
        simple = refine(simple, coverage, lw)
        paths.append(LinePath(points=simple, width=lw, color=(0, 0, 0), style=style, pieces=len(chain)))
    _attach_heads(paths, heads, lw, residual)
    paths += _orphan_heads(paths, heads, lw, residual)
    explained = np.zeros_like(residual)
    for p in paths:
        _draw_path(explained, p, lw)
        for h in (p.head_start, p.head_end):
            if h is not None:
                x0, y0, x1, y1 = h.mask_box
                explained[y0:y1, x0:x1] |= head_mask[y0:y1, x0:x1]
    explained &= residual
    for p in paths:
        p.color = _line_color(rgb, p, residual, background)
    return paths, explained


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


def _stroke_width(coverage: np.ndarray, skel: np.ndarray, top: float) -> float:
    """The typical stroke width: ink coverage across the line around each skeleton pixel, median
    over the skeleton (a bar or a pale fill left in the residual must not make lines look thick)."""
    if not skel.any():
        return 1.5
    k = 7
    local = cv2.boxFilter(coverage.astype(np.float32), -1, (k, k), normalize=False)
    per_px = local[skel] / (k * 1.04)
    return float(np.clip(np.median(per_px), 0.6, top))


def _local_contrast(dist: np.ndarray) -> np.ndarray:
    """Each pixel's distance from the background (``dist``) relative to the strongest ink within 2 px."""
    peak = cv2.dilate(dist, np.ones((5, 5), np.uint8))
    return dist / np.maximum(peak, 1.0)


def _coverage(dist: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """How much of each masked pixel the ink covers (0..1), against the strongest ink nearby
    (``dist``: each pixel's colour distance from the background)."""
    vals = dist[mask]
    if vals.size == 0:
        return np.zeros(mask.shape, np.float32)
    full = max(1.0, float(np.percentile(vals, 90)))
    return np.where(mask, np.clip(dist / full, 0, 1), 0).astype(np.float32)


def _to_xy(path: list[tuple[int, int]]) -> list[Pt]:
    # pixel (row y, column x) covers [x, x+1): its centre is at x + 0.5
    return [(x + 0.5, y + 0.5) for y, x in path]


def _plen(pts: list[Pt]) -> float:
    return sum(math.dist(a, b) for a, b in zip(pts, pts[1:])) + 1.0


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


# -- arrowheads ----------------------------------------------------------------------------------

def _find_heads(residual: np.ndarray, lw: float, coverage: np.ndarray) -> tuple[list[Arrowhead], np.ndarray]:
    # wide enough to erase a line with its anti-aliased rim, narrow enough to fit inside a head
    k = int(round(1.5 * lw + 2)) | 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    opened = cv2.morphologyEx(residual.astype(np.uint8), cv2.MORPH_OPEN, kernel)
    n, lab, stats, _ = find_blobs(opened)
    heads: list[Arrowhead] = []
    head_mask = np.zeros_like(residual)
    H, W = residual.shape
    for i in range(1, n):
        x, y, w, h, area = stats[i]
        if max(w, h) > 12 * lw + 20 or area < 0.6 * k * k:
            continue  # a filled block, not an arrowhead
        pad = k // 2 + 2
        x0, y0, x1, y1 = max(0, x - pad), max(0, y - pad), min(W, x + w + pad), min(H, y + h + pad)
        core = (lab[y0:y1, x0:x1] == i).astype(np.uint8)
        grown = cv2.dilate(core, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k + 2, k + 2))).astype(bool)
        region = grown & residual[y0:y1, x0:x1]
        ys, xs = np.nonzero(region)
        if ys.size < 4:
            continue
        pts = np.stack([xs + x0 + 0.5, ys + y0 + 0.5], axis=1).astype(np.float64)
        wts = coverage[ys + y0, xs + x0].astype(np.float64)
        # a provisional axis (principal direction); the line it sits on fixes it later
        centre = pts.mean(axis=0)
        evals, evecs = np.linalg.eigh(np.cov((pts - centre).T))
        axis = evecs[:, int(np.argmax(evals))]
        proj = (pts - centre) @ axis
        perp = (pts - centre) @ np.array([-axis[1], axis[0]])
        length = float(proj.max() - proj.min()) + 1
        width = float(perp.max() - perp.min()) + 1
        if max(length, width) < 2.0 * lw:
            continue
        head_mask[y0:y1, x0:x1] |= region
        heads.append(Arrowhead(tip=(float(centre[0]), float(centre[1])), base=(float(centre[0]), float(centre[1])),
                               length=max(length, width), width=min(length, width), mask_box=(x0, y0, x1, y1),
                               pixels=pts, weights=wts))
    return heads, head_mask


def _head_kind(h: Arrowhead, d: tuple[float, float], residual: np.ndarray, lw: float, trusted: bool = True) -> str:
    """arrow, open or diamond, from cross-sections of the ink behind the tip.

    Slices across the axis, every half pixel back from the tip: a filled head is one run of ink
    per slice, an open 'V' is two or three (its arms, and the line between them); a filled
    triangle is widest at its back, a diamond half-way along. Measured on Crafter's own heads
    at 100–300 dpi (``tests/crafteditor/test_shapes_lines.py``).

    An axis not ``trusted`` (lent by the line, because the head's pixels are about as wide as long)
    may be wrong where a route turns just before a small head: slices across a wrong axis read
    any head as any kind, so then only a clear 'V' is claimed (hollow, symmetric, sharp tip).
    """
    H, W = residual.shape
    dx, dy = d
    nx, ny = -dy, dx
    tip = np.asarray(h.tip) - 0.5 * np.asarray(d)  # the last half pixel is anti-aliasing
    reach = 2.5 * max(h.length, h.width, 4 * lw)
    half = 0.9 * max(h.width, 4 * lw)
    ts = np.arange(1.0, reach, 0.5)
    ss = np.arange(-half, half + 0.01, 0.5)
    px = tip[0] - ts[:, None] * dx + ss[None, :] * nx
    py = tip[1] - ts[:, None] * dy + ss[None, :] * ny
    xi, yi = np.floor(px).astype(int), np.floor(py).astype(int)
    inside = (xi >= 0) & (xi < W) & (yi >= 0) & (yi < H)
    ink = np.zeros(px.shape, bool)
    ink[inside] = residual[yi[inside], xi[inside]]
    widths, runs, centres = [], [], []
    for row in ink:
        on = np.flatnonzero(row)
        if on.size == 0:
            widths.append(0.0)
            runs.append(0)
            centres.append(0.0)
            continue
        runs.append(1 + int(np.count_nonzero(np.diff(on) > 2)))  # a gap of over a pixel splits runs
        widths.append((on[-1] - on[0] + 1) * 0.5)
        centres.append(float(ss[on[0]] + ss[on[-1]]) / 2)
    widths_a = np.asarray(widths)
    wide = widths_a > lw + 2.5  # wider than the line: still the head
    if not wide.any():
        return "arrow"
    # the head is the first stretch of wide slices; what lies behind it (a route's corner, a
    # node's outline) is not the head
    first = int(np.argmax(wide))
    narrow = np.flatnonzero(~wide[first:])
    extent = first + (int(narrow[0]) if narrow.size else len(wide) - first)
    body = slice(int(0.3 * extent), max(int(0.3 * extent) + 1, int(0.8 * extent)))
    # a head is symmetric about its axis; lopsided slices mean the axis is not the head's (a
    # route turning just before a small head lends it the line's direction): claim nothing
    lopsided = float(np.median(np.abs(centres[first:extent])))
    if lopsided > 1.0 + 0.15 * float(widths_a[first:extent].max()):
        return "arrow"
    hollow = np.mean([r >= 2 for r in runs[body]]) if runs[body] else 0.0
    if not trusted:
        sharp = widths_a[0] <= 0.6 * widths_a[:extent].max()
        return "open" if hollow >= 0.5 and lopsided <= 0.75 and sharp else "arrow"
    if hollow >= 0.5:
        return "open"
    top = float(widths_a[:extent].max())
    widest = float(np.mean(np.flatnonzero(widths_a[:extent] >= 0.9 * top)))  # middle of the widest stretch
    # a diamond is widest half-way and narrows again behind; a triangle is widest at its back.
    # Middle of the widest stretch over the head's length, measured at 100 and 150 dpi:
    # diamonds 0.17–0.43, triangles 0.69–0.85 (0.69: a head whose back corners fade)
    if extent >= 6 and widest <= 0.55 * extent:
        return "diamond"
    return "arrow"


class _Ends:
    """The two ends of every polyline in one k-d tree: which ends lie near a point.

    Every search for "line ends around here" in this module goes through it (a hand-drawn
    sketch has thousands of short strokes; all-pairs tests took minutes).
    """

    def __init__(self, lines: list[list[Pt]], keep=lambda line: bool(line)) -> None:
        from scipy.spatial import cKDTree

        self.owner: list[int] = []  # line index of each end
        self.at: list[int] = []  # 0: the line's first point, 1: its last
        self.pts: list[Pt] = []
        for i, line in enumerate(lines):
            if keep(line):
                for e, pt in ((0, line[0]), (1, line[-1])):
                    self.owner.append(i)
                    self.at.append(e)
                    self.pts.append(pt)
        self._tree = cKDTree(np.asarray(self.pts, dtype=float)) if self.pts else None

    def near(self, pt: Pt, radius: float) -> list[int]:
        """Indices of the ends within ``radius`` of ``pt``, in order."""
        return sorted(self._tree.query_ball_point(pt, radius)) if self._tree is not None else []

    def lines_near(self, pt: Pt, radius: float) -> list[int]:
        """Lines with an end within ``radius`` of ``pt``, in index order."""
        return sorted({self.owner[k] for k in self.near(pt, radius)})


def _gap(pixels: np.ndarray, pt: Pt) -> float:
    """Distance from ``pt`` to the nearest of a blob's pixel centres."""
    return float(np.min(np.hypot(pixels[:, 0] - pt[0], pixels[:, 1] - pt[1])))


def _disc(pixels: np.ndarray) -> tuple[Pt, float]:
    """Centre and radius of a circle holding a blob's pixel centres."""
    c = pixels[:, :2].mean(axis=0)
    return (float(c[0]), float(c[1])), float(np.max(np.hypot(pixels[:, 0] - c[0], pixels[:, 1] - c[1])))


def _chord_offsets(p: list[Pt]) -> np.ndarray | None:
    """Distance of each point from the chord first–last point (None for a closed piece)."""
    a, b = np.asarray(p[0]), np.asarray(p[-1])
    chord = b - a
    n = float(np.hypot(*chord))
    if n < 1e-6:
        return None
    arr = np.asarray(p)
    return np.abs((arr[:, 0] - a[0]) * chord[1] - (arr[:, 1] - a[1]) * chord[0]) / n


# arms of a 'V' at 25°–80° to each other (Crafter's is 56°; a route's right-angle corner is not a head)
_V_COS = (math.cos(math.radians(80)), math.cos(math.radians(25)))


def _find_open_heads(pieces: list[list[Pt]], residual: np.ndarray, coverage: np.ndarray, lw: float,
                     filled: list[Arrowhead]) -> tuple[list[list[Pt]], list[Arrowhead], list[Arrowhead]]:
    """Open 'V' heads too thin to survive the opening that finds filled heads.

    The skeleton of a 'V' is either one short piece that folds at its apex, or two short pieces
    meeting there (a line running into the apex splits it). Both arms are about equally long,
    at 25°–80° to each other (Crafter's is 56°; a route's right-angle corner is not a head).
    They leave the traced pieces and become heads of kind 'open'. Returns the pieces left, the
    open heads and the filled heads that are not an open head's tip.
    """
    max_arm = 10 * lw + 16
    short = [i for i, p in enumerate(pieces) if 2 <= len(p) and _plen(p) <= 2.2 * max_arm]
    heads: list[Arrowhead] = []
    used: set[int] = set()

    ends_index = _Ends(pieces)

    def fed(apex: Pt, pointing: tuple[float, float], skip: set[int]) -> bool:
        """Whether a line arrives at the apex from behind, along the bisector (a dashed line
        may stop a dash gap short): two bent dashes at a route's corner are not a head."""
        for k in ends_index.lines_near(apex, 4 * lw + 5):
            q = pieces[k]
            if k in skip or len(q) < 2:
                continue
            for at_start in (True, False):
                e = q[0] if at_start else q[-1]
                gap = math.dist(e, apex)
                if gap > 4 * lw + 5:
                    continue
                out = _direction(q, at_start, 3 * lw + 3)
                if out is None or out[0] * pointing[0] + out[1] * pointing[1] < 0.85:
                    continue
                if gap <= 2 * lw + 2 or ((apex[0] - e[0]) * pointing[0] + (apex[1] - e[1]) * pointing[1]) / gap >= 0.85:
                    return True
        return False

    def make(arms: list[list[Pt]], apex: Pt, skip: set[int]) -> bool:
        ends = [a[-1] if math.dist(a[0], apex) < math.dist(a[-1], apex) else a[0] for a in arms]
        la, lb = (math.dist(apex, e) for e in ends)
        if min(la, lb) < 2 * lw + 1.5 or max(la, lb) > max_arm or max(la, lb) > 1.7 * min(la, lb):
            return False
        # each arm's direction from its outer two thirds: its skeleton bends into the apex
        dirs = []
        for a in arms:
            out = a if math.dist(a[0], apex) < math.dist(a[-1], apex) else a[::-1]
            start = out[len(out) // 3] if math.dist(out[len(out) // 3], out[-1]) >= 3 else out[0]
            n = math.dist(start, out[-1])
            if n < 1e-6:
                return False
            dirs.append(((out[-1][0] - start[0]) / n, (out[-1][1] - start[1]) / n))
        ua, ub = dirs
        if not _V_COS[0] <= ua[0] * ub[0] + ua[1] * ub[1] <= _V_COS[1]:
            return False
        bis = (ua[0] + ub[0], ua[1] + ub[1])
        nb = math.hypot(*bis)
        pointing = (-bis[0] / nb, -bis[1] / nb)
        if not fed(apex, pointing, skip):
            return False
        if _filled_between(apex, ends, residual, lw) or _ink_ahead(apex, pointing, residual) > 2.5 * lw + 2:
            return False  # the skeleton of a filled triangle also forks into two arms, short of its tip
        ink = _ink_along(arms, residual, coverage, lw)
        if ink is None:
            return False
        heads.append(Arrowhead(tip=apex, base=apex, length=0.5 * (la + lb), width=0.5 * (la + lb),
                               mask_box=ink[2], pixels=ink[0], weights=ink[1],
                               kind="open", pointing=pointing))
        return True

    # a filled blob with two short arms hanging off it: at 300 dpi the thick tip of a 'V'
    # survives the opening and the arms are cut to stubs
    short_set = set(short)
    for f in filled:
        if not len(f.pixels):
            continue
        centre, radius = _disc(f.pixels)
        touching = [i for i in ends_index.lines_near(centre, radius + lw + 2)
                    if i in short_set and i not in used and
                    min(_gap(f.pixels, pieces[i][0]), _gap(f.pixels, pieces[i][-1])) <= lw + 2]
        if len(touching) != 2:
            continue
        dirs = []
        for i in touching:
            p0, p1 = pieces[i][0], pieces[i][-1]
            near_end, far_end = (p0, p1) if _gap(f.pixels, p0) <= _gap(f.pixels, p1) else (p1, p0)
            n = math.dist(near_end, far_end)
            if n < 1.5 * lw + 1 or n > max_arm:
                break
            dirs.append(((far_end[0] - near_end[0]) / n, (far_end[1] - near_end[1]) / n))
        if len(dirs) != 2:
            continue
        if not _V_COS[0] <= dirs[0][0] * dirs[1][0] + dirs[0][1] * dirs[1][1] <= _V_COS[1]:
            continue
        ink = _ink_along([pieces[i] for i in touching], residual, coverage, lw)
        if ink is None:
            continue
        bis = (dirs[0][0] + dirs[1][0], dirs[0][1] + dirs[1][1])
        nb = math.hypot(*bis)
        _absorb(f, Arrowhead(tip=f.tip, base=f.base, length=0, width=0, mask_box=ink[2], pixels=ink[0],
                             weights=ink[1]))
        f.kind, f.pointing = "open", (-bis[0] / nb, -bis[1] / nb)
        used |= set(touching)

    # one piece folded at its apex
    for i in short:
        p = pieces[i]
        off = _chord_offsets(p)
        if off is None:
            continue
        k = int(np.argmax(off))
        if 0 < k < len(p) - 1 and off[k] >= 2 * lw + 1 and make([p[:k + 1], p[k:]], p[k], {i}):
            used.add(i)
    # two pieces meeting at the apex, or stopping short of it where the thick tip survived the
    # opening as a filled blob (300 dpi): the apex is where their lines cross
    reach = 3 * lw + 3
    straight = {i: _straight(pieces[i]) for i in short}
    for i in short:
        if i in used or not straight[i]:
            continue
        near = set(ends_index.lines_near(pieces[i][0], 2 * reach)) | set(ends_index.lines_near(pieces[i][-1], 2 * reach))
        for j in sorted(k for k in near if k > i and k in straight):
            if j in used or i in used or not straight[j]:
                continue
            for ei in (0, -1):
                for ej in (0, -1):
                    if i in used:
                        break
                    a, b = pieces[i][ei], pieces[j][ej]
                    if math.dist(a, b) > 2 * reach:
                        continue
                    apex = _crossing(pieces[i], pieces[j]) if math.dist(a, b) > 2 * lw + 2 else \
                        ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
                    if apex is None or max(math.dist(apex, a), math.dist(apex, b)) > reach:
                        continue
                    if make([pieces[i], pieces[j]], apex, {i, j}):
                        used |= {i, j}
    # a filled blob at an open head's apex is that head's tip, not a second head
    kept = []
    for f in filled:
        for h in heads:
            if _gap(f.pixels, h.tip) <= lw + 1.5:
                _absorb(h, f)
                break
        else:
            kept.append(f)
    return [p for i, p in enumerate(pieces) if i not in used], heads, kept


def _ink_ahead(p: Pt, d: tuple[float, float], residual: np.ndarray) -> float:
    """How far the ink runs on from ``p`` along ``d`` (px): a 'V' ends at its apex (or at the
    outline its tip touches)."""
    H, W = residual.shape
    t = 0.0
    while t < 60:
        x, y = int(p[0] + (t + 0.5) * d[0]), int(p[1] + (t + 0.5) * d[1])
        if not (0 <= x < W and 0 <= y < H) or not residual[y, x]:
            break
        t += 0.5
    return t


def _filled_between(apex: Pt, ends: list[Pt], residual: np.ndarray, lw: float) -> bool:
    """Whether the triangle apex–ends is inked inside, away from its arms and its bisector."""
    H, W = residual.shape
    tri = np.array([apex, ends[0], ends[1]], np.float64)
    x0, y0 = max(0, int(tri[:, 0].min()) - 1), max(0, int(tri[:, 1].min()) - 1)
    x1, y1 = min(W, int(tri[:, 0].max()) + 2), min(H, int(tri[:, 1].max()) + 2)
    if x1 <= x0 or y1 <= y0:
        return False
    inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(inside, [np.round(tri - [x0, y0]).astype(np.int32)], 1)
    strokes = np.zeros_like(inside)
    mid = ((ends[0][0] + ends[1][0]) / 2, (ends[0][1] + ends[1][1]) / 2)
    t = 2 * int(math.ceil(lw + 1)) + 1
    for a, b in ((apex, ends[0]), (apex, ends[1]), (apex, mid)):
        cv2.line(strokes, (round(a[0] - x0), round(a[1] - y0)), (round(b[0] - x0), round(b[1] - y0)), 1, thickness=t)
    interior = inside.astype(bool) & ~strokes.astype(bool)
    if interior.sum() < 4:
        return False
    return float(residual[y0:y1, x0:x1][interior].mean()) >= 0.5


def _ink_along(arms: list[list[Pt]], residual: np.ndarray, coverage: np.ndarray,
               lw: float) -> tuple[np.ndarray, np.ndarray, tuple[int, int, int, int]] | None:
    """The ink within a line width of the polylines ``arms``: pixel centres, coverages, box."""
    H, W = residual.shape
    r = int(math.ceil(lw + 1))
    xs = [p[0] for a in arms for p in a]
    ys = [p[1] for a in arms for p in a]
    x0, y0 = max(0, int(min(xs)) - r), max(0, int(min(ys)) - r)
    x1, y1 = min(W, int(max(xs)) + r + 1), min(H, int(max(ys)) + r + 1)
    near = np.zeros((y1 - y0, x1 - x0), np.uint8)
    for a in arms:
        poly = np.array([[p[0] - x0, p[1] - y0] for p in a], np.int32)
        cv2.polylines(near, [poly], False, 1, thickness=2 * r + 1)
    yy, xx = np.nonzero(near.astype(bool) & residual[y0:y1, x0:x1])
    if yy.size < 4:
        return None
    pts = np.stack([xx + x0 + 0.5, yy + y0 + 0.5], axis=1).astype(np.float64)
    return pts, coverage[yy + y0, xx + x0].astype(np.float64), (x0, y0, x1, y1)


def _crossing(p: list[Pt], q: list[Pt]) -> Pt | None:
    """Where the chords of two pieces cross (None when they are nearly parallel)."""
    (x1, y1), (x2, y2) = p[0], p[-1]
    (x3, y3), (x4, y4) = q[0], q[-1]
    den = (x1 - x2) * (y3 - y4) - (y1 - y2) * (x3 - x4)
    if abs(den) < 0.05 * math.dist(p[0], p[-1]) * math.dist(q[0], q[-1]):
        return None
    t = ((x1 - x3) * (y3 - y4) - (y1 - y3) * (x3 - x4)) / den
    return (x1 + t * (x2 - x1), y1 + t * (y2 - y1))


def _absorb(h: Arrowhead, other: Arrowhead) -> None:
    """Merge ``other``'s pixels into ``h`` (the box grows to hold both)."""
    h.pixels = np.concatenate([h.pixels, other.pixels])
    h.weights = np.concatenate([h.weights, other.weights])
    a, b = h.mask_box, other.mask_box
    h.mask_box = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _straight(p: list[Pt]) -> bool:
    """No point strays more than 1.5 px (or 20% of the length) from the chord: pixel stairs and
    the bend where an arm's skeleton runs into its apex are allowed, and the skeleton's wobble
    in the last two pixels at each end is not looked at."""
    if len(p) >= 8:
        p = p[2:-2]
    off = _chord_offsets(p)
    return off is not None and float(off.max()) <= max(1.5, 0.2 * math.dist(p[0], p[-1]))


def _pixels_mask(h: Arrowhead, shape: tuple[int, int]) -> np.ndarray:
    x0, y0 = h.mask_box[0], h.mask_box[1]
    m = np.zeros(shape, bool)
    m[(h.pixels[:, 1] - 0.5 - y0).astype(int), (h.pixels[:, 0] - 0.5 - x0).astype(int)] = True
    return m


def _attach_heads(paths: list[LinePath], heads: list[Arrowhead], lw: float, residual: np.ndarray) -> None:
    """Give each head to the path end nearest it (a head never sits mid-line), aligned to that line,
    and tell its kind (filled triangle, open 'V' or diamond) from the ink across its axis."""
    claims = []
    ends = _Ends([p.points for p in paths])
    for hi, h in enumerate(heads):
        if not len(h.pixels):
            continue
        centre, radius = _disc(h.pixels)
        for k in ends.near(centre, radius + 4 * lw + 5):  # only ends nearby
            pi, end = ends.owner[k], ends.at[k]
            p = paths[pi]
            d = _gap(h.pixels, ends.pts[k])  # from the line end to the head's pixels
            # a dashed line may stop a whole dash gap short of its head
            if d <= (4 * lw + 5 if p.style != "solid" else 2 * lw + 3):
                claims.append((d, hi, pi, end))
    # a dashed line crossing a group's frame stops at the frame, a dash or two short of its head
    # on the node inside (the frame's stroke took the dash in between): a head no end is near
    # goes to a free end it lies straight ahead of, within reach (ranked after the near claims)
    near_heads = {hi for _, hi, _, _ in claims}
    reach = 16 * lw + 10
    for hi, h in enumerate(heads):
        if hi in near_heads or not len(h.pixels):
            continue
        centre, radius = _disc(h.pixels)
        for pi, p in enumerate(paths):
            if p.style == "solid":
                continue
            for end in (0, 1):
                pts = p.points if end == 1 else p.points[::-1]
                d = _end_direction(pts, 3 * lw + 6) if len(pts) >= 2 else None
                if d is None:
                    continue
                b = pts[-1]
                v = (centre[0] - b[0], centre[1] - b[1])
                along = v[0] * d[0] + v[1] * d[1]
                if 0 < along - radius <= reach and abs(v[0] * d[1] - v[1] * d[0]) <= 2 * lw + 2:
                    claims.append((1e6 + along, hi, pi, end))
    taken_heads: set[int] = set()
    taken_ends: set[tuple[int, int]] = set()
    for d, hi, pi, end in sorted(claims):
        if hi in taken_heads or (pi, end) in taken_ends:
            continue
        p = paths[pi]
        h = heads[hi]
        pts = p.points if end == 1 else p.points[::-1]
        whole = pts
        # the line's direction into the head, from its last stretch outside the head
        # the line's points on or next to the head are skeleton wobble: anchor on the last one clear of it
        while len(pts) > 2 and _in_head(pts[-1], h, lw):
            pts = pts[:-1]
        b = pts[-1]
        fallback = _end_direction(pts, 3 * lw + 6)
        if fallback is None:
            continue
        # a route that turned just before its head (its last leg was on the head, and dropped)
        # arrives across its own direction: where the dropped leg turned and the head lies well
        # off the line's way on, the way to the head is the better guess at its axis (a
        # matplotlib 'bar' loop's up-pointing head, as wide as long, had been joined sideways)
        hc, _ = _disc(h.pixels)
        v = (hc[0] - b[0], hc[1] - b[1])
        nv = math.hypot(*v)
        last = _end_direction(whole, 3 * lw + 6) if len(whole) > len(pts) else None
        turned = last is not None and abs(last[0] * fallback[0] + last[1] * fallback[1]) < 0.7
        if turned and nv > 1e-6 and abs(v[0] * fallback[1] - v[1] * fallback[0]) > max(2 * lw + 2, 0.5 * nv):
            u = (v[0] / nv, v[1] / nv)
            fallback = (math.copysign(1.0, u[0]), 0.0) if abs(u[0]) >= abs(u[1]) else (0.0, math.copysign(1.0, u[1]))
        taken_heads.add(hi)
        taken_ends.add((pi, end))
        direction, centre = h.axis(b, fallback)
        h.orient(centre, direction)
        if h.kind == "arrow":
            h.kind = _head_kind(h, direction, residual, lw, trusted=h.axis_from_shape)
        pts = _join_head(pts, centre, direction) + [h.tip]
        if end == 1:
            p.head_end = h
            p.points = pts
        else:
            p.head_start = h
            p.points = pts[::-1]
    for p in paths:
        p.points = orthogonalize(merge_collinear(_drop_backtrack(p.points), lw), 10 * lw + 2)


def _orphan_heads(paths: list[LinePath], heads: list[Arrowhead], lw: float, residual: np.ndarray) -> list[LinePath]:
    """Arrows too short for their line to outlast the nodes' rings: a filled head no line end
    claimed, with what is left of its line behind it, is a path of its own (``pieces=0``: the
    assembly keeps it only between two shapes). A matplotlib block diagram's 25 px arrows
    between boxes had left a 3 px stub and a head, and came back as traced paths.

    The head's axis is its pixels' long direction; it points from its wide end to its narrow one.
    """
    taken = {id(p.head_start) for p in paths} | {id(p.head_end) for p in paths}
    out: list[LinePath] = []
    H, W = residual.shape
    for h in heads:
        if id(h) in taken or len(h.pixels) < 6 or h.kind != "arrow" or h.pointing is not None:
            continue
        c, evals, evecs = h.principal()
        if evals[0] <= 1e-9 or evals[1] / evals[0] < 1.4:
            continue
        d = evecs[:, int(np.argmax(evals))]
        rel = h.pixels - c
        solid = h.weights >= 0.35
        proj, perp = (rel @ d)[solid], (rel @ np.array([-d[1], d[0]]))[solid]
        if proj.size < 6:
            continue
        # the width along the axis: widest at the base, narrowing to the tip over the head's
        # length (what is left of the line behind the base is shorter than that)
        bins = np.round(proj - proj.min()).astype(int)
        width = np.array([np.ptp(perp[bins == b]) if (bins == b).any() else 0.0 for b in range(bins.max() + 1)])
        widest = np.flatnonzero(width >= 0.9 * width.max())
        at = float(widest.mean())
        ahead, behind = len(width) - 1 - at, at
        if ahead > 1.3 * behind and width[-1] <= 0.5 * width.max():
            pass  # it points along d
        elif behind > 1.3 * ahead and width[0] <= 0.5 * width.max():
            d = -d
        else:
            continue
        if abs(d[1]) < 0.2:
            d = np.array([1.0 if d[0] > 0 else -1.0, 0.0])
        elif abs(d[0]) < 0.2:
            d = np.array([0.0, 1.0 if d[1] > 0 else -1.0])
        h.orient((float(c[0]), float(c[1])), (float(d[0]), float(d[1])))
        # the stub behind the base, as far as the ink goes
        start = np.asarray(h.base, dtype=np.float64)
        for _ in range(int(4 * h.length) + 1):
            q = start - d
            xi, yi = int(round(q[0])), int(round(q[1]))
            if not (0 <= xi < W and 0 <= yi < H and residual[yi, xi]):
                break
            start = q
        out.append(LinePath(points=[(float(start[0]), float(start[1])), h.tip], width=lw, color=(0, 0, 0),
                            head_end=h, pieces=0))
    return out


def _join_head(pts: list[Pt], centre: Pt, d: tuple[float, float]) -> list[Pt]:
    """Bring the line's end onto the head's axis: a corner when the line arrives across it
    (an orthogonal route turning just before its head), a projection when it runs along it."""
    b = pts[-1]
    a = pts[-2] if len(pts) >= 2 else b
    seg = (b[0] - a[0], b[1] - a[1])
    L = math.hypot(*seg)
    if L > 1e-6 and abs((seg[0] * d[0] + seg[1] * d[1]) / L) < 0.4:
        # perpendicular arrival: meet the axis line where the last segment's line crosses it
        den = seg[0] * d[1] - seg[1] * d[0]
        if abs(den) > 1e-9:
            t = ((centre[0] - a[0]) * d[1] - (centre[1] - a[1]) * d[0]) / den
            corner = (a[0] + seg[0] * t, a[1] + seg[1] * t)
            return pts[:-1] + [corner]
    t = (b[0] - centre[0]) * d[0] + (b[1] - centre[1]) * d[1]
    return pts[:-1] + [(centre[0] + d[0] * t, centre[1] + d[1] * t)]


def _end_direction(pts: list[Pt], reach: float) -> tuple[float, float] | None:
    """Unit direction of the line arriving at its last point, measured over ``reach`` px
    (short skeleton wiggles near a head must not tilt it); snapped to an axis within 4°."""
    b = pts[-1]
    a = pts[-2]
    for q in reversed(pts[:-1]):
        a = q
        if math.dist(q, b) >= reach:
            break
    L = math.dist(a, b)
    if L < 1e-6:
        return None
    dx, dy = (b[0] - a[0]) / L, (b[1] - a[1]) / L
    if abs(dy) < 0.07:
        return (1.0 if dx > 0 else -1.0, 0.0)
    if abs(dx) < 0.07:
        return (0.0, 1.0 if dy > 0 else -1.0)
    return (dx, dy)


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
        v1 = (b[0] - a[0], b[1] - a[1])
        v2 = (c[0] - b[0], c[1] - b[1])
        n1, n2 = math.hypot(*v1), math.hypot(*v2)
        if n1 < 1e-6 or n2 < 1e-6:
            del out[i]
            continue
        cos = (v1[0] * v2[0] + v1[1] * v2[1]) / (n1 * n2)
        # distance of b from the chord a–c: a bend of a pixel or two is skeleton noise
        chord = math.dist(a, c)
        off = abs(v1[0] * (c[1] - a[1]) - v1[1] * (c[0] - a[0])) / chord if chord > 1e-6 else 0.0
        if cos > 0.996 or off < 0.6 * lw + 0.6:
            del out[i]
            continue
        i += 1
    return out


def _in_head(q: Pt, h: Arrowhead, lw: float) -> bool:
    """Whether a line point lies on (or hugs) the head: the skeleton wobbles where the line meets it."""
    return _gap(h.pixels, q) <= lw + 1.0


def _drop_backtrack(pts: list[Pt]) -> list[Pt]:
    """Remove a point that makes the route fold back on itself (a skeleton spur near a head)."""
    if len(pts) < 3:
        return pts
    out = list(pts)
    changed = True
    while changed and len(out) >= 3:
        changed = False
        for i in range(1, len(out) - 1):
            a, b, c = out[i - 1], out[i], out[i + 1]
            v1 = (b[0] - a[0], b[1] - a[1])
            v2 = (c[0] - b[0], c[1] - b[1])
            n1, n2 = math.hypot(*v1), math.hypot(*v2)
            if n1 < 1e-6 or n2 < 1e-6:
                del out[i]
                changed = True
                break
            cos = (v1[0] * v2[0] + v1[1] * v2[1]) / (n1 * n2)
            if cos < -0.5 or (min(n1, n2) < 4 and cos < 0.7):
                del out[i]
                changed = True
                break
    return out


# -- junctions and dashes ---------------------------------------------------------------------

def _direction(pts: list[Pt], at_start: bool, span: float = 8.0) -> tuple[float, float] | None:
    """Unit vector pointing out of the path at one end (None for a dot)."""
    seq = pts if at_start else pts[::-1]
    a = seq[0]
    for b in seq[1:]:
        if math.dist(a, b) >= span:
            break
    else:
        b = seq[-1]
    d = math.dist(a, b)
    if d < 1.5:
        return None
    return ((a[0] - b[0]) / d, (a[1] - b[1]) / d)


def _pair_through_junctions(pieces: list[list[Pt]], lw: float) -> list[list[Pt]]:
    """At a junction, join the two branches that continue each other straightest (crossings).

    Ends are found through :class:`_Ends`, and every pass joins all the best disjoint pairs at once: a noisy scan has thousands of pieces, and comparing every
    end with every other end, one join per pass, was O(n^4) (minutes on one sketch).
    """
    radius = 2.5 * lw + 2
    pieces = [p for p in pieces if p]
    while True:
        index = _Ends(pieces, keep=lambda p: len(p) >= 2 and math.dist(p[0], p[-1]) >= 1)
        ends = list(zip(index.owner, index.at, index.pts))

        def near(k: int) -> list[int]:
            return index.near(ends[k][2], radius)

        dirs = {(i, e): _direction(pieces[i], e == 0) for i, e, _ in ends}
        cands = []
        for a in range(len(ends)):
            ia, ea, pa = ends[a]
            around = near(a)
            for b in around:
                if b <= a:
                    continue
                ib, eb, _ = ends[b]
                if ia == ib:
                    continue
                # a junction needs a third branch ending there too
                if not any(ends[c][0] not in (ia, ib) for c in around):
                    continue
                da, db = dirs[(ia, ea)], dirs[(ib, eb)]
                if da is None or db is None:
                    continue
                straight = -(da[0] * db[0] + da[1] * db[1])  # 1: exactly opposite directions out of the joint
                if straight > 0.94:
                    cands.append((-straight, ia, ea, ib, eb))
        if not cands:
            return pieces
        cands.sort()  # straightest first; ties by position in the list, so the result is deterministic
        used: set[int] = set()
        joined: dict[int, list[Pt]] = {}
        for _, ia, ea, ib, eb in cands:
            if ia in used or ib in used:
                continue
            used |= {ia, ib}
            pa = pieces[ia] if ea == 1 else pieces[ia][::-1]
            pb = pieces[ib] if eb == 0 else pieces[ib][::-1]
            joined[ia] = pa + pb
        pieces = [joined.get(i, p) for i, p in enumerate(pieces) if i not in used or i in joined]


def _dash_pattern(chain: list[list[Pt]], lw: float) -> bool:
    """Whether a chain of pieces is a dash pattern, not a solid line cut by what lies on it.

    A solid line under an edge label's plate comes back as its two long ends with the
    faint scraps between the glyphs chained in: the ends of a dashed line are at most a
    dash long (they may be cut short), so ends much longer than every inner dash mean a
    solid line.
    """
    inner = max(_plen(pc) for pc in chain[1:-1])
    ends = max(_plen(chain[0]), _plen(chain[-1]))
    return ends <= 1.6 * inner + lw


def _chain_dashes(pieces: list[list[Pt]], lw: float) -> list[list[list[Pt]]]:
    """Chain dash pieces (and dots) into lines: short gaps, continuing direction.

    Every piece has two ends; candidate links between ends of different pieces are taken
    shortest first, each end at most once, never closing a cycle.
    """
    gap_max = 4.0 * lw + 5.0
    n = len(pieces)
    if n == 0:
        return []
    ends = np.array([[pc[0], pc[-1]] for pc in pieces], dtype=np.float64)  # n×2×2
    short = [_plen(pc) < 12 * lw + 12 for pc in pieces]
    dirs = [(_direction(pc, True), _direction(pc, False)) for pc in pieces]
    flat = ends.reshape(-1, 2)
    cands = []
    cell = gap_max
    grid: dict[tuple[int, int], list[int]] = {}
    for k, (x, y) in enumerate(flat):
        grid.setdefault((int(x // cell), int(y // cell)), []).append(k)
    for k, (x, y) in enumerate(flat):
        gx, gy = int(x // cell), int(y // cell)
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for j in grid.get((gx + dx, gy + dy), ()):
                    if j <= k or j // 2 == k // 2:
                        continue
                    d = math.dist(flat[k], flat[j])
                    if 0.9 <= d <= gap_max and (short[k // 2] or short[j // 2]):
                        cost = _alignment_cost(k, j, flat, dirs, d, lw)
                        if cost is not None:
                            cands.append((cost, k, j))
    cands.sort()
    link = [-1] * (2 * n)
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for d, k, j in cands:
        if link[k] >= 0 or link[j] >= 0:
            continue
        a, b = find(k // 2), find(j // 2)
        if a == b:
            continue
        link[k], link[j] = j, k
        parent[a] = b
    chains: list[list[list[Pt]]] = []
    done = [False] * n
    for i in range(n):
        if done[i]:
            continue
        # walk back to a free end of this chain, then forward
        cur, entry = i, 0
        seen = {i}
        while link[2 * cur + entry] >= 0:
            other = link[2 * cur + entry]
            nxt = other // 2
            if nxt in seen:
                break
            seen.add(nxt)
            cur, entry = nxt, 1 - (other % 2)
        # now cur's end `entry` is free: traverse leaving through the other end
        chain = []
        while True:
            done[cur] = True
            pc = pieces[cur] if entry == 0 else pieces[cur][::-1]
            chain.append(pc)
            out = link[2 * cur + (1 - entry)]
            if out < 0 or done[out // 2]:
                break
            cur, entry = out // 2, out % 2
        chains.append(chain)
    return chains


def _alignment_cost(k: int, j: int, flat: np.ndarray, dirs, d: float, lw: float) -> float | None:
    """Cost of linking end k to end j: the gap, weighted by how much the direction turns.

    Straight continuations are cheapest; a right-angle turn (a dashed orthogonal route's bend)
    is allowed across a short gap; anything pointing backwards is refused.
    """
    gap = flat[j] - flat[k]
    dk = dirs[k // 2][k % 2]
    dj = dirs[j // 2][j % 2]
    if dk is None and dj is None:
        return d if d <= 3.0 * lw + 4 else None  # two dots: only very close ones
    cosines = []
    if dk is not None:
        cosines.append((gap[0] * dk[0] + gap[1] * dk[1]) / d)
    if dj is not None:
        cosines.append((-gap[0] * dj[0] - gap[1] * dj[1]) / d)
    worst = min(cosines)
    if worst > 0.6:
        return d * (2.0 - worst)
    if worst > -0.2 and d <= 2.5 * lw + 5:
        return d * 4.0
    if dk is not None and dj is not None and abs(dk[0] * dj[0] + dk[1] * dj[1]) < 0.5:
        # a bend that fell in a gap: both ends point at one corner, and the route's gap is the
        # two legs to it (a q75 JPEG's dashes, shortened by ringing, left a 9 + 1 px bend gap)
        legs = _corner_legs(flat[k], dk, flat[j], dj)
        if legs is not None and min(legs) >= -1.0 and sum(legs) <= 4.0 * lw + 5.0:
            return sum(legs) * 4.0
    return None


def _corner_legs(p: np.ndarray, dp: tuple[float, float], q: np.ndarray, dq: tuple[float, float]) -> tuple[float, float] | None:
    """How far p must go along dp and q along dq to meet (None for parallel directions)."""
    det = dp[0] * (-dq[1]) - dp[1] * (-dq[0])
    if abs(det) < 1e-6:
        return None
    rx, ry = q[0] - p[0], q[1] - p[1]
    a = (rx * (-dq[1]) - ry * (-dq[0])) / det
    b = (dp[0] * ry - dp[1] * rx) / det
    return float(a), float(b)


def _draw_path(mask: np.ndarray, p: LinePath, lw: float) -> None:
    m = np.zeros(mask.shape, np.uint8)
    pts = np.round(np.asarray(p.points)).astype(np.int32)
    cv2.polylines(m, [pts], False, 1, thickness=max(2, int(math.ceil(lw + 3))))
    mask |= m.astype(bool)


def _line_color(rgb: np.ndarray, p: LinePath, ink: np.ndarray, background: np.ndarray) -> tuple[int, int, int]:
    """The line's paint: the most contrasting ink pixels along it (thin lines are mostly anti-aliasing)."""
    pts = np.round(np.asarray(p.points)).astype(np.int32)
    thickness = max(3, int(round(p.width + 2)))
    # drawn in the line's bounding box only (a full-image mask per line was 1.7 ms of 2 ms):
    # the same pixels, in the same row-major order
    H, W = rgb.shape[:2]
    r = thickness
    x0, y0 = max(0, int(pts[:, 0].min()) - r), max(0, int(pts[:, 1].min()) - r)
    x1, y1 = min(W, int(pts[:, 0].max()) + r + 1), min(H, int(pts[:, 1].max()) + r + 1)
    if x1 <= x0 or y1 <= y0:
        return (0, 0, 0)
    m = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.polylines(m, [pts - np.array([x0, y0], np.int32)], False, 1, thickness=thickness)
    sel = m.astype(bool) & ink[y0:y1, x0:x1]
    px = rgb[y0:y1, x0:x1][sel].astype(np.float32)
    if px.size == 0:
        return (0, 0, 0)
    d = distances(px, background)
    core = px[d >= np.percentile(d, 80)]
    return tuple(int(v) for v in np.median(core, axis=0))  # type: ignore[return-value]
