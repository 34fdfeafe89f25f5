"""Edges of typeset diagrams that real figures lost (issue 31), each kind drawn here: a class
hierarchy's anti-aliased elbow connectors merged into buses (their corners had read as
arrowheads), a bracket of subclasses that the base class's line crosses, and heavy arrows whose heads
touch their boxes among thin grey outlines (a paper figure's multi-head attention), and a state's
transition to itself."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
from ce_helpers import png_bytes
from conftest import dev_figure
from PIL import Image, ImageDraw, ImageFont

from crafteditor.config import Config
from crafteditor.convert import convert
from crafteditor.realset import score_real
from crafter.spec.model import Edge, Node

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
SS = 4  # drawn this many times larger, then shrunk: anti-aliased strokes, as a browser draws them


def _pairs(fig) -> Counter:
    labels = {c.id: " ".join((c.label or "").split()) for c in fig.components if isinstance(c, Node)}
    return Counter((labels.get(e.source, "?"), labels.get(e.target, "?"))
                   for e in fig.components if isinstance(e, Edge))


class _Canvas:
    """A PIL drawing in figure pixels, drawn SS times larger and shrunk with a Lanczos filter."""

    def __init__(self, w: int, h: int) -> None:
        self.img = Image.new("RGB", (w * SS, h * SS), "white")
        self.d = ImageDraw.Draw(self.img)
        self.font = ImageFont.truetype(FONT, 15 * SS)

    def box(self, x: float, y: float, w: float, h: float, label: str, fill=(207, 226, 243)) -> None:
        self.d.rectangle([x * SS, y * SS, (x + w) * SS, (y + h) * SS], fill=fill, outline=(40, 40, 40), width=2 * SS)
        tw = self.d.textlength(label, font=self.font)
        self.d.text(((x + w / 2) * SS - tw / 2, (y + h / 2 - 10) * SS), label, fill="black", font=self.font)

    def line(self, pts, width: float = 2.0, color=(40, 40, 40)) -> None:
        self.d.line([(x * SS, y * SS) for x, y in pts], fill=color, width=int(width * SS), joint="curve")

    def head(self, tip, direction, size: float = 12, color=(40, 40, 40), hollow: bool = False) -> None:
        ux, uy = direction
        bx, by = tip[0] - ux * size, tip[1] - uy * size
        tri = [(tip[0] * SS, tip[1] * SS), ((bx - uy * size / 2) * SS, (by + ux * size / 2) * SS),
               ((bx + uy * size / 2) * SS, (by - ux * size / 2) * SS)]
        self.d.polygon(tri, fill="white" if hollow else color, outline=color, width=int(1.5 * SS))

    def png(self) -> bytes:
        small = self.img.resize((self.img.width // SS, self.img.height // SS), Image.LANCZOS)
        return png_bytes(np.asarray(small))


def class_tree_png() -> tuple[bytes, Counter]:
    """A class diagram drawn like Google Drawings' UML: two subclasses on the left joined by a bar
    whose stem carries a head to the base class; two below under a bar likewise; two on the
    right on a bracket that the third's line crosses on its way to the base class."""
    c = _Canvas(1000, 560)
    base = (380, 200, 200, 80)
    c.box(*base, "Base")
    left = {"Alpha": (20, 80), "Beta": (20, 320)}
    below = {"Gamma": (250, 440), "Delta": (510, 440)}
    right = {"Kappa": (760, 60), "Lambda": (760, 340), "Omega": (800, 200)}
    for name, (x, y) in {**left, **below, **right}.items():
        c.box(x, y, 180, 80, name)
    # left: legs out of each box's right side to a bar at x=300, a stem to the base's left side
    c.line([(200, 120), (300, 120), (300, 360), (200, 360)])
    c.line([(300, 240), (366, 240)])
    c.head((380, 240), (1, 0))
    # below: legs up out of each box's top to a bar at y=360, a stem up to the base's bottom
    c.line([(340, 440), (340, 360), (600, 360), (600, 440)])
    c.line([(470, 360), (470, 294)])
    c.head((470, 280), (0, -1))
    # right: a bracket at x=700 from Kappa and Lambda; Omega's line crosses it to the base
    c.line([(760, 100), (700, 100), (700, 380), (760, 380)])
    c.line([(800, 240), (594, 240)])
    c.head((580, 240), (-1, 0))
    want = Counter((n, "Base") for n in [*left, *below, *right])
    return c.png(), want


