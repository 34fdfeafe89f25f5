"""Edges: a line whose two ends touch two parts (nodes, groups, free labels) joins them by id,
so it re-routes when a box moves; free text hugging it becomes its label. A line that joins
nothing stays a free path (:func:`crafteditor.assemble.leftovers.free_line`)."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import cv2
import numpy as np

from crafteditor.assemble.builder import FigureBuilder
from crafteditor.assemble.bundles import one_per_bundle
from crafteditor.assemble.geometry import (
    axis_aligned,
    dist_to_polyline,
    dist_to_shape,
    frame_distance,
    outside_distance,
    ray_box,
    run_across,
    straighten,
)
from crafteditor.assemble.head_sizes import closed_back, head_size, share_head_sizes
from crafteditor.assemble.hollow import MAX_HALF, hollow_heads, hollow_tips
from crafteditor.assemble.joins import bridge_gaps, extend_at_junctions, join_grazed_corners, split_bus_crossings
from crafteditor.assemble.label_cuts import through_labels
from crafteditor.assemble.labels_on_edges import wrapped_label
from crafteditor.assemble.leftovers import free_line
from crafteditor.assemble.nodes import chain_links
from crafteditor.assemble.plates import arrow_glyph_last
from crafteditor.assemble.sequences import Sequence, explained
from crafteditor.config import THEME
from crafteditor.lines.paths import LinePath
from crafteditor.ocr.runs import TextRun
from crafteditor.shapes.detect import DetectedShape
from crafter.base.text import text_width
from crafter.spec.model import Box, Edge

LOST_HEAD_WIDTHS = 2.0  # a dotted link's end this many stroke widths (+2) short of the node it enters had a head there
# a link's end may stop this many times its node's name's height short of the name, where the node's box
# was not read (Mermaid's node padding is about a line's height; a basis curve's end stops short of the box too)
PADDING_REACH = 2.0
SURE_MESSAGES = 2  # a sequence with this many messages draws the lines it leaves as traced, no edges


def edge_components(b: FigureBuilder, lines: list[LinePath], shapes: list[DetectedShape], node_ids: dict[int, str],
                    runs: list[TextRun], free: list[int], used: set[int],
                    titles: list[TextRun] = (),  # type: ignore[assignment]
                    deadline: float | None = None, seq: Sequence | None = None) -> tuple[list[Any], dict[int, str]]:
    """(edges and free paths, the ids edges give the free texts they point at, by run).

    ``free``: the runs no chart, node or group took; ``used``: the runs taken (edge labels
    are added to it); ``titles``: the groups' labels; ``seq``: a sequence diagram's lifelines
    and messages (the traced lines they explain are drawn from them instead)."""
    out: list[Any] = []
    text_targets: dict[int, str] = {}
    edges: list[tuple[Edge, LinePath]] = []
    if seq is not None:
        out.extend(_sequence_parts(b, seq, node_ids, edges))
        # what the lifelines and messages leave (a frame's or note's border, an activation bar, a hand-drawn
        # stroke's wobble, a label's underline) joins no two participants: drawn as traced, no edge (the
        # generic pass had joined them to the nearest label or box: 20-30 false messages in a napkin-style figure)
        # (a sequence of one message is no sure one: a column of boxes fed by lines reads as two lifelines
        # and a message; its other lines go on to the generic pass, as they did before)
        unexplained = [ln for ln in lines if not explained(ln, seq)]
        if len(seq.messages) >= SURE_MESSAGES:
            for ln in unexplained:
                out.extend(free_line(b, ln, ln.points))
            unexplained = []
        lines = unexplained
    loose = [runs[k] for k in free if k not in used]  # text no node or group has taken
    # a line crossing a group's title is cut by the title's erasure as by a loose label's
    # (a JPEG's wider erasure ring cut distributed_training's 'Data shard 0' edge there)
    lines = bridge_gaps(lines, [s for s in shapes if s.is_group],
                        [r for r in (*loose, *titles) if r.angle == 0], deadline=deadline,
                        page=b.paints.background_rgb)
    lines = join_grazed_corners(lines, shapes)
    lines = through_labels(lines, shapes, loose, b.image.rgb, np.asarray(b.paints.background_rgb, np.float32))
    lines = extend_at_junctions(hollow_heads(lines), shapes, deadline=deadline)
    lines = split_bus_crossings(lines, shapes)
    lines = _split_fans(lines, shapes)
    bg = np.asarray(b.paints.background_rgb, np.float32)
    courses = [o.points for o in lines]  # every line's points as read, for :func:`_text_ahead`
    for i, ln in enumerate(lines):
        tol = 3 * ln.width + 6
        ln = hollow_tips(ln, b.image.rgb, bg, lambda p, q: _node_ahead(b, p, q, shapes, extra=3 * MAX_HALF),
                         lambda p, tol=tol: _attach(p, shapes, tol) is not None)
        ends, pts, erased_head = _line_ends(b, ln, shapes, [*titles, *loose], tol)
        head_start = ln.head_start is not None or erased_head[0]
        head_end = ln.head_end is not None or erased_head[1]
        kinds = [_head_kind(h, runs, ln.width) if h is not None else "arrow" if erased else "none"
                 for h, erased in zip((ln.head_start, ln.head_end), erased_head)]
        # an arrowhead only at the start: flip so the head is at the target end
        if head_start and not head_end:
            pts.reverse()
            ends.reverse()
            kinds.reverse()
        ids = _end_ids(b, pts, ends, node_ids, runs, free, used, tol, text_targets, courses, i)
        # a line with no head, or twin heads at both ends (Mermaid's <-->, by its main axis: a layout's
        # ranks run down or across), reads in reading order (traced, it ran from whichever end came first)
        if kinds[0] == kinds[1] and (kinds[0] == "none" or _twin_heads(ln)) and _reads_backwards(
                pts, 0.25 if kinds[0] == "none" else 1.0):
            pts.reverse()
            ends.reverse()
            ids.reverse()
        pts = _snap_ends(pts, [shapes[e] if e is not None else None for e in ends])
        pts = straighten(pts, 1.6)
        loop = ids[0] == ids[1] and ends[0] is not None and _self_loop(pts, kinds, shapes[ends[0]], tol)
        if ids[0] is None or ids[1] is None or (ids[0] == ids[1] and not loop):
            out.extend(free_line(b, ln, pts))
            continue
        edges.append((_edge(b, ln, pts, ids, kinds), ln))
    edges = _off_math_labels(b, edges, runs, text_targets, set(node_ids.values()), out)
    _label_edges(b, edges, runs, free, used, text_targets)
    if seq is None:  # parallel strands between two boxes: one link, the rest drawn as they are (bundles.py)
        edges, strands = one_per_bundle(edges, b.s, tuple(int(c) for c in b.paints.background_rgb))
        for e, ln in strands:
            out.extend(free_line(b, ln, [(p.x / b.s, p.y / b.s) for p in e.route or []]))
    share_head_sizes([e for e, _ in edges])
    out.extend(e for e, _ in edges)
    return out, text_targets


def _off_math_labels(b: FigureBuilder, edges: list[tuple[Edge, LinePath]], runs: list[TextRun],
                     text_targets: dict[int, str], nodes: set[str], out: list[Any]) -> list[tuple[Edge, LinePath]]:
    """``edges`` less those from a drawn node (its id in ``nodes``) to a math label
    (:attr:`~crafteditor.ocr.runs.TextRun.math_label`) no chain runs through
    (:func:`~crafteditor.assemble.nodes.chain_links`), or back: drawn as free lines into ``out``, the label
    left free (taken off ``text_targets``) where no edge ends at it any more, to label an edge beside it or
    stand as text. A variable's name at the end of a wire out of a node (d2l's LSTM C_t after the '+', its
    tanh's branch fanning in to that wire) names the wire: the edges to it were false ones. Between two
    labels (a commutative diagram's bare terms, janosh's thermo-ensemble-trafos) the arrow is the diagram's."""
    links = chain_links(b, runs, text_targets, [e for e, _ in edges])
    named = {cid for k, cid in text_targets.items() if runs[k].math_label and k not in links}
    if not named:
        return edges
    kept = []
    for e, ln in edges:
        if (e.source in named and e.target in nodes) or (e.target in named and e.source in nodes):
            out.extend(free_line(b, ln, [(p.x / b.s, p.y / b.s) for p in e.route or []]))
        else:
            kept.append((e, ln))
    ends = {cid for e, _ in kept for cid in (e.source, e.target)}
    for k in [k for k, cid in text_targets.items() if cid in named and cid not in ends]:
        del text_targets[k]
    return kept


