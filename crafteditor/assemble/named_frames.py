"""A box read as a frame that holds nothing but its own name is a node.

The shape stage makes a box with long holes in its face a frame (lines drawn inside it,
:func:`crafteditor.shapes.frames.holds_drawing`). A sketched node's face has such holes too: Mermaid's
``handDrawn`` look draws each side twice and fills with a hachure, and what is left of the strokes,
or an arrow's tip pushed through the rough outline, cuts the face. As a frame, the box was no node,
and every edge to it joined a group (a hand-drawn Mermaid flowchart lost half its nodes and edges).
A frame with no shape in it whose only text is one block centred in it, as a node's name is, is read
as the node it is drawn as."""

from __future__ import annotations

from dataclasses import replace

from crafteditor.ocr.runs import TextRun
from crafteditor.shapes.detect import DetectedShape

OFF_CENTRE = (0.15, 0.2)  # the name's middle within this share of the box's width, height from its middle
FILLS = 0.25  # the name spans at least this share of the box's width (a caption in an empty frame does not)


def named_boxes(shapes: list[DetectedShape], runs: list[TextRun]) -> list[DetectedShape]:
    """``shapes`` with each memberless frame that holds only its centred name made a node."""
    return [replace(s, is_group=False) if _holds_only_name(s, shapes, runs) else s for s in shapes]


def _holds_only_name(s: DetectedShape, shapes: list[DetectedShape], runs: list[TextRun]) -> bool:
    # unoutlined, it is an edge label's plate a thick line crosses (a node is drawn with its outline)
    if not s.is_group or s.members or s.dividers or s.shape not in ("box", "round") or s.stroke is None:
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
    if y1 - y0 > 3.5 * font or x1 - x0 < FILLS * s.w:  # a name is at most three lines
        return False
    return (abs((x0 + x1) / 2 - (s.x + s.w / 2)) <= OFF_CENTRE[0] * s.w
            and abs((y0 + y1) / 2 - (s.y + s.h / 2)) <= OFF_CENTRE[1] * s.h)