def test_a_class_tree_gives_each_subclass_its_edge():
    """Every subclass is one edge to its base class, through the bar it shares with others and the
    stem that carries the head, whichever way the bar is drawn (a bar fed by a stem, a bracket a
    line crosses); the connectors' anti-aliased corners are not read as arrowheads."""
    png, want = class_tree_png()
    pairs = _pairs(convert(png, Config()).figure)
    assert pairs == want, pairs


def attention_png() -> tuple[bytes, Counter]:
    """Heavy black arrows (5 px) whose heads touch the boxes they point up at, beside thin grey
    outlines of the boxes' stacked copies (a multi-head attention block)."""
    c = _Canvas(520, 620)
    c.box(160, 40, 200, 70, "Linear", fill="white")
    c.box(160, 220, 200, 70, "Concat", fill="white")
    c.box(60, 420, 400, 70, "Attention", fill="white")
    # the stacked copies behind the attention box: thin grey frames up and to the right
    for k, grey in ((1, (110, 110, 110)), (2, (170, 170, 170))):
        c.line([(60 + 12 * k, 420 - 12 * k), (460 + 12 * k, 420 - 12 * k), (460 + 12 * k, 490 - 12 * k)], 1.5, grey)
    for (x0, y0), (x1, y1) in (((260, 420), (260, 290)), ((260, 220), (260, 110)), ((260, 600), (260, 490))):
        c.line([(x0, y0), (x1, y1 + 20)], 5, (0, 0, 0))
        c.head((x1, y1), (0, -1), size=24, color=(0, 0, 0))
    return c.png(), Counter({("Attention", "Concat"): 1, ("Concat", "Linear"): 1})


def test_heavy_arrows_keep_their_heads_among_thin_lines():
    """A line far wider than the figure's typical line keeps its head (it survived the opening
    that finds heads whole, and had been dropped as a block): the edges point the way drawn."""
    png, want = attention_png()
    pairs = _pairs(convert(png, Config()).figure)
    assert all(pairs[p] >= 1 for p in want), pairs
    assert not pairs[("Concat", "Attention")] and not pairs[("Linear", "Concat")], pairs


def loop_png() -> bytes:
    """Two states, each with a transition to itself (an arc out of its right side, round over its
    top and back down onto it), and one between them."""
    c = _Canvas(620, 360)
    for name, (x, y) in {"Idle": (140, 220), "Busy": (460, 220)}.items():
        c.d.ellipse([(x - 60) * SS, (y - 60) * SS, (x + 60) * SS, (y + 60) * SS], fill=(207, 226, 243),
                    outline=(60, 60, 60), width=2 * SS)
        tw = c.d.textlength(name, font=c.font)
        c.d.text((x * SS - tw / 2, (y - 10) * SS), name, fill="black", font=c.font)
        turns = np.linspace(math.radians(100), math.radians(-180), 40)
        arc = [(x + 30 + 45 * math.cos(t), y - 75 + 45 * math.sin(t)) for t in turns]
        c.line([(x + 52, y - 30), *arc[1:], (x - 15, y - 75)], 2, (60, 60, 60))
        c.line([(x - 15, y - 75), (x - 15, y - 72)], 2, (60, 60, 60))
        c.head((x - 15, y - 59), (0, 1), size=12, color=(60, 60, 60))
    c.line([(200, 220), (386, 220)], 2, (60, 60, 60))
    c.head((400, 220), (1, 0), size=12, color=(60, 60, 60))
    return c.png()


def test_a_transition_to_itself_is_a_self_loop():
    """A headed arc leaving a state and coming back onto it is an edge from the state to itself
    (it had been left a free path)."""
    pairs = _pairs(convert(loop_png(), Config()).figure)
    assert pairs[("Idle", "Busy")] == 1, pairs
    assert pairs[("Idle", "Idle")] == 1 and pairs[("Busy", "Busy")] == 1, pairs


def test_real_class_trees_keep_their_edges(real_set):
    """On the real set's dev class diagrams whose classes are all read but one, the edges are found."""
    f = dev_figure(real_set, "C_tf-community_filesystem-classes")
    conv = convert(f.path.read_bytes(), Config(), name=f.id)
    sc = score_real(conv.figure, conv.svg, f.truth)
    assert sc["edges"] >= 0.8, sc