def _sequence_parts(b: FigureBuilder, seq: Sequence, node_ids: dict[int, str],
                    edges: list[tuple[Edge, LinePath]]) -> list[Any]:
    """A sequence diagram's messages as edges between their participants (added to ``edges``,
    to be labelled), and its lifelines as free paths: a lifeline is a participant's time axis, no
    message, even where it joins the box to its repeat at the foot (read as an edge X-X, it was a
    false message in every mermaid, websequencediagrams and PlantUML figure that repeats its boxes)."""
    out: list[Any] = []
    for lf in seq.lifelines:
        pts = [(lf.x, lf.y0), (lf.x, lf.y1)]
        out.extend(free_line(b, LinePath(pts, lf.width, lf.color, lf.style), pts))
    for m in seq.messages:
        ln = LinePath(list(m.points), m.width, m.color, m.style)
        ids = [node_ids.get(seq.lifelines[m.source].node), node_ids.get(seq.lifelines[m.target].node)]
        if ids[0] is None or ids[1] is None:
            out.extend(free_line(b, ln, ln.points))
            continue
        kinds = ["arrow" if m.tail else "none", "arrow" if m.head else "none"]
        edges.append((_edge(b, ln, list(m.points), ids, kinds), ln))
    return out


def _split_fans(lines: list[LinePath], shapes: list[DetectedShape]) -> list[LinePath]:
    """Two arrows leaving one node from one point, traced as one line with a head at each end,
    split at the node into the two (castellum's Greenlit → Succeeded and → Failed had read as
    one edge Failed → Succeeded): the line turns on a third node's outline, away from its ends."""
    out = []
    for ln in lines:
        pts = list(ln.points)
        if ln.head_start is None or ln.head_end is None or len(pts) < 3:
            out.append(ln)
            continue
        tol = 3 * ln.width + 6
        ends = {_attach(ln.start, shapes, tol), _attach(ln.end, shapes, tol)}
        at = None
        for k in range(1, len(pts) - 1):
            i = _attach(pts[k], shapes, tol)
            if i is None or shapes[i].is_group or i in ends or min(math.dist(pts[k], pts[0]), math.dist(
                    pts[k], pts[-1])) < 4 * tol:
                continue
            # the branches part there: the course turns by more than 25°
            a = next((q for q in pts[k - 1::-1] if math.dist(q, pts[k]) >= 8), pts[0])
            c = next((q for q in pts[k + 1:] if math.dist(q, pts[k]) >= 8), pts[-1])
            u, v = (pts[k][0] - a[0], pts[k][1] - a[1]), (c[0] - pts[k][0], c[1] - pts[k][1])
            cos = (u[0] * v[0] + u[1] * v[1]) / max(1e-6, math.hypot(*u) * math.hypot(*v))
            if cos < math.cos(math.radians(25)):
                at = k
                break
        if at is None:
            out.append(ln)
            continue
        out.append(replace(ln, points=pts[at::-1], head_start=None, head_end=ln.head_start, open_ends=[False, True]))
        out.append(replace(ln, points=pts[at:], head_start=None, head_end=ln.head_end, open_ends=[False, True]))
    return out


