"""Lines and arrows: the ink left after text and shapes, traced into polylines with arrowheads.

Steps (all in image pixels):

1. the line width is the median stroke thickness of the residual ink (distance transform
   along its skeleton);
2. arrowheads are what survives a morphological opening a little wider than the line:
   filled triangles keep a core, lines vanish; each head's tip is its pixel farthest from
   the line it sits on. Open 'V' heads are too thin to survive it and are found as two
   short arms in the skeleton; each head's kind (arrow, open, diamond) is read from slices
   across its axis (:mod:`crafteditor.lines.heads`, :mod:`crafteditor.lines.arrows`);
3. the rest is skeletonised and split into paths at end points and junctions
   (:mod:`crafteditor.lines.skeleton`); crossing lines are paired through a junction by the
   straightest continuation;
4. dash pieces are chained end to end when the gap is short and the direction continues,
   and the chain is called dashed or dotted from its dash lengths (:mod:`crafteditor.lines.chains`);
5. each path is simplified (Douglas–Peucker) into a route of a few points
   (:mod:`crafteditor.lines.routes`).

Attaching ends to nodes happens in :mod:`crafteditor.assemble`, which knows the shapes.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from crafteditor.lines.arrows import attach_heads, merged_legs, orphan_heads
from crafteditor.lines.barbs import find_barbs
from crafteditor.lines.chains import chain_dashes, dash_pattern, pair_through_junctions
from crafteditor.lines.heads import IN_RESIDUAL, find_heads, find_open_heads, pixel_gap, pixels_mask
from crafteditor.lines.paths import LinePath
from crafteditor.lines.routes import refine, simplify
from crafteditor.lines.skeleton import skeleton, to_xy, trace_skeleton
from crafteditor.lines.stubs import axis_stub
from crafteditor.paint import distances

# a line's paint this close to the canvas (RGB distance: #F0F0F0 on white is 26) is no stroke's
_GHOST_TINT = 32.0


def detect_lines(rgb: np.ndarray, residual: np.ndarray, background: np.ndarray,
                 head_ink: np.ndarray | None = None) -> tuple[list[LinePath], np.ndarray]:
    """Lines in the residual ink mask. Returns the paths and the mask of ink they explain.

    ``head_ink``: the ink with the nodes' outlines left in (their insides out): a head whose tip
    touches a node lost its front to the ring erased round the node, and is looked for there
    too (:func:`_heads_at_outlines`); such a head is kept only where a line end claims it."""
    if residual.sum() < 4:
        return [], np.zeros_like(residual)
    skel_all = skeleton(residual)
    # each pixel's colour distance from the background, read by the coverage and the contrast
    dist = distances(rgb, background)
    coverage_all = _coverage(dist, residual)
    rough = _stroke_width(coverage_all, skel_all, 12.0)
    heads, head_mask = find_heads(residual, rough, coverage_all, paint=dist)
    lines_mask = residual & ~head_mask
    # skeletonise the solid core only: faint anti-aliased pixels bridge the gaps between dots
    skel = skeleton(lines_mask & (_local_contrast(dist) >= 0.35))
    coverage = np.where(lines_mask, coverage_all, 0).astype(np.float32)
    lw = _stroke_width(coverage, skel, rough * 1.2) if skel.any() else rough
    pieces = [to_xy(p) for p in trace_skeleton(skel) if p]
    pieces, open_heads, heads = find_open_heads(pieces, residual, coverage_all, lw, heads)
    for h in open_heads:
        x0, y0, x1, y1 = h.mask_box
        head_mask[y0:y1, x0:x1] |= pixels_mask(h, (y1 - y0, x1 - x0))
    heads += open_heads
    pieces, barbs = find_barbs(pieces, residual, coverage_all, lw, heads)  # TeX's small barbed tips
    for h in barbs:
        x0, y0, x1, y1 = h.mask_box
        head_mask[y0:y1, x0:x1] |= pixels_mask(h, (y1 - y0, x1 - x0))
    heads += barbs
    # (after the open heads: a 'V' touching a node leaves a blob at its apex there)
    at_outlines = _heads_at_outlines(residual, head_ink, dist, rough, head_mask, open_heads, lw) \
        if head_ink is not None else []
    for h in at_outlines:
        x0, y0, x1, y1 = h.mask_box
        head_mask[y0:y1, x0:x1] |= pixels_mask(h, (y1 - y0, x1 - x0)) & residual[y0:y1, x0:x1]
    pieces = pair_through_junctions(pieces, lw)
    chains = chain_dashes(pieces, lw)
    paths: list[LinePath] = []
    for chain in chains:
        pts = [pt for piece in chain for pt in piece]
        if len(pts) < 2:
            continue
        length = sum(math.dist(a, b) for a, b in zip(pts, pts[1:]))
        style = "solid"
        if len(chain) >= 3 and dash_pattern(chain, lw):
            # the pattern's period tells dots (≈3.5 line widths: 1 dot + 1.5 gap) from dashes (≈8)
            period = length / (len(chain) - 0.5)
            style = "dotted" if period <= 5.5 * lw else "dashed"
        if length < max(6.0, 3 * lw) and len(chain) < 3 and not axis_stub(pts, length, lw):
            continue
        simple = simplify(pts, max(1.0, min(0.8 * lw, 3.0)))  # a 10 px line's 8 px tolerance skewed it
        simple = refine(simple, coverage, lw)
        paths.append(LinePath(points=simple, width=lw, color=(0, 0, 0), style=style, pieces=len(chain)))
    attach_heads(paths, heads + at_outlines, lw, residual)
    paths = merged_legs(paths, heads, lw, residual)  # two edges merged into one leg by a node
    paths += orphan_heads(paths, heads, lw, residual)  # a head at an outline no line claims is none
    for p in paths:
        p.color = _line_color(rgb, p, residual, background)
    # a line whose most contrasting pixels (sampled along its path) are within a faint tint of the canvas
    # runs along the rim left where text was erased (its glyphs' anti-aliasing), not along a
    # stroke: tf-community's state machine had three such ghosts under 'ExampleGen' and
    # 'Transform' read as edges, one with a 'head'; their pixels are traced with the leftovers
    bg = np.asarray(background, np.float32).reshape(-1)[:3]
    paths = [p for p in paths if float(np.linalg.norm(np.asarray(p.color, np.float32) - bg)) >= _GHOST_TINT]
    explained = np.zeros_like(residual)
    for p in paths:
        _draw_path(explained, p, lw)
        for h in (p.head_start, p.head_end):
            if h is not None:
                x0, y0, x1, y1 = h.mask_box
                explained[y0:y1, x0:x1] |= head_mask[y0:y1, x0:x1]
    explained &= residual
    return paths, explained


def _heads_at_outlines(residual: np.ndarray, head_ink: np.ndarray, dist: np.ndarray, rough: float,
                       head_mask: np.ndarray, open_heads: list, lw: float) -> list:
    """Heads found in ``head_ink`` (the nodes' outlines left in) that the residual lost: their
    front was in the ring erased round a node. A head must lie mostly in the residual, beyond
    the outline, and be none found there already (filled, or an open 'V' whose apex it is)."""
    if not (head_ink & ~residual).any():
        return []  # no outline left in (no nodes): every head found would lie wholly in the residual
    found, _ = find_heads(head_ink, rough, _coverage(dist, head_ink), kept_in=residual, paint=dist)
    out = []
    for h in found:
        xi = (h.pixels[:, 0] - 0.5).astype(int)
        yi = (h.pixels[:, 1] - 0.5).astype(int)
        inside = residual[yi, xi]
        if inside.mean() < IN_RESIDUAL or inside.all() or head_mask[yi, xi].any():
            continue
        if any(pixel_gap(h.pixels, o.tip) <= 2 * lw + 3 for o in open_heads):
            continue
        out.append(h)
    return out


def _stroke_width(coverage: np.ndarray, skel: np.ndarray, top: float) -> float:
    """The typical stroke width: ink coverage across the line around each skeleton pixel, median
    over the skeleton (a bar or a pale fill left in the residual must not make lines look thick)."""
    if not skel.any():
        return 1.5
    k = 7
    local = cv2.boxFilter(coverage.astype(np.float32), -1, (k, k), normalize=False)
    width = float(np.median(local[skel] / (k * 1.04)))
    if width >= 0.7 * k:
        # the window hardly wider than the stroke counts only its own width across it (a 10 px
        # metro line read 6.7; a wider window takes in the parallel lines beside it): twice the
        # distance from the skeleton to the stroke's edge, where anti-aliasing no longer matters
        solid = (coverage >= 0.5).astype(np.uint8)
        inside = cv2.distanceTransform(solid, cv2.DIST_L2, 5)
        width = max(width, float(np.median(2 * inside[skel & (solid > 0)])) if (skel & (solid > 0)).any() else width)
    return float(np.clip(width, 0.6, top))


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
    # only the masked pixels divided and clipped (the same float32 values): the whole page's were,
    # four passes over it, for a mask of lines that covers a few per cent of it
    out = np.zeros(mask.shape, np.float32)
    out[mask] = np.clip(vals / full, 0, 1)
    return out


def _draw_path(mask: np.ndarray, p: LinePath, lw: float) -> None:
    pts = np.round(np.asarray(p.points)).astype(np.int32)
    thickness = max(2, int(math.ceil(lw + 3)))
    # drawn in the path's bounding box, as _line_color draws (a full-image mask a path: 357 paths of
    # a 3136 × 4400 Mermaid export drew 5 G pixels): the same pixels, shifted by whole pixels
    H, W = mask.shape
    r = thickness
    x0, y0 = max(0, int(pts[:, 0].min()) - r), max(0, int(pts[:, 1].min()) - r)
    x1, y1 = min(W, int(pts[:, 0].max()) + r + 1), min(H, int(pts[:, 1].max()) + r + 1)
    if x1 <= x0 or y1 <= y0:
        return
    m = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.polylines(m, [pts - np.array([x0, y0], np.int32)], False, 1, thickness=thickness)
    mask[y0:y1, x0:x1] |= m.astype(bool)


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
