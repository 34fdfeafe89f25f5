"""Faces: compact regions of one paint, the insides of drawn outlines."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from crafteditor.blobs import find_blobs
from crafteditor.paint import Paints

GLYPH_OUTLINE_PX = 150  # an outline holding one glyph is at most this wide (a 0.5 cm operator circle: 60 px at 300 dpi)
GLYPH_HOLES = 0.5  # an unread glyph inside a small outline covers at most this share of the outline's inside
SOLID_HOLE = 0.4  # a hole keeping this share of itself through a 3 px erosion is a solid blob, no glyph's strokes
GLYPH_PARTS = 2  # ...in at most this many holes (of 3 px or more): a web of thin strokes has a hole per mesh
ENCLOSING_AREA = 10.0  # a face this many times a glyph-cut face's area, at most, holding it in a hole: an operator


@dataclass
class Face:
    paint: int
    x: int
    y: int
    w: int
    h: int
    mask: np.ndarray  # bool, h×w: the face's own pixels
    filled: np.ndarray  # bool, h×w: the mask with its holes filled (the outline's inside)
    soft: bool = False  # a lossy image's face: compression rounds a sharp corner by ~2 px
    glyph_cut: bool = False  # a face only once a glyph's hole in it is filled (:func:`_glyph_held`)

    @property
    def area(self) -> int:
        return int(self.mask.sum())


def find_faces(paints: Paints, min_side_px: float, exclude: np.ndarray | None = None) -> list[Face]:
    """Compact one-paint regions at least ``min_side_px`` on each side (the canvas excluded).

    The regions of every paint are labelled in one pass over the paint labels (4-connected
    runs of one paint; skimage's ``label`` of the whole label image): a binary labelling per
    paint took 0.12 s on a 1188×672 diagram with 17 paints, the one pass 0.02 s.
    """
    from scipy import ndimage  # heavy: 0.7 s to import; only find_faces needs it
    from skimage.measure import label  # heavy: 0.7 s to import (with scipy); only find_faces needs it

    labels = paints.labels
    H, W = labels.shape
    painted = labels.astype(np.int32) + 1  # 0: no paint (anti-aliasing), never a face
    if exclude is not None:
        painted[exclude] = 0
    counts = np.bincount(painted.ravel(), minlength=len(paints.colors) + 1)
    regions = label(painted, background=0, connectivity=1)
    areas = np.bincount(regions.ravel())
    found: list[tuple[int, int, Face]] = []  # (paint, region, face): faces per paint, in scan order
    # a face is ≥ min_side_px on each side and fills ≥ 20% of its box, so its area is at least
    # 0.2·min_side²: only those regions are looked at (a diagram has thousands of specks of
    # anti-aliasing, and the loop over them was 10 ms of a figure's shapes), and only their boxes
    # are found (numbered 1..k for find_objects: a slice per speck was half its time)
    big = np.flatnonzero(areas >= 0.2 * min_side_px * min_side_px)
    big = big[big > 0]
    renumber = np.zeros(len(areas), np.int32)
    renumber[big] = np.arange(1, len(big) + 1, dtype=np.int32)
    objects = ndimage.find_objects(renumber[regions], max_label=len(big))
    for r, sl in zip(big.tolist(), objects):
        if sl is None:
            continue
        ys, xs = sl
        y, x, h, w = ys.start, xs.start, ys.stop - ys.start, xs.stop - xs.start
        area = int(areas[r])
        if w < min_side_px or h < min_side_px or area < 0.2 * w * h:
            continue
        local = regions[sl] == r
        p = int(painted[sl][local].flat[0]) - 1
        if counts[p + 1] < min_side_px * min_side_px * 0.3:
            continue
        if p == paints.background and (x == 0 or y == 0 or x + w >= W or y + h >= H):
            continue  # the canvas itself
        # a face must have a body, not be a web of thin strokes
        inner = cv2.erode(local.astype(np.uint8), np.ones((5, 5), np.uint8))
        glyph_cut = bool(inner.sum() < 0.3 * area)
        if glyph_cut and max(w, h) > GLYPH_OUTLINE_PX:
            continue
        filled = _fill_holes(local)
        if glyph_cut and not _glyph_held(filled, local, painted[sl] == p + 1):
            continue
        found.append((p, r, Face(paint=p, x=int(x), y=int(y), w=int(w), h=int(h), mask=local,
                                 filled=filled, soft=paints.lossy, glyph_cut=glyph_cut)))
    found.sort(key=lambda t: (t[0], t[1]))
    faces = [f for _, _, f in found]
    return [f for f in faces if not f.glyph_cut or not _inside_small_face(f, faces)]


def _inside_small_face(f: Face, faces: list[Face]) -> bool:
    """Whether glyph-cut face ``f`` lies in a hole of a face not much larger: it is then the inside of a ring drawn
    in an operator circle (d2l's ⊙: a ring round a dot, in a filled circle), a glyph, not an outline of its own."""
    cx, cy = f.x + f.w // 2, f.y + f.h // 2
    size = int(f.filled.sum())
    for o in faces:
        if o is f or not (o.x <= f.x and o.y <= f.y and f.x + f.w <= o.x + o.w and f.y + f.h <= o.y + o.h):
            continue  # only a face round it holds it
        if o.filled[cy - o.y, cx - o.x] and not o.mask[cy - o.y, cx - o.x] and int(o.filled.sum()) <= ENCLOSING_AREA * size:
            return True
    return False


def _glyph_held(filled: np.ndarray, mask: np.ndarray, same_paint: np.ndarray) -> bool:
    """Whether a face too thin for a body is a small outline's inside cut into wedges by a glyph it holds.

    A TikZ operator circle drawn at 1x (``circle, draw, minimum size=0.5cm``: 22 px inside at 150 dpi) holds a
    × or ⊙ the recogniser does not read, so it is not erased: a ×'s arms cut the inside into four wedges no
    5 px square fits, a ⊙'s ring leaves a thin annulus, and the circle was no face; its ring and glyph were then
    read as one big arrowhead on the arrow entering it. Its inside, the glyph's hole filled, has a body, and
    the glyph is one hole about its middle; a web of thin strokes (hatching, a grid's lines) has a hole per mesh.
    A solid disk in a ring (a state machine's final state) is no glyph: its hole is solid ink, where a ⊙'s holds
    the face's own paint (``same_paint``: the face's box, True where its paint is) inside the glyph's ring."""
    total = int(filled.sum())
    holes = filled & ~mask
    if total == 0 or int(holes.sum()) > GLYPH_HOLES * total:
        return False
    holes_u8 = holes.astype(np.uint8)  # (for cv2)
    core = cv2.erode(holes_u8, np.ones((3, 3), np.uint8))
    if core.sum() >= SOLID_HOLE * holes.sum() and not (same_paint & holes).any():
        return False
    n, _, stats, _ = find_blobs(holes_u8)
    if sum(1 for k in range(1, n) if stats[k, cv2.CC_STAT_AREA] >= 3) > GLYPH_PARTS:
        return False
    body = cv2.erode(filled.astype(np.uint8), np.ones((5, 5), np.uint8))
    return int(body.sum()) >= 0.3 * total


def _fill_holes(mask: np.ndarray) -> np.ndarray:
    """The inside of a face's outline: holes filled, after closing the thin notches that lines
    reaching into it cut (an edge entering a group frame would otherwise open a node's hole)."""
    m = mask.astype(np.uint8)
    if min(m.shape) > 12:
        padded = cv2.copyMakeBorder(m, 3, 3, 3, 3, cv2.BORDER_CONSTANT, value=0)
        closed = cv2.morphologyEx(padded, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))[3:-3, 3:-3]
        m = np.maximum(m, closed)
    contours, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros_like(m)
    cv2.drawContours(out, contours, -1, 1, thickness=cv2.FILLED)
    return out.astype(bool)


def merge_faces(a: Face, b: Face) -> Face:
    x0, y0 = min(a.x, b.x), min(a.y, b.y)
    x1, y1 = max(a.x + a.w, b.x + b.w), max(a.y + a.h, b.y + b.h)
    mask = np.zeros((y1 - y0, x1 - x0), bool)
    filled = np.zeros_like(mask)
    for f in (a, b):
        mask[f.y - y0:f.y - y0 + f.h, f.x - x0:f.x - x0 + f.w] |= f.mask
        filled[f.y - y0:f.y - y0 + f.h, f.x - x0:f.x - x0 + f.w] |= f.filled
    padded = cv2.copyMakeBorder(filled.astype(np.uint8), 4, 4, 4, 4, cv2.BORDER_CONSTANT, value=0)
    closed = cv2.morphologyEx(padded, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))[4:-4, 4:-4] > 0
    return Face(paint=a.paint, x=x0, y=y0, w=x1 - x0, h=y1 - y0, mask=mask, filled=_fill_holes(closed | filled),
                soft=a.soft)


