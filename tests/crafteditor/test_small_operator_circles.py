"""TikZ operator circles at 1x (``circle, draw, minimum size=0.5cm`` compiled at 150 dpi: 23 px across, a thin rim,
an 8 px × inside): the × is not read, so it was not erased and its arms cut the circle's inside into wedges too thin
for a face; the circle was lost and its ring and × were read as one big arrowhead on the arrow entering it (an
LSTM cell's gates then joined nothing). Drawn here with PIL at that size: the circle is a node named by its
glyph, and the arrows from the gates end at it. A web of thin strokes (a hatched patch) is still no face."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from crafteditor.assemble.circled import _ring_round_dot
from crafteditor.config import Config
from crafteditor.convert import convert
from crafteditor.shapes.faces import _glyph_held
from crafter.spec.model import Edge, Node

SERIF = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
SANS = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def _cell() -> bytes:
    """Two gates (boxes named 'forget', 'input') each with an arrow up into a small circled × (⊙)."""
    img = Image.new("RGB", (420, 240), "white")
    d = ImageDraw.Draw(img)
    gate = ImageFont.truetype(SANS, 13)
    times = ImageFont.truetype(SERIF, 13)
    for cx, word, symbol in ((110, "forget", "×"), (300, "input", "⊙")):
        d.rectangle([cx - 32, 150, cx + 32, 176], outline="black", width=2)
        d.text((cx, 163), word, fill="black", font=gate, anchor="mm")
        d.line([cx, 149, cx, 84], fill="black", width=2)  # the arrow up, its head at the circle's rim
        d.polygon([(cx - 4, 86), (cx + 4, 86), (cx, 76)], fill="black")
        d.ellipse([cx - 11, 52, cx + 11, 74], outline="black", width=2)  # 23 px across, as TikZ draws it at 1x
        if symbol == "×":
            d.text((cx, 63), "×", fill="black", font=times, anchor="mm")
        else:  # TeX's ⊙: a 1 px ring round a dot
            d.ellipse([cx - 6, 57, cx + 6, 69], outline="black", width=1)
            d.ellipse([cx - 1, 62, cx + 1, 64], fill="black")
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def test_a_small_circled_operator_is_a_node_named_by_its_glyph():
    fig = convert(_cell(), Config()).figure
    circles = [c for c in fig.components if isinstance(c, Node) and c.shape == "circle"]
    assert sorted(c.label for c in circles) == ["×", "⊙"], [(c.label, c.box) for c in circles]
    labels = {c.id: c.label for c in fig.components if isinstance(c, Node)}
    pairs = sorted((labels.get(e.source), labels.get(e.target)) for e in fig.components if isinstance(e, Edge))
    assert pairs == [("forget", "×"), ("input", "⊙")], pairs


def test_a_web_of_thin_strokes_holds_no_glyph():
    full = np.ones((40, 40), bool)
    web = np.zeros((40, 40), bool)
    web[::3, :] = True  # a fine hatched patch: a hole per mesh
    web[:, ::3] = True
    assert not _glyph_held(full, web, np.zeros((40, 40), bool))
    inside = np.ones((22, 22), bool)  # a small outline's inside with a glyph's hole in its middle: a ×'s strokes
    for k in range(7, 15):
        inside[k, k] = inside[k, 21 - k] = False
    assert _glyph_held(np.ones((22, 22), bool), inside, np.zeros((22, 22), bool))
    bullseye = np.ones((22, 22), bool)  # a solid disk in a ring (a final state) is no glyph
    bullseye[6:16, 6:16] = False
    assert not _glyph_held(np.ones((22, 22), bool), bullseye, np.zeros((22, 22), bool))


# d2l's LSTM ⊙ (a ring round a dot, drawn 3 px thick) shrunk to half, as a README shows it: the templates fit ⊕
# (0.76) and ⊗ (0.75) better than ⊙ (0.74); the ring round a dot decides it
D2L_ODOT_HALF = """
....#####....
..#########..
.####...####.
.##.......##.
.##..###..###
###.#####.###
###.#####.###
.##..###..###
.###......##.
..###...####.
..#########..
....#####....
"""


def test_a_ring_round_a_dot_is_odot_and_a_cross_through_a_ring_is_not():
    odot = np.array([[ch == "#" for ch in row] for row in D2L_ODOT_HALF.split()])
    assert _ring_round_dot(odot)
    oplus = odot.copy()
    oplus[5:7, :] = True  # a bar through the ring and its middle: ⊕'s, not ⊙'s
    assert not _ring_round_dot(oplus)
    ring = odot.copy()
    ring[4:8, 4:9] = False  # no dot: a ring alone (○) is no operator
    assert not _ring_round_dot(ring)
