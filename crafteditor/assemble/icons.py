"""Captioned icons: a pictogram with its name set under it (a cloud service's logo over
'Azure Cosmos DB', a monitor over 'Web Client'), the nodes of an architecture diagram.

No shape stage sees them (an icon is many small strokes in several colours, traced as paths or
kept as a picture) and the caption came back as free text, so such a figure had no node at all
(issue 31: 0 of 16 in one drawio architecture). The IR has no node whose shape is a picture;
the icon stays as it was traced and a node without fill or outline spans it and its caption,
its label the caption, set in the caption's place (the slots of a class box's label, see
:func:`crafteditor.assemble.nodes.slotted_label`): an edge to the icon ends at that node, and
the caption is a node label an editor moves with it.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from crafteditor.assemble.builder import FigureBuilder
from crafteditor.config import THEME
from crafteditor.lines.paths import LinePath, path_length
from crafteditor.ocr.runs import TextRun
from crafteditor.paint import to_hex
from crafteditor.shapes.detect import DetectedShape
from crafteditor.shapes.faces import Face
from crafteditor.trace import TracedObject, ink_picture
from crafter.render.shapes import round_rect_d
from crafter.spec.model import Path

GAP_EMS = 1.3  # the icon's bottom at most this many of the caption's font sizes above it
MIN_EMS, MAX_EMS = 2.5, 9.0  # an icon's height in the caption's font sizes (smaller: a glyph, larger: a picture)
MAX_ASPECT = 3.0  # an icon is roughly square (a wide strip over a word is a bar, a rule)
SIDE_GAP_EMS = 1.5  # a caption over or under a shape at most this many font sizes from it ...
NEAR_GAP_EMS = 1.0  # ... and farther than this only with no shape as near on its other side (an edge's label between two)
WIDEST_CAPTION = 4.0  # a caption line at most this many times as wide as its icon (wider: an edge's label)
SURE = 0.85  # a caption is read at least this surely (a window icon's three dots read '0 0 0' at 0.77)
CENTRED = 0.35  # the icon's and caption's centres at most this share of the wider apart
JOIN_EMS = 1.0  # pieces of one icon lie at most this many font sizes apart
STRAY = 0.25  # a piece that would stretch an icon too far, at most this share of its area so far: left out
MIN_OUTSIDE = 10.0  # px of a line outside an icon's box for it to be a line to the icon
PAGE_TOL = 12  # an icon's pixel within this of the page's colour (each channel) is no ink: clear in its picture


def captioned_icons(b: FigureBuilder, runs: list[TextRun], shapes: list[DetectedShape], used: set[int],
                    traced: list[TracedObject]) -> list[tuple[DetectedShape, list[int], DetectedShape]]:
    """Each icon with a caption under it, as (an unfilled, unstroked box over both, in image
    pixels; the caption's run indices, top to bottom; the box of the icon as drawn, where lines
    to it end: :func:`end_at_icons`); the runs are marked used."""
    s = b.s
    boxes = [(o.box[0] / s, o.box[1] / s, (o.box[0] + o.box[2]) / s, (o.box[1] + o.box[3]) / s) for o in traced]
    # a monitor's screen, a bin's body: a shape with no text of its own is a piece of an icon too
    nodes: list[DetectedShape] = []
    for sh in shapes:
        if sh.is_group:
            continue
        if any(sh.contains_point(r.cx, r.cy) for r in runs):
            nodes.append(sh)
        else:
            boxes.append((sh.x, sh.y, sh.x + sh.w, sh.y + sh.h))
    taken: set[int] = set()
    out = []
    for k in sorted(_free_runs(runs, used), key=lambda k: runs[k].y):
        if k in used:
            continue
        r = runs[k]
        if any(sh.contains_point(r.cx, r.cy) for sh in nodes):
            continue
        icon = _icon_over(r, boxes, taken)
        if icon is None:
            continue
        x0, y0, x1, y1, members = icon
        g = 0.8 * r.font_px
        if any(sh.x - g < x1 and x0 < sh.x + sh.w + g and sh.y - g < y1 and y0 < sh.y + sh.h + g for sh in nodes):
            continue  # in a node, or touching one (the end of an arrow into it, traced): not free-standing
        caption = _caption_lines(k, runs, used)
        if max(runs[j].w for j in caption) > WIDEST_CAPTION * (x1 - x0):
            continue  # a label along a line under an end state's disc, not its name
        taken |= members
        used.update(caption)
        node, drawn = captioned_box(b, (x0, y0, x1, y1), [runs[j] for j in caption])
        out.append((node, caption, drawn))
    return out


def captioned_box(b: FigureBuilder, drawn: tuple[float, float, float, float], cap: list[TextRun]
                  ) -> tuple[DetectedShape, DetectedShape]:
    """(the node of a drawing ``drawn`` (x0, y0, x1, y1, image pixels) captioned by ``cap``: an unfilled,
    unstroked box over both, centred on the caption and wide enough for it; the box of the drawing)."""
    x0, y0, x1, y1 = drawn
    cx = float(np.mean([q.cx for q in cap]))
    pad = THEME.node_pad_x / b.s + 2
    half = max(cx - x0, x1 - cx, max(q.w for q in cap) / 2 + pad)
    bottom = max(q.bottom for q in cap) + 2
    top = min(y0, min(q.y for q in cap)) - 2
    return _box_shape(b, cx - half, top, 2 * half, bottom - top), _box_shape(b, x0, y0, x1 - x0, y1 - y0)


def end_at_icons(lines: list[LinePath], nodes: list[DetectedShape], icons: list[DetectedShape]
                 ) -> tuple[list[LinePath], list[LinePath]]:
    """(the lines, those from outside an icon that end inside its drawn box cut where they enter
    it; the icons' own strokes: lines with both ends at one icon, and the pieces cut off).

    A connector is drawn to an icon's edge and its arrowhead, or a ring round the logo, overlaps
    the picture, so the traced line ended some pixels inside it, too far from any outline for an
    edge to join it (issue 31: drawio's 'Settings API' to 'Settings DB', 'API' to 'Gateway API');
    cut at the icon's side, it ends on the outline of ``icons`` (:func:`captioned_icons`' third
    part, handed to the edges as a stand-in for the icon's node). A line with both ends at one
    icon, or in its node (``nodes``, the same order), is one of its strokes, drawn as it was traced
    and joining nothing (as an edge from the icon to itself it was a loop)."""
    out: list[LinePath] = []
    strokes: list[LinePath] = []
    for ln in lines:
        m = 3 * ln.width + 6  # an edge's reach to an outline
        if any(_inside(ln.start, t, m) and _inside(ln.end, t, m) for t in icons) or any(
                _inside(ln.start, n) and _inside(ln.end, n) for n in nodes):
            strokes.append(ln)
            continue
        for j in (0, 1):
            pts = ln.points if j == 0 else ln.points[::-1]
            ic = next((t for t in icons if _inside(pts[0], t)), None)
            if ic is None:
                continue
            k = next((i for i, p in enumerate(pts) if not _inside(p, ic)), None)
            if k is None:  # wholly inside this icon (and another overlapping it): no line to cut
                continue
            at = _entry(pts[k], pts[k - 1], ic)
            cut = [at, *pts[k:]]
            if path_length(cut) < MIN_OUTSIDE:
                continue  # a stroke of the icon poking out of its box, not a line to it
            inner = [*pts[:k], at]
            if path_length(inner) > 3:  # drawn still, as the icon's
                strokes.append(replace(ln, points=inner if j == 0 else inner[::-1], head_start=None, head_end=None))
            ln = replace(ln, points=cut if j == 0 else cut[::-1])
        out.append(ln)
    return out, strokes


def _inside(p: tuple[float, float], s: DetectedShape, margin: float = 0.0) -> bool:
    return s.x - margin < p[0] < s.x + s.w + margin and s.y - margin < p[1] < s.y + s.h + margin


def _entry(a: tuple[float, float], c: tuple[float, float], s: DetectedShape) -> tuple[float, float]:
    """Where the segment from ``a`` (outside box ``s``) to ``c`` (inside) enters it: the last of
    its entries into the box's two slabs."""
    t = 0.0
    for v0, v1, lo, hi in ((a[0], c[0], s.x, s.x + s.w), (a[1], c[1], s.y, s.y + s.h)):
        if v0 <= lo < v1:
            t = max(t, (lo - v0) / (v1 - v0))
        elif v1 < hi <= v0:
            t = max(t, (hi - v0) / (v1 - v0))
    return a[0] + t * (c[0] - a[0]), a[1] + t * (c[1] - a[1])


def caption_shapes(b: FigureBuilder, runs: list[TextRun], shapes: list[DetectedShape], labels: dict[int, list[int]],
                   used: set[int]) -> set[int]:
    """Shapes with no text inside whose caption is set just under or over them (a router's
    disc over 'Router', a switch's dark tile under 'spine1'): the caption becomes the label (in
    ``labels``, its runs marked used); the indices of the shapes so labelled. A frame around
    nothing but a drawing and empty shapes (a tile holding a pictogram) counts: so captioned,
    it is a node."""
    out: set[int] = set()
    free = _free_runs(runs, used)
    if not free:
        return out
    holders = [sh for sh in shapes if not sh.is_group]
    inside = [any(sh.contains_point(runs[k].cx, runs[k].cy) for sh in holders) for k in range(len(runs))]
    claims: list[tuple[float, int, int]] = []  # (gap in ems, shape, run)
    for i, sh in enumerate(shapes):
        if labels.get(i) or any(sh.contains_point(r.cx, r.cy) for r in runs):
            continue
        for k in free:
            r = runs[k]
            em = max(r.font_px, 1.0)
            if inside[k] or sh.h < MIN_EMS * em or sh.h > 3 * MAX_EMS * em:
                continue
            # a caption lies within its shape's width, or ends at a corner of it (drawio's label
            # 'top left' of a tile)
            if r.right < sh.x - em or r.x > sh.x + sh.w + em:
                continue
            if r.w + 2 * THEME.node_pad_x / b.s > sh.w:
                continue  # the renderer would break it at the shape's width (an icon's node spans it: captioned_icons)
            gap = r.y - (sh.y + sh.h) if r.cy > sh.y + sh.h else sh.y - r.bottom
            if -0.2 * em <= gap <= NEAR_GAP_EMS * em or (
                    NEAR_GAP_EMS * em < gap <= SIDE_GAP_EMS * em and not _faced(r, sh, holders, SIDE_GAP_EMS * em)):
                claims.append((gap / em, i, k))
    for _, i, k in sorted(claims):
        if i in out or k in used:
            continue
        below = runs[k].cy > shapes[i].y + shapes[i].h
        lines = _caption_lines(k, runs, used) if below else [k]
        used.update(lines)
        labels[i] = lines
        out.add(i)
    return out


def _faced(r: TextRun, sh: DetectedShape, holders: list[DetectedShape], reach: float) -> bool:
    """Whether another shape than ``sh`` faces run ``r`` from its other side, within ``reach`` px and
    overlapping it across: text set between two shapes (a state machine's 'From ASG' between two
    states, on the line that joins them) is the line's label, not the caption of either."""
    below = r.cy > sh.y + sh.h
    for o in holders:
        if o is sh or o.x > r.right or o.x + o.w < r.x:
            continue
        gap = o.y - r.bottom if below else r.y - (o.y + o.h)
        if -0.2 * r.font_px <= gap <= reach:
            return True
    return False


def named_tiles(runs: list[TextRun], shapes: list[DetectedShape], labels: dict[int, list[int]], used: set[int],
                lines: list[LinePath]) -> set[int]:
    """Frames around nothing but a drawing and one block of text (a service's tile: its logo over
    its name), no line inside: nodes whose label is that text, in place (``labels``, runs marked
    used). The shape stage makes a box holding a drawing a frame; one with a name is a node."""
    out: set[int] = set()
    for i, sh in enumerate(shapes):
        if not sh.is_group or sh.members or labels.get(i):
            continue
        inside = [k for k in range(len(runs)) if sh.contains_point(runs[k].cx, runs[k].cy)]
        if not inside or any(k in used for k in inside) or any(runs[k].angle != 0 for k in inside):
            continue
        top = min(inside, key=lambda k: (runs[k].y, runs[k].x))
        block = _caption_lines(top, runs, used)
        if sorted(block) != sorted(inside):
            continue  # more than one name: a frame around labelled parts
        if any(_joins_inside(sh, ln) for ln in lines):
            continue  # lines into it or across it: a frame around a drawing of parts
        labels[i] = block
        used.update(block)
        out.add(i)
    return out


def _joins_inside(sh: DetectedShape, ln: LinePath) -> bool:
    """Whether a line reaches into the frame from outside, or runs inside it longer than an icon's
    strokes (half its smaller side: a lightning bolt's zigzag was read as short lines)."""
    inside = [sh.contains_point(x, y, margin=-4) for x, y in ln.points]
    if not any(inside):
        return False
    return not all(inside) or ln.length > 0.5 * min(sh.w, sh.h)


def backdrop(b: FigureBuilder, s: DetectedShape) -> Path:
    """A tile's fill as a path under everything drawn in it (nodes are drawn over paths: a
    filled node over its traced pictogram hid it); the node itself is then left unfilled."""
    box = b.box(s.x, s.y, s.w, s.h)
    x, y, w, h = box.x, box.y, box.w, box.h
    r = round(min(THEME.corner_radius, w / 2, h / 2), 2) if s.shape == "round" else 0.0
    if s.shape in ("ellipse", "circle"):  # a disc's fill under its pictogram (a router's arrows)
        rx, ry, cy = round(w / 2, 2), round(h / 2, 2), round(y + h / 2, 2)
        d = f"M{x} {cy} A{rx} {ry} 0 1 0 {round(x + w, 2)} {cy} A{rx} {ry} 0 1 0 {x} {cy} Z"
    elif r <= 0:
        d = f"M{x} {y} H{round(x + w, 2)} V{round(y + h, 2)} H{x} Z"
    else:  # the renderer's own rounded corners
        d = round_rect_d(x, y, w, h, r)
    return Path(kind="path", id=b.new_id("p"), d=d, fill=to_hex(s.fill))


def holds_pictogram(b: FigureBuilder, s: DetectedShape, traced: list[TracedObject]) -> bool:
    """Whether a box, rounded box or disc holds a traced drawing (a logo over its name): its fill is
    then drawn under the drawing (:func:`backdrop`), as nodes are drawn over paths."""
    if s.is_group or s.shape not in ("box", "round", "ellipse", "circle") or s.dividers:
        return False
    x0, y0, x1, y1 = s.x * b.s, s.y * b.s, (s.x + s.w) * b.s, (s.y + s.h) * b.s
    return any(x0 <= o.box[0] and o.box[0] + o.box[2] <= x1 and y0 <= o.box[1] and o.box[1] + o.box[3] <= y1
               for o in traced)


def _free_runs(runs: list[TextRun], used: set[int]) -> list[int]:
    """The runs a caption may be: not used, level, read surely."""
    return [k for k in range(len(runs)) if k not in used and runs[k].angle == 0 and runs[k].confidence >= SURE]


def _icon_over(r: TextRun, boxes: list[tuple[float, float, float, float]], taken: set[int]
               ) -> tuple[float, float, float, float, set[int]] | None:
    """The traced pieces right above run ``r`` that make one icon centred on it: (box, pieces)."""
    em = max(r.font_px, 1.0)

    def above(b: tuple[float, float, float, float]) -> bool:
        return r.y - GAP_EMS * em <= b[3] <= r.y + 0.25 * em and b[1] < r.y - 0.5 * em

    seeds = [i for i, bx in enumerate(boxes) if i not in taken and above(bx) and bx[0] <= r.right and bx[2] >= r.x]
    if not seeds:
        return None
    seed = min(seeds, key=lambda i: (r.y - boxes[i][3], abs((boxes[i][0] + boxes[i][2]) / 2 - r.cx)))
    x0, y0, x1, y1 = boxes[seed]
    members = {seed}
    stray: set[int] = set()
    grew = True
    while grew:  # the icon's other pieces: traced apart where its colours or strokes part
        grew = False
        for i, bx in enumerate(boxes):
            if i in members or i in taken or i in stray or bx[3] > r.y + 0.25 * em:
                continue
            g = JOIN_EMS * em
            if bx[0] <= x1 + g and bx[2] >= x0 - g and bx[1] <= y1 + g and bx[3] >= y0 - g:
                nx0, ny0, nx1, ny1 = min(x0, bx[0]), min(y0, bx[1]), max(x1, bx[2]), max(y1, bx[3])
                if max(nx1 - nx0, ny1 - ny0) > MAX_EMS * em:
                    if max(bx[2] - bx[0], bx[3] - bx[1]) > MAX_EMS * em and not (
                            bx[0] <= (x0 + x1) / 2 <= bx[2] and bx[1] <= (y0 + y1) / 2 <= bx[3]):
                        # larger than any icon and not around this one: lines traced as one blob running
                        # by (draw.io's fan of slanted connectors into a column of boxes, each named under
                        # it: the icon joined the fan and no box was named, issue 31)
                        stray.add(i)
                        continue
                    # a small piece beside it: an arrowhead traced by itself at the icon's edge
                    # (drawio's 'Gateway API', its connectors' heads on its ring), left out
                    if (bx[2] - bx[0]) * (bx[3] - bx[1]) <= STRAY * (x1 - x0) * (y1 - y0):
                        stray.add(i)
                        continue
                    return None  # joined to more than an icon: a drawing, not a pictogram
                x0, y0, x1, y1 = nx0, ny0, nx1, ny1
                members.add(i)
                grew = True
    w, h = x1 - x0, y1 - y0
    if not MIN_EMS * em <= h <= MAX_EMS * em or w > MAX_EMS * em or max(w / h, h / max(w, 1.0)) > MAX_ASPECT:
        return None
    if abs((x0 + x1) / 2 - r.cx) > CENTRED * max(w, r.w):
        return None
    return x0, y0, x1, y1, members


def _caption_lines(k: int, runs: list[TextRun], used: set[int]) -> list[int]:
    """Run ``k`` and the lines set under it, centred on it, one line apart ('GitHub Actions'
    over '[CI/CD]')."""
    out = [k]
    while True:
        last = runs[out[-1]]
        em = max(last.font_px, 1.0)
        nxt = [j for j, q in enumerate(runs) if j not in used and j not in out and q.angle == 0
               and -0.2 * em <= q.y - last.bottom <= 0.8 * em and abs(q.cx - last.cx) <= 0.25 * max(q.w, last.w)
               and 0.6 <= q.font_px / em <= 1.6 and (q.source == "det" or len(q.text.strip()) > 1)]
        if not nxt:
            return out
        out.append(min(nxt, key=lambda j: runs[j].y))


def _box_shape(b: FigureBuilder, x: float, y: float, w: float, h: float) -> DetectedShape:
    """An unstroked box (image pixels) the edges can end at, like a detected node's."""
    iw, ih = max(1, int(round(w))), max(1, int(round(h)))
    full = np.ones((ih, iw), bool)
    face = Face(paint=-1, x=int(round(x)), y=int(round(y)), w=iw, h=ih, mask=full, filled=full)
    bg = tuple(int(v) for v in b.paints.background_rgb)
    return DetectedShape(shape="box", x=x, y=y, w=w, h=h, fill=bg, stroke=None, stroke_px=0.0, iou=1.0, face=face)


def icon_pictures(b: FigureBuilder, icons: list[DetectedShape], traced: list[TracedObject]
                  ) -> tuple[list[TracedObject], list[DetectedShape]]:
    """(the leftovers, each captioned icon's traced pieces replaced by one picture of it; the icons so kept).

    A cloud service's logo, a monitor, GitHub's cat over its name is a picture in the figure (draw.io
    draws it from an image or a stencil): traced, it came back as several path blobs where its colours or
    strokes part, some taken as shapes or lines, and no picture (issue 31: 8 of 16 icons of an Azure
    architecture kept, the rest traced; the drawio test figures kept 0.34 of their pictures). Each icon
    ``icons`` (:func:`captioned_icons`' drawn boxes) holding a traced piece is kept as the image of its
    drawn box, only its own ink opaque (what lies under it shows), its traced pieces dropped."""
    rgb, s = b.image.rgb, b.s
    H, W = rgb.shape[:2]
    left, kept, pictures = list(traced), [], []
    for ic in icons:
        x0, y0 = max(0, int(np.floor(ic.x)) - 1), max(0, int(np.floor(ic.y)) - 1)
        x1, y1 = min(W, int(np.ceil(ic.x + ic.w)) + 1), min(H, int(np.ceil(ic.y + ic.h)) + 1)
        if x1 - x0 < 4 or y1 - y0 < 4:
            continue
        inside = [o for o in left if x0 * s - 1 <= o.box[0] and o.box[0] + o.box[2] <= x1 * s + 1
                  and y0 * s - 1 <= o.box[1] and o.box[1] + o.box[3] <= y1 * s + 1]
        if not inside:
            continue  # drawn by the shape stage alone (a plain disc): kept as shapes
        gone = {id(q) for q in inside}
        left = [o for o in left if id(o) not in gone]
        pictures.append(ink_picture(rgb, (x0, y0, x1, y1), b.paints.background_rgb, s, PAGE_TOL))
        kept.append(ic)
    return [*left, *pictures], kept


def within(p: tuple[float, float], boxes: list[DetectedShape], margin: float = 2.0) -> bool:
    """Whether point ``p`` lies in one of ``boxes`` (grown by ``margin``)."""
    return any(_inside(p, t, margin) for t in boxes)
