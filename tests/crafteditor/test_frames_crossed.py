"""Group frames the face reader cannot see and the edges that cross them (issue 31): a frame whose title is
set in its top border (draw.io's groups), and stacked frames whose column of edges walls their insides into
strips (Mermaid's nested subgraphs). Read as lines, a frame's sides took in the edges ending on it; read as
nameless boxes, the strips between the frames cut every edge through them in two."""

from __future__ import annotations

import numpy as np
from ce_helpers import edge_pairs, png_bytes
from PIL import Image, ImageDraw, ImageFont

from crafteditor.convert import convert
from crafter.spec.model import Group, Node

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def _box(d: ImageDraw.ImageDraw, font, x: int, y: int, name: str, w: int = 170, h: int = 60,
         fill=(225, 240, 250), outline=(40, 100, 200)) -> None:
    d.rectangle([x, y, x + w, y + h], fill=fill, outline=outline, width=2)
    d.text((x + w / 2 - d.textlength(name, font=font) / 2, y + h / 2 - 11), name, fill="black", font=font)


def _arrow(d: ImageDraw.ImageDraw, p, q, color=(50, 50, 50)) -> None:
    """A 2 px line from p to q with a filled head at q (axis-aligned)."""
    d.line([p, q], fill=color, width=2)
    (x0, y0), (x1, y1) = p, q
    if x0 == x1:
        s = 1 if y1 > y0 else -1
        d.polygon([(x1, y1), (x1 - 7, y1 - s * 14), (x1 + 7, y1 - s * 14)], fill=color)
    else:
        s = 1 if x1 > x0 else -1
        d.polygon([(x1, y1), (x1 - s * 14, y1 - 7), (x1 - s * 14, y1 + 7)], fill=color)


def titled_frame_png() -> bytes:
    """'Client' outside a rounded-corner-free frame titled 'Web App' in its top border, an arrow from
    Client across the frame's left side to 'API' inside, and 'Auth' under API inside too."""
    img = Image.new("RGB", (900, 520), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 22)
    d.rectangle([330, 60, 760, 470], outline=(0, 110, 175), width=2)
    tw = d.textlength("Web App", font=font)
    d.rectangle([545 - tw / 2 - 6, 48, 545 + tw / 2 + 6, 74], fill="white")
    d.text((545 - tw / 2, 49), "Web App", fill="black", font=font)
    _box(d, font, 40, 170, "Client")
    _box(d, font, 460, 170, "API")
    _box(d, font, 460, 340, "Auth")
    _arrow(d, (212, 200), (458, 200))
    _arrow(d, (545, 232), (545, 338))
    return png_bytes(np.asarray(img))


def stacked_frames_png() -> bytes:
    """Two frames one over the other inside a third, all filled alike; a column of nodes in each, each
    node of the upper frame joined down to the one under it across both frames' borders."""
    img = Image.new("RGB", (1000, 560), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 22)
    fill, edge = (255, 255, 222), (170, 170, 51)
    d.rectangle([20, 20, 980, 540], fill=fill, outline=edge, width=2)
    d.rectangle([60, 60, 940, 220], fill=fill, outline=edge, width=2)
    d.rectangle([60, 320, 940, 500], fill=fill, outline=edge, width=2)
    d.text((460, 64), "Routes", fill="black", font=font)
    d.text((460, 324), "Services", fill="black", font=font)
    for k, (a, b) in enumerate((("stats", "Statistics"), ("users", "Accounts"), ("items", "Catalog"))):
        x = 110 + 290 * k
        _box(d, font, x, 110, a, fill=(255, 244, 225), outline=(204, 136, 0))
        _box(d, font, x, 390, b, fill=(242, 225, 252), outline=(136, 0, 204))
        _arrow(d, (x + 85, 172), (x + 85, 388))
    return png_bytes(np.asarray(img))


def test_a_frame_titled_in_its_border_is_a_group_and_the_edge_crossing_it_joins_its_nodes():
    fig = convert(titled_frame_png()).figure
    groups = [c for c in fig.components if isinstance(c, Group)]
    assert [g.label for g in groups] == ["Web App"], [g.label for g in groups]
    assert edge_pairs(fig) == {("Client", "API"): 1, ("API", "Auth"): 1}
    # the frame's sides are the group's outline, no free line along them
    assert not [c for c in fig.components if c.kind == "path" and c.stroke and c.stroke.lower() == "#006eaf"]


def test_edges_through_stacked_frames_join_the_nodes_and_the_strips_between_are_no_nodes():
    fig = convert(stacked_frames_png()).figure
    assert edge_pairs(fig) == {("stats", "Statistics"): 1, ("users", "Accounts"): 1, ("items", "Catalog"): 1}
    assert all(c.label for c in fig.components if isinstance(c, Node))
    assert {g.label for g in fig.components if isinstance(g, Group)} >= {"Routes", "Services"}