def _self_loop(pts: list[tuple[float, float]], kinds: list[str], s: DetectedShape, tol: float) -> bool:
    """Whether a line from a node back to it is a self-loop (a state machine's transition to
    itself): it has one head (a U of two heads under a box is two arrows into it whose source
    was not read), and goes out and round, well away from the node's outline."""
    if kinds.count("none") != 1 or s.is_group or len(pts) < 2:
        return False
    length = sum(math.dist(p, q) for p, q in zip(pts, pts[1:]))
    away = max(dist_to_shape(p, s) if not s.contains_point(*p) else 0.0 for p in pts)
    return length >= max(3 * tol, 0.3 * min(s.w, s.h)) and away >= max(tol, 0.15 * min(s.w, s.h))


def _twin_heads(ln: LinePath) -> bool:
    """Both of the line's heads found in the image and alike (a two-headed link's are drawn the same;
    a second 'head' unlike the first is a misreading: a blob, an erased label's remains)."""
    a, b = ln.head_start, ln.head_end
    if a is None or b is None or not len(a.pixels) or not len(b.pixels):
        return False
    return min(a.length, b.length) >= 0.75 * max(a.length, b.length) and \
        min(len(a.pixels), len(b.pixels)) >= 0.6 * max(len(a.pixels), len(b.pixels))


def _reads_backwards(pts: list[tuple[float, float]], steep: float = 0.25) -> bool:
    """Whether a line without heads runs against reading order: an undirected line reads from
    left to right, a steep one (run under ``steep`` times its rise: within 14° of vertical) from top to bottom."""
    (x0, y0), (x1, y1) = pts[0], pts[-1]
    if abs(x1 - x0) < steep * abs(y1 - y0):
        return y1 < y0
    return x1 < x0


