"""A connector cut by its own label ('Yes' in a gap of the line, only a short stub and the head
past it) joins the two boxes, labelled, not the first box to the text (issue 31, net11:
java-design-patterns' state flowchart lost its branches 'State A', 'State B' and 'Yes')."""

from __future__ import annotations

import numpy as np
from ce_helpers import edge_pairs
from PIL import Image, ImageDraw, ImageFont

from crafteditor.config import Config
from crafteditor.convert import convert
from crafter.spec.model import Edge

PAGE, LINE, INK = (240, 244, 247), (120, 136, 150), (46, 61, 75)


def _branches() -> np.ndarray:
    """Two boxes on top, one each below; each pair joined by a vertical connector whose label
    sits in a gap 24 px above the lower box, past which a 10 px stub and a head reach it."""
    im = Image.new("RGB", (520, 420), PAGE)
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype("DejaVuSans.ttf", 15)
    for cx, (top, bottom, word) in zip((130, 390), (("Check", "Act", "Yes"), ("Wait", "Stop", "No"))):
        for y, name in ((40, top), (290, bottom)):
            d.rounded_rectangle([cx - 90, y, cx + 90, y + 80], radius=4, fill=(213, 231, 247), outline=(44, 136, 217),
                                width=2)
            d.text((cx, y + 40), name, fill=INK, font=font, anchor="mm")
        d.line([(cx, 120), (cx, 236)], fill=LINE, width=4)
        d.text((cx, 250), word, fill=INK, font=font, anchor="mm")
        d.line([(cx, 264), (cx, 276)], fill=LINE, width=4)
        d.polygon([(cx - 7, 276), (cx + 7, 276), (cx, 286)], fill=LINE)
    return np.asarray(im)


def test_a_label_in_its_line_does_not_end_it():
    fig = convert(_branches(), Config(quality=False)).figure
    assert edge_pairs(fig) == {("Check", "Act"): 1, ("Wait", "Stop"): 1}
    labels = sorted(e.label for e in fig.components if isinstance(e, Edge))
    assert labels == ["No", "Yes"]


def test_the_carried_line_keeps_its_stubs_head():
    """The head drawn on the stub past the label is the edge's head (it had come out 'none')."""
    fig = convert(_branches(), Config(quality=False)).figure
    edges = [e for e in fig.components if isinstance(e, Edge)]
    assert len(edges) == 2 and all(e.head == "arrow" and e.tail == "none" for e in edges)


def _tinted_note() -> np.ndarray:
    """A tinted frame holding 'Alpha', its line ending at a free note, and 'Gamma' 20 px under the
    note with nothing drawn between: the frame's tint is no stub."""
    im = Image.new("RGB", (460, 460), (255, 255, 255))
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype("DejaVuSans.ttf", 15)
    d.rectangle([30, 30, 430, 430], fill=(196, 216, 240), outline=(90, 110, 140), width=2)
    d.text((50, 40), "Frame", fill=INK, font=font)
    for y, name in ((70, "Alpha"), (296, "Gamma")):
        d.rectangle([150, y, 310, y + 70], fill=(255, 255, 255), outline=(44, 136, 217), width=2)
        d.text((230, y + 35), name, fill=INK, font=font, anchor="mm")
    d.line([(230, 140), (230, 256)], fill=(60, 60, 60), width=3)
    d.text((230, 268), "note", fill=INK, font=font, anchor="mm")
    return np.asarray(im)


def test_a_groups_tint_is_no_stub():
    fig = convert(_tinted_note(), Config(quality=False)).figure
    assert ("Alpha", "Gamma") not in edge_pairs(fig)


def _text_between_arrows() -> np.ndarray:
    """'layer 1 → a(x) → layer 2': a text node between two short arrows, the second's start by the
    text and the first arrow within reach behind it (the course back through the text meets it)."""
    im = Image.new("RGB", (540, 160), (255, 255, 255))
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype("DejaVuSans.ttf", 15)
    for x0, name in ((20, "layer 1"), (340, "layer 2")):
        d.rectangle([x0, 45, x0 + 160, 115], fill=(255, 255, 255), outline=(44, 136, 217), width=2)
        d.text((x0 + 80, 80), name, fill=INK, font=font, anchor="mm")
    d.text((245, 80), "a(x)", fill=INK, font=font, anchor="mm")
    for x0, x1 in ((182, 224), (266, 338)):
        d.line([(x0, 80), (x1 - 10, 80)], fill=LINE, width=3)
        d.polygon([(x1 - 10, 74), (x1 - 10, 86), (x1, 80)], fill=LINE)
    return np.asarray(im)


def test_a_text_between_two_arrows_is_not_carried_through():
    fig = convert(_text_between_arrows(), Config(quality=False)).figure
    pairs = edge_pairs(fig)
    assert ("layer 1", "layer 2") not in pairs and ("layer 2", "layer 1") not in pairs
