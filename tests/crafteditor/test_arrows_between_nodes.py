"""Two arrows back and forth between two stacked nodes, a label written between them (a state machine's
'while busy' loop): the face they wall off with the nodes' outlines is no box, the arrows are its edges."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from crafteditor.config import Config
from crafteditor.convert import convert
from crafteditor.realset import norm_word
from crafteditor.shapes.detect import DetectedShape, between_nodes
from crafteditor.shapes.faces import Face
from crafter.spec.model import Edge, Node

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def _arrow(d: ImageDraw.ImageDraw, x: int, y0: int, y1: int) -> None:
    """A vertical arrow from y0 to y1, its filled head at y1."""
    d.line((x, y0, x, y1), fill="black", width=2)
    s = 1 if y1 > y0 else -1
    d.polygon([(x, y1), (x - 7, y1 - 14 * s), (x + 7, y1 - 14 * s)], fill="black")


def _loop() -> bytes:
    im = Image.new("RGB", (560, 460), "white")
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(FONT, 20)
    d.rectangle((100, 60, 400, 130), outline="black", width=2)
    d.text((250, 95), "state request", fill="black", font=font, anchor="mm")
    d.rectangle((100, 290, 400, 360), outline="black", width=2)
    d.text((250, 325), "fill buffer", fill="black", font=font, anchor="mm")
    _arrow(d, 130, 131, 289)
    _arrow(d, 370, 289, 131)
    d.text((250, 210), "while busy", fill=(200, 30, 30), font=font, anchor="mm")
    buf = io.BytesIO()
    im.save(buf, format="PNG")
    return buf.getvalue()


def test_two_arrows_between_stacked_nodes_are_edges_not_a_box_between_them():
    fig = convert(_loop(), Config()).figure
    nodes = {c.id: norm_word(c.label or "") for c in fig.components if isinstance(c, Node)}
    assert norm_word("while busy") not in nodes.values()
    ends = {(nodes.get(e.source), nodes.get(e.target)) for e in fig.components if isinstance(e, Edge)}
    a, b = norm_word("state request"), norm_word("fill buffer")
    assert (a, b) in ends and (b, a) in ends


def _box(x: float, y: float, w: float, h: float) -> DetectedShape:
    return DetectedShape(shape="box", x=x, y=y, w=w, h=h, fill=(255, 255, 255), stroke=(0, 0, 0), stroke_px=2.0,
                         iou=1.0, face=Face(0, int(x), int(y), 1, 1, np.ones((1, 1), bool), np.ones((1, 1), bool)))


@pytest.mark.parametrize("vertical", [True, False])
def test_a_box_set_in_between_two_nodes_is_a_pocket_and_an_aligned_compartment_is_not(vertical):
    def box(a, b, c, d):  # along the stacking (a, b), across it (c, d)
        return _box(c, a, d - c, b - a) if vertical else _box(a, c, b - a, d - c)

    top, bottom = box(60, 130, 100, 400), box(290, 360, 100, 400)
    assert between_nodes([top, box(130, 290, 130, 370), bottom]) == [0, 2]
    assert between_nodes([top, box(130, 290, 100, 400), bottom]) == [0, 1, 2]  # in line with both: a compartment
    assert between_nodes([top, box(140, 290, 130, 370), box(300, 360, 100, 400)]) == [0, 1, 2]  # apart from both
    # a row of boxes filling the band between two layers (modules between an application and an OS layer)
    row = [box(134, 286, 100, 198), box(134, 286, 202, 298), box(134, 286, 302, 400)]
    assert between_nodes([top, *row, bottom]) == [0, 1, 2, 3, 4]


def _layers(gap: int) -> bytes:
    """A layered stack: an application layer over a row of three modules over an operating system layer."""
    im = Image.new("RGB", (640, 300), "white")
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(FONT, 18)

    def box(x0: float, y0: float, x1: float, y1: float, text: str) -> None:
        d.rectangle((x0, y0, x1, y1), outline="black", width=2)
        d.text(((x0 + x1) / 2, (y0 + y1) / 2), text, fill="black", font=font, anchor="mm")

    box(60, 40, 580, 110, "Application layer")
    w = (520 - 2 * gap) / 3
    for i, text in enumerate(("Scheduler", "Storage", "Network")):
        box(int(60 + i * (w + gap)), 110 + gap, int(60 + i * (w + gap) + w), 190 - gap, text)
    box(60, 190, 580, 260, "Operating system")
    buf = io.BytesIO()
    im.save(buf, format="PNG")
    return buf.getvalue()


def test_a_row_of_modules_between_two_layers_stays_nodes():
    fig = convert(_layers(4), Config()).figure
    nodes = {norm_word(c.label or "") for c in fig.components if isinstance(c, Node)}
    assert {norm_word(w) for w in ("Scheduler", "Storage", "Network")} <= nodes
