"""Participants created partway down a sequence diagram (UML ``create``): sequencediagram.org's and
PlantUML's entity icons (a circle over a bar, the name under it) or a plain box, set level with the
message that creates them, whose arrowhead stops at (or a little short of) the head's side. Read as
no participants, a diagram whose participants at the top talk only to created ones read as no
sequence at all (cluster-api's ipam-integration: edges 0.14)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from ce_helpers import edge_pairs, png_bytes
from PIL import Image, ImageDraw, ImageFont

from crafteditor.config import Config
from crafteditor.convert import convert
from crafter.spec.model import Node

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def _created_sequence_png(icon: bool) -> tuple[bytes, Counter]:
    """'Controller' and 'Provider' boxed at the top; 'Machine' and 'Claim' created below them by
    an arrow ending 12 px short of their heads (an entity circle with the name under it, or a
    box); dashed lifelines with no boxes at the foot; messages between all four."""
    W, H = 700, 560
    img = Image.new("RGB", (W, H), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 13)
    xs = {"Controller": 60, "Machine": 230, "Provider": 400, "Claim": 580}
    heads = {"Machine": 90, "Claim": 200}  # the created participants' head middles
    creator = {"Machine": "Controller", "Claim": "Provider"}

    def dashed(x: int, y0: int) -> None:
        for y in range(y0, H - 20, 8):
            d.line([(x, y), (x, y + 4)], fill=(60, 60, 60), width=1)

    def arrow(x0: int, x1: int, y: int, label: str, dash: bool = False) -> None:
        s = 1 if x1 > x0 else -1
        if dash:
            for x in range(x0, x1 - 10 * s, 10 * s):
                d.line([(x, y), (x + 5 * s, y)], fill="black", width=1)
        else:
            d.line([(x0, y), (x1 - 2 * s, y)], fill="black", width=1)
        d.polygon([(x1, y), (x1 - 10 * s, y - 5), (x1 - 10 * s, y + 5)], fill="black")
        tw = d.textlength(label, font=font)
        d.text(((x0 + x1) / 2 - tw / 2, y - 17), label, fill="black", font=font)

    for name in ("Controller", "Provider"):
        x, tw = xs[name], d.textlength(name, font=font)
        d.rectangle([x - tw / 2 - 10, 10, x + tw / 2 + 10, 40], fill="white", outline="black")
        d.text((x - tw / 2, 17), name, fill="black", font=font)
        dashed(x, 42)
    want: Counter = Counter()
    for name, cy in heads.items():
        x, tw = xs[name], d.textlength(name, font=font)
        if icon:
            d.ellipse([x - 16, cy - 16, x + 16, cy + 16], outline="black", width=2)
            d.line([(x - 16, cy + 18), (x + 16, cy + 18)], fill="black", width=2)
            d.text((x - tw / 2, cy + 22), name, fill="black", font=font)
            left, foot = x - 16, cy + 40
        else:
            d.rectangle([x - tw / 2 - 10, cy - 15, x + tw / 2 + 10, cy + 15], fill="white", outline="black")
            d.text((x - tw / 2, cy - 8), name, fill="black", font=font)
            left, foot = x - tw / 2 - 10, cy + 17
        dashed(x, int(foot))
        arrow(xs[creator[name]], int(left) - 12, cy, "creates")
        want[(creator[name], name)] += 1
    for a, b, y, dash in [("Machine", "Provider", 270, True), ("Provider", "Machine", 310, False),
                          ("Provider", "Claim", 350, False), ("Claim", "Provider", 390, True),
                          ("Controller", "Machine", 430, False), ("Provider", "Controller", 470, True)]:
        arrow(xs[a], xs[b], y, "call", dash)
        want[(a, b)] += 1
    return png_bytes(np.asarray(img)), want


@pytest.mark.parametrize("icon", [True, False], ids=["entity-icon", "box"])
def test_participants_created_below_the_row_are_participants(icon: bool):
    png, want = _created_sequence_png(icon)
    fig = convert(png, Config()).figure
    labels = {c.label for c in fig.components if isinstance(c, Node) and c.label}
    assert {"Controller", "Provider", "Machine", "Claim"} <= labels, labels
    got = edge_pairs(fig)
    assert got == want, (got, want)


def test_a_creating_message_leaves_the_lifeline_nearest_its_tail(monkeypatch):
    """Of the lifelines within reach of the message's tail, the nearest is its sender, not the
    first listed."""
    from crafteditor.assemble import seq_created
    from crafteditor.assemble.seq_parts import Lifeline

    ink, rgb = np.zeros((200, 160), bool), np.full((200, 160, 3), 255, np.uint8)
    ink[49:52, 30:100] = True  # the message's row, its tail at x = 30
    lines = [Lifeline(0, 23.0, 0.0, 200.0, 1.0, (0, 0, 0), "solid"),
             Lifeline(1, 31.0, 0.0, 200.0, 1.0, (0, 0, 0), "solid"),
             Lifeline(2, 100.0, 40.0, 200.0, 1.0, (0, 0, 0), "solid")]
    monkeypatch.setattr(seq_created, "heads", lambda ln, pool, named: [])
    monkeypatch.setattr(seq_created, "arrival", lambda ink, shapes: (50, 100.0, -1))
    out = seq_created.creation_messages(ink, rgb, lines, [], 0)
    assert [(m.source, m.target) for m in out] == [(1, 2)]