def _line_ends(b: FigureBuilder, ln: LinePath, shapes: list[DetectedShape], texts: list[TextRun],
               tol: float) -> tuple[list[int | None], list[tuple[float, float]], list[bool]]:
    """(the shapes the line's ends attach to, its points, whether an end's arrowhead was erased
    with text): an end stopped at a frame or at erased text is carried on to the node beyond."""
    ends = [_attach(ln.start, shapes, tol), _attach(ln.end, shapes, tol)]
    pts = list(ln.points)
    erased_head = [False, False]
    heads = (ln.head_start is not None, ln.head_end is not None)
    for j in (0, 1):
        # an arrowhead at a frame points at the frame (random_forest's arrows into its 'Tree'
        # frames had gone on to the root dot inside); a bare end there is a stub cut short
        if ends[j] is not None and shapes[ends[j]].is_group and not heads[j]:
            hit = _node_across_frame(b, pts, j, shapes, ends[j], tol)
            if hit is not None:
                ends[j], q = hit
                pts = [q] + pts if j == 0 else pts + [q]
            elif over := _text_past_frame(pts, j, texts, tol):
                # the frame's title set where the line comes in: its glyphs' erasure cut the line at the
                # frame, the node beyond lies past the title (Mermaid centres a subgraph's title over a
                # link entering from above: p_subg2's Compile -> Unit tests ended on the 'Test' frame)
                found = _end_past_text(b, pts, j, shapes, over, ln.width)
                if found is not None:
                    ends[j], pts, erased_head[j] = found
        elif ends[j] is None and len(pts) >= 2:
            # a line crossing a group's title stops where the title's glyphs were erased
            # (training_loop's Tokenizer → Embedding layer through 'Frozen (no gradients)');
            # one under its own label, where the stub beyond the label was too short to
            # be found (a JPEG's GPU 2 –activations→ GPU 3 had read as 'activations' → GPU 3)
            p = pts[0] if j == 0 else pts[-1]
            over = [r for r in texts if r.contains_point(*p, margin=tol)]
            found = _end_past_text(b, pts, j, shapes, over, ln.width) if over else None
            if found is not None:
                ends[j], pts, erased_head[j] = found
            elif (dotted_from_node := ln.style != "solid" and ends[1 - j] is not None and not heads[j]) or (
                    ln.pieces >= 2 and ln.length <= 4 * tol and all(
                    dist_to_polyline(c, [ln.start, ln.end]) <= 2.0 for c in ln.points)):
                # a short dotted arrow between two boxes: its first dots went with the box's
                # ring, its head into the next box's outline (golang's compile flow); a dotted
                # link from a node whose small head, at 1x, was no head (Mermaid's -.->: a 6 px
                # triangle read as a stroke of its own) stops the head's length short of the node
                # it enters, its head lost (a headless dotted link, -.-, runs on to the outline)
                hit = _node_ahead(b, p, pts[1] if j == 0 else pts[-2], shapes)
                if hit is not None and math.dist(p, hit[1]) <= 2 * tol:
                    ends[j] = hit[0]
                    erased_head[j] = dotted_from_node and math.dist(p, hit[1]) >= LOST_HEAD_WIDTHS * ln.width + 2
                    pts = [hit[1]] + pts if j == 0 else pts + [hit[1]]
    for j in (0, 1):
        if ends[j] is None and len(pts) >= 2 and (heads[0] or heads[1]):
            ends[j] = _short_end(pts, j, shapes, texts, ends[1 - j], heads[j], tol)
    return ends, pts, erased_head


def _text_past_frame(pts: list[tuple[float, float]], j: int, texts: list[TextRun], tol: float) -> list[TextRun]:
    """The texts the line's course, run on from its end ``j`` (0: start) at a frame, meets within one
    text height past the end: a title set across the line's way in."""
    if len(pts) < 2:
        return []
    p, q = (pts[0], pts[1]) if j == 0 else (pts[-1], pts[-2])
    L = math.dist(p, q)
    if L < 1:
        return []
    u = ((p[0] - q[0]) / L, (p[1] - q[1]) / L)
    out = []
    for r in texts:
        if r.angle != 0:
            continue
        steps = np.arange(0.0, r.h + tol, 1.0)
        if any(r.contains_point(p[0] + u[0] * t, p[1] + u[1] * t, margin=1.0) for t in steps):
            out.append(r)
    return out


