"""Edges real typeset figures lost (issue 31, round 4), each kind reproduced on a figure drawn
here: a sequence diagram whose message labels sit in boxes on the arrows (Eraser-like), a
websequencediagrams 'napkin' one whose messages wave, and a class diagram whose subclasses hang
on one bar under a hollow inheritance triangle."""

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


def _head(d: ImageDraw.ImageDraw, tip: tuple[float, float], s: int, size: int, color) -> None:
    x, y = tip
    d.polygon([(x, y), (x - s * size, y - size // 2), (x - s * size, y + size // 2)], fill=color)


def _participants(d, names, xs, H, fill, text_fill, font, top=20, bw=170, bh=60, bottom=True):
    for x, name in zip(xs, names):
        for y in ((top, H - 20 - bh) if bottom else (top,)):
            d.rounded_rectangle([x - bw // 2, y, x + bw // 2, y + bh], radius=6, fill=fill, outline=(0, 0, 0)
                                if fill == "white" else fill, width=2)
            tw = d.textlength(name, font=font)
            d.text((x - tw / 2, y + bh / 2 - 12), name, fill=text_fill, font=font)


def boxed_sequence_png() -> tuple[bytes, Counter, list[str]]:
    """Eraser-like: a tinted page, coloured participant headers, light lifelines with activation
    bars, and each message's label in a white box sitting on its arrow, hiding most of it."""
    W, H = 1000, 440
    page = (238, 242, 246)
    img = Image.new("RGB", (W, H), page)
    d = ImageDraw.Draw(img)
    names, xs = ["Caller", "Service", "Callback"], [160, 500, 840]
    for x in xs:
        d.line([(x, 80), (x, H - 10)], fill=(200, 208, 216), width=3)
    _participants(d, names, xs, H, (70, 120, 200), "white", ImageFont.truetype(BOLD, 22), bottom=False)
    ink, small = (170, 182, 194), ImageFont.truetype(BOLD, 19)
    msgs = [(0, 1, 150, "performAsync(callback)"), (1, 2, 250, "onComplete(result)"), (2, 0, 350, "handle result")]
    want: Counter = Counter()
    for a, b, y, label in msgs:
        for x in (xs[a], xs[b]):
            d.rectangle([x - 5, y - 18, x + 5, y + 18], fill=(60, 110, 200))
        s = 1 if xs[b] > xs[a] else -1
        x0, x1 = xs[a] + 12 * s, xs[b] - 8 * s
        d.line([(x0, y), (x1, y)], fill=ink, width=4)
        _head(d, (x1, y), s, 16, ink)
        tw = d.textlength(label, font=small)
        mid = (xs[a] + xs[b]) / 2 if abs(b - a) == 1 else xs[1]
        d.rectangle([mid - tw / 2 - 14, y - 22, mid + tw / 2 + 14, y + 22], fill="white")
        d.text((mid - tw / 2, y - 12), label, fill=(50, 60, 70), font=small)
        want[(names[a], names[b])] += 1
    return png_bytes(np.asarray(img)), want, [m[3] for m in msgs]


def napkin_sequence_png(msgs=None) -> tuple[bytes, Counter]:
    """websequencediagrams' napkin style: wavy hand-drawn messages with large heads."""
    W, H = 1000, 520
    img = Image.new("RGB", (W, H), "white")
    d = ImageDraw.Draw(img)
    names, xs = ["user", "kubeadm", "kubelet"], [150, 480, 840]
    for x in xs:
        d.line([(x, 80), (x, H - 80)], fill="black", width=2)
    _participants(d, names, xs, H, "white", "black", ImageFont.truetype(FONT, 22))
    msgs = msgs or [(0, 1, 140, "start"), (1, 2, 220, "read config"), (2, 1, 300, "config"), (1, 2, 380, "write config")]
    want: Counter = Counter()
    small = ImageFont.truetype(FONT, 17)
    for k, (a, b, y, label) in enumerate(msgs):
        s = 1 if xs[b] > xs[a] else -1
        x0, x1 = xs[a] + 2 * s, xs[b] - 3 * s
        n = 40
        pts = [(x0 + (x1 - x0) * t / n, y + 5 * math.sin(math.pi * t / n * 2 + k) - 3 * t / n) for t in range(n + 1)]
        d.line(pts, fill="black", width=3, joint="curve")
        _head(d, pts[-1], s, 24, "black")
        tw = d.textlength(label, font=small)
        d.text(((xs[a] + xs[b]) / 2 - tw / 2, y - 34), label, fill="black", font=small)
        want[(names[a], names[b])] += 1
    return png_bytes(np.asarray(img)), want


def class_tree_png() -> tuple[bytes, Counter]:
    """A base class and four subclasses on one bar, whose stem carries a hollow triangle to it."""
    W, H = 900, 480
    img = Image.new("RGB", (W, H), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 22)
    blue = (30, 90, 170)

    def box(x, y, w, h, name):
        d.rectangle([x, y, x + w, y + h], fill=(220, 232, 250), outline=blue, width=3)
        tw = d.textlength(name, font=font)
        d.text((x + w / 2 - tw / 2, y + h / 2 - 13), name, fill=blue, font=font)

    box(120, 200, 200, 70, "Command")
    subs = ["AddCommand", "ListCommand", "EditCommand", "ClearCommand"]
    ys = [60, 150, 250, 340]
    bar = 560
    for name, y in zip(subs, ys):
        box(620, y, 220, 60, name)
        d.line([(bar, y + 30), (620, y + 30)], fill=blue, width=3)
    d.line([(bar, ys[0] + 30), (bar, ys[-1] + 30)], fill=blue, width=3)
    # the stem from the bar to the triangle's back; the hollow triangle's tip on Command's side
    tip, back = 322, 362
    d.line([(back, 235), (bar, 235)], fill=blue, width=3)
    d.polygon([(tip, 235), (back, 214), (back, 256)], fill="white", outline=blue, width=3)
    return png_bytes(np.asarray(img)), Counter({(s, "Command"): 1 for s in subs})


def test_message_labels_in_boxes_on_their_arrows():
    """A message whose label box hides most of its arrow is still one edge between its
    participants, labelled with the box's text; the label boxes are no participants."""
    png, want, labels = boxed_sequence_png()
    fig = convert(png, Config()).figure
    assert edge_pairs(fig) == want, edge_pairs(fig)
    nodes = sorted((c.label or "").strip() for c in fig.components if isinstance(c, Node))
    assert nodes == ["Callback", "Caller", "Service"], nodes
    got = sorted((e.label or "").replace("\n", " ") for e in fig.components if isinstance(e, Edge))
    assert got == sorted(labels), got


def test_wavy_hand_drawn_messages():
    """A hand-drawn message that waves over a dozen rows joins its participants, towards its head."""
    png, want = napkin_sequence_png()
    fig = convert(png, Config()).figure
    assert edge_pairs(fig) == want, edge_pairs(fig)


@pytest.mark.xfail(strict=True, reason="heads are looked for in the row-spread ink of a wavy pass; looking in the "
                   "ink as drawn mends this and costs a real napkin figure (kubeadm-upgrade-node 0.57 -> 0.33)")
def test_a_wavy_message_passing_over_a_lifeline_joins_its_own_ends():
    """A hand-drawn message from the first participant to the third passes over the second's lifeline:
    the rows it waves over are no head at the lifeline between (it had been read as 0 -> 1 only)."""
    png, want = napkin_sequence_png([(0, 1, 140, "start"), (0, 2, 260, "notify all"), (2, 1, 380, "config")])
    fig = convert(png, Config()).figure
    assert edge_pairs(fig) == want, edge_pairs(fig)


def test_subclasses_on_a_bar_under_a_hollow_triangle():
    """Every subclass on the bar is an edge to the base class (the triangle is the stem's head)."""
    png, want = class_tree_png()
    fig = convert(png, Config()).figure
    pairs = edge_pairs(fig)
    assert pairs == want, pairs


@pytest.mark.parametrize("fid,least", [("C_java-design-patterns_callback-sequence", 0.6),
                                       ("C_addressbook-level4_logic-class", 0.55),
                                       ("C_golang-proposal_compile-flow", 0.75)])
def test_real_boxed_messages_and_class_trees(real_set, fid, least):
    """On the real set (dev), where present: the figures these faults were seen on (the compile
    flow's short dotted arrows lose their first dots to one box's ring and their heads to the
    next box's outline; a figure drawn here kept both, so only the real one shows it)."""
    figs = [f for f in load_real(real_set, "dev", manifest=REAL_MANIFEST) if f.id == fid]
    if not figs:
        pytest.skip(f"{fid} is not in the set")
    conv = convert(figs[0].path.read_bytes(), Config(), name=fid)
    sc = score_real(conv.figure, conv.svg, figs[0].truth)
    assert sc["edges"] >= least, sc



