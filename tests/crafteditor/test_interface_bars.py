"""A UML interface drawn as an upright bar (issue 31, addressbook-level4's Logic figure): a filled box with its
name turned a quarter ('<<interface>>' then 'Logic', reading bottom to top) and a realization triangle set on its
foot. The triangle, a compact hole in the bar's face, made it a group frame with no name, and its edges came
back ending on nothing; its lines were read 'Logic' before '<<interface>>'."""

from __future__ import annotations

import numpy as np
from ce_helpers import png_bytes
from PIL import Image, ImageDraw, ImageFont

from crafteditor.convert import convert
from crafter.spec.model import Edge, Group, Node

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
BLUE = (0, 112, 192)


def _dotted(d: ImageDraw.ImageDraw, p: tuple[int, int], q: tuple[int, int]) -> None:
    n = int(max(abs(q[0] - p[0]), abs(q[1] - p[1])) // 8)
    for k in range(n):
        a = (p[0] + (q[0] - p[0]) * k / n, p[1] + (q[1] - p[1]) * k / n)
        b = (p[0] + (q[0] - p[0]) * (k + 0.5) / n, p[1] + (q[1] - p[1]) * (k + 0.5) / n)
        d.line([a, b], fill=BLUE, width=3)


def _node(d: ImageDraw.ImageDraw, font, x: int, y: int, name: str) -> None:
    d.rectangle([x, y, x + 220, y + 60], fill=BLUE)
    d.text((x + 110 - d.textlength(name, font=font) / 2, y + 18), name, fill="white", font=font)


def interface_png() -> bytes:
    """The bar with a dotted arrow out to 'CommandResult', and 'LogicManager' joined up to the triangle on its foot."""
    img = Image.new("RGB", (900, 480), (222, 235, 247))
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 22)
    d.rectangle([100, 60, 170, 300], fill=BLUE)
    name = Image.new("RGB", (240, 70), BLUE)
    nd = ImageDraw.Draw(name)
    for k, s in enumerate(("<<interface>>", "Logic")):
        nd.text((120 - nd.textlength(s, font=font) / 2, 6 + 30 * k), s, fill="white", font=font)
    img.paste(name.rotate(90, expand=True), (100, 60))
    d.polygon([(135, 268), (112, 300), (158, 300)], fill=(140, 180, 230), outline=BLUE)
    _node(d, font, 300, 60, "CommandResult")
    _node(d, font, 300, 360, "LogicManager")
    _dotted(d, (172, 90), (296, 90))
    d.line([(284, 82), (298, 90), (284, 98)], fill=BLUE, width=3)
    _dotted(d, (298, 390), (135, 390))
    _dotted(d, (135, 390), (135, 302))
    return png_bytes(np.asarray(img))


def test_an_upright_interface_bar_is_a_node_named_in_reading_order_with_its_edges():
    fig = convert(interface_png()).figure
    assert not [c for c in fig.components if isinstance(c, Group)]
    names = {c.id: c.label for c in fig.components if isinstance(c, Node)}
    assert sorted(names.values()) == ["<<interface>>\nLogic", "CommandResult", "LogicManager"], names
    pairs = {frozenset((names.get(e.source), names.get(e.target))) for e in fig.components if isinstance(e, Edge)}
    assert pairs == {frozenset(("<<interface>>\nLogic", "CommandResult")),
                     frozenset(("<<interface>>\nLogic", "LogicManager"))}, pairs