def _short_end(pts: list[tuple[float, float]], j: int, shapes: list[DetectedShape], texts: list[TextRun],
               other: int | None, head: bool, tol: float) -> int | None:
    """The shape an arrow's end ``j`` (0: start) stops short of: TikZ's arrows end a few points off
    their nodes (random_forest's 11-13 px at 200 dpi, past tol), its course taken 12 px or more
    back. Only for a straight arrow not by text (the text's own rules carry such an end) nor
    running along the shape its other end is on: a bent stroke or one that hugs a shape is likelier
    a piece of a shape's outline (golang's scroll-shaped 'IR' boxes)."""
    p = pts[0] if j == 0 else pts[-1]
    chord = [pts[0], pts[-1]]
    if any(r.contains_point(*p, margin=tol) for r in texts) or any(
            dist_to_polyline(c, chord) > max(3.0, 0.05 * math.dist(*chord)) for c in pts):
        return None  # by text, or bent (a straight arrow's: a bent stroke is likelier a shape's outline)
    if other is not None and sum(dist_to_shape(c, shapes[other]) <= tol for c in _along(pts)) >= 5:
        return None
    body = pts[1:] if j == 0 else pts[-2::-1]
    q = next((pt for pt in body if math.dist(pt, p) >= 12), body[-1])
    return _shape_ahead(p, q, shapes, min((2.0 if head else 1.5) * tol, 20.0))


def _end_past_text(b: FigureBuilder, pts: list[tuple[float, float]], j: int, shapes: list[DetectedShape],
                   over: list[TextRun], width: float) -> tuple[int, list[tuple[float, float]], bool] | None:
    """The line's end ``j`` (0: start) carried through the text ``over`` it onto the node its
    course meets: (that node, the points, whether an arrowhead went with the glyphs)."""
    p, q = (pts[0], pts[1]) if j == 0 else (pts[-1], pts[-2])
    # the course: from the line's body (its last pixels, by the erased glyphs,
    # drift: training_loop's arrow came in slanted by 2.5 px)
    body = pts[1:] if j == 0 else pts[-2::-1]
    q = next((pt for pt in body if math.dist(pt, p) >= 12), q)
    straight = abs(p[0] - q[0]) <= 0.04 * abs(p[1] - q[1]) or abs(p[1] - q[1]) <= 0.04 * abs(
        p[0] - q[0])
    # the course crosses the text first: as far again as it is long (a label read with the arrow
    # after it as a glyph, 'route stock load→', the whole label's length: the line runs on under it)
    hit = _node_ahead(b, p, q, shapes, extra=max(r.w if r.angle != 0 or arrow_glyph_last(r) else r.h for r in over))
    if hit is None:
        return None
    node, tip = hit
    if straight:  # on the body's axis, the drifted end dropped
        vertical = abs(p[0] - q[0]) <= abs(p[1] - q[1])
        tip = (q[0], tip[1]) if vertical else (tip[0], q[1])
        pts = [tip] + pts[1:] if j == 0 else pts[:-1] + [tip]
    else:
        pts = [tip] + pts if j == 0 else pts + [tip]
    # its arrowhead was in the title's box and went with the glyphs
    return node, pts, _head_before(b, tip, p, width)


def _end_ids(b: FigureBuilder, pts: list[tuple[float, float]], ends: list[int | None], node_ids: dict[int, str],
             runs: list[TextRun], free: list[int], used: set[int], tol: float,
             text_targets: dict[int, str], courses: list[list[tuple[float, float]]], own: int) -> list[str | None]:
    """The ids the line's two ends join: their shapes', or a free label's by the end or ahead of it
    (:func:`_text_ahead`; ``courses``: every line's points, this one's at ``own``) (its id is given out here
    and kept in ``text_targets``)."""
    ids = [node_ids.get(e) if e is not None else None for e in ends]
    for j in (0, 1):
        if ids[j] is None:
            # a line ending at a free label points at that label
            k = _near_text(pts[0] if j == 0 else pts[-1], runs, free, used, tol * 1.5)
            if k is None:
                k = _text_ahead(pts, j, runs, free, used, courses[:own] + courses[own + 1:], tol)
            if k is not None:
                cid = text_targets.get(k) or b.new_id("t", runs[k].text)
                text_targets[k] = cid
                ids[j] = cid
    return ids


def _edge(b: FigureBuilder, ln: LinePath, pts: list[tuple[float, float]], ids: list[str | None],
          kinds: list[str]) -> Edge:
    """The edge along ``pts``, with what differs from the theme's edge written down."""
    route = [b.pt(p) for p in pts]
    kw: dict[str, Any] = {}
    if kinds[1] != "arrow":
        kw["head"] = kinds[1]
    if kinds[0] != "none":
        kw["tail"] = kinds[0]
    if ln.style != "solid":
        kw["style"] = ln.style
    color = b.color_or_none(ln.color, THEME.edge_color, 40, thin=True)
    if color:
        kw["color"] = color
    sw = ln.width * b.s
    if abs(sw - THEME.edge_width) > 0.6:
        kw["stroke_width"] = round(sw, 1)
    if not axis_aligned(pts):
        kw["routing"] = "straight"
    size = head_size(ln, b.s, kw.get("stroke_width", THEME.edge_width))
    if size is not None:
        kw["head_size"] = size
    return Edge(kind="edge", id=b.new_id("e"), source=ids[0], target=ids[1], route=route, **kw)


