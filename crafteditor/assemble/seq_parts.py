"""A sequence diagram's parts as read off the pixels: a participant's lifeline and a message between
two lifelines (:mod:`crafteditor.assemble.sequences` finds them, :mod:`~crafteditor.assemble.seq_created`
adds the participants created partway down)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Lifeline:
    node: int  # the participant's shape (the box at the top)
    x: float
    y0: float  # from the box's bottom
    y1: float  # to the repeated box below, else the column's last ink
    width: float  # the column's ink width, px
    color: tuple[int, int, int]
    style: str  # solid or dashed
    bottom: int | None = None  # the participant's box repeated at the lifeline's foot, if drawn
    icon: bool = False  # hanging from an icon under its name (:mod:`~crafteditor.assemble.seq_icons`), node the name's


@dataclass
class Message:
    source: int  # lifeline indices; source == target: a self-message (out and back)
    target: int
    points: list[tuple[float, float]]  # from source to target, image pixels
    width: float
    color: tuple[int, int, int]
    style: str  # solid or dashed
    head: bool  # an arrowhead at the target
    tail: bool  # and one at the source (double-headed: the left participant is the source)
