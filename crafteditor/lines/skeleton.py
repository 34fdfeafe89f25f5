"""The skeleton of the residual ink, split into pixel paths between its end points and junctions."""

from __future__ import annotations

import cv2
import numpy as np

from crafteditor.blobs import find_blobs
from crafteditor.cpu_parts import charged
from crafteditor.lines.paths import Pt

_NEIGH = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
# a pixel's 8-neighbours as one byte, bit k for _NEIGH[k] (the filter's weights sit where those neighbours do)
_NEIGH_BITS = np.array([[1, 2, 4], [8, 0, 16], [32, 64, 128]], np.float32)
# for each such byte, the offsets of the neighbours it holds, in _NEIGH's order
_SET_NEIGH = [[d for k, d in enumerate(_NEIGH) if code >> k & 1] for code in range(256)]


@charged("skeleton")
def skeleton(mask: np.ndarray) -> np.ndarray:
    """The mask thinned to one-pixel-wide lines (scikit-image's skeletonize).

    Each thinning pass reads the whole array it is given, and a region takes as many passes as
    it is thick: one filled blob made every pass run over the whole page (6.8 of Whisper's
    13.8 CPU-s, 2973 × 2253 px). Thinning decides on 3×3 neighbourhoods, so 8-connected pieces
    thin apart exactly as together: thick pieces are thinned each over its own box, the thin
    rest over its bounding box."""
    from skimage.morphology import skeletonize  # heavy: 1.3 s to import; loaded with the first traced lines

    out = np.zeros(mask.shape, bool)
    m = mask.astype(np.uint8)
    n, lab, stats, _ = find_blobs(m)
    if n <= 1:
        return out
    depth = cv2.distanceTransform(m, cv2.DIST_L2, 3)
    peak = np.zeros(n, np.float32)
    np.maximum.at(peak, lab[mask], depth[mask])
    thick = np.flatnonzero(peak > THICK_DEPTH)
    thick = thick[thick > 0]
    rest = mask & ~np.isin(lab, thick) if thick.size else mask
    _thin_in_box(rest, out, skeletonize)
    for i in thick:
        x, y, w, h = stats[i, :4]
        out[y:y + h, x:x + w] |= skeletonize(lab[y:y + h, x:x + w] == i)
    return out


THICK_DEPTH = 4.0  # px from the edge: pieces deeper than this (blobs, thick bars) are thinned on their own


def _thin_in_box(mask: np.ndarray, out: np.ndarray, skeletonize) -> None:
    rows, cols = np.flatnonzero(mask.any(axis=1)), np.flatnonzero(mask.any(axis=0))
    if rows.size == 0:
        return
    y0, y1 = max(0, rows[0] - 1), min(mask.shape[0], rows[-1] + 2)
    x0, x1 = max(0, cols[0] - 1), min(mask.shape[1], cols[-1] + 2)
    out[y0:y1, x0:x1] |= skeletonize(mask[y0:y1, x0:x1])


def trace_skeleton(skel: np.ndarray) -> list[list[tuple[int, int]]]:
    """Pixel paths (as (y, x)) between end points and junctions of a skeleton; loops included."""
    ys, xs = np.nonzero(skel)
    pix = set(zip(ys.tolist(), xs.tolist()))
    if not pix:
        return []

    # (a set lookup per neighbour per pixel was 18 ms of a diagram's line finding, and neigh asked
    # the set again each time a path passed); degrees built in the set's order
    by_pixel = neighbour_offsets(skel, ys, xs)

    def neigh(p):
        y, x = p
        return [(y + dy, x + dx) for dy, dx in by_pixel[p]]

    deg = {p: len(by_pixel[p]) for p in pix}
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


def neighbour_offsets(skel: np.ndarray, ys: np.ndarray, xs: np.ndarray) -> dict[tuple[int, int], list[tuple[int, int]]]:
    """Each set pixel (``ys``, ``xs``: ``np.nonzero(skel)``) of a skeleton (boolean, or any nonzero set): the offsets
    (dy, dx) of its set 8-neighbours, in ``_NEIGH``'s order, from one filter over the skeleton
    (which neighbours are set, as a byte)."""
    code = cv2.filter2D((skel > 0).astype(np.uint8), -1, _NEIGH_BITS, borderType=cv2.BORDER_CONSTANT)
    return dict(zip(zip(ys.tolist(), xs.tolist()), (_SET_NEIGH[c] for c in code[ys, xs].tolist())))


def _merge_junction_clusters(paths, nodes, deg):
    """Drop the 1–2 pixel stubs that connect pixels inside one junction cluster."""
    out = []
    for path in paths:
        if len(path) <= 3 and all(deg.get(p, 0) >= 3 for p in (path[0], path[-1])) and path[0] != path[-1]:
            continue
        out.append(path)
    return out


def to_xy(path: list[tuple[int, int]]) -> list[Pt]:
    # pixel (row y, column x) covers [x, x+1): its centre is at x + 0.5
    return [(x + 0.5, y + 0.5) for y, x in path]