def _label_edges(b: FigureBuilder, edges: list[tuple[Edge, LinePath]], runs: list[TextRun], free: list[int],
                 used: set[int], text_targets: dict[int, str]) -> None:
    """Edge labels: free text hugging a line (a label edges point at stays a text)."""
    for k in free:
        if k in used or k in text_targets:
            continue
        r = runs[k]
        if r.angle != 0:
            continue
        best = None
        for idx, (e, ln) in enumerate(edges):
            d = dist_to_polyline((r.cx, r.cy), ln.points)
            if d <= 1.6 * r.font_px + 0.5 * r.h and (best is None or d < best[0]) and e.label is None:
                best = (d, idx)
        if best is not None:
            e, ln = edges[best[1]]
            block = wrapped_label(k, runs, {j for j in free if j not in used and j not in text_targets},
                                  lambda j, i=best[1]: _nearest_edge(runs[j], edges) == i)
            if len(block) > 1:
                _label_block(b, e, [runs[j] for j in block])
                used.update(block)
                continue
            fs = _label_font(b, e, r.font_px)
            w = text_width(r.shown, fs) + 6
            h = fs * THEME.line_height + 2
            # the renderer centres the label's line on label_box: baseline 0.35 em below the centre
            cx, cy = r.cx * b.s, r.baseline * b.s - 0.35 * fs
            e.label = r.shown
            e.label_box = Box(x=round(cx - w / 2, 2), y=round(cy - h / 2, 2), w=round(w, 2), h=round(h, 2))
            used.add(k)
            b.chars_kept += len(r.text.replace(" ", ""))


def _nearest_edge(r: TextRun, edges: list[tuple[Edge, LinePath]]) -> int:
    """The index of the edge whose line passes nearest the run's middle."""
    return min(range(len(edges)), key=lambda i: dist_to_polyline((r.cx, r.cy), edges[i][1].points))


def _label_font(b: FigureBuilder, e: Edge, font_px: float) -> float:
    """The size of ``e``'s label set at ``font_px``: its own, as nodes keep theirs, set on ``e``;
    the theme's, left unset, within 0.4 px of it."""
    fs = round(font_px * b.s, 1)
    if abs(fs - THEME.small_font_size) <= 0.4:
        return THEME.small_font_size
    e.font_size = fs
    return fs


def _label_block(b: FigureBuilder, e: Edge, lines: list[TextRun]) -> None:
    """Label ``e`` with a label wrapped over ``lines`` (top to bottom), its box around them all."""
    fs = _label_font(b, e, sum(r.font_px for r in lines) / len(lines))
    w = max(text_width(r.shown, fs) for r in lines) + 6
    h = len(lines) * fs * THEME.line_height + 2
    cx = sum(r.cx for r in lines) / len(lines) * b.s
    cy = (lines[0].y + lines[-1].y + lines[-1].h) / 2 * b.s
    e.label = "\n".join(r.shown for r in lines)
    e.label_box = Box(x=round(cx - w / 2, 2), y=round(cy - h / 2, 2), w=round(w, 2), h=round(h, 2))
    b.chars_kept += sum(len(r.text.replace(" ", "")) for r in lines)


def _attach(p: tuple[float, float], shapes: list[DetectedShape], tol: float) -> int | None:
    """The shape whose outline the line end touches (nodes before groups, nearest first)."""
    best = None
    for i, s in enumerate(shapes):
        d = dist_to_shape(p, s)
        if d > tol:
            continue
        # a line inside a group ends at the frame only when it comes from outside
        rank = (1 if s.is_group else 0, d)
        if best is None or rank < best[0]:
            best = (rank, i)
    return None if best is None else best[1]


def _along(pts: list[tuple[float, float]], n: int = 9) -> list[tuple[float, float]]:
    """``n`` points spread over the middle of the polyline (a tenth in from each end)."""
    seg = [math.dist(a, b) for a, b in zip(pts, pts[1:])]
    total = sum(seg)
    out = []
    for k in range(n):
        t, i = total * (0.1 + 0.8 * k / (n - 1)), 0
        while i < len(seg) - 1 and t > seg[i]:
            t -= seg[i]
            i += 1
        f = t / seg[i] if seg[i] else 0.0
        out.append((pts[i][0] + (pts[i + 1][0] - pts[i][0]) * f, pts[i][1] + (pts[i + 1][1] - pts[i][1]) * f))
    return out


