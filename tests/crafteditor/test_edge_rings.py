"""Edges that run from node to node round a ring are no group frame (issue 31). A PowerPoint UML class
figure (addressbook-level4's Logic): 'LogicManager' to 'Parser' (solid) to 'Command' (dotted), up from
'Command' and back to 'CommandResult', up from 'LogicManager' to 'CommandResult', round 'Prefix'. The
nodes are filled in the lines' own blue, and the lines' trace runs on through them, so the four long
lines drew a rectangle's sides: read as a group frame, it took all four edges, and only the edge inside
it was left."""

from __future__ import annotations

import numpy as np
from ce_helpers import png_bytes
from PIL import Image, ImageDraw, ImageFont

from crafteditor.convert import convert
from crafter.spec.model import Edge, Group, Node

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
BLUE = (0, 112, 192)


def _node(d: ImageDraw.ImageDraw, font, x: int, y: int, w: int, h: int, name: str) -> None:
    d.rectangle([x, y, x + w, y + h], fill=BLUE)
    d.text((x + w / 2 - d.textlength(name, font=font) / 2, y + h / 2 - 11), name, fill="white", font=font)


def _line(d: ImageDraw.ImageDraw, pts: list[tuple[int, int]], dotted: bool) -> None:
    for p, q in zip(pts, pts[1:]):
        if not dotted:
            d.line([p, q], fill=BLUE, width=3)
            continue
        n = int(max(abs(q[0] - p[0]), abs(q[1] - p[1])) // 8)
        for k in range(n):
            a = (p[0] + (q[0] - p[0]) * k / n, p[1] + (q[1] - p[1]) * k / n)
            b = (p[0] + (q[0] - p[0]) * (k + 0.45) / n, p[1] + (q[1] - p[1]) * (k + 0.45) / n)
            d.line([a, b], fill=BLUE, width=3)


def _head(d: ImageDraw.ImageDraw, tip: tuple[int, int], dx: int, dy: int) -> None:
    """An open V head at ``tip`` pointing along the axis (dx, dy)."""
    x, y = tip
    px, py = -dy, dx
    d.line([(x - 14 * dx + 7 * px, y - 14 * dy + 7 * py), (x, y), (x - 14 * dx - 7 * px, y - 14 * dy - 7 * py)],
           fill=BLUE, width=3)


def ring_png() -> bytes:
    """Three nodes in a row joined solid then dotted, a node over the first, the row's two ends joined up to it
    (one of them round the corner), a node inside the ring they close."""
    img = Image.new("RGB", (1000, 480), (222, 235, 247))
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 22)
    _node(d, font, 80, 60, 200, 60, "CommandResult")
    _node(d, font, 80, 300, 200, 60, "LogicManager")
    _node(d, font, 440, 300, 100, 60, "Parser")
    _node(d, font, 700, 300, 180, 60, "Command")
    _node(d, font, 420, 180, 140, 50, "Prefix")
    _line(d, [(280, 330), (438, 330)], dotted=False)
    _head(d, (438, 330), 1, 0)
    _line(d, [(540, 330), (698, 330)], dotted=True)
    _head(d, (698, 330), 1, 0)
    _line(d, [(840, 298), (840, 90), (282, 90)], dotted=True)
    _head(d, (282, 90), -1, 0)
    _line(d, [(180, 298), (180, 122)], dotted=True)
    _head(d, (180, 122), 0, -1)
    _line(d, [(490, 298), (490, 232)], dotted=True)
    _head(d, (490, 232), 0, -1)
    return png_bytes(np.asarray(img))


def test_a_ring_of_edges_through_filled_nodes_is_edges_not_a_frame():
    fig = convert(ring_png()).figure
    assert not [c for c in fig.components if isinstance(c, Group)]
    names = {c.id: c.label for c in fig.components if isinstance(c, Node)}
    edges = {(names.get(e.source), names.get(e.target)): e for e in fig.components if isinstance(e, Edge)}
    assert set(edges) == {("LogicManager", "Parser"), ("Parser", "Command"), ("Command", "CommandResult"),
                          ("LogicManager", "CommandResult"), ("Parser", "Prefix")}, set(edges)
    # the line through 'Parser' is two edges, each of its own dash: solid in, dotted out
    assert edges[("LogicManager", "Parser")].style == "solid"
    assert edges[("Parser", "Command")].style == "dotted"
