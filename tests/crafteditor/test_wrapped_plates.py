"""Mermaid's edge labels as its flowcharts draw them (issue 31): a long label wrapped over two lines on
its plate, and a basis curve that bends under its label (in at one side of the plate, out at the next).
Either had split the edge in two at the label (the plate a node, or the edge stopping at a free text):
the plate is no node, the edge runs on through it, and the whole label names it."""

from __future__ import annotations

import numpy as np
from ce_helpers import edge_pairs, png_bytes
from PIL import Image, ImageDraw, ImageFont

from crafteditor.config import Config
from crafteditor.convert import convert
from crafter.spec.model import Edge, Node

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
INK, NODE_FILL, NODE_LINE, PLATE = (51, 51, 51), (236, 236, 255), (147, 112, 219), (232, 232, 232)


def _node(d: ImageDraw.ImageDraw, box, name: str, font) -> None:
    d.rectangle(box, fill=NODE_FILL, outline=NODE_LINE, width=2)
    tw = d.textlength(name, font=font)
    d.text(((box[0] + box[2] - tw) / 2, (box[1] + box[3]) / 2 - 12), name, fill=INK, font=font)


def _head_down(d: ImageDraw.ImageDraw, x: float, y: float) -> None:
    d.polygon([(x, y), (x - 8, y - 14), (x + 8, y - 14)], fill=INK)


def _plate(d: ImageDraw.ImageDraw, cx: float, top: float, lines: list[str], font) -> None:
    """Mermaid's label plate: unoutlined, tight around its centred lines."""
    widths = [d.textlength(t, font=font) for t in lines]
    w, lh = max(widths), 30
    d.rectangle([cx - w / 2 - 4, top, cx + w / 2 + 4, top + lh * len(lines) + 6], fill=PLATE)
    for k, (t, tw) in enumerate(zip(lines, widths)):
        d.text((cx - tw / 2, top + 4 + lh * k), t, fill=INK, font=font)


def wrapped_label_png() -> bytes:
    """'Planner' over 'Worker pool', a straight arrow down between them, on its middle a plate with a
    label wrapped over two lines."""
    img = Image.new("RGB", (640, 700), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 26)
    _node(d, [180, 40, 460, 140], "Planner", font)
    _node(d, [180, 540, 460, 640], "Worker pool", font)
    d.line([(320, 140), (320, 530)], fill=INK, width=3)
    _head_down(d, 320, 538)
    _plate(d, 320, 270, ["clone and submit", "OrchestratorWorkflow"], font)
    return png_bytes(np.asarray(img))


def bending_curve_png() -> bytes:
    """'Developer' up right, 'Build' down left; a curve from Developer runs left into the right side of a
    one-line plate and comes out of the plate's bottom, bending down into Build."""
    img = Image.new("RGB", (900, 620), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 26)
    _node(d, [620, 30, 860, 110], "Developer", font)
    _node(d, [110, 460, 390, 560], "Build", font)
    # the curve: in along a gentle slope to the plate's right side, out of its bottom turning down
    right = 310 + d.textlength("make run", font=font) / 2
    d.line([(620, 90), (520, 140), (right - 10, 186)], fill=INK, width=3, joint="curve")
    d.line([(300, 196), (262, 250), (252, 300), (250, 450)], fill=INK, width=3, joint="curve")
    _head_down(d, 250, 458)
    _plate(d, 310, 170, ["make run"], font)
    return png_bytes(np.asarray(img))


def test_a_label_wrapped_over_two_lines_names_its_edge():
    fig = convert(wrapped_label_png(), Config()).figure
    assert edge_pairs(fig) == {("Planner", "Worker pool"): 1}
    assert not any("Orchestrator" in (c.label or "") for c in fig.components if isinstance(c, Node))
    labels = [e.label for e in fig.components if isinstance(e, Edge)]
    assert labels == ["clone and submit\nOrchestratorWorkflow"], labels


def test_a_curve_bending_under_its_label_is_one_edge():
    fig = convert(bending_curve_png(), Config()).figure
    assert edge_pairs(fig) == {("Developer", "Build"): 1}
    assert [e.label for e in fig.components if isinstance(e, Edge)] == ["make run"]