def _shape_ahead(p: tuple[float, float], q: tuple[float, float], shapes: list[DetectedShape], reach: float) -> int | None:
    """The shape (a node, or a frame from outside) within ``reach`` px of the line's end p that the
    line comes at (20 px back along its course from q, a quarter of that farther off: not a line
    running past a box's side), nearest first."""
    L = math.dist(p, q)
    if L < 1:
        return None
    back = (p[0] + (q[0] - p[0]) * 20 / L, p[1] + (q[1] - p[1]) * 20 / L)
    best = None
    for i, s in enumerate(shapes):
        if s.is_group and s.contains_point(*p):
            continue
        d = dist_to_shape(p, s)
        if d <= reach and (best is None or d < best[0]) and dist_to_shape(back, s) - d >= 5:
            best = (d, i)
    return None if best is None else best[1]


def _node_across_frame(b: FigureBuilder, pts: list[tuple[float, float]], j: int, shapes: list[DetectedShape],
                       gi: int, tol: float) -> tuple[int, tuple[float, float]] | None:
    """A line end stopped at a group's frame, with a node just beyond it on the line's course:
    (that node, where the course meets it). The stub between frame and node is a dash or two
    of a dashed line, too short to be found on its own (examples/encoder_decoder's skip
    connections ended on the Encoder and Decoder frames, not their conv and up blocks)."""
    if len(pts) < 2:
        return None
    p, q = (pts[0], pts[1]) if j == 0 else (pts[-1], pts[-2])
    if gi >= 0 and frame_distance(p, shapes[gi]) > tol:  # as near as _attach took it to be
        return None
    return _node_ahead(b, p, q, shapes, gi)


def _node_ahead(b: FigureBuilder, p: tuple[float, float], q: tuple[float, float], shapes: list[DetectedShape],
                gi: int = -1, extra: float = 0.0) -> tuple[int, tuple[float, float]] | None:
    """The node (not group ``gi``) a line's course from q through its end p meets within a
    frame's padding (and ``extra`` px): (that node, where the course meets it)."""
    reach = 24 / b.s + extra  # user units: a frame's padding around its members
    best = None
    for i, s in enumerate(shapes):
        if s.is_group or i == gi:
            continue
        hit = ray_box(q, p, (s.x, s.y, s.x + s.w, s.y + s.h))
        if hit is None:
            continue
        d = math.dist(p, hit)
        # the course goes on from p (not back through the line) to the node's edge
        ahead = (hit[0] - p[0]) * (p[0] - q[0]) + (hit[1] - p[1]) * (p[1] - q[1]) > 0
        if ahead and d <= reach and (best is None or d < best[0]):
            best = (d, i, hit)
    if best is None:
        return None
    # an axis-parallel course stays axis-parallel (the last segment's pixel jitter aside)
    x, y = best[2]
    if abs(p[0] - q[0]) <= 1.5 < abs(p[1] - q[1]):
        x = p[0]
    elif abs(p[1] - q[1]) <= 1.5 < abs(p[0] - q[0]):
        y = p[1]
    return best[1], (x, y)


def _head_before(b: FigureBuilder, tip: tuple[float, float], p: tuple[float, float], width: float) -> bool:
    """Whether the original image has an arrowhead just before ``tip`` on the course from p:
    across the course, the ink run through it is ≥ 2.5 line widths wide there, and a line's
    width further back."""
    L = math.dist(p, tip)
    if L < 1:
        return False
    rgb, bg = b.image.rgb, np.asarray(b.paints.background_rgb, np.float32)
    u = ((tip[0] - p[0]) / L, (tip[1] - p[1]) / L)

    def inked(x: int, y: int) -> bool:
        return bool(np.linalg.norm(rgb[y, x].astype(np.float32) - bg) >= 60)

    def across(t: float) -> int:
        return run_across(inked, rgb.shape[:2], tip, u, t, 16)

    widest = max(across(t) for t in np.arange(1.5, min(L, 10.0), 1.0)) if L > 2.5 else 0
    return widest >= 2.5 * width + 1 and across(min(L, 16.0)) <= width + 2


def _snap_ends(pts: list[tuple[float, float]], ends: list[DetectedShape | None]) -> list[tuple[float, float]]:
    """Move a line end that stops short of its shape onto the shape's box edge."""
    pts = list(pts)
    for j, s in enumerate(ends):
        if s is None or len(pts) < 2:
            continue
        idx, nb = (0, 1) if j == 0 else (-1, -2)
        p, q = pts[idx], pts[nb]
        if s.contains_point(*p, margin=-0.5):
            continue
        hit = ray_box(q, p, (s.x, s.y, s.x + s.w, s.y + s.h))
        if hit is not None and math.dist(hit, p) < 4 * 3 + 12:
            pts[idx] = hit
    return pts


