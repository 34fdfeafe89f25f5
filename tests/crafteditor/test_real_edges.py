"""Edges real figures lost (issue 31), each kind reproduced on a figure drawn here: a sequence
diagram's messages between lifelines (mermaid-, websequencediagrams-like), and undirected lines
given in reading order."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from ce_helpers import edge_pairs, png_bytes
from conftest import REAL_MANIFEST
from PIL import Image, ImageDraw, ImageFont

from crafteditor.config import Config
from crafteditor.convert import convert
from crafteditor.realset import load_real, score_real
from crafter.spec.model import Edge, Node

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


def _arrow(d: ImageDraw.ImageDraw, x0: int, x1: int, y: int, color, dashed: bool, heads: tuple[bool, bool],
           width: int, size: int) -> None:
    if dashed:
        step = 1 if x1 > x0 else -1
        for x in range(x0, x1, 12 * step):
            d.line([(x, y), (x + 6 * step if abs(x1 - x) > 6 else x1, y)], fill=color, width=width)
    else:
        d.line([(x0, y), (x1, y)], fill=color, width=width)
    for tip, back, on in ((x1, x0, heads[1]), (x0, x1, heads[0])):
        if on:
            s = 1 if back < tip else -1
            d.polygon([(tip, y), (tip - s * size, y - size // 2), (tip - s * size, y + size // 2)], fill=color)


def sequence_png(style: str) -> tuple[bytes, Counter]:
    """A sequence diagram of three participants drawn top and bottom, and its messages as
    (source, target) names. ``mermaid``: grey boxes, light lifelines, an activation bar, bold labels
    above the arrows, dashed returns; ``plain``: 1 px black lines, labels touching the arrows,
    a double-headed message (its left participant is the source), a message to oneself."""
    W, H = 900, 470
    img = Image.new("RGB", (W, H), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 22)
    bold = ImageFont.truetype(BOLD, 20)
    names = ["Alice", "Bob", "Carol"]
    xs = [150, 450, 750]
    bw, bh = 180, 70
    mermaid = style == "mermaid"
    box_fill, box_line = ((236, 236, 236), (210, 210, 210)) if mermaid else ("white", "black")
    life = (190, 190, 190) if mermaid else (0, 0, 0)
    for x in xs:
        d.line([(x, 20 + bh), (x, H - 20 - bh)], fill=life, width=2 if mermaid else 1)
    for x, name in zip(xs, names):
        for y in (20, H - 20 - bh):
            d.rounded_rectangle([x - bw // 2, y, x + bw // 2, y + bh], radius=4, fill=box_fill, outline=box_line)
            tw = d.textlength(name, font=font)
            d.text((x - tw / 2, y + bh / 2 - 13), name, fill=(40, 40, 40) if mermaid else "black", font=font)
    ink = (51, 51, 51) if mermaid else (0, 0, 0)
    lw, hs = (2, 14) if mermaid else (1, 10)
    if mermaid:
        d.rectangle([xs[1] - 10, 150, xs[1] + 10, 360], fill=(246, 246, 246), outline=(120, 120, 120))
    # (from, to, y, dashed, heads at (from, to), label)
    msgs = [(0, 1, 150, False, (False, True), "Hello Bob"),
            (1, 2, 220, False, (False, True), "Ask Carol"),
            (2, 1, 290, True, (False, True), "Reply"),
            (1, 0, 360, True, (False, True), "Done")]
    if not mermaid:
        msgs[2] = (1, 2, 290, False, (True, True), "Stream")
    want: Counter = Counter()
    for a, b_, y, dashed, heads, label in msgs:
        off = 11 if mermaid and 1 in (a, b_) else 0
        x0 = xs[a] + (off if xs[b_] > xs[a] else -off) * (a == 1)
        x1 = xs[b_] + (-off if xs[b_] > xs[a] else off) * (b_ == 1)
        _arrow(d, x0, x1, y, ink, dashed, heads, lw, hs)
        f = bold if mermaid else ImageFont.truetype(FONT, 16)
        tw = d.textlength(label, font=f)
        d.text(((xs[a] + xs[b_]) / 2 - tw / 2, y - (32 if mermaid else 19)), label, fill=ink, font=f)
        src, dst = (a, b_) if not all(heads) else (min(a, b_), max(a, b_))
        want[(names[src], names[dst])] += 1
    if not mermaid:  # a message Carol sends herself: out, down, back with a head
        x, y = xs[2], 318
        d.line([(x, y), (x + 45, y), (x + 45, y + 26), (x + 1, y + 26)], fill=ink, width=lw)
        d.polygon([(x + 1, y + 26), (x + 1 + hs, y + 26 - hs // 2), (x + 1 + hs, y + 26 + hs // 2)], fill=ink)
        d.text((x + 52, y + 4), "Think", fill=ink, font=ImageFont.truetype(FONT, 16))
        want[("Carol", "Carol")] += 1
    return png_bytes(np.asarray(img)), want


@pytest.mark.parametrize("style", ["mermaid", "plain"])
def test_sequence_messages_join_participants(style):
    """Each message is one edge from its sender to its receiver (its head's end), whatever the
    activation bars, dashes and labels on the way; no cell between lifelines reads as a box."""
    png, want = sequence_png(style)
    fig = convert(png, Config()).figure
    pairs = edge_pairs(fig)
    assert pairs == want, pairs
    # a lifeline is no message: none joins a participant's box to its repeat at the foot as an edge
    assert edge_pairs(fig, lifelines=True) == Counter()
    boxes = [c for c in fig.components if isinstance(c, Node) and c.label]
    assert sorted(c.label for c in boxes) == sorted(["Alice", "Bob", "Carol"] * 2)
    if style == "plain":  # the double-headed message keeps both heads
        both = [e for e in fig.components if isinstance(e, Edge) and e.tail == "arrow"]
        assert len(both) == 1


def graph_png() -> tuple[bytes, list[tuple[str, str]]]:
    """Ellipses joined by plain lines (a Graphviz neato graph): no line has a head."""
    img = Image.new("RGB", (820, 460), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 24)
    at = {"run": (130, 110), "kernel": (420, 150), "sleep": (650, 60), "swap": (520, 380), "zombie": (140, 380)}
    # drawn from the right or lower node, against reading order
    lines = [("kernel", "run"), ("sleep", "kernel"), ("swap", "sleep"), ("zombie", "run"), ("swap", "zombie")]
    for a, b_ in lines:
        (xa, ya), (xb, yb) = at[a], at[b_]
        L = math.dist((xa, ya), (xb, yb))
        ux, uy = (xb - xa) / L, (yb - ya) / L
        d.line([(xa + ux * 48, ya + uy * 36), (xb - ux * 48, yb - uy * 36)], fill="black", width=2)
    for name, (x, y) in at.items():
        d.ellipse([x - 70, y - 32, x + 70, y + 32], fill="white", outline="black", width=2)
        tw = d.textlength(name, font=font)
        d.text((x - tw / 2, y - 15), name, fill="black", font=font)
    want = []
    for a, b_ in lines:
        (xa, ya), (xb, yb) = at[a], at[b_]
        steep = abs(xb - xa) < 0.25 * abs(yb - ya)
        first = (ya > yb) if steep else (xa > xb)
        want.append((b_, a) if first else (a, b_))
    return png_bytes(np.asarray(img)), want


def test_undirected_lines_read_left_to_right():
    """A line without heads joins its nodes in reading order: left node first, top node first
    where the line is steep (the order a reader lists it in; the tracer's is arbitrary)."""
    png, want = graph_png()
    fig = convert(png, Config()).figure
    pairs = edge_pairs(fig)
    assert pairs == Counter(want), pairs
    assert all(e.head == "none" for e in fig.components if isinstance(e, Edge))


def test_real_sequence_diagrams_keep_messages(real_set):
    """On the real set's dev sequence diagrams whose participants are read, messages are edges."""
    figs = [f for f in load_real(real_set, "dev", manifest=REAL_MANIFEST)
            if "sequence" in f.id]
    if not figs:
        pytest.skip("no dev sequence diagram in the set")
    for f in figs:
        conv = convert(f.path.read_bytes(), Config(), name=f.id)
        sc = score_real(conv.figure, conv.svg, f.truth)
        if sc.get("nodes", 0) >= 0.99:
            assert sc["edges"] >= 0.7, (f.id, sc)


def fan_png() -> bytes:
    """One box whose three arrows leave from one point on its side (a state machine's fan-out)."""
    img = Image.new("RGB", (760, 420), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 24)
    boxes = {"Greenlit": (40, 180), "Succeeded": (460, 40), "Failed": (460, 180), "Errored": (460, 320)}
    for name, (x, y) in boxes.items():
        d.rectangle([x, y, x + 240, y + 60], outline="black", width=3)
        tw = d.textlength(name, font=font)
        d.text((x + 120 - tw / 2, y + 16), name, fill="black", font=font)
    sx, sy = 280, 210
    for name in ("Succeeded", "Failed", "Errored"):
        x, y = boxes[name]
        tx, ty = x - 4, y + 30 if name == "Failed" else (y + 62 if name == "Succeeded" else y - 2)
        tx = tx if name == "Failed" else x + 10
        L = math.dist((sx, sy), (tx, ty))
        ux, uy = (tx - sx) / L, (ty - sy) / L
        bx, by = tx - ux * 16, ty - uy * 16
        d.line([(sx, sy), (bx, by)], fill="black", width=4)
        d.polygon([(tx, ty), (bx - uy * 7, by + ux * 7), (bx + uy * 7, by - ux * 7)], fill="black")
    return png_bytes(np.asarray(img))


def test_arrows_fanning_out_of_one_point_are_edges_each():
    """Arrows that leave a node from one point are one edge each from that node, not one
    double-headed edge between two of their targets."""
    fig = convert(fan_png(), Config()).figure
    pairs = edge_pairs(fig)
    assert pairs == Counter({("Greenlit", "Succeeded"): 1, ("Greenlit", "Failed"): 1, ("Greenlit", "Errored"): 1}), pairs


def test_a_fan_traced_as_one_double_headed_line_is_split_at_its_node():
    """The tracer can join two arrows leaving one point into one line with a head at each end
    (castellum's state machine); the line turns on the node's outline and is split there."""
    from crafteditor.assemble.edges import _split_fans
    from crafteditor.lines.paths import Arrowhead, LinePath
    from crafteditor.shapes.detect import DetectedShape

    def box(x, y):
        return DetectedShape(shape="box", x=x, y=y, w=240, h=60, fill=(255, 255, 255), stroke=(0, 0, 0), stroke_px=3,
                             iou=1.0, face=None)

    shapes = [box(40, 180), box(460, 40), box(460, 180)]  # Greenlit, Succeeded, Failed
    head = Arrowhead(tip=(0, 0), base=(0, 0), length=16, width=14, mask_box=(0, 0, 1, 1))
    ln = LinePath(points=[(456, 210), (283, 210), (456, 102)], width=3.0, color=(0, 0, 0), head_start=head,
                  head_end=head)
    parts = _split_fans([ln], shapes)
    assert len(parts) == 2
    assert all(p.points[0] == (283, 210) and p.head_start is None and p.head_end is head for p in parts)
    assert {p.points[-1] for p in parts} == {(456, 210), (456, 102)}
    # a double-headed line between two nodes, passing no third one, stays whole
    straight = LinePath(points=[(456, 70), (370, 70), (370, 210), (456, 210)], width=3.0, color=(0, 0, 0),
                        head_start=head, head_end=head)
    assert _split_fans([straight], shapes) == [straight]
