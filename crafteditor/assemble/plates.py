"""Edge labels on plates: a label set on a filled, unoutlined plate over its edge (Mermaid's
flowcharts, state and class diagrams; dagre-d3 and draw.io's label backgrounds) cuts the edge in
two, each part ending on the plate's border. Read as a node, the plate split one edge into two
edges through a node named like the label ('Admin' → 'database error' → 'Stock'). A plate is no
node: an unoutlined box tight around one line of text (or a long label wrapped over two or three),
with exactly two line ends on its border, on opposite sides (or a curve bending under it, or a step
curve turning its corner there); the two lines are joined through it into one (the head of each kept
at its far end) and its text is left free, to label the joined edge. A plate only one line ends on,
headless there, with ink running on past it to a node a few label heights away (the short stub and
head of a README column's 1x links) is no node either: its text is left free and the line is carried
on past it to that node (:func:`_cut_short`, as :func:`crafteditor.assemble.label_cuts.through_labels` carries a
line past a bare label)."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from crafteditor.assemble.geometry import box_distance, dist_to_polyline, unit
from crafteditor.assemble.label_cuts import carried_past
from crafteditor.lines.paths import Arrowhead, LinePath, direction_out
from crafteditor.ocr.runs import TextRun
from crafteditor.paint import color_distance
from crafteditor.shapes.detect import DetectedShape, keep_shapes

Box = tuple[float, float, float, float]  # x, y, w, h, image pixels
TIGHT = 2.4  # a plate is at most this many times its text's font height tall (a node has room around its name)
MAX_LINES = 3  # a wrapped label's plate holds at most this many lines (a block of text is a node)
TIGHT_OUTLINED = 1.8  # an outlined one, at most this many (a node's outline sits farther out)
# an antialiased rim is at most this wide, px (read 1.0-1.1 around a dark plate); a drawn light outline
# around a dark fill is wider (2 px and more) and makes the box a node, however tight
RIM_PX = 1.5
SEEN_THROUGH_PX = 0.5  # an 'outline' thinner than this is no drawn one (a node's 1 px outline reads 1 px and more)
RIM_HEAD = 2.0  # a 'head' on a plate this many times the figure's usual head is the plate's rim
RIM_SMALLER = 0.75  # a 'head' on a plate at most this share of its line's head at the far end is the plate's rim
STRAIGHT_ON = 0.97  # cosine between two line pieces' ways that run straight on from one into the other
# a curve bending under a plate: its way in and way out at most ~80° apart, each within ~70° of the gap
BEND_TURN, BEND_GAP, BEND_SPAN = 0.2, 0.35, 12.0
CORNER_SINE = 0.5  # a step curve's corner under a plate: its way in and way out at least 30° off straight
DARK_PAGE = 3 * 60  # a page darker than this (its channels' sum) is a dark theme's
UNREAD_WIDE = 6.0  # an unread label's plate is at most this many font heights wide (a short label: 'yes', 'no')
UNREAD_INK = (0.04, 0.5)  # the share of an unread plate's inside its glyphs ink: some, not most
PARALLEL = 0.9  # cosine between a scrap and the line it lies on, traced twice (within ~25°)


def carry_plates(shapes: list[DetectedShape], runs: list[TextRun], lines: list[LinePath],
                 keep_too: set[int] = frozenset(),  # type: ignore[assignment]
                 background: tuple[int, int, int] | None = None,
                 rgb: np.ndarray | None = None) -> tuple[list[DetectedShape], list[LinePath], list[int]]:
    """(``shapes`` without the edge-label plates, ``lines`` with the two parts of each plate's edge
    joined, the indices of the shapes kept); ``keep_too``: shapes never taken for plates (a
    sequence's participants); ``background``: the page's colour (a dark plate's rim fades into it);
    ``rgb``: the image, where a plate cutting its line short is looked for (:func:`_cut_short`).
    A bare label (a text no shape holds) that cuts a line in two is joined across the same way."""
    lines = list(lines)
    drop: set[int] = set()
    rim = rim_head_length(lines)
    # an ER diagram's cardinality rings first: the line runs on through them to the label's plate
    for i, s in enumerate(shapes):
        if i not in keep_too and _ring_mark(s, runs) and join_across(lines, (s.x, s.y, s.w, s.h), mark=True):
            drop.add(i)
    for i, s in enumerate(shapes):
        if i in keep_too or not _plate_like(s, shapes, runs, background):
            continue
        box = (s.x, s.y, s.w, s.h)
        if join_across(lines, box, rim=rim) or (s.is_group and _through(lines, box)) or _arrow_glyph_after(s, runs, lines) \
                or _cut_short(s, shapes, runs, lines, rgb, background):
            drop.add(i)
    font = float(np.median([r.font_px for r in runs if r.angle == 0])) if any(r.angle == 0 for r in runs) else 0.0
    for i, s in enumerate(shapes):
        if i not in drop and i not in keep_too and _unread_plate(s, runs, font, background, rgb) \
                and join_across(lines, (s.x, s.y, s.w, s.h), rim=rim, unread=True):
            drop.add(i)
    held = [r for r in runs if any(t.contains_point(r.cx, r.cy) for k, t in enumerate(shapes) if k not in drop)]
    for r in runs:
        if r.angle == 0 and r not in held:
            pad = 0.3 * r.h
            join_across(lines, (r.x - pad, r.y - pad, r.w + 2 * pad, r.h + 2 * pad), rim=rim, plate=False)
    lines = [ln for ln in lines if ln is not None]
    keep = [i for i in range(len(shapes)) if i not in drop]
    return keep_shapes(shapes, keep), lines, keep


def join_across(lines: list[LinePath | None], box: Box, mark: bool = False, rim: float = math.inf,
                 plate: bool = True, unread: bool = False) -> bool:
    """Join the two lines that end on ``box``'s border on opposite sides, neither with a head there
    (``lines[k]`` of the second becomes None); whether they were. ``mark``: the box is a cardinality
    ring, where the scraps of the marks beside it are no lines and a 'head' read there is the crow's foot;
    ``rim``: a 'head' on the box this long or longer is a piece of the plate's rim (:func:`rim_head_length`);
    ``plate``: the box is a drawn plate, not a bare label's (only a plate has a rim to leave a small 'head':
    a bare label between two arrows keeps the head of the arrow into it, :func:`_rim_beside_head`);
    ``unread``: a plate whose words went unread (:func:`_unread_plate`): its glyphs, traced with the line's
    ends, bend them, so two ends on it are joined wherever on it they come in."""
    # a plate's halo may cut its line short by a few more pixels (less a ring's: the marks crowd it)
    extra = 0.0 if mark else 0.3 * box[3]
    ends = _ends_at(lines, box, extra)
    both = {k for k, e in ends if e == 1 and (k, 0) in ends}
    if mark:  # a scrap with both ends at the ring is a piece of the marks
        ends = [(k, e) for k, e in ends if k not in both and lines[k].length > _reach(lines[k])]
    elif both:  # a scrap lying on the plate, both ends on it: a piece of its rim or text, no line
        # (a short line piece between the plate and a node near it has its far end off the plate)
        ends = [(k, e) for k, e in ends if k not in both
                or max(box_distance(p, box) for p in lines[k].points) > 0.25 * box[3] + lines[k].width + 2]
        # a short piece between the plate and a node close by reaches it with its nearer end only
        ends = [(k, e) for k, e in ends if k not in both or (k, 1 - e) not in ends or box_distance(
            lines[k].points[-e], box) <= box_distance(lines[k].points[e - 1], box)]
    if not mark and plate and len(ends) > 2:
        # a scrap traced twice is dropped whole: drawn by the line it lies on, and left as a line of its own
        # its end at the label made the label the target of a free line, no label of its edge
        twice = {k for k, _ in ends if _along_another(lines, k, [j for j, _ in ends])}
        for k in twice:
            lines[k] = None
        ends = [(k, e) for k, e in ends if k not in twice]
    if len(ends) == 2:
        return ends[0][0] != ends[1][0] and _join_pair(lines, ends[0], ends[1], box, mark, rim, plate, unread)
    if not mark and plate and len(ends) == 3:
        return _join_past_scrap(lines, ends, box, rim)
    if mark or len(ends) not in (4, 6):
        return False
    # lines crossing under one plate (or a label set where two edges pass): each end joined to the
    # one across the plate it runs on into best, best first
    pairs = _aligned_pairs(lines, ends)
    done: set[tuple[int, int]] = set()
    joined = False
    for cost, a, b in pairs:
        if cost > 0.5 or a in done or b in done or lines[a[0]] is None or lines[b[0]] is None:
            continue
        if _join_pair(lines, a, b, box, mark, rim, plate):
            done |= {a, b}
            joined = True
    return joined


def _along_another(lines: list[LinePath | None], k: int, others: list[int]) -> bool:
    """Whether line ``k`` is a scrap lying on the course of a longer line of ``others``: a dotted curve
    traced twice where it leaves a plate (mermaid-wild's 'parse' on a dark page: a 25 px piece on the curve
    from 'Rule', a third end at the plate, and the link stayed split in two at a node 'parse')."""
    ln = lines[k]
    tol = 2 * ln.width + 2
    way = unit(ln.points[0], ln.points[-1])
    if way is None:
        return False
    mid = ((ln.points[0][0] + ln.points[-1][0]) / 2, (ln.points[0][1] + ln.points[-1][1]) / 2)
    for j in set(others) - {k}:
        pts = lines[j].points
        if lines[j].length <= ln.length or len(pts) < 2 or any(dist_to_polyline(p, pts) > tol for p in ln.points):
            continue
        # running the same way as the stretch beside it (a cross end's stroke lies across its line's stub)
        a, b = min(zip(pts, pts[1:]), key=lambda seg: dist_to_polyline(mid, list(seg)))
        there = unit(a, b)
        if there is not None and abs(way[0] * there[0] + way[1] * there[1]) >= PARALLEL:
            return True
    return False


def _join_past_scrap(lines: list[LinePath | None], ends: list[tuple[int, int]], box: Box, rim: float) -> bool:
    """Join the two best-aligned of three line ends on a plate when the third is a scrap no longer than the
    plate is tall: a cross end's stroke (Mermaid's ``--x``: its '×' beside the label, past the stub to the node,
    read as a line of its own: 'route router model' stayed a node between its link's halves)."""
    pairs = _aligned_pairs(lines, ends)
    for cost, a, b in pairs:
        rest = next((k for k, _ in ends if k not in (a[0], b[0])), None)
        if cost > 0.5 or rest is None or lines[rest].length > box[3]:
            continue
        return _join_pair(lines, a, b, box, False, rim, True)
    return False


def _join_pair(lines: list[LinePath | None], end_a: tuple[int, int], end_b: tuple[int, int], box: Box, mark: bool,
               rim: float = math.inf, plate: bool = True, unread: bool = False) -> bool:
    (ka, ea), (kb, eb) = end_a, end_b
    a = lines[ka] if ea == 1 else lines[ka].reversed()  # a ends on the plate
    b = lines[kb] if eb == 0 else lines[kb].reversed()  # b starts on it
    far = (a.head_start, b.head_end)  # the joined edge's own heads, at its ends away from the plate
    if not mark and (_rim_piece(a.head_end, box, rim) or plate and _rim_beside_head(a.head_end, far, box)):
        a = replace(a, head_end=None)
    if not mark and (_rim_piece(b.head_start, box, rim) or plate and _rim_beside_head(b.head_start, far, box)):
        b = replace(b, head_start=None)
    if mark:
        a, b = replace(a, head_end=None), replace(b, head_start=None)
    if plate and not mark:
        # a piece with a head at each end: the one at the plate is its rim (a link's heads are at its nodes;
        # mermaid-wild's 'policy' before a circle end, '--o', whose small ring no 'head' on the rim is smaller than)
        if a.head_start is not None and a.head_end is not None:
            a = replace(a, head_end=None)
        if b.head_start is not None and b.head_end is not None:
            b = replace(b, head_start=None)
    if not mark and _end_to_end(a, b):
        # the plate's rounded rim, white on the dark page, nicks the line and reads as heads there
        a, b = replace(a, head_end=None), replace(b, head_start=None)
    elif a.head_end is not None or b.head_start is not None or not (
            unread or _across(a.points[-1], b.points[0], box) or _bends_under(a.points, b.points)
            or plate and _turns_under(a.points, b.points, box)):
        return False
    style = a.style if a.style != "solid" else b.style
    lines[ka] = replace(a, points=a.points + b.points, head_end=b.head_end, style=style,
                        pieces=a.pieces + b.pieces, ink=a.ink + b.ink, open_ends=[a.open_ends[0], b.open_ends[1]])
    lines[kb] = None
    return True


def rim_head_length(lines: list[LinePath]) -> float:
    """The length from which a 'head' where a line meets a label's plate is a piece of the plate's rim, not a
    head: twice the figure's usual head (the median of at least three). A dark theme's grey plate has a light
    rim; where its text is erased with the plate, the rim's side is left on the line's end and read as a head
    twice the size of the figure's own (daedalus' 'make run GOAL=...': a 19 px 'head', its arrows' 7 px),
    and the edge stopped at the label, split in two."""
    sizes = [h.length for ln in lines for h in (ln.head_start, ln.head_end) if h is not None]
    return RIM_HEAD * float(np.median(sizes)) if len(sizes) >= 3 else math.inf


def _rim_piece(h: Arrowhead | None, box: Box, rim: float) -> bool:
    """Whether head ``h`` is rim-sized (:func:`rim_head_length`) and its pixels lie on the plate's side."""
    if h is None or h.length < rim:
        return False
    x0, y0, x1, y1 = h.mask_box
    x, y, w, h_ = box
    return x0 <= x + w + 2 and x1 >= x - 2 and y0 <= y + h_ + 2 and y1 >= y - 2


def _rim_beside_head(h: Arrowhead | None, far: tuple[Arrowhead | None, ...], box: Box) -> bool:
    """Whether head ``h``, on the plate's side, is the plate's rim: the edge joined through the plate has a
    head at a far end (``far``), and ``h`` is clearly smaller than it, shorter or narrower. A dark theme's grey
    plate on a light page (a transparent export) leaves its light rim's corner on a link's end, read as a head
    smaller than the figure's own ('check admin' -> a state 48 px on: a 16 px 'head' at the plate, the real
    26 px one at the state; 'import': a 10 px one where the curve comes in), and the edge stopped at its
    label; on a dark page its grey plate's side left a sliver as long as a head and half as wide ('parse
    message': 7 by 4 px, the real head 8 by 8)."""
    real = [f for f in far if f is not None]
    if h is None or not real:
        return False
    big = max(real, key=lambda f: f.length)
    return (h.length <= RIM_SMALLER * big.length or h.width <= RIM_SMALLER * big.width) and _rim_piece(h, box, 0.0)


def _end_to_end(a: LinePath, b: LinePath) -> bool:
    """Whether b runs straight on from a's end across a gap of a pixel or two: a light plate on a dark
    page (a network's port labels, 'e1-1' on its link) was traced as the line's own ink, so the line
    runs on over the plate and is only nicked at its rim, both pieces' ends on one side of the text,
    each read as a head."""
    if len(a.points) < 2 or len(b.points) < 2 or math.dist(a.points[-1], b.points[0]) > 2 * max(a.width, b.width) + 2:
        return False
    da, db = unit(a.points[-2], a.points[-1]), unit(b.points[0], b.points[1])
    return da is not None and db is not None and da[0] * db[0] + da[1] * db[1] >= STRAIGHT_ON


def _bends_under(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> bool:
    """Whether a curve ending at ``a[-1]`` runs on as the one starting at ``b[0]``, bending under the plate
    by less than a right angle: Mermaid's basis curves set a label on the curve's middle point, often where
    it turns (daedalus' 'make run GOAL=...': in at the plate's right side, out at its bottom), so the two
    ends lie on adjacent sides, not opposite ones. Each way points along the gap from one end to the other."""
    into, out_of = direction_out(a, False, BEND_SPAN), direction_out(b, True, BEND_SPAN)
    gap = unit(a[-1], b[0])
    if into is None or out_of is None or gap is None:
        return False
    on = (-out_of[0], -out_of[1])  # b's way on, away from the plate
    return (into[0] * on[0] + into[1] * on[1] >= BEND_TURN and into[0] * gap[0] + into[1] * gap[1] >= BEND_GAP
            and on[0] * gap[0] + on[1] * gap[1] >= BEND_GAP)


def _turns_under(a: list[tuple[float, float]], b: list[tuple[float, float]], box: Box) -> bool:
    """Whether a line ending at ``a[-1]`` turns a corner under the plate into the one starting at ``b[0]``:
    Mermaid's step curves (``step``, ``stepBefore``, ``stepAfter``) set a link's label on a corner of the
    link, so the way in and the way out meet at right angles under the label, on adjacent sides of its plate
    (mermaid-wild's 'test' under 'Retry storage done': in at the left, out at the bottom, read as two edges
    to a node 'test'). The two ways, run on from the ends, cross under the plate. A drawn plate's only: two
    lines meeting at right angles at a bare text are two edges of a text node (TikZ's unboxed nodes: one
    thermodynamics diagram lost its nodes so)."""
    into, out_of = direction_out(a, False, BEND_SPAN), direction_out(b, True, BEND_SPAN)
    if into is None or out_of is None:
        return False
    cross = into[0] * out_of[1] - into[1] * out_of[0]
    if abs(cross) < CORNER_SINE:
        return False
    p, q = a[-1], b[0]
    # p + s·into = q + t·out_of, both s and t ahead of the ends
    dx, dy = q[0] - p[0], q[1] - p[1]
    s = (dx * out_of[1] - dy * out_of[0]) / cross
    t = (dx * into[1] - dy * into[0]) / cross
    x, y, w, h = box
    cx, cy = p[0] + s * into[0], p[1] + s * into[1]
    slack = 0.25 * min(w, h)
    return s > 0 and t > 0 and x - slack <= cx <= x + w + slack and y - slack <= cy <= y + h + slack


def _aligned_pairs(lines: list[LinePath], ends) -> list:
    """Every two ends of different lines, (misalignment, end, end), best aligned first (:func:`_misalign`)."""
    return sorted((_misalign(lines, a, b), a, b) for i, a in enumerate(ends) for b in ends[i + 1:] if a[0] != b[0])


def _misalign(lines: list[LinePath | None], end_a: tuple[int, int], end_b: tuple[int, int]) -> float:
    """How far line a's way into its end and line b's way out of its start stray from the gap between them
    (0: one straight run; 2: back the way it came)."""
    pa = lines[end_a[0]].points if end_a[1] == 1 else lines[end_a[0]].points[::-1]
    pb = lines[end_b[0]].points if end_b[1] == 0 else lines[end_b[0]].points[::-1]
    if len(pa) < 2 or len(pb) < 2:
        return 2.0
    gap = unit(pa[-1], pb[0])
    da, db = unit(pa[-2], pa[-1]), unit(pb[0], pb[1])
    if gap is None or da is None or db is None:
        return 2.0
    return max(1 - (da[0] * gap[0] + da[1] * gap[1]), 1 - (db[0] * gap[0] + db[1] * gap[1]))


def _through(lines: list[LinePath | None], box: Box) -> bool:
    """A line runs on through the box's middle, none ends on it (the tracer took the line whole)."""
    x, y, w, h = box
    mid = (x + w / 2, y + h / 2)
    if any(box_distance(p, box) <= _reach(ln) for ln in lines if ln is not None for p in (ln.points[0], ln.points[-1])):
        return False
    return any(dist_to_polyline(mid, ln.points) <= 0.5 * h for ln in lines if ln is not None)


def _ends_at(lines: list[LinePath | None], box: Box, extra: float) -> list[tuple[int, int]]:
    """(line index, 0 start / 1 end) of each line end within its reach (and ``extra``) of ``box``."""
    return [(k, e) for k, ln in enumerate(lines) if ln is not None
            for e, p in ((0, ln.points[0]), (1, ln.points[-1])) if box_distance(p, box) <= _reach(ln) + extra]


def _reach(ln: LinePath) -> float:
    """How far from a plate's border a line's end may stop (its stroke's antialiased rim and the plate's halo)."""
    return 2 * ln.width + 8


def _plate_like(s: DetectedShape, shapes: list[DetectedShape], runs: list[TextRun],
                background: tuple[int, int, int] | None = None) -> bool:
    """A filled box around one line of text it is tight around (taken for a frame: nothing else in it),
    unoutlined, or an outlined pill tighter still (draw.io's port labels on a network's links: a node
    has room around its name)."""
    # outlined: only a pill (draw.io's port labels; an outlined box that tight is a small node,
    # ViT-Mixer's 'MLP 2' boxes between their lines)
    outlined = _outlined(s, background)
    # unoutlined: a box, a 'cylinder' (a dark theme's plate with its dotted line's stubs above and
    # below), a 'hexagon' (a plate whose link's tapered ends, left and right, read as its points), a
    # 'parallelogram' or a 'document' (a plate whose link comes in at one corner, slanting or bending
    # it: 'address record' at 1x, a dark theme's 'parse message' with its dotted link at its foot)
    if s.shape not in (("box", "round", "cylinder", "hexagon", "parallelogram", "document") if not outlined
                       else ("ellipse",)) \
            or s.dividers or (s.is_group and s.members):
        return False
    # a frame read around a node (a thick outline's outer ring, its fill the node) holds a shape: no plate
    if any(t is not s and not t.is_group and s.x - 2 <= t.x and s.y - 2 <= t.y and t.x + t.w <= s.x + s.w + 2
           and t.y + t.h <= s.y + s.h + 2 for t in shapes):
        return False
    held = [r for r in runs if r.angle == 0 and s.contains_point(r.cx, r.cy)]
    if not held:
        return False
    top, bottom = min(r.y for r in held), max(r.y + r.h for r in held)
    font = max(max(r.font_px, r.h) for r in held)
    width = max(r.x + r.w for r in held) - min(r.x for r in held)
    if width < 0.6 * s.w:
        return False
    if bottom - top <= 1.3 * font:  # one line
        return s.h <= (TIGHT if not outlined else TIGHT_OUTLINED) * font
    # a long label wrapped over two or three lines (Mermaid wraps at about 200 px: 'clone + submit /
    # OrchestratorWorkflow'), unoutlined: as tight around its block of text as a one-line plate is
    # around its line (a node's name has room around it: Mermaid's padding is a line's height and more)
    mids = sorted(r.y + r.h / 2 for r in held)
    lines = 1 + sum(b - a > 0.6 * font for a, b in zip(mids, mids[1:]))
    return not outlined and lines <= MAX_LINES and bottom - top <= MAX_LINES * 1.5 * font \
        and s.h <= bottom - top + (TIGHT - 1) * font


def _outlined(s: DetectedShape, background: tuple[int, int, int] | None) -> bool:
    """Whether a plate has an outline drawn: an 'outline' under half a pixel wide is the link itself, seen
    through a translucent plate at its two sides (Mermaid 9's grey label plates at 1x, 'False' read as a node
    between its link's halves); a thin one may be only its fill's antialiased rim (:func:`_rim`)."""
    return s.stroke is not None and s.stroke_px >= SEEN_THROUGH_PX and not (
        background is not None and s.stroke_px <= RIM_PX and _rim(s.fill, s.stroke, background))


def _rim(fill, stroke, background: tuple[int, int, int]) -> bool:
    """Whether an 'outline' is only the antialiased rim of a dark fill against a light page: a
    colour between the two (a dark theme's grey label plate on a white page read with a light
    outline, and taken for a node: G_daedalus_state-machine's 'next task' split its self-loop in two);
    or of a lighter fill on a dark page (GitHub's dark page: Mermaid's grey plate read with a 0.6-0.8 px
    outline darker than itself, mermaid-looks' 'email' a node between its link's halves)."""
    background = tuple(int(v) for v in background)  # type: ignore[assignment]  # (uint8 sums wrap)
    dark_page = sum(background) < DARK_PAGE
    if fill is None or (sum(fill) > 0.5 * sum(background) and not (dark_page and sum(fill) > sum(background))):
        return False  # (a light theme's filled boxes without outlines are nodes: TikZ's 'layer 1')
    to_bg, fill_bg = color_distance(stroke, background), color_distance(fill, background)
    return to_bg < fill_bg and color_distance(fill, stroke) + to_bg <= 1.15 * fill_bg


def _unread_plate(s: DetectedShape, runs: list[TextRun], font: float, background: tuple[int, int, int] | None,
                  rgb: np.ndarray | None) -> bool:
    """A label's plate whose words were not read: an unoutlined box no taller than a label's plate is
    around a line of the figure's text (``font``: its runs' median font height) and no wider than a short
    label's, holding nothing but glyph ink (a part of its inside, under half, unlike its fill). Mermaid's
    'yes'/'no' on a decision's links, dark on a light grey plate at 2x or light on a dark theme's grey
    one, went unread; the plate, holding only ink, was taken for an unnamed frame, and both halves of
    each link ended on it (mermaid-versions: cluster-api's 'Is the MD/MP pinned?', k8s community's
    'Is the zero value a valid user choice?'). Left alone here, it is joined across as a read one is."""
    if rgb is None or font <= 0 or s.fill is None or s.shape not in ("box", "round") or s.dividers \
            or (s.is_group and s.members):
        return False  # (a plate with no fill has no glyph ink to tell from it)
    if _outlined(s, background) or not (0.8 * font <= s.h <= TIGHT * font and s.w <= UNREAD_WIDE * font) \
            or any(s.contains_point(r.cx, r.cy) for r in runs):
        return False
    inset = max(2, int(round(0.15 * s.h)))
    x0, y0, x1, y1 = int(s.x) + inset, int(s.y) + inset, int(s.x + s.w) - inset, int(s.y + s.h) - inset
    if x1 - x0 < 3 or y1 - y0 < 3:
        return False
    inside = rgb[y0:y1, x0:x1].astype(np.float32)
    ink = float((np.abs(inside - np.asarray(s.fill, np.float32)).sum(axis=2) > 90).mean())
    return UNREAD_INK[0] <= ink <= UNREAD_INK[1]


def arrow_glyph_last(r: TextRun) -> bool:
    """A label read with an arrow glyph at its end (''route stock load→''): the stub and head after it."""
    return r.text.rstrip().endswith(("→", "->"))


def _arrow_glyph_after(s: DetectedShape, runs: list[TextRun], lines: list[LinePath | None]) -> bool:
    """The plate's label read with an arrow glyph at its end (''route stock load→''): the short stub and
    head between a label and the node it points at (Mermaid's LR layouts) were read as the glyph, so only
    the line into the plate ends on it. Left as text, the line's end under it is carried on to the node
    beyond, its head found there (:func:`crafteditor.assemble.edges._end_past_text`)."""
    held = [r for r in runs if r.angle == 0 and s.contains_point(r.cx, r.cy)]
    if len(held) != 1 or not arrow_glyph_last(held[0]):
        return False
    return len(_ends_at(lines, (s.x, s.y, s.w, s.h), 0.3 * s.h)) == 1


def _cut_short(s: DetectedShape, shapes: list[DetectedShape], runs: list[TextRun], lines: list[LinePath | None],
               rgb: np.ndarray | None, background: tuple[int, int, int] | None) -> bool:
    """Whether the plate cuts its one line short, and if so that line carried on past it: a single line end
    on it, headless, and ink running on past it along the line's course to a node near
    (:func:`~crafteditor.assemble.label_cuts.carried_past`, the plate's width standing for its label's,
    whose first or last letter may be unread). At 1x in a README column a link's label plate leaves a
    stub of a few pixels, its head or circle end fused with the node's outline, too short to be traced as
    a line: the link ended at the plate, read as a node named like the label ('ession' between 'Merge
    worker' and 'Schema manager')."""
    if rgb is None or background is None:
        return False
    ends = _ends_at(lines, (s.x, s.y, s.w, s.h), 0.3 * s.h)
    if len(ends) != 1:
        return False
    k, e = ends[0]
    ln = lines[k]
    held = [replace(r, x=s.x, w=s.w) for r in runs if r.angle == 0 and s.contains_point(r.cx, r.cy)]
    if (ln.head_start if e == 0 else ln.head_end) is not None or len(ln.points) < 2 or len(held) != 1:
        return False
    nodes = [t for t in shapes if t is not s and not t.is_group]
    found = carried_past(ln.points, e == 0, ln.width, nodes, held, rgb, np.asarray(background, np.float32))
    if found is None:
        return False
    end, head = found
    lines[k] = replace(ln, points=[end, *ln.points], head_start=head) if e == 0 else \
        replace(ln, points=[*ln.points, end], head_end=head)
    return True


def _ring_mark(s: DetectedShape, runs: list[TextRun]) -> bool:
    """A small hollow ring with nothing in it, no bigger than the text around: a crow's-foot
    notation's 'zero' mark on its relationship line, not a node."""
    if s.is_group or s.shape != "circle" or s.stroke is None or any(s.contains_point(r.cx, r.cy) for r in runs):
        return False
    font = float(np.median([r.font_px for r in runs])) if runs else 16.0
    return max(s.w, s.h) <= 1.2 * font and color_distance(s.fill, s.stroke) > 60


def _across(p: tuple[float, float], q: tuple[float, float], box: Box) -> bool:
    """p and q on opposite sides of the plate: the way from one to the other runs through its middle,
    or from above its top to below its bottom (or from its left to its right): a curve crosses a
    wide label off its middle (Mermaid's neutral theme sets the label on the curve's middle point)."""
    x, y, w, h = box
    cx, cy = x + w / 2, y + h / 2
    u, v = (p[0] - cx, p[1] - cy), (q[0] - cx, q[1] - cy)
    nu, nv = math.hypot(*u), math.hypot(*v)
    if nu > 0 and nv > 0 and (u[0] * v[0] + u[1] * v[1]) / (nu * nv) < -0.15:
        return True
    (ay, by), (ax, bx) = sorted((p[1], q[1])), sorted((p[0], q[0]))
    slack = 0.25 * min(w, h)
    inside_x, inside_y = x <= p[0] <= x + w and x <= q[0] <= x + w, y <= p[1] <= y + h and y <= q[1] <= y + h
    return (inside_x and ay <= y + slack and by >= y + h - slack) or (inside_y and ax <= x + slack and bx >= x + w - slack)