LINE_CUT_PX = 7  # an opening this wide cuts off strokes up to 6 px thick


def split_off_lines(f: Face, min_side: float, labels: list[tuple[float, float]]) -> list[Face]:
    """The boxes of a face that lines of the boxes' own colour join (PowerPoint's UML: blue boxes,
    blue dotted arrows between them, one 350×130 px face of that blue matching no shape): the
    face opened wide enough to cut the lines off, each piece at least ``min_side`` on a side that
    holds a label centre (``labels``, image pixels) made a face of its own (one piece: a box
    with a line's end stuck to it)."""
    m = f.mask.astype(np.uint8)
    if min(m.shape) < 2 * LINE_CUT_PX:
        return []
    opened = cv2.morphologyEx(np.pad(m, LINE_CUT_PX), cv2.MORPH_OPEN,
                              np.ones((LINE_CUT_PX, LINE_CUT_PX), np.uint8))[LINE_CUT_PX:-LINE_CUT_PX,
                                                                              LINE_CUT_PX:-LINE_CUT_PX]
    n, lab, stats, _ = cv2.connectedComponentsWithStats(opened, connectivity=4)
    out = []
    for k in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[k])
        if w < min_side or h < min_side or area < 0.5 * w * h:
            continue
        if not any(f.x + x <= lx <= f.x + x + w and f.y + y <= ly <= f.y + y + h for lx, ly in labels):
            continue
        piece = (lab[y:y + h, x:x + w] == k) & f.mask[y:y + h, x:x + w]
        out.append(Face(paint=f.paint, x=f.x + x, y=f.y + y, w=w, h=h, mask=piece, filled=_fill_holes(piece),
                        soft=f.soft))
    return out
