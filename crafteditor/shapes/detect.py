"""The shape stage: faces classified into nodes and group frames, each with its fill, its
stroke (colour and width, from the rings around the face) and, for frames, its members and
dash style; cylinders (cap and body) and stacks (offset sheets) are put together here."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from crafteditor.blobs import joined_groups
from crafteditor.config import Config, past
from crafteditor.ocr.runs import TextRun
from crafteditor.paint import Paints, color_distance, distances, luma
from crafteditor.shapes.arrow_faces import is_arrowhead
from crafteditor.shapes.compartments import (
    class_badges_dropped,
    empty_foot,
    join_compartments,
    join_tables,
    over_empty_compartments,
)
from crafteditor.shapes.faces import Face, find_faces, merge_faces, split_off_lines
from crafteditor.shapes.frames import holds_drawing
from crafteditor.shapes.outlines import classify, fit_polygon_box, ideal_mask, inset_margins, mask_iou
from crafteditor.shapes.pockets import is_pocket
from crafteditor.shapes.polygons import fit_polygon
from crafter.spec.model import RectGeometry

DOUBLE_OUTLINE_PAD = 16  # rings read past a double outline (graphviz's doublecircle: 4 pt apart)
SHADOW_FRINGE = 28.0  # colour distance from the surroundings within which a ring pixel is still theirs
ROUND_CANVAS_IOU = 0.97  # a canvas-coloured face this round is a drawn circle...
ROUND_CANVAS_SHARE = 0.75  # ...when this much of its surroundings is one surface (else 0.9)
ON_OUTLINE = 3.0  # px (+ a stroke width): a pocket's side this near another node's outline lies on it
SET_IN = 4.0  # px (+ two stroke widths): a pocket's side is set in this far from both nodes' sides on one end
# a face cut by the glyph it holds (:func:`~crafteditor.shapes.faces._glyph_held`) is a node only when round: a TikZ
# operator circle (× ⊙ +) or a numbered badge. draw.io's cloud architectures set a service's icon on its card, a
# pictogram in a small outline (GCP's BigQuery magnifier in a hexagon, Compute Engine's chip in a rounded square):
# taken for a node, it made the card a frame with the service's name its title
GLYPH_ROUND = ("circle", "ellipse")


@dataclass
class DetectedShape(RectGeometry):
    """A node or group frame, in image pixels (box includes the stroke's centre line)."""

    shape: str  # a FigureSpec shape name
    x: float
    y: float
    w: float
    h: float
    fill: tuple[int, int, int]
    stroke: tuple[int, int, int] | None  # None: no outline drawn
    stroke_px: float
    iou: float
    face: Face = field(repr=False)
    is_group: bool = False
    members: list[int] = field(default_factory=list)  # indices of shapes inside (groups)
    dashed: str = "solid"  # group frames: solid, dashed or dotted
    outside_share: float = 1.0  # share of the ring outside the outline that is one surface
    outline: list[tuple[float, float]] | None = None  # shape 'polygon': its corners, image pixels
    dividers: list[float] = field(default_factory=list)  # a class box's compartment dividers: their y, image pixels
    # a dashed or dotted frame's sides as drawn (left x, top y, right x, bottom y, image pixels): its face
    # reaches through the gaps, so its box may stand a pixel or two off the stroke (see _drawn_sides)
    sides: tuple[float, float, float, float] | None = None


def detect_shapes(rgb: np.ndarray, paints: Paints, config: Config, scale: float,
                  exclude: np.ndarray | None = None, raw: np.ndarray | None = None,
                  deadline: float | None = None, runs: list[TextRun] | None = None) -> list[DetectedShape]:
    """Nodes and group frames. ``scale`` is user units per pixel; ``exclude`` masks chart areas;
    ``raw``: the pixels as decoded where ``rgb`` is denoised (thin borders survive there).
    Past ``deadline`` (:func:`~crafteditor.config.budget_clock`) no more faces are merged or classified: what
    they hold is left to the lines and the tracing. ``runs``: the text read, to tell a class
    box's compartments (:mod:`crafteditor.shapes.compartments`)."""
    min_side = max(6.0, config.min_node_size / scale)
    # small faces too: a cylinder's cap is a thin lens above its body
    faces = find_faces(paints, min(min_side, max(4.0, 3.0 / scale)), exclude)
    # an icon's outline round its pictogram (draw.io's cloud stencils) is no operator circle: no face at all, as
    # before glyph-cut faces were taken (merged with a neighbour, it still made its card a frame)
    faces = [f for f in faces if not f.glyph_cut or classify(f)[0] in GLYPH_ROUND]
    shapes: list[DetectedShape] = []
    used: set[int] = set()
    # cylinders first: a body face with a lens-shaped cap face right above it
    for i, f in enumerate(faces):
        if i in used or f.w < min_side or f.h < min_side:
            continue
        body_iou = mask_iou(f.filled, ideal_mask("cylinder_body", f.w, f.h))
        if body_iou < config.shape_min_iou:
            continue
        cap = _cylinder_cap(faces, i)
        if cap is None:
            continue
        c = faces[cap]
        merged = merge_faces(f, c)
        made = _make_shape(rgb, paints, merged, "cylinder", body_iou, face_for_ring=f)
        if made is not None:
            used.update((i, cap))
            shapes.append(made)
    faces = _merge_split_faces(faces, min_side, config.shape_min_iou, used, deadline)
    faces = _split_joined_boxes(faces, min_side, config.shape_min_iou, used, paints, runs or [])
    polygons: list[DetectedShape] = []  # other closed polygons: kept last, never group members
    for i, f in enumerate(faces):
        if past(deadline):
            break
        if i in used or ((f.w < min_side or f.h < min_side) and not _holds_label(f, runs or [], min_side, paints)):
            continue
        shape, iou = classify(f)
        if iou < config.shape_min_iou:
            polygon = _polygon_shape(rgb, paints, f)
            # a filled head on its line's stem is the line's (left in its ink for the line detector)
            if polygon is not None and not is_arrowhead(rgb, paints, polygon.outline or [], (polygon.x, polygon.y, polygon.w,
                                                        polygon.h), polygon.fill, runs or []):
                polygons.append(polygon)
            continue
        made = _make_shape(rgb, paints, f, shape, iou)
        if made is not None:
            shapes.append(made)
    shapes = join_compartments(over_empty_compartments(rgb, shapes, runs or []), runs or [])
    shapes = join_tables(shapes, rgb, paints.background_rgb, runs or [])
    for s in shapes:
        if s.dividers:  # its compartments bordered one another: the class box's own surroundings
            foot = empty_foot(rgb, s, runs or [])  # an empty last compartment, too thin to be a face, taken in
            if foot:
                s.dividers.append(s.y + s.h)
                s.h += foot
            shadow = _offset_shadow_share(rgb, paints, s.face, pad=int(math.ceil(s.stroke_px)) + 8, foot=int(foot))
            s.outside_share = max(_ring_stroke(rgb, paints, s.face)[3], shadow)
    shapes = class_badges_dropped(shapes)
    # a face walled off by lines crossing there (edges through stacked frames) is no box: its lines run on
    shapes = [s for s in shapes if s.shape not in ("box", "round") or s.dividers or not is_pocket(
        rgb, paints.background_rgb, (s.x, s.y, s.w, s.h), s.fill, s.stroke_px, runs or [])]
    if config.groups:
        mark_groups(shapes)
        for s in shapes:  # a box around labels and arrows (no boxes among them) is a frame too
            if not s.is_group and s.shape in ("box", "round") and not s.dividers and holds_drawing(s.face, runs or []):
                s.is_group = True
        for s in shapes:
            if s.is_group:
                if paints.lossy:
                    _snap_to_border(rgb if raw is None else raw, paints, s)
                s.dashed = _frame_dash_style(rgb, paints, s)
                if s.dashed != "solid":
                    s.sides = _drawn_sides(rgb, paints, s)
    _mark_stacks(shapes, paints, scale)
    # a stack's back sheets crowd its front sheet's surroundings; anything else must sit on one surface
    keep = [i for i, s in enumerate(shapes) if s.shape == "stack" or s.is_group or s.outside_share >= 0.7]
    if len(keep) != len(shapes):
        shapes = keep_shapes(shapes, keep)
    return shapes + [p for p in polygons if p.outside_share >= 0.7]


def keep_shapes(shapes: list[DetectedShape], keep: list[int]) -> list[DetectedShape]:
    """``shapes[i]`` for each ``i`` of ``keep`` (ascending), their group members renumbered to
    match, those left out dropped (a shape with members is a copy: ``shapes`` stays as it was)."""
    index = {old: new for new, old in enumerate(keep)}
    return [replace(s, members=[index[m] for m in s.members if m in index]) if s.members else s
            for s in (shapes[i] for i in keep)]


def between_nodes(shapes: list[DetectedShape]) -> list[int]:
    """The indices of ``shapes`` that are no pocket between two nodes. Two arrows running back and forth
    between two nodes stacked close (a state machine's 'state_req' over 'try_fill_buffer', 'while STATE_REQ'
    written between the arrows) wall off a face with the nodes' own outlines: read as a labelled box, it
    took both arrows as its sides and the edges were lost. Such a pocket is a box or rounded box whose top
    lies on one node's bottom and its bottom on another's top (or its left on one's right and its right on
    another's left), within both nodes' span and set in from their sides on one end (a class box's
    compartments, in line with one another, are one shape with dividers by then). A box with another box beside
    it in the same band between the two (a row of modules between two layers of a stack) is a node."""
    nodes = [s for s in shapes if not s.is_group]

    def spans(s: DetectedShape, across: bool) -> tuple[float, float, float, float]:
        # (start, end) along the stacking, then (start, end) across it
        return (s.y, s.y + s.h, s.x, s.x + s.w) if across else (s.x, s.x + s.w, s.y, s.y + s.h)

    def pocket(b: DetectedShape) -> bool:
        if b.is_group or b.dividers or b.shape not in ("box", "round"):
            return False
        for vertical in (True, False):
            b0, b1, c0, c1 = spans(b, vertical)
            for t in nodes:
                if t is b:
                    continue
                t0, t1, d0, d1 = spans(t, vertical)
                on = ON_OUTLINE + max(b.stroke_px, t.stroke_px)
                if abs(t1 - b0) > on or not (d0 - on <= c0 and c1 <= d1 + on):
                    continue
                for u in nodes:
                    if u is b or u is t:
                        continue
                    u0, u1, e0, e1 = spans(u, vertical)
                    tol = ON_OUTLINE + max(b.stroke_px, u.stroke_px)
                    if abs(u0 - b1) > tol or not (e0 - tol <= c0 and c1 <= e1 + tol):
                        continue
                    set_in = SET_IN + 2 * max(b.stroke_px, t.stroke_px, u.stroke_px)
                    if (min(c0 - d0, c0 - e0) > set_in or min(d1 - c1, e1 - c1) > set_in) \
                            and not any(banded(o, t, u, vertical) for o in nodes if o is not b):
                        return True
        return False

    def banded(o: DetectedShape, t: DetectedShape, u: DetectedShape, vertical: bool) -> bool:
        # another box filling the same band between t and u: a row of modules between two layers, not a pocket
        if o is t or o is u or o.shape not in ("box", "round"):
            return False
        o0, o1, f0, f1 = spans(o, vertical)
        t1, u0 = spans(t, vertical)[1], spans(u, vertical)[0]
        tol = ON_OUTLINE + max(o.stroke_px, t.stroke_px, u.stroke_px)
        return abs(t1 - o0) <= tol and abs(u0 - o1) <= tol and spans(t, vertical)[2] - tol <= f0 \
            and f1 <= spans(t, vertical)[3] + tol

    return [i for i, s in enumerate(shapes) if not pocket(s)]


def _polygon_shape(rgb: np.ndarray, paints: Paints, f: Face) -> DetectedShape | None:
    """A face no node shape matches that is a convex polygon (a pentagon, a home-plate arrow),
    filled (a pocket of canvas between lines is no polygon)."""
    if f.paint == paints.background:
        return None
    fit = fit_polygon(f.filled, 0.0)
    if fit is None:
        return None
    made = _make_shape(rgb, paints, f, "polygon", fit[1])
    if made is None:
        return None
    grow = made.stroke_px / 2 + 0.5 if made.stroke is not None else 0.5
    corners, _ = fit_polygon(f.filled, grow) or fit
    made.outline = [(f.x + x, f.y + y) for x, y in corners]
    return made


def _split_joined_boxes(faces: list[Face], min_side: float, min_iou: float, used: set[int], paints: Paints,
                        runs: list[TextRun]) -> list[Face]:
    """Faces that match no shape split into the labelled boxes that lines of their own paint
    joined (:func:`crafteditor.shapes.faces.split_off_lines`), the pieces appended where each
    matches a shape (indices keep their place)."""
    centres = [(r.cx, r.cy) for r in runs]
    out = list(faces)
    for i, f in enumerate(faces):
        if i in used or f.paint == paints.background or f.w < min_side or f.h < min_side or not centres:
            continue
        if classify(f)[1] >= min_iou:
            continue
        pieces = split_off_lines(f, min_side, centres)
        if pieces and all(classify(p)[1] >= min_iou for p in pieces):
            out[i] = _EMPTY
            out.extend(pieces)
    return out


def _merge_split_faces(faces: list[Face], min_side: float, min_iou: float, used: set[int],
                       deadline: float | None = None) -> list[Face]:
    """Rejoin one outline's inside that lines cut into pieces.

    Lines running from a group's frame to the nodes inside it wall off pockets of the
    group's fill; each pocket alone matches no shape. Same-paint pieces whose boxes touch
    are closed over the thin lines between them, and kept merged when the union matches a
    shape. Indices in ``used`` keep their place (merged pieces are appended).
    """
    poor = [i for i, f in enumerate(faces) if i not in used and f.w >= 4 and f.h >= 4
            and not past(deadline) and classify(f)[1] < min_iou]
    touch: list[tuple[int, int]] = []
    for ia, a in enumerate(poor):
        if past(deadline):
            break
        for ib, b in enumerate(poor):
            fa, fb = faces[a], faces[b]
            if a < b and fa.paint == fb.paint and not (
                    fa.x > fb.x + fb.w + 4 or fb.x > fa.x + fa.w + 4
                    or fa.y > fb.y + fb.h + 4 or fb.y > fa.y + fa.h + 4):
                touch.append((ia, ib))
    clusters: dict[int, list[int]] = {}
    for i, group in zip(poor, joined_groups(len(poor), touch)):
        clusters.setdefault(group, []).append(i)
    out = list(faces)
    drop: set[int] = set()
    for members in clusters.values():
        if len(members) < 2 or past(deadline):
            continue
        merged = faces[members[0]]
        for j in members[1:]:
            merged = merge_faces(merged, faces[j])
        if merged.w < min_side or merged.h < min_side:
            continue
        if classify(merged)[1] >= min_iou:
            drop.update(members)
            out.append(merged)
    # a pocket walled off between two lines that leave a frame's inside through the same side
    # (a node's outgoing and incoming edges) is a face of its own that matches a box by itself,
    # and the frame's face, open to the pocket, matches nothing (training_loop's trainable
    # group: 0.82). A face inside a poor face's box is taken in where that makes the poor face
    # match; a node of the frame's own fill inside it is a hole of the frame's face already, so
    # taking it in changes nothing and it stays a node.
    for a in poor:
        if a in drop or past(deadline):
            continue
        fa = faces[a]
        base = classify(fa)[1]
        merged, taken = fa, []
        for b, fb in enumerate(faces):
            if (b == a or b in used or b in drop or fb.paint != fa.paint or fb.w == 0
                    or fb.x < fa.x - 4 or fb.y < fa.y - 4 or fb.x + fb.w > fa.x + fa.w + 4
                    or fb.y + fb.h > fa.y + fa.h + 4):
                continue
            trial = merge_faces(merged, fb)
            if classify(trial)[1] > max(base, classify(merged)[1]) + 0.03:
                merged, taken = trial, taken + [b]
        if taken and merged.w >= min_side and merged.h >= min_side and classify(merged)[1] >= min_iou:
            drop.update([a, *taken])
            out.append(merged)
    return [f if i not in drop else _EMPTY for i, f in enumerate(out)]


_EMPTY = Face(paint=-1, x=0, y=0, w=0, h=0, mask=np.zeros((0, 0), bool), filled=np.zeros((0, 0), bool))


def _cylinder_cap(faces: list[Face], body: int) -> int | None:
    f = faces[body]
    for j, c in enumerate(faces):
        if j == body or c.paint != f.paint:
            continue
        same_width = abs(c.w - f.w) <= max(3, 0.06 * f.w) and abs(c.x - f.x) <= max(3, 0.05 * f.w)
        above = 0 <= f.y - (c.y + c.h) <= 6 or (c.y < f.y and c.y + c.h >= f.y - 6 and c.y + c.h <= f.y + f.h * 0.3)
        if same_width and above and c.h < 0.6 * f.h:
            return j
    return None


def _make_shape(rgb: np.ndarray, paints: Paints, f: Face, shape: str, iou: float,
                face_for_ring: Face | None = None) -> DetectedShape | None:
    stroke, width, outside, share = _ring_stroke(rgb, paints, face_for_ring or f)
    if (share < 0.9 and width > 2.0) or outside not in (f.paint, paints.background):
        # a thick outline (4-8 px, a figure drawn at 2x) reaches the rings 5-7 px out where the
        # surroundings are read: its own ink made every such box 'a pocket between many surfaces'
        # (d2l-style blocks, 0.34), or was taken for the surroundings themselves and its
        # anti-aliased rim for a thin grey stroke (dask's 7 px circles). Read past the stroke;
        # kept where that finds a thick one: the surroundings' paint was its colour, or one
        # surface lies beyond it.
        pad = int(math.ceil(max(width, 6.0))) + 8
        wide = _ring_stroke(rgb, paints, face_for_ring or f, pad=pad)
        was_stroke = wide[0] is not None and color_distance(paints.colors[outside], wide[0]) < 40
        if wide[0] is not None and wide[1] > 2.0 and (wide[3] > share or was_stroke):
            # the surroundings' share: the better of the two readings (the wider rings of a
            # stack's front sheet reach its back sheets: 0.82 became 0.58 and the node was lost)
            stroke, width, outside, share = wide[0], wide[1], wide[2], max(share, wide[3])
            width = _full_width(rgb, paints, face_for_ring or f, width, pad)
    elif share < 0.9 and stroke is not None and face_for_ring is None:
        # a second outline a few px outside the first (an accepting state's double circle, a
        # double-bordered box, a scroll's curl) is in the rings the surroundings are read from:
        # past it they are one surface, and the inner outline is the node (the rest is traced;
        # a cylinder's share is read from its body's rings below)
        share = max(share, _ring_stroke(rgb, paints, f, pad=DOUBLE_OUTLINE_PAD)[3])
    if face_for_ring is not None:  # a cylinder: its cap is part of it, not its surroundings
        share = _ring_stroke(rgb, paints, f)[3]
    # a drawn shape sits on one surface; a pocket of canvas fenced in by lines and other nodes
    # borders many (their fills). Canvas-coloured faces are held to a stricter standard.
    canvas = f.paint == paints.background
    if share < 0.7 and not canvas:
        # a coloured face in a drop shadow: read as other paints, the shadow's fringe had made a
        # shadowed header 'a pocket between many surfaces' (share 0.58) and the node was lost
        # (issue 31); only a rescue (a scroll's grey curl read so changed how its stroke was read)
        share = max(share, _ring_stroke(rgb, paints, face_for_ring or f, fringe=True)[3])
    if share < 0.7 and not canvas:  # a hard grey drop shadow off its bottom and right (PlantUML's)
        share = max(share, _offset_shadow_share(rgb, paints, face_for_ring or f, pad=int(math.ceil(width)) + 8))
    # a true circle is no pocket between lines however many arrowheads sit on its ring (a
    # cycle's hub: three heads on the ring around it left 0.82 of one surface, issue 31)
    round_enough = shape in ("circle", "ellipse") and iou >= ROUND_CANVAS_IOU
    if canvas and (share < (ROUND_CANVAS_SHARE if round_enough else 0.9) or iou < 0.9):
        return None
    # the face is the inside of the stroke: the outline's centre line lies half a stroke out,
    # plus the half pixel of anti-aliasing the face loses on each side
    grow = (width / 2.0 + 0.5) if stroke is not None else 0.5
    fitted = fit_polygon_box(f, shape, grow)
    if fitted is not None:
        x, y, w, h = fitted
    else:
        left, top, right, bottom = inset_margins(shape, f.w + 2 * grow, f.h + 2 * grow, grow)
        x, y, w, h = f.x - left, f.y - top, f.w + left + right, f.h + top + bottom
    fill = tuple(int(v) for v in paints.colors[f.paint])
    return DetectedShape(shape=shape, x=x, y=y, w=w, h=h, fill=fill, stroke=stroke, stroke_px=width, iou=iou,
                         face=f, outside_share=share)  # type: ignore[arg-type]


def _offset_shadow_share(rgb: np.ndarray, paints: Paints, face: Face, pad: int = 8, foot: int = 0) -> float:
    """The surroundings' share of the rings around a face whose bottom and right lie in an offset
    drop shadow: one paint on its top and left, and that paint or neutral grey darker than it on
    its bottom and right (PlantUML's shadows, grey 160 on white, fading over 15 px); ``foot``: px
    of the box below the face (an empty compartment), not read."""
    H, W = paints.labels.shape
    x0, y0 = max(0, face.x - pad), max(0, face.y - pad)
    x1, y1 = min(W, face.x + face.w + pad), min(H, face.y + face.h + pad)
    filled = np.zeros((y1 - y0, x1 - x0), np.uint8)
    filled[face.y - y0:face.y - y0 + face.h, face.x - x0:face.x - x0 + face.w] = face.filled
    k3 = np.ones((3, 3), np.uint8)
    outer = cv2.dilate(filled, k3, iterations=pad - 1).astype(bool) & ~cv2.dilate(filled, k3, iterations=pad - 4).astype(bool)
    rows, cols = np.ogrid[:outer.shape[0], :outer.shape[1]]  # broadcast: no full index arrays
    fy, fx = face.y - y0, face.x - x0
    lt = outer & ((rows < fy) | (cols < fx)) & (rows < fy + face.h) & (cols < fx + face.w)
    br = outer & ((rows >= fy + face.h + foot) | (cols >= fx + face.w))  # (holes inside the face aside)
    lab = paints.labels[y0:y1, x0:x1]
    if lt.sum() < 8 or br.sum() < 8 or (lab[lt] < 0).all():
        return 0.0
    outside = int(np.bincount(lab[lt][lab[lt] >= 0]).argmax())
    px = rgb[y0:y1, x0:x1][br].astype(np.int32)
    px_luma = px @ np.array([299, 587, 114]) / 1000.0  # BT.601 in whole thousandths: a grey comes out as itself
    out_luma = float(luma(paints.colors[outside]))
    grey = (px.max(axis=1) - px.min(axis=1) <= 16) & (px_luma < out_luma - 8)
    return min(float((lab[lt] == outside).mean()), float(((lab[br] == outside) | grey).mean()))


def _full_width(rgb: np.ndarray, paints: Paints, face: Face, width: float, pad: int) -> float:
    """A thick stroke's width read again in more rings where it filled the ``pad - 6`` it was
    read in (dask's 9.3 px boxes read 8.0 px, drawn thinner than the original); only the
    width: the surroundings stay those read nearer. Only around a face several rings across:
    the rings around a small one (an icon's 60 x 32 frame) reach its neighbours' ink."""
    while width > pad - 7.5 and pad < 48:
        pad = int(math.ceil(width)) + 14
        if min(face.w, face.h) < 5 * pad:
            break
        again = _ring_stroke(rgb, paints, face, pad=pad)
        if again[0] is None or again[1] <= width:
            break
        width = again[1]
    return width


def ring_steps(mask: np.ndarray) -> np.ndarray:
    """Each pixel's ring around ``mask`` (uint8, nonzero inside; float32 out): k where the k-th 3×3
    dilation of the mask first reaches it (0 inside; huge everywhere where the mask is empty), i.e.
    its chessboard distance, read off one distance transform: the rings of ``pad - 1`` dilations
    took twice as long (a paper figure's 500 faces, 0.38 CPU-s)."""
    return cv2.distanceTransform((mask == 0).astype(np.uint8), cv2.DIST_C, 3)


def _ring_stroke(rgb: np.ndarray, paints: Paints, face: Face, pad: int = 8,
                 fringe: bool = False) -> tuple[tuple[int, int, int] | None, float, int, float]:
    """(stroke colour or None, stroke width px, paint outside the outline, share of the outside that
    is that paint) from the rings around a face: the stroke in the inner five (more for a wider
    pad), the outside in the last three of ``pad - 1``."""
    H, W = paints.labels.shape
    x0, y0 = max(0, face.x - pad), max(0, face.y - pad)
    x1, y1 = min(W, face.x + face.w + pad), min(H, face.y + face.h + pad)
    filled = np.zeros((y1 - y0, x1 - x0), np.uint8)
    filled[face.y - y0:face.y - y0 + face.h, face.x - x0:face.x - x0 + face.w] = face.filled
    lab = paints.labels[y0:y1, x0:x1]
    ring = ring_steps(filled)
    # the outside paint: the commonest paint in the outer rings
    outer = (ring >= max(1, pad - 3)) & (ring <= pad - 1)
    ov_all = lab[outer]
    ov = ov_all[ov_all >= 0]
    outside = int(np.bincount(ov).argmax()) if ov.size else paints.background
    sub = rgb[y0:y1, x0:x1]
    out_rgb = paints.colors[outside].astype(np.float32)
    # ``fringe``: a drop shadow's soft fringe (a few levels off the surroundings, fading out over
    # 4-8 px) is the surroundings too
    near = (ov_all == outside) | (distances(sub[outer], out_rgb) <= SHADOW_FRINGE) if fringe else ov_all == outside
    share = float(near.sum()) / max(1, ov_all.size)
    # the stroke: pixels in the inner rings that are neither face nor outside paint
    inner = (ring >= 1) & (ring <= min(pad - 1, max(5, pad - 6)))
    fill_rgb = paints.colors[face.paint].astype(np.float32)
    px = sub[inner].astype(np.float32)
    if px.size == 0:
        return None, 0.0, outside, share
    # a compartment of a box filled like it (a class box's header over its members) has its own fill
    # outside: the stroke stands against what lies beyond that, or a page beyond the box (white
    # against pale yellow) would be taken for the stroke
    d_out = distances(px, _beyond_own(paints, ov, outside, face.paint, out_rgb))
    d_fill = distances(px, fill_rgb)
    strokey = (d_out > 25) & (d_fill > 25)
    perim = max(1.0, float(np.count_nonzero(ring == 1)))
    if strokey.sum() < 0.5 * perim:
        return None, 0.0, outside, share
    spx = px[strokey]
    # the core of the stroke is the pixels farthest from both neighbours
    score = np.minimum(d_out[strokey], d_fill[strokey])
    core = spx[score >= np.percentile(score, 60)]
    color = tuple(int(v) for v in np.median(core, axis=0))
    # width: coverage-weighted count of stroke pixels per perimeter pixel
    c = np.asarray(color, np.float32)
    span = max(1.0, float(np.linalg.norm(c - out_rgb)))
    cov = np.clip(1 - np.linalg.norm(px - c, axis=1) / span, 0, 1)
    width = float(cov[d_fill > 10].sum()) / perim
    return color, width, outside, share  # type: ignore[return-value]


def _beyond_own(paints: Paints, ov: np.ndarray, outside: int, own: int, out_rgb: np.ndarray) -> np.ndarray:
    """The colour a face's stroke stands against: the outside paint, or where that is the face's own
    fill (not the page's: a white box on a white page stands against the page), the commonest other
    paint of the outer rings."""
    if outside != own or own == paints.background:
        return out_rgb
    other = ov[ov != own]
    return paints.colors[int(np.bincount(other).argmax())].astype(np.float32) if other.size else out_rgb


def _mark_stacks(shapes: list[DetectedShape], paints: Paints, scale: float) -> None:
    """A stack is a rectangle with two offset copies peeking out above and to the right.

    The sheets behind show only as strips a few pixels wide, too thin to be faces: look for
    the front sheet's fill in a band just above its top edge and just right of its right edge.
    """
    labels = paints.labels
    H, W = labels.shape
    for s in shapes:
        if s.shape not in ("box", "round") or s.is_group:
            continue
        fw, fh = s.w * scale, s.h * scale  # user units
        off = min(4.0, fh * 0.125, fw * 0.0556) / scale  # the renderer's offset, in pixels
        if off < 2.0:
            continue
        x0, y0, x1 = int(s.x), int(s.y), int(s.x + s.w)
        band = max(2, int(round(2 * off)))
        top = labels[max(0, y0 - band):y0, x0 + int(0.3 * s.w):x0 + int(0.9 * s.w)]
        right = labels[y0 + int(0.1 * s.h):y0 + int(0.7 * s.h), x1:min(W, x1 + band)]
        if top.size == 0 or right.size == 0:
            continue
        rows = int(((top == s.face.paint).mean(axis=1) > 0.8).sum())
        cols = int(((right == s.face.paint).mean(axis=0) > 0.8).sum())
        # beyond the back sheet the surface changes: a frame of the same fill around the shape is no stack
        beyond = labels[max(0, y0 - 3 * band):max(0, y0 - 2 * band), x0 + int(0.3 * s.w):x0 + int(0.9 * s.w)]
        same_beyond = beyond.size > 0 and float((beyond == s.face.paint).mean()) > 0.5
        if rows >= 1 and cols >= 1 and not same_beyond:
            s.shape = "stack"
            s.y -= 2 * off
            s.w += 2 * off
            s.h += 2 * off
            # the whole stack is the node's: its back sheets are not lines
            fx, fy = int(math.floor(s.x)), int(math.floor(s.y))
            fw_px, fh_px = int(math.ceil(s.x + s.w)) - fx, int(math.ceil(s.y + s.h)) - fy
            full = np.ones((max(1, fh_px), max(1, fw_px)), bool)
            s.face = Face(paint=s.face.paint, x=fx, y=max(0, fy), w=full.shape[1], h=full.shape[0], mask=full,
                          filled=full, soft=s.face.soft)


def _holds_label(f: Face, runs: list[TextRun], min_side: float, paints: Paints) -> bool:
    """A face under the node size that holds a label whole, with room round it: a TikZ gate's small
    box around a σ (nntikz's GRU: 39 px boxes at a 42 px node size came back as loose σ texts, and
    their arrows unattached). A glyph's counter never holds a run, nor does a gap between lines. Only
    an outline drawn round the page's own colour: a filled plate under a port's name at a link's end
    (draw.io's network figures: 'e1-1') is the link's label, no node."""
    if min(f.w, f.h) < 0.5 * min_side or f.paint != paints.background:
        return False
    for r in runs:
        if r.angle == 0 and f.x < r.x and f.y < r.y and r.right < f.x + f.w and r.bottom < f.y + f.h \
                and f.h >= 1.3 * r.h and f.w >= r.w + 0.3 * r.h:
            return True
    return False


def mark_groups(shapes: list[DetectedShape]) -> None:
    """Rectangular shapes that enclose other shapes are group frames."""
    order = sorted(range(len(shapes)), key=lambda i: shapes[i].w * shapes[i].h)
    for i in order:
        s = shapes[i]
        if s.shape not in ("box", "round") or s.dividers:  # a class box holds its members' icons, no nodes
            continue
        inside = []
        for j, t in enumerate(shapes):
            if j == i:
                continue
            if (t.x >= s.x - 1 and t.y >= s.y - 1 and t.x + t.w <= s.x + s.w + 1 and t.y + t.h <= s.y + s.h + 1
                    and t.w * t.h < 0.8 * s.w * s.h):
                inside.append(j)
        if inside:
            s.is_group = True
            s.members = inside


def _snap_to_border(rgb: np.ndarray, paints: Paints, s: DetectedShape, depth: int = 12) -> None:
    """A lossy group frame's sides moved onto its drawn border. A pale fill (250) lies within
    JPEG noise of white (254): around a dashed or dotted border the canvas took the fill's
    label, the face spread up to 8 px past the border through its gaps, and the frame lost its
    stroke (the ring was sought outside the halo) and the lines crossing it their bridge.

    Each side's border is the row (column) within ``depth`` px inside the face's edge where
    most pixels are drawn in contrast, if a quarter of the side is (dots and dashes are)."""
    f = s.face
    x0, y0, x1, y1 = f.x, f.y, f.x + f.w, f.y + f.h
    region = rgb[y0:y1, x0:x1].astype(np.float32)
    dark = distances(region, paints.background_rgb) > 80
    h, w = dark.shape
    if h < 3 * depth or w < 3 * depth:
        return
    cx0, cx1, cy0, cy1 = int(0.15 * w), int(0.85 * w), int(0.15 * h), int(0.85 * h)
    found = {}
    for side in ("top", "bottom", "left", "right"):
        if side in ("top", "bottom"):
            counts = dark[:, cx0:cx1].sum(axis=1)
            span = cx1 - cx0
            idx = list(range(depth)) if side == "top" else list(range(h - 1, h - 1 - depth, -1))
        else:
            counts = dark[cy0:cy1, :].sum(axis=0)
            span = cy1 - cy0
            idx = list(range(depth)) if side == "left" else list(range(w - 1, w - 1 - depth, -1))
        # a 1 px border a JPEG smears over two rows: each row with the next one in
        pairs = list(zip(idx, idx[1:]))
        i, j = max(pairs, key=lambda p: int(counts[p[0]]) + int(counts[p[1]]))
        ci, cj = int(counts[i]), int(counts[j])
        if ci + cj >= 0.25 * span:
            found[side] = (i * ci + j * cj) / (ci + cj)  # the border's centre line, in pixel rows
    if len(found) < 4:
        return
    top, bottom, left, right = found["top"], found["bottom"], found["left"], found["right"]
    if max(top, left, h - 1 - bottom, w - 1 - right) < 1.0:
        return
    inside = np.zeros((h, w), bool)
    inside[int(top) + 1:int(math.ceil(bottom)), int(left) + 1:int(math.ceil(right))] = True
    # pixel centres are at +0.5
    s.x, s.y = float(x0 + left) + 0.5, float(y0 + top) + 0.5
    s.w, s.h = float(right - left), float(bottom - top)
    s.stroke_px = max(s.stroke_px, 1.0)
    s.face = Face(paint=f.paint, x=f.x, y=f.y, w=f.w, h=f.h, mask=f.mask & inside, filled=f.filled & inside,
                  soft=f.soft)


SIDE_REACH = 4  # px: a dashed frame's side is looked for this far either side of its box's


def _drawn_sides(rgb: np.ndarray, paints: Paints, s: DetectedShape) -> tuple[float, float, float, float]:
    """Where a dashed (or dotted) frame's four sides are drawn: along each side (corners left out), the
    column (row) within SIDE_REACH of the box's that holds the most pixels unlike both the fill and the
    background; the box's own where none does. Its face runs into the gaps, and a label erased by a
    side runs out with it: training_loop's 'Frozen' box stood 2 px left of the left side, whose dashes
    were left over, a loose path drawn over the frame."""
    H, W = paints.labels.shape
    corner = int(math.ceil(s.stroke_px + 8))
    box = (s.x, s.y, s.x + s.w, s.y + s.h)
    out = []
    for k, at in enumerate(box):
        vertical = k % 2 == 0
        lo, hi = (box[1], box[3]) if vertical else (box[0], box[2])
        lo, hi = int(round(lo)) + corner, int(round(hi)) - corner
        c0, c1 = max(0, int(round(at)) - SIDE_REACH), min(W if vertical else H, int(round(at)) + SIDE_REACH + 1)
        if hi - lo < 6 * corner or c1 <= c0:
            out.append(at)
            continue
        band = rgb[max(0, lo):min(H, hi), c0:c1] if vertical else np.swapaxes(rgb[c0:c1, max(0, lo):min(W, hi)], 0, 1)
        counts = _unlike(band.astype(np.float32), s.fill, paints.background_rgb).sum(axis=0)
        out.append(float(c0 + int(np.argmax(counts))) if counts.max() > 0 else at)
    return out[0], out[1], out[2], out[3]


def _unlike(px: np.ndarray, fill: tuple[int, int, int], background: np.ndarray) -> np.ndarray:
    """Pixels (float32, last axis RGB) unlike both a frame's fill and the background: its stroke."""
    return ((np.linalg.norm(px - np.asarray(fill, np.float32), axis=-1) > 25)
            & (np.linalg.norm(px - np.asarray(background, np.float32), axis=-1) > 25))


def _frame_dash_style(rgb: np.ndarray, paints: Paints, s: DetectedShape) -> str:
    """solid, dashed or dotted: how much of a frame's straight sides is inked, and in what runs.

    Along each side (corners left out) a column is inked where the stroke's band holds a
    pixel unlike both the frame's fill and the background. A solid frame is inked all
    along (lines crossing it only add ink); dashes leave regular gaps, dots leave gaps
    longer than their ink.
    """
    H, W = paints.labels.shape
    corner = int(math.ceil(s.stroke_px + 8))
    x0, x1 = int(round(s.x)), int(round(s.x + s.w))
    y0, y1 = int(round(s.y)), int(round(s.y + s.h))
    profiles: list[np.ndarray] = []
    for horizontal, at, lo, hi in ((True, y0, x0, x1), (True, y1, x0, x1), (False, x0, y0, y1), (False, x1, y0, y1)):
        lo, hi = lo + corner, hi - corner
        if hi - lo < 6 * corner:
            continue
        if horizontal:
            band = rgb[max(0, at - 1):min(H, at + 2), max(0, lo):min(W, hi)].astype(np.float32)
        else:
            band = np.swapaxes(rgb[max(0, lo):min(H, hi), max(0, at - 1):min(W, at + 2)], 0, 1).astype(np.float32)
        if band.size == 0:
            continue
        profiles.append(_unlike(band, s.fill, paints.background_rgb).any(axis=0))
    if not profiles:
        return "solid"
    inked = float(np.concatenate(profiles).mean())
    if inked >= 0.9:
        return "solid"
    runs: list[int] = []
    for prof in profiles:
        edges = np.diff(np.concatenate(([0], prof.astype(np.int8), [0])))
        starts, ends = np.nonzero(edges == 1)[0], np.nonzero(edges == -1)[0]
        runs += [int(e - b) for b, e in zip(starts[1:-1], ends[1:-1])]  # whole dashes only
    if len(runs) < 4:
        return "solid"
    return "dotted" if float(np.median(runs)) <= 3 * max(1.0, s.stroke_px) + 1 else "dashed"
