"""A box read as a frame that holds nothing but its own name is a node.

The shape stage makes a box with long holes in its face a frame (lines drawn inside it,
:func:`crafteditor.shapes.frames.holds_drawing`). A sketched node's face has such holes too: Mermaid's
``handDrawn`` look draws each side twice and fills with a hachure, and what is left of the strokes,
or an arrow's tip pushed through the rough outline, cuts the face. As a frame, the box was no node,
and every edge to it joined a group (a hand-drawn Mermaid flowchart lost half its nodes and edges).
A frame with no shape in it whose only text is one block centred in it, as a node's name is, is read
as the node it is drawn as. A group's frame is not: one dashed, one holding an arrow drawn from end to
end inside it, or one whose words stand apart on a line (two members, plain words with an arrow between
them, read as one node "Client Server")."""

from __future__ import annotations

from dataclasses import replace

from crafteditor.lines.paths import LinePath
from crafteditor.ocr.runs import TextRun
from crafteditor.shapes.detect import DetectedShape

OFF_CENTRE = (0.15, 0.2)  # the name's middle within this share of the box's width, height from its middle
FILLS = 0.25  # the name spans at least this share of the box's width (a caption in an empty frame does not)
WORD_GAP = 1.0  # font sizes: runs on one line of a name stand at most this far apart


def named_boxes(shapes: list[DetectedShape], runs: list[TextRun],
                lines: list[LinePath] | None = None) -> list[DetectedShape]:
    """``shapes`` with each memberless frame that holds only its centred name made a node (none that
    holds an arrow of ``lines`` from end to end)."""
    return [replace(s, is_group=False) if _holds_only_name(s, shapes, runs, lines or []) else s for s in shapes]


def _holds_only_name(s: DetectedShape, shapes: list[DetectedShape], runs: list[TextRun],
                     lines: list[LinePath]) -> bool:
    # unoutlined, it is an edge label's plate a thick line crosses (a node is drawn with its outline);
    # dashed, a group's frame (a node's outline is solid)
    if (not s.is_group or s.members or s.dividers or s.shape not in ("box", "round") or s.stroke is None
            or s.dashed != "solid"):
        return False
    # an arrow drawn inside it, from end to end: a drawing the frame holds (a sketched node's leftover
    # hachure strokes carry no head)
    if any((ln.head_start or ln.head_end) and s.contains_point(*ln.points[0]) and s.contains_point(*ln.points[-1])
           for ln in lines):
        return False
    # a frame read around a node (a thick outline's outer ring: the node's fill too big to be a member)
    if any(t is not s and s.contains_point(t.x + t.w / 2, t.y + t.h / 2) for t in shapes):
        return False
    held = [r for r in runs if s.contains_point(r.cx, r.cy)]
    if not held or any(r.angle != 0 for r in held):
        return False
    x0, x1 = min(r.x for r in held), max(r.x + r.w for r in held)
    y0, y1 = min(r.y for r in held), max(r.y + r.h for r in held)
    font = max(r.font_px for r in held)
    if y1 - y0 > 3.5 * font or x1 - x0 < FILLS * s.w or not _one_block(held):  # a name is at most three lines
        return False
    return (abs((x0 + x1) / 2 - (s.x + s.w / 2)) <= OFF_CENTRE[0] * s.w
            and abs((y0 + y1) / 2 - (s.y + s.h / 2)) <= OFF_CENTRE[1] * s.h)


def _one_block(held: list[TextRun]) -> bool:
    """Whether ``held`` is one block of text: on each line, words no wider apart than a word space;
    the lines centred on each other (to an em)."""
    rows: list[list[TextRun]] = []
    for r in sorted(held, key=lambda r: r.cy):
        if rows and r.cy - rows[-1][0].cy < 0.5 * max(r.h, rows[-1][0].h):
            rows[-1].append(r)
        else:
            rows.append([r])
    mids = []
    for row in rows:
        row.sort(key=lambda r: r.x)
        if any(b.x - (a.x + a.w) > WORD_GAP * max(a.font_px, b.font_px) for a, b in zip(row, row[1:])):
            return False
        mids.append((row[0].x + max(r.x + r.w for r in row)) / 2)
    return max(mids) - min(mids) <= max(r.font_px for r in held)
