"""Stick-figure actors outside a sequence diagram (UML use cases): a node spanning the figure, named by
the name set under it.

An actor is drawn as a small round head holding no text, a spine hanging from it, arms across it and
two legs, its name under the figure. The head was found as a nameless shape and the limbs traced as
lines; the name, a head's height or more below the head, was loose text. A use case's connector starts
at the actor's hand or hip, a head's width off the head: it ended at no node, and came back as a free
path (a drawn draw.io use-case page had 33 of 37 connectors so). The figure and its name are one node, as
a captioned icon is: connectors end at the figure as drawn (its head and the limbs hanging from it), the
head inside it stands for it (:func:`~crafteditor.assemble.figure._icon_parts`), and the limbs, inside the
figure at both ends, stay drawn as they are (:func:`~crafteditor.assemble.icons.end_at_icons`).
A sequence diagram's actors hang a lifeline instead (:func:`actor_figures`)."""

from __future__ import annotations

from dataclasses import replace

from crafteditor.assemble.builder import FigureBuilder
from crafteditor.assemble.geometry import bounds, dist_to_polyline
from crafteditor.assemble.icons import captioned_box
from crafteditor.assemble.sequences import Sequence
from crafteditor.lines.paths import LinePath
from crafteditor.ocr.runs import TextRun
from crafteditor.paint import color_distance
from crafteditor.shapes.detect import DetectedShape

HEADS = ("circle", "ellipse", "hexagon")  # a small round head reads as one of these
ROUNDNESS = 1.5  # a head's width and height within this ratio
SPINE_GAP = 0.5  # head heights (+2 px): the spine starts this near under the head's bottom middle
SPINE = 0.8  # head heights: the spine hangs at least this far down
NAME_BELOW = 5.0  # head heights: the name's top stands at most this far under the head's bottom
LIMB_TOUCH = 3.0  # px (+ a line width): a limb touches the spine (or a limb on it) this near
REACH = 4.0  # head widths either side and head heights under it: the limbs lie within this
SAME_INK = 60.0  # the limbs are drawn in the head's outline colour (RGB distance)


def stick_actors(b: FigureBuilder, shapes: list[DetectedShape], runs: list[TextRun], labels: dict[int, list[int]], used: set[int],
                 lines: list[LinePath]) -> list[tuple[DetectedShape, list[int], DetectedShape]]:
    """Each stick-figure actor as a captioned icon is (:func:`~crafteditor.assemble.icons.captioned_icons`):
    (an unfilled, unstroked box over the figure and its name, the name's run, the box of the figure, head
    and limbs, where its connectors end); the name's run is marked used."""
    out: list[tuple[DetectedShape, list[int], DetectedShape]] = []
    for j, s in enumerate(shapes):
        if s.is_group or s.shape not in HEADS or labels.get(j) or not (1 / ROUNDNESS <= s.w / max(s.h, 1e-6) <= ROUNDNESS):
            continue
        if any(s.contains_point(r.cx, r.cy) for r in runs):
            continue
        limbs = _limbs(s, lines)
        if not limbs:
            continue
        x0, y0, x1, y1 = s.x, s.y, s.x + s.w, s.y + s.h
        for ln in limbs:
            lx0, ly0, lx1, ly1 = bounds(ln.points)
            x0, y0, x1, y1 = min(x0, lx0), min(y0, ly0), max(x1, lx1), max(y1, ly1)
        cx = s.x + s.w / 2
        under = [k for k, r in enumerate(runs) if k not in used and r.angle == 0 and abs(r.cx - cx) <= 0.3 * r.w + 3
                 and y1 - 2 <= r.y <= s.y + s.h + NAME_BELOW * s.h]
        if not under:
            continue
        k = min(under, key=lambda k: runs[k].y)
        used.add(k)
        node, figure = captioned_box(b, (x0, y0, x1, y1), [runs[k]])
        out.append((node, [k], figure))
    return out


def _limbs(s: DetectedShape, lines: list[LinePath]) -> list[LinePath]:
    """The lines of the figure hanging from head ``s``: a spine from under the head's middle straight down,
    and the lines touching it (arms, legs) or those (none where no spine hangs there)."""
    cx, bottom = s.x + s.w / 2, s.y + s.h
    # a limb lies in the figure's reach (a connector leaving the hand runs on out of it)
    x0, x1, y1 = cx - REACH * s.w, cx + REACH * s.w, bottom + REACH * s.h
    ink = [ln for ln in lines if ln.head_start is None and ln.head_end is None
           and (s.stroke is None or color_distance(ln.color, s.stroke) <= SAME_INK)
           and all(x0 <= x <= x1 and s.y <= y <= y1 for x, y in ln.points)]
    spine = None
    for ln in ink:
        top, low = sorted((ln.points[0], ln.points[-1]), key=lambda p: p[1])
        if abs(top[0] - cx) <= 0.25 * s.w + 2 and abs(top[1] - bottom) <= SPINE_GAP * s.h + 2 \
                and abs(low[0] - top[0]) <= 0.25 * (low[1] - top[1]) and low[1] - top[1] >= SPINE * s.h:
            spine = ln
            break
    if spine is None:
        return []
    body, left = [spine], [ln for ln in ink if ln is not spine]
    grown = True
    while grown:
        grown = False
        for ln in list(left):
            reach = LIMB_TOUCH + ln.width
            if any(min(dist_to_polyline(p, part.points) for part in body) <= reach for p in ln.points) or any(
                    dist_to_polyline(p, ln.points) <= reach for part in body for p in (part.points[0], part.points[-1])):
                body.append(ln)
                left.remove(ln)
                grown = True
    return body


def actor_figures(seq: Sequence, shapes: list[DetectedShape], runs: list[TextRun], labels: dict[int, list[int]],
                  used: set[int], first: int) -> list[tuple[DetectedShape, list[int]]]:
    """Stick-figure actors: a head (the shape a lifeline hangs from, or the one repeated at the
    bottom) holding no text, the actor's name set just under the figure on the lifeline's column.
    Each becomes a node spanning the figure and its name (to be appended to the shapes at index
    ``first`` on, its name in place, its runs marked used); the lifeline hangs from it."""
    out: list[tuple[DetectedShape, list[int]]] = []
    for lf in seq.lifelines:
        top = shapes[lf.node]
        heads = [lf.node] + [j for j, t in enumerate(shapes) if j != lf.node and not t.is_group and t.y >= lf.y1 - 5
                             and abs(t.x + t.w / 2 - lf.x) <= 0.3 * top.w + 3 and abs(t.h - top.h) <= 0.3 * top.h + 3]
        for j in heads:
            s = shapes[j]
            if labels.get(j) or any(s.contains_point(r.cx, r.cy) for r in runs):
                continue
            under = [k for k, r in enumerate(runs) if k not in used and r.angle == 0 and abs(r.cx - lf.x) <= 0.3 * r.w + 3
                     and s.y + s.h <= r.y <= s.y + s.h + 4 * s.h]
            if not under:
                continue
            k = min(under, key=lambda k: runs[k].y)
            r = runs[k]
            x0, x1 = min(s.x, r.x - 2), max(s.x + s.w, r.x + r.w + 2)
            figure = replace(s, shape="box", x=x0, w=x1 - x0, h=r.y + r.h + 2 - s.y, stroke=None, stroke_px=0.0,
                             is_group=False, members=[], dividers=[])
            if j == lf.node:
                lf.node = first + len(out)
            elif j == lf.bottom:
                lf.bottom = first + len(out)
            used.add(k)
            out.append((figure, [k]))
    return out
