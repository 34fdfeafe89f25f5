"""Hand-drawn shapes: wobbly, pencil-grey, not-quite-closed outlines read as clean nodes.

A sketched box is no face of one paint: its pencil stroke is grey and uneven, its sides
wobble by a few pixels (a face matches no ideal outline at the typeset 0.88 IoU), and it is
often left open where the pen lifted, so its inside leaks into the canvas. Here the ink is
taken by contrast with the paper and with the fills (light paints in blobs: an Excalidraw box
filled in pastel is a hole in its dark outline), read from the pixels as decoded (a denoising
median breaks a thin pencil line into dots). Stroke ends a pen lift apart are joined, small
gaps closed, and every enclosed hole that holds a label is compared with the ideal outlines of
:mod:`~crafteditor.shapes.outlines` at a looser IoU. A hole that matches becomes a
:class:`~crafteditor.shapes.detect.DetectedShape` in the theme's clean stroke and its own fill
(the sketch is redrawn, not copied); the text inside becomes its label, and the lines between
them become edges in the usual stages that follow (mended by :mod:`crafteditor.sketch_lines`).

The stage runs when the config asks for it (``sketch='on'``, the ``sketch`` preset) or, with
``sketch='auto'``, when the outlines look hand-drawn: at least two holes match a shape
only loosely, their boundary off the ideal by a pixel or more on average (a typeset box is off by
a fraction of one, and is a face the shape stage has read already): :func:`looks_rough`. The
``auto`` preset then reads the figure again with the ``sketch`` preset. Where no second reading
follows (a JPEG), the outlines are kept only where a box among them has sides that wobble along
their run (:func:`looks_hand_drawn`: a typeset sequence diagram's pockets between lifelines and
messages are rough too, notched by arrowheads, but straight). An Excalidraw export's boxes are faces of one
paint, read by the shape stage, so no sketch is seen; their sides bow off straight lines
(:func:`hand_drawn_outlines`), and its lines are mended as a sketch's
(:mod:`crafteditor.sketch_lines`, :mod:`crafteditor.sketch_arrows`).

Not done: hand-drawn group frames (dashed, faint, cut into pockets by the lines crossing them).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from crafteditor.config import THEME, Config
from crafteditor.lines.skeleton import skeleton
from crafteditor.ocr.runs import TextRun
from crafteditor.paint import Paints, distances, farther_than, luma
from crafteditor.shapes.compartments import join_compartments
from crafteditor.shapes.detect import DetectedShape, mark_groups
from crafteditor.shapes.faces import Face
from crafteditor.shapes.outlines import classify, ideal_mask, mask_iou

CENTRED = 0.5  # a math label holds a hole whose box's margins round it are within this share of each other
SKETCH_MIN_IOU = 0.78  # a wobbly hole must match its outline this well (a box vs an ellipse: 0.785)
INK_CONTRAST = 45.0  # RGB distance from the paper that is pencil ink (sketchify's grey: ~70-130)
ROUGH_PX = 0.9  # mean distance (px) between a hole's edge and its ideal outline that reads as hand-drawn
BOX_STRAY_PX = 2.0  # a box's sides straying farther from straight lines: no outline (see looks_hand_drawn)
GAP_SHARE = 0.025  # gaps closed: this share of the image's shorter side (≈ a few % of a box's perimeter)
LIFT_SHARE = 0.035  # stroke ends this share of the image's shorter side apart are joined (a pen lift)
LIFT_MIN = 20.0  # ...and at least this far apart (user units): a small box's 3 % gap on a small image
MAX_ENDS = 3000  # more stroke ends than this: noise, not a sketch (no joining)
PLAIN_MARGIN = 0.04  # IoU a cylinder, hexagon, parallelogram or document must gain over a box
DARK_PAPER = 64.0  # luma under which the paper is dark (a dark-mode export): shapes keep their own colours
RING_PX = 4  # px around a hole searched for its outline's ink (a 1x export's stroke and its wobble)
SURFACE_SHARE = 0.003  # a fill covers at least this share of the figure
SOLID_SHARE = 0.85  # share of an outline inked for a solid (not dashed) frame
PAPER_LOST_SHARE = 0.6  # ink over more of the figure than this: the paper's colour was not the page's
WOBBLE_PX = 0.1  # a box whose sides stray this far from straight lines (px) was drawn by hand (typeset: 0.0)
# an ellipse whose outline strays this far (px, median) from its own mirror image (:func:`_ellipse_stray`) was
# drawn by hand: rough.js's at roughness 1-2 (excalidraw-states seed 14) 0.23-2.54, each figure's most >= 0.37;
# typeset ellipses and circles of the 127 dev figures (graphviz, TikZ, draw.io, Mermaid, d2l) 0.00-0.28, and
# shapes with an axis of symmetry read as ellipses (a stadium, an octagon, a cylinder's clipped top) 0.00-0.02.
# Kept in px: a size-relative bound would not part them (a typeset 63 px circle 0.28, a rough 220x77 ellipse 0.37)
ELLIPSE_WOBBLE_PX = 0.35
ELLIPSE_SMOOTH = 4  # the outline averaged over this many contour pixels each way: the pixel grid's steps smoothed
NOTCH_PX = 3  # a side's edge this far (px) from its median line is a notch (an arrowhead, a glyph's remnant, an icon)
# a box whose opposite sides mirror each other across both of its axes no closer than this (px, see
# :func:`_mirror_stray`) is drawn by hand, where its sides stray (a typeset one, however notched on one side: 0.0)
MIRROR_PX = 0.1


def sketch_ink(rgb: np.ndarray, paints: Paints, exclude: np.ndarray | None = None) -> np.ndarray:
    """Pixels drawn in contrast with the paper and with every fill (pencil grey included; paper
    grain is not): an Excalidraw box filled in pastel blue is a hole in its dark outline."""
    surfaces = _surfaces(paints)
    ink = farther_than(rgb, surfaces[0], INK_CONTRAST)  # the paper's: every pixel is asked
    if exclude is not None:
        ink &= ~exclude
    if len(surfaces) == 1:
        return ink
    # each fill's: only what is still ink, gathered once into a column of pixels that narrows
    # fill by fill (the same test pixel by pixel; a 15 MP page's ink was looked up, gathered
    # and scattered back over the whole page for each of its fills)
    at = np.flatnonzero(ink)
    px = np.ascontiguousarray(rgb).reshape(-1, 1, rgb.shape[-1])[at]
    for color in surfaces[1:]:
        keep = farther_than(px, color, INK_CONTRAST)[:, 0]
        at, px = at[keep], px[keep]
    ink = np.zeros(ink.shape, bool)
    ink.reshape(-1)[at] = True
    return ink


def _surfaces(paints: Paints) -> list[np.ndarray]:
    """The paper's colour and the fills': light paints that cover a share of the figure in blobs
    (most of their pixels survive a 5×5 erosion), not in strokes."""
    out = [paints.background_rgb]
    # counted in the labels' own small integers (an int64 copy of a 15 MP page's labels first was
    # two thirds of this count: 0.20 -> 0.07 s)
    counts = np.bincount(paints.labels.ravel() + 1, minlength=len(paints.colors) + 1)[1:]
    for p in np.flatnonzero(counts >= SURFACE_SHARE * paints.labels.size).tolist():
        c = paints.colors[p].astype(np.float32)
        lum, chroma = float(luma(c)), float(c.max() - c.min())
        if p == paints.background or lum < 190 or (lum < 225 and chroma < 40):
            continue  # a fill is light: pale grey, or a pastel (a chart's grey bars are pencil-dark)
        mask = (paints.labels == p).astype(np.uint8)
        if cv2.countNonZero(cv2.erode(mask, np.ones((5, 5), np.uint8))) >= 0.4 * counts[p]:
            out.append(paints.colors[p])
    return out


def add_sketch_shapes(rgb: np.ndarray, paints: Paints, config: Config, scale: float, known: list[DetectedShape],
                      exclude: np.ndarray | None = None,
                      runs: list[TextRun] | None = None, rereads: bool | None = None) -> tuple[list[DetectedShape], bool]:
    """(``known`` plus the hand-drawn outlines, group frames marked over them all; whether any
    were found). ``rgb``: the pixels as decoded, text erased (a denoising median breaks a thin
    pencil line into dots); ``runs``: the text read, where given an outline must hold a label
    (:func:`find_sketch_shapes`'s ``labels``), and a sketched table's body under
    a typeset-looking header (an Excalidraw entity box: a filled header is a face, its unfilled
    body a sketched outline) is joined to it as a class box; ``rereads``: as :func:`find_sketch_shapes`'s."""
    found = find_sketch_shapes(rgb, paints, config, scale, known, exclude, runs, rereads=rereads)
    if not found:
        return known, False
    shapes = known + found
    if runs is not None:
        shapes = join_compartments(shapes, runs)
    if config.groups:
        mark_groups(shapes)
    return shapes, True


def find_sketch_shapes(rgb: np.ndarray, paints: Paints, config: Config, scale: float,
                       known: list[DetectedShape], exclude: np.ndarray | None = None,
                       labels: list[TextRun] | None = None,
                       rereads: bool | None = None) -> list[DetectedShape]:
    """The hand-drawn outlines not already among ``known`` (nodes and frames, image pixels).

    ``labels``: the text read; where given, an outline must hold one (:func:`_holds_label`). Two
    hand-drawn arrows running side by side between two boxes fence in a box-shaped pocket of
    paper (four on an Excalidraw request/response figure, each drawn as an empty node).
    Empty where ``config.sketch`` is 'off', or 'auto' and the outlines do not look hand-drawn, or where
    ink covers over :data:`PAPER_LOST_SHARE` of the figure (the paper's colour was misread).
    ``rereads``: whether a second reading as a sketch follows (None: where ``config`` is the auto
    preset's); where one does, rough outlines need not wobble (that reading decides), else they must."""
    if config.sketch == "off":
        return []
    ink = sketch_ink(rgb, paints, exclude)
    if ink.mean() > PAPER_LOST_SHARE:
        return []  # no paper to draw on: its thinning alone cost 1.6 CPU-s on a 1919×1451 grey page, for no shape
    H, W = ink.shape
    min_side = max(8.0, config.min_node_size / scale)
    gap = max(2, int(round(GAP_SHARE * min(H, W) / 2)))
    holes = _holes(_bridge_ends(ink, max(LIFT_SHARE * min(H, W), LIFT_MIN / scale)), gap, min_side)
    near = cv2.dilate(ink.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    dark_paper = float(luma(paints.background_rgb)) < DARK_PAPER
    found: list[tuple[DetectedShape, float, float]] = []
    for x, y, w, h, filled in holes:
        if any(_box_iou((x, y, w, h), (s.x, s.y, s.w, s.h)) > 0.5 for s in known):
            continue
        if any(s.dividers and s.x - 4 <= x and x + w <= s.x + s.w + 4 and s.y - 4 <= y and y + h <= s.y + s.h + 4
               for s in known):
            continue  # a compartment of a class box already read
        if labels is not None and not any(_holds_label(r, x, y, filled) for r in labels):
            continue
        face = Face(paint=paints.background, x=x, y=y, w=w, h=h, mask=filled, filled=filled, soft=True)
        shape, iou = _sketch_class(face)
        if iou < SKETCH_MIN_IOU:
            continue
        area = float(filled.sum())
        perimeter = max(1.0, float(cv2.arcLength(_contour(filled), True)))
        rough = (1.0 - iou) * area / perimeter  # mean width of the band where hole and outline differ
        made = _clean_shape(face, shape, iou, ink, scale, _fill(rgb, face, paints))
        if dark_paper:
            made = _in_own_colours(made, face, rgb, ink, paints)
        made.dashed = _dash_style(face, near)
        edges = _side_edges(filled)
        found.append((made, rough, _edges_stray(edges), _edges_wobble(edges)))
    if rereads is None:
        rereads = config.preset_name == "auto"
    if config.sketch == "auto" and not (looks_rough(found) and (rereads or looks_hand_drawn(found))):
        return []  # a second reading as a sketch decides on a rough figure; kept as they are, outlines must wobble
    shapes = [s for s, *_ in found]
    # nested holes: a frame's inside holds its members' outlines; a node's inner ring (a doubled
    # stroke) is the same node
    return _drop_doubles(shapes)


def _holds_label(r: TextRun, x: int, y: int, filled: np.ndarray) -> bool:
    """Whether the hole ``filled`` (its box's corner at ``x``, ``y``) holds the label ``r``: its centre
    inside, and a math label (:attr:`~crafteditor.ocr.runs.TextRun.math_label`) centred in the hole's
    box too, its margins either way within :data:`CENTRED` of each other. A variable's name beside a line
    stands in a pocket of paper the lines and boxes fence in (mamba3's A and X between its wires, margins
    0.04-0.4 of each other: read as hand-drawn nodes, the whole figure was read again as a sketch); a
    hand-drawn node's letter is set in its middle."""
    h, w = filled.shape
    cx, cy = r.cx - x, r.cy - y
    if not (0 <= cx < w and 0 <= cy < h and filled[int(cy), int(cx)]):
        return False
    if not r.math_label:
        return True
    margins = ((r.x - x, x + w - r.right), (r.y - y, y + h - r.bottom))
    return all(min(a, b) >= CENTRED * max(a, b) for a, b in margins)


def looks_rough(found: list[tuple[DetectedShape, float, float, float]]) -> bool:
    """Whether the loosely matching outlines ``found`` (each with its roughness and its sides' stray
    from a straight line, px) may be a hand-drawn figure's: two or more rough ones. A box whose
    sides stray by pixels is no outline, wobbly or not, but a pocket of paper between curves and
    lines (an LSTM cell's; a hand-drawn box's sides stray 0.1-0.6 px on the real set): it is no
    sign of a sketch (re-read as one, such a figure lost nodes and edges). The auto preset reads
    such a figure again with the sketch preset: typeset ones among them too (a PowerPoint UML
    diagram, a PlantUML state machine, a sequencediagram.org ladder on dev), as their second
    reading scored edge F1 0.65, 0.36 and 0.98 where their first scored 0.29, 0.43 and 0.65 (its
    lines mended, boxes the typeset stage missed found as loose outlines, lines read lossy)."""
    return sum(r >= ROUGH_PX and (s.shape not in ("box", "round") or stray <= BOX_STRAY_PX)
               for s, r, stray, _ in found) >= 2


def looks_hand_drawn(found: list[tuple[DetectedShape, float, float, float]]) -> bool:
    """Whether the loosely matching outlines ``found`` (each with its roughness, its sides' stray
    from a straight line and their wobble, px: :func:`_side_stray`, :func:`_side_wobble`) are a
    hand-drawn figure's: two or more rough solid ones, a box among them whose sides wobble. Where
    no second reading follows (a JPEG, read with the jpeg preset), only then are they kept as nodes.

    Roughness alone (the hole off its ideal outline) is no sign: a pocket of paper fenced in by a
    sequence diagram's lifelines and messages, notched by arrowheads and self-calls, a box holding
    an icon or a glyph's remnant, are rough and typeset (kept as nodes, a q75 JPEG ladder's pockets
    took its node F1 0.71 -> 0.53). A hand-drawn box's sides wobble along their run (0.2-1.0 px
    off a straight line, notches left out); a typeset box's are straight (0.0), however rounded,
    antialiased or compressed. A dashed outline's hole bows in at each closed gap, so it is no
    sign either way; nor is a box whose sides stray by pixels (see :func:`looks_rough`). Ellipses,
    diamonds and the rest count beside a wobbling box."""
    rough = [(s, stray, wobble) for s, r, stray, wobble in found
             if r >= ROUGH_PX and getattr(s, "dashed", "solid") == "solid"]
    boxes = [s for s, stray, wobble in rough if s.shape in ("box", "round")]
    wobbly = [s for s, stray, wobble in rough if s.shape in ("box", "round") and stray <= BOX_STRAY_PX
              and wobble >= WOBBLE_PX]
    return bool(wobbly) and len(wobbly) + len(rough) - len(boxes) >= 2


def hand_drawn_outlines(shapes: list[DetectedShape]) -> tuple[bool, bool]:
    """``(wobbly, lettered)``: whether ``shapes`` (read by the typeset stage, or as a sketch) look drawn by hand,
    and whether their lettering should be read as a hand's too.

    ``wobbly``: a box among them has sides that stray off straight lines (:data:`WOBBLE_PX`), or an ellipse's
    outline is no mirror image of itself (:data:`ELLIPSE_WOBBLE_PX`): an Excalidraw export's boxes are read as
    faces of one paint, so no sketch is seen, yet their sides stray 0.1-0.3 px (a typeset box's, on all 48 dev
    diagrams of the real set that are not hand-drawn: 0.0 px but for a napkin-style sequence diagram). An
    unoutlined box alone is no sign: an edge label's plate that its line runs under, notched by it, strays
    0.13-0.2 px (Mermaid 8/9's plates), and the whole typeset flowchart was read as a sketch, its links
    to the plates taken for pencil; two unoutlined boxes that wobble are a sign. Sides that stray are a sign
    even where they mirror each other: the lines' mends ask so (on typeset pages whose pills or rounded boxes
    stray, they joined curves that stop short, draw.io and PlantUML's).

    ``lettered``: the same, of the boxes whose straying sides also bow as a hand's do (:func:`_bows`), as the
    hand lettering's trims ask: they cut a draw.io activity diagram's own 'exitst' to 'exits'. Never without
    ``wobbly``."""
    straying = []  # (box, its sides' edges): the boxes whose sides stray
    for s in shapes:
        if s.shape in ("box", "round") and not s.is_group:
            edges = _side_edges(s.face.filled)
            if _edges_stray(edges) >= WOBBLE_PX:
                straying.append((s, edges))
    strays = _boxes_wobble([s for s, _ in straying])
    bows = _boxes_wobble([s for s, edges in straying if _bows(edges)])  # a subset: bows only where strays
    # a state machine of hand-drawn ellipses has no box to bow: an ellipse with no axis of symmetry is a sign alone
    if not bows and any(s.shape in ("ellipse", "circle") and not s.is_group
                        and _ellipse_stray(s.face.filled) >= ELLIPSE_WOBBLE_PX for s in shapes):
        return True, True
    return strays, bows


def _boxes_wobble(boxes: list[DetectedShape]) -> bool:
    """Whether wobbling ``boxes`` are a sign of a hand: one outlined, or two (see :func:`hand_drawn_outlines`)."""
    return any(s.stroke is not None for s in boxes) or len(boxes) >= 2


def _bows(edges: tuple[np.ndarray, ...]) -> bool:
    """Whether a box whose sides stray (:func:`_side_stray`, :data:`WOBBLE_PX` or more) bows as a hand-drawn box
    does, by its sides' ``edges`` (:func:`_side_edges`): three sides or more wobbling along their run, notches
    left out (:func:`_side_wobble`, the second least of four), or no two opposite sides mirroring each other
    (:func:`_mirror_stray`). Straying alone was a sign on typeset pages: a draw.io pill's (a stadium, arcSize 50:
    cluster-api's activity diagrams, 120×40) two round ends stray 0.21 px from a line over the middle half of its
    height, its other two sides none; an edge label's plate notched by its line on one side (Mermaid's) or a box
    an arrow enters (draw.io) strays 0.1-0.24 px on one side. Both mirror themselves across at least one axis
    (0.0 px); a hand-drawn box bows at random on every side (Excalidraw's, 0.1-2 px either way)."""
    return _edges_wobble(edges) >= WOBBLE_PX or _edges_mirror_stray(edges) >= MIRROR_PX


def _mirror_stray(m: np.ndarray) -> float:
    """How far a face's opposite sides are from mirroring each other, in px: over the middle half of its rows,
    the left side's inset less the right side's, its mean distance from its median (a constant offset, a box
    half a pixel off the grid, left out); the same over its columns for top and bottom; the lesser of the two."""
    return _edges_mirror_stray(_side_edges(m))


def _edges_mirror_stray(edges: tuple[np.ndarray, ...]) -> float:
    """:func:`_mirror_stray` of a face by its sides' edges (:func:`_side_edges`): the left inset less the right
    is ``left + right`` less the width, a constant its median takes away."""
    left, right, top, bottom = edges
    if len(left) < 6 or len(top) < 6:
        return 0.0
    strays = []
    for d in (left + right, top + bottom):
        d = d.astype(np.float64)
        strays.append(float(np.abs(d - np.median(d)).mean()))
    return min(strays)


def _ellipse_stray(m: np.ndarray) -> float:
    """How far a face's outline strays from a mirror image of itself, in px: the contour's distance from its
    centre against the distance at the mirrored angle, the median over the outline, mirrored about the fitted
    ellipse's axes and about the image's (through the fitted centre), the least of the four. A shape with an
    axis of symmetry (a typeset ellipse or circle, a stadium, an octagon, a Venn crescent, an ellipse clipped
    by the border or notched by a line) strays 0.0-0.3 px, the pixel grid's; rough.js's random offsets leave
    it none: 0.4-2.5 px (the outline is smoothed over :data:`ELLIPSE_SMOOTH` pixels each way first)."""
    cs, _ = cv2.findContours(m.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    c = max(cs, key=cv2.contourArea) if cs else None
    if c is None or len(c) < 20:
        return 0.0
    (cx, cy), (w, h), angle = cv2.fitEllipse(c)
    if min(w, h) < 4:
        return 0.0
    p = c[:, 0, :].astype(np.float64)
    k = ELLIPSE_SMOOTH
    run = np.cumsum(np.concatenate([p[-k - 1:], p, p[:k]]), axis=0)
    p = (run[2 * k + 1:] - run[:-2 * k - 1]) / (2 * k + 1) - (cx, cy)
    r = np.hypot(p[:, 0], p[:, 1])
    strays = []
    for t in (math.radians(angle), 0.0):
        phi = np.arctan2(-p[:, 0] * math.sin(t) + p[:, 1] * math.cos(t), p[:, 0] * math.cos(t) + p[:, 1] * math.sin(t))
        o = np.argsort(phi)
        for mirrored in (-phi, math.pi - phi):
            strays.append(float(np.median(np.abs(r - np.interp(mirrored, phi[o], r[o], period=2 * math.pi)))))
    return min(strays)


def _side_stray(m: np.ndarray) -> float:
    """How far the middle half of a hole's sides strays from a straight line, in px (the median
    over its four sides, each the mean distance from its fitted line)."""
    return _edges_stray(_side_edges(m))


def _edges_stray(edges: tuple[np.ndarray, ...]) -> float:
    """:func:`_side_stray` of a hole by its sides' edges (:func:`_side_edges`)."""
    strays = []
    for e in edges:
        if len(e) >= 6:
            t = np.arange(len(e), dtype=np.float64)
            strays.append(float(np.abs(e - np.polyval(np.polyfit(t, e, 1), t)).mean()))
    return float(np.median(strays)) if strays else 0.0


def _side_edges(m: np.ndarray) -> tuple[np.ndarray, ...]:
    """A hole's four sides over their middle half: per row (left, right) and per column (top, bottom),
    where its edge lies."""
    h, w = m.shape
    rows = m[int(0.25 * h):int(0.75 * h) + 1]
    cols = m[:, int(0.25 * w):int(0.75 * w) + 1].T
    rows, cols = rows[rows.any(axis=1)], cols[cols.any(axis=1)]
    return (rows.argmax(axis=1), rows.shape[1] - rows[:, ::-1].argmax(axis=1),
            cols.argmax(axis=1), cols.shape[1] - cols[:, ::-1].argmax(axis=1))


def _side_wobble(m: np.ndarray) -> float:
    """How far a hole's sides wobble off straight lines, in px: each side's edge over its middle
    half, notches (:data:`NOTCH_PX` off its median) left out, its mean distance from its fitted
    line; the second least of the four (a hole fenced in by a wobbly stroke on one side only, a
    hand-drawn arrow along a typeset box, is no hand-drawn outline)."""
    return _edges_wobble(_side_edges(m))


def _edges_wobble(edges: tuple[np.ndarray, ...]) -> float:
    """:func:`_side_wobble` of a hole by its sides' edges (:func:`_side_edges`)."""
    strays = []
    for e in edges:
        t = np.arange(len(e), dtype=np.float64)
        keep = np.abs(e - np.median(e)) <= NOTCH_PX if len(e) else e.astype(bool)
        if keep.sum() >= 6:
            t, e = t[keep], e[keep].astype(np.float64)
            strays.append(float(np.abs(e - np.polyval(np.polyfit(t, e, 1), t)).mean()))
        else:
            strays.append(0.0)
    return sorted(strays)[1] if len(strays) >= 2 else 0.0


def _sketch_class(face: Face) -> tuple[str, float]:
    """(shape, IoU) of a wobbly hole: a wobble trims a box's corners, which reads as a cylinder
    or a hexagon; a shape other than the plain ones must beat the box clearly."""
    shape, iou = classify(face)
    if shape in ("box", "round", "ellipse", "circle", "diamond"):
        return shape, iou
    box_iou = mask_iou(face.filled, ideal_mask("box", face.w, face.h))
    if iou - box_iou < PLAIN_MARGIN:
        return "round", box_iou
    return shape, iou


def _holes(ink: np.ndarray, gap: int, min_side: float) -> list[tuple[int, int, int, int, np.ndarray]]:
    """Enclosed holes of the ink once gaps up to ``2·gap`` px are closed: (x, y, w, h, filled mask)."""
    closed = close_round(ink.astype(np.uint8), gap)
    contours, hierarchy = cv2.findContours(closed, cv2.RETR_TREE, cv2.CHAIN_APPROX_NONE)
    if hierarchy is None:
        return []
    out = []
    depth = _depths(hierarchy[0])
    for i, c in enumerate(contours):
        if depth[i] % 2 == 0:  # an outer edge of ink, not a hole in it
            continue
        x, y, w, h = cv2.boundingRect(c)
        if w < min_side or h < min_side or cv2.contourArea(c) < 0.3 * w * h:
            continue
        local = np.zeros((h, w), np.uint8)
        cv2.drawContours(local, [c - np.array([x, y])], -1, 1, thickness=cv2.FILLED)
        out.append((x, y, w, h, local.astype(bool)))
    return out


def close_round(mask: np.ndarray, radius: int) -> np.ndarray:
    """``cv2.morphologyEx(mask, MORPH_CLOSE, ellipse)`` with OpenCV's elliptical kernel ``2·radius+1`` wide
    (uint8 0/1 in and out): the same pixels. A large kernel is taken as the union of the rectangles
    its rows make (rows as wide or wider span a band of rows: one rectangle per distinct width), each a
    separable dilation; the erosion is the dilation of the complement (OpenCV pads the erosion with
    ink, the complement's dilation with paper). OpenCV's elliptical kernel visits every one of its
    points for every pixel: the outline search on a 15 MP page (radius 39) closed in 1.29 CPU-s,
    its 24 rectangles in 0.81; the rectangles dilated in a chain (:func:`_dilate_rects`) close a
    2.7 MP page at radius 39 in 66 ms (207 one by one), at 16 in 28 (60 as OpenCV's ellipse), at 10
    in 23 (27), under it no faster. A tall page is closed in bands of :data:`CLOSE_BAND` rows, each
    with the ``2·radius`` rows on either side that reach it (the dilation ``radius``, the erosion
    ``radius`` more): the same pixels, each pass over a band the cache holds, not over the page
    (a 3136×4984 Mermaid page at radius 39: 0.82 -> 0.37 CPU-s; at 20 0.48 -> 0.17)."""
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
    if radius < ROUND_RECTS_FROM:
        return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, k)
    rects = _kernel_rects(k)
    H, reach = mask.shape[0], 2 * radius
    out = np.empty_like(mask)
    for y0 in range(0, H, CLOSE_BAND):
        y1 = min(H, y0 + CLOSE_BAND)
        a, b = max(0, y0 - reach), min(H, y1 + reach)
        grown = _dilate_rects(np.ascontiguousarray(mask[a:b]), rects)
        out[y0:y1] = (1 - _dilate_rects(1 - grown, rects))[y0 - a:y1 - a]
    return out


ROUND_RECTS_FROM = 10  # kernels at least this radius are closed as rectangles (see close_round)
CLOSE_BAND = 128  # rows closed at once (see close_round): 64 and 256 were slower on the Mermaid page


def _kernel_rects(k: np.ndarray) -> list[tuple[int, int]]:
    """(half width, half height) of rectangles centred on a symmetric kernel whose rows are runs
    centred on its middle column (OpenCV's ellipse), their union the kernel."""
    c = k.shape[0] // 2
    half = [int(np.flatnonzero(row).max()) - c if row.any() else -1 for row in k]
    return [(a, max(abs(i - c) for i, h in enumerate(half) if h >= a)) for a in sorted({h for h in half if h >= 0})]


def _dilate_rects(mask: np.ndarray, rects: list[tuple[int, int]]) -> np.ndarray:
    """The mask dilated by the union of the rectangles ``rects`` ((half width, half height), widths
    ascending, heights descending: :func:`_kernel_rects`), each rectangle's dilation grown from the
    last's, not made afresh: the rows' dilation by width ``a`` is the last width's dilated by the
    difference, and, heights falling, the union so far is dilated down and up by the drop in
    height before the next rectangle's rows join it (a segment's dilation by ``p`` then ``q`` is its
    dilation by ``p + q``, and dilation spreads over a union), the last height last. A pass per
    rectangle and direction with a kernel of the step, not of the rectangle (OpenCV's border
    leaves no ink past the edge, in one pass or in two)."""
    rows, out = mask, None
    last_a = last_b = 0
    for a, b in rects:
        if a > last_a:
            rows = cv2.dilate(rows, np.ones((1, 2 * (a - last_a) + 1), np.uint8))
        if out is None:
            out = rows.copy()
        else:
            if last_b > b:
                out = cv2.dilate(out, np.ones((2 * (last_b - b) + 1, 1), np.uint8))
            out = cv2.bitwise_or(out, rows, dst=out)
        last_a, last_b = a, b
    assert out is not None, "an elliptical kernel has a middle row"
    return cv2.dilate(out, np.ones((2 * last_b + 1, 1), np.uint8)) if last_b else out


def _bridge_ends(ink: np.ndarray, reach: float) -> np.ndarray:
    """The ink with a stroke drawn from every stroke end to its two nearest within ``reach`` px:
    where the pen lifted before an outline was closed (two, as a line's end often lies nearer
    to one end of a node's gap than the gap's other end does)."""
    skel = skeleton(ink)
    count = cv2.filter2D(skel.astype(np.uint8), -1, np.ones((3, 3), np.float32), borderType=cv2.BORDER_CONSTANT)
    ys, xs = np.nonzero(skel & (count == 2))  # the pixel and one neighbour: a stroke's end
    if len(xs) < 2 or len(xs) > MAX_ENDS:
        return ink
    pts = np.stack([xs, ys], axis=1).astype(np.float32)
    d = np.linalg.norm(pts[:, None, :] - pts[None, :, :], axis=2)
    np.fill_diagonal(d, np.inf)
    out = ink.astype(np.uint8)
    for i, row in enumerate(d):
        for j in np.argsort(row)[:2].tolist():
            if 3.0 < row[j] <= reach and (i < j or d[j].argsort()[:2].tolist().count(i) == 0):
                cv2.line(out, (int(xs[i]), int(ys[i])), (int(xs[j]), int(ys[j])), 1, thickness=2)
    return out.astype(bool)


def _depths(hier: np.ndarray) -> list[int]:
    """Nesting depth of every contour of a RETR_TREE hierarchy (0: outermost)."""
    depth = [-1] * len(hier)
    for i in range(len(hier)):
        chain, j = [], i
        while j >= 0 and depth[j] < 0:
            chain.append(j)
            j = int(hier[j][3])
        d = depth[j] if j >= 0 else -1
        for k in reversed(chain):
            d += 1
            depth[k] = d
    return depth


def _contour(mask: np.ndarray) -> np.ndarray:
    cs, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return max(cs, key=cv2.contourArea)


def _clean_shape(face: Face, shape: str, iou: float, ink: np.ndarray, scale: float,
                 fill: tuple[int, int, int] | None = None) -> DetectedShape:
    """The outline redrawn cleanly: its sides where the hole's edges lie on average (not where the
    wobble reaches farthest), half the pencil stroke out, in the theme's stroke and its own fill
    (None: the theme's)."""
    fill = fill or _rgb(THEME.node_fill)
    stroke_px = _stroke_width(face, ink)
    x0, y0, x1, y1 = _robust_edges(face.filled, shape)
    grow = stroke_px / 2.0 + 0.5
    x, y = face.x + x0 - grow, face.y + y0 - grow
    w, h = (x1 - x0) + 2 * grow, (y1 - y0) + 2 * grow
    # the face takes in the wobbling pencil of its outline (so it is the node's, not a line), and
    # no paper beyond it: a line's end is cut back only as far as from a typeset node
    reach = int(math.ceil(stroke_px + 4))
    H, W = ink.shape
    pad = np.pad(face.filled, reach)
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    grown = cv2.dilate(pad.astype(np.uint8), k).astype(bool)
    fx, fy = face.x - reach, face.y - reach
    local = np.zeros_like(grown)
    ys0, xs0 = max(0, fy), max(0, fx)
    ys1, xs1 = min(H, fy + grown.shape[0]), min(W, fx + grown.shape[1])
    local[ys0 - fy:ys1 - fy, xs0 - fx:xs1 - fx] = ink[ys0:ys1, xs0:xs1]
    grown &= local | cv2.dilate(pad.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    big = Face(paint=face.paint, x=fx, y=fy, w=grown.shape[1], h=grown.shape[0], mask=grown, filled=grown, soft=True)
    return DetectedShape(shape=shape, x=float(x), y=float(y), w=float(w), h=float(h),
                         fill=fill, stroke=_rgb(THEME.node_stroke),
                         stroke_px=THEME.stroke_width / scale, iou=iou, face=big, outside_share=1.0)


def _in_own_colours(made: DetectedShape, face: Face, rgb: np.ndarray, ink: np.ndarray,
                    paints: Paints) -> DetectedShape:
    """A shape sketched on dark paper (Excalidraw's dark export) in its own colours: the theme's pale node
    fill and dark stroke drew each such box as a white card with a grey rim on the black page, its light
    label hardly readable on it (a dark Kurtosis scene's ten cross-hatched boxes). An unfilled hole takes
    the paper's colour, the outline the median colour of the ink around the hole."""
    if tuple(made.fill) == _rgb(THEME.node_fill):
        made.fill = tuple(int(round(v)) for v in paints.background_rgb)
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * RING_PX + 1, 2 * RING_PX + 1))
    pad = np.pad(face.filled.astype(np.uint8), RING_PX)
    ring = cv2.dilate(pad, k).astype(bool) & ~pad.astype(bool)
    x0, y0 = face.x - RING_PX, face.y - RING_PX
    H, W = ink.shape
    ys, xs = np.nonzero(ring)
    ys, xs = ys + y0, xs + x0
    on = (ys >= 0) & (ys < H) & (xs >= 0) & (xs < W)
    ys, xs = ys[on], xs[on]
    drawn = ink[ys, xs]
    if drawn.sum() >= RING_PX * 4:
        med = np.median(rgb[ys[drawn], xs[drawn]].reshape(-1, 3), axis=0)
        made.stroke = (int(med[0]), int(med[1]), int(med[2]))
    return made


def _fill(rgb: np.ndarray, face: Face, paints: Paints) -> tuple[int, int, int] | None:
    """A hole's own colour where it is filled (not the paper), else None."""
    px = rgb[face.y:face.y + face.h, face.x:face.x + face.w][face.filled]
    if px.size == 0:
        return None
    med = np.median(px.reshape(-1, 3), axis=0)
    if float(distances(med[None, :], paints.background_rgb)[0]) <= 2 * INK_CONTRAST / 3:
        return None
    return int(med[0]), int(med[1]), int(med[2])


def _robust_edges(m: np.ndarray, shape: str) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of a hole, in its mask's pixels: for straight-sided shapes the
    median edge over the middle of each side, else the extremes."""
    h, w = m.shape
    if shape not in ("box", "round", "parallelogram", "document") or h < 6 or w < 6:
        return 0.0, 0.0, float(w), float(h)
    rows = m[int(0.25 * h):int(0.75 * h) + 1]
    cols = m[:, int(0.25 * w):int(0.75 * w) + 1]
    rows = rows[rows.any(axis=1)]
    cols = cols[:, cols.any(axis=0)]
    if len(rows) == 0 or cols.shape[1] == 0:
        return 0.0, 0.0, float(w), float(h)
    left = float(np.median(rows.argmax(axis=1)))
    right = float(np.median(w - rows[:, ::-1].argmax(axis=1)))
    top = float(np.median(cols.argmax(axis=0)))
    bottom = float(np.median(h - cols[::-1].argmax(axis=0)))
    if shape == "parallelogram":  # its slanted sides: keep the extremes across
        left, right = 0.0, float(w)
    return left, top, right, bottom


def _stroke_width(face: Face, ink: np.ndarray) -> float:
    """Pencil width in px: ink in a band around the hole per pixel of its perimeter."""
    H, W = ink.shape
    band = 6
    x0, y0 = max(0, face.x - band), max(0, face.y - band)
    x1, y1 = min(W, face.x + face.w + band), min(H, face.y + face.h + band)
    local = np.zeros((y1 - y0, x1 - x0), np.uint8)
    local[face.y - y0:face.y - y0 + face.h, face.x - x0:face.x - x0 + face.w] = face.filled
    ring = cv2.dilate(local, np.ones((2 * band + 1, 2 * band + 1), np.uint8)).astype(bool) & ~local.astype(bool)
    perim = max(1.0, float(cv2.arcLength(_contour(face.filled), True)))
    return float(np.clip(ink[y0:y1, x0:x1][ring].sum() / perim, 1.0, 6.0))


def _box_iou(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    ix = max(0.0, min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = a[2] * a[3] + b[2] * b[3] - inter
    return inter / union if union > 0 else 0.0


def _drop_doubles(shapes: list[DetectedShape]) -> list[DetectedShape]:
    """Of two outlines around the same place (a doubled rough stroke), the outer one."""
    order = sorted(shapes, key=lambda s: -s.w * s.h)
    kept: list[DetectedShape] = []
    for s in order:
        if not any(_box_iou((s.x, s.y, s.w, s.h), (t.x, t.y, t.w, t.h)) > 0.7 for t in kept):
            kept.append(s)
    return kept


def _dash_style(hole: Face, near: np.ndarray) -> str:
    """solid or dashed: the share of a hole's edge with pencil beside it (``near``: the ink, grown)."""
    H, W = near.shape
    c = _contour(hole.filled)[:, 0, :]
    xs = np.clip(c[:, 0] + hole.x, 0, W - 1)
    ys = np.clip(c[:, 1] + hole.y, 0, H - 1)
    inked = float(near[ys, xs].mean()) if len(xs) else 1.0
    return "solid" if inked >= SOLID_SHARE else "dashed"


def _rgb(hex_color: str) -> tuple[int, int, int]:
    h = hex_color.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)
