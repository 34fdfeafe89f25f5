"""Elementwise operators drawn as filled circles holding a symbol the recogniser does not read (d2l's LSTM: ⊙
drawn as a ring round a dot; its residual block: a +): the circles came back unlabelled, the symbol
dropped from the drawing, and the arrows into them ended at nameless nodes (issue 31). A cross drawn
from rim to rim is the shape's own drawing and stays unlabelled, as do a state machine's final state (a
disk in a ring) and an empty inner ring. Drawn here with PIL."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from crafteditor.assemble.circled import operator_glyph
from crafteditor.config import Config
from crafteditor.convert import convert
from crafteditor.shapes.detect import DetectedShape
from crafter.spec.model import Edge, Node

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
SERIF_ITALIC = "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Italic.ttf"
FILL = (178, 217, 255)


def _circle(d: ImageDraw.ImageDraw, cx: int, cy: int, symbol: str) -> None:
    r = 27
    d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=FILL, outline="black", width=3)
    if symbol == "⊙":  # a ring round a dot, as d2l draws it
        d.ellipse([cx - 12, cy - 12, cx + 12, cy + 12], outline="black", width=3)
        d.ellipse([cx - 4, cy - 4, cx + 4, cy + 4], fill="black")
    elif symbol == "+":  # a plus clear of the rim
        d.line([cx - 10, cy, cx + 10, cy], fill="black", width=3)
        d.line([cx, cy - 10, cx, cy + 10], fill="black", width=3)
    elif symbol == "final state":  # a state machine's bullseye: a solid disk, no glyph
        d.ellipse([cx - 15, cy - 15, cx + 15, cy + 15], fill="black")
    elif symbol == "double circle":  # an empty inner ring: no glyph either
        d.ellipse([cx - 13, cy - 13, cx + 13, cy + 13], outline="black", width=3)
    elif symbol == "⊕ drawn":  # TikZ's cross from rim to rim: the circle's own drawing
        d.line([cx - r, cy, cx + r, cy], fill="black", width=3)
        d.line([cx, cy - r, cx, cy + r], fill="black", width=3)


def _gates() -> bytes:
    img = Image.new("RGB", (1500, 420), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 30)
    for i, (symbol, word) in enumerate([("⊙", "forget"), ("+", "input"), ("⊕ drawn", "output"),
                                           ("final state", "done"), ("double circle", "accept")]):
        cx = 150 + 300 * i
        d.rectangle([cx - 75, 280, cx + 75, 340], fill=(102, 191, 255), outline="black", width=3)
        d.text((cx, 310), word, fill="black", font=font, anchor="mm")
        d.line([cx, 278, cx, 134], fill="black", width=3)  # an arrow up from the box into the circle
        d.polygon([(cx - 9, 150), (cx + 9, 150), (cx, 130)], fill="black")
        _circle(d, cx, 100, symbol)
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def test_an_operator_circles_unread_symbol_is_its_label():
    fig = convert(_gates(), Config()).figure
    circles = sorted((c.box.x, c.label) for c in fig.components if isinstance(c, Node) and c.shape == "circle")
    assert [label for _, label in circles[:2]] == ["⊙", "+"], circles
    assert not any(label for x, label in circles if x > 600), circles  # the drawn cross, the bullseye, the ring
    # the arrow from the box now ends at a named node
    labels = {c.id: c.label for c in fig.components if isinstance(c, Node)}
    pairs = {(labels.get(e.source), labels.get(e.target)) for e in fig.components if isinstance(e, Edge)}
    assert ("forget", "⊙") in pairs and ("input", "+") in pairs, pairs


def _ringed(symbol: str, face: str = FONT) -> tuple[np.ndarray, DetectedShape]:
    """A filled circle (its stroke's centre line of radius 25.5) with ``symbol`` set in its middle."""
    img = Image.new("RGB", (120, 120), "white")
    d = ImageDraw.Draw(img)
    d.ellipse([33, 33, 87, 87], fill=FILL, outline="black", width=3)
    d.text((60, 60), symbol, fill="black", font=ImageFont.truetype(face, 22), anchor="mm")
    s = DetectedShape(shape="circle", x=34.5, y=34.5, w=51.0, h=51.0, fill=FILL, stroke=(0, 0, 0),
                      stroke_px=3.0, iou=1.0, face=None)
    return np.asarray(img), s


def test_a_lone_letter_in_a_circle_is_no_operator():
    """Letters are the operators' rivals: a sans x or X fits × and an e fits ⊕ well enough to be read
    as one, were it set beside the operators alone."""
    for letter in "xXeEc":
        assert operator_glyph(*_ringed(letter)) is None, letter
    assert [operator_glyph(*_ringed(op))[0] for op in "×⊕⊗⊙+"] == list("×⊕⊗⊙+")


def test_an_activations_italic_greek_letter_in_a_circle_is_its_label():
    """A Mamba block's or a GRU's activation: an italic σ in a circle, its tail reaching well out toward the rim
    (the operators' rim test had taken it for a line drawn through the circle). The recogniser has no class for σ:
    the circle came back unlabelled and the edges into it ended at a nameless node."""
    img = Image.new("RGB", (120, 120), "white")
    d = ImageDraw.Draw(img)
    d.ellipse([33, 33, 87, 87], fill=FILL, outline="black", width=3)
    d.text((60, 60), "σ", fill="black", font=ImageFont.truetype(SERIF_ITALIC, 40), anchor="mm")
    s = DetectedShape(shape="circle", x=34.5, y=34.5, w=51.0, h=51.0, fill=FILL, stroke=(0, 0, 0),
                      stroke_px=3.0, iou=1.0, face=None)
    assert operator_glyph(np.asarray(img), s)[0] == "σ"
    # a cross drawn from rim to rim is no glyph, Greek or other
    d.ellipse([33, 33, 87, 87], fill=FILL, outline="black", width=3)
    d.line([35, 60, 85, 60], fill="black", width=3)
    d.line([60, 35, 60, 85], fill="black", width=3)
    assert operator_glyph(np.asarray(img), s) is None


def test_a_circled_latin_capital_is_no_greek_one():
    """A circled F or L (22 px, DejaVu Sans and Serif) fell back to the Greek reading as 'Γ': F, L and E are
    the look-alikes Γ and Σ are weighed against; a circled Γ or Σ is still read."""
    for face in (FONT, FONT.replace("DejaVuSans", "DejaVuSerif")):
        for letter, want in (("F", None), ("L", None), ("Γ", "Γ"), ("Σ", "Σ")):
            rgb, s = _ringed(letter, face)
            got = operator_glyph(rgb, s)
            assert (got and got[0]) == want, (face, letter, got)