def _near_text(p, runs, free, used, tol) -> int | None:
    best = None
    for k in free:
        if k in used:
            continue
        d = _off_run(p, runs[k])
        if d <= tol and (best is None or d < best[0]):
            best = (d, k)
    return None if best is None else best[1]


def _text_ahead(pts: list[tuple[float, float]], j: int, runs: list[TextRun], free: list[int], used: set[int],
                others: list[list[tuple[float, float]]], tol: float) -> int | None:
    """The free label the line's end ``j`` (0: start) points at across a node's padding: its course, run on
    from the end, meets the label's box within :data:`PADDING_REACH` of the label's height. A node whose
    box was not read (a dark theme's node filled and outlined in the page's colour, a cylinder or a
    subroutine box the shape stage missed) leaves its name where its links point, a padding away: those
    links had ended at nothing and were dropped as free lines. A label another line (``others``) runs
    through or stops at, within ``tol``, is a link's own label, no node ('session delete' on its state
    diagram's link, another link's end pointing at it); only a name linked on its far side too is a node's
    (:func:`_linked_across`)."""
    p = pts[0] if j == 0 else pts[-1]
    body = pts[1:] if j == 0 else pts[-2::-1]
    if not body:
        return None
    q = next((pt for pt in body if math.dist(pt, p) >= 12), body[-1])
    best = None
    for k in free:
        r = runs[k]
        if k in used or r.angle != 0:
            continue
        hit = ray_box(q, p, (r.x, r.y, r.right, r.bottom))
        if hit is None or (hit[0] - p[0]) * (p[0] - q[0]) + (hit[1] - p[1]) * (p[1] - q[1]) < 0:
            continue
        gap = math.dist(p, hit)
        if gap <= PADDING_REACH * r.h and (best is None or gap < best[0]) and not _on_a_line(r, others, tol) \
                and _linked_across(r, p, others):
            best = (gap, k)
    return None if best is None else best[1]


def _linked_across(r: TextRun, p: tuple[float, float], others: list[list[tuple[float, float]]]) -> bool:
    """Whether another line's end stops a padding short of label ``r`` too (within :data:`PADDING_REACH` of its
    height), on its far side from ``p``: the name of a node in a chain, a link in and a link out (Mermaid's
    'Update start result', in from above and out below). A title or a legend's word one line points at
    ('Multi-Head Attention' over its block, d2l's 'Input X' under its gate) is no node."""
    c = (r.cx, r.cy)
    for pts in others:
        for q in (pts[0], pts[-1]) if pts else ():
            if _off_run(q, r) <= PADDING_REACH * r.h and (q[0] - c[0]) * (p[0] - c[0]) + (q[1] - c[1]) * (p[1] - c[1]) < 0:
                return True
    return False


def _on_a_line(r: TextRun, others: list[list[tuple[float, float]]], tol: float) -> bool:
    """Whether a line runs through label ``r`` (within its height of its middle) or ends by it (within
    ``tol`` of its box, as :func:`_near_text` measures)."""
    return any(dist_to_polyline((r.cx, r.cy), pts) <= r.h or min(_off_run(pts[0], r), _off_run(pts[-1], r)) <= tol
               for pts in others if pts)


def _off_run(p: tuple[float, float], r: TextRun) -> float:
    """Distance from ``p`` to run ``r``'s box (0 inside it)."""
    return outside_distance(p, (r.x, r.y, r.w, r.h))


def _head_kind(head, runs: list[TextRun], width: float = 1.0) -> str:
    """A head's kind, or 'arrow' where text was erased over the head: a glyph touching it took
    part of it along (a wing of training_loop's arrow under 'Frozen (no gradients)' went with
    the 'd', and the rest read as a diamond); the filled arrow is what is usually drawn."""
    if head.kind == "open" and closed_back(head, width) is not None:
        return "triangle_open"
    if head.kind == "arrow" or not len(head.pixels):
        return head.kind
    x0, y0, x1, y1 = head.mask_box
    for r in runs:
        if not (x0 <= r.right + 2 and r.x - 2 <= x1 and y0 <= r.bottom + 2 and r.y - 2 <= y1):
            continue
        # a glyph pixel within 2 px of the head's (not only a label beside it)
        g = cv2.dilate(r.glyphs.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
        gx = np.floor(head.pixels[:, 0] - r.x).astype(int)
        gy = np.floor(head.pixels[:, 1] - r.y).astype(int)
        ok = (gx >= 0) & (gy >= 0) & (gx < g.shape[1]) & (gy < g.shape[0])
        if ok.any() and g[gy[ok], gx[ok]].any():
            return "arrow"
    return head.kind
