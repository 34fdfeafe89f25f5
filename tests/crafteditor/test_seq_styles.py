"""Sequence diagrams in styles the makers' defaults do not draw.

- Exported at a large scale (PlantUML's ``-scale 3``, mermaid-cli's ``--scale 3``, a 3x PNG from
  sequencediagram.org): a participant's name fills a third of its box's height, its glyphs are long
  holes in the box's face, and the shape pass took the box for a frame holding a drawing (no
  participant, its messages lost).
- Ladder diagrams (protocol flows in networking docs and READMEs): participants named in plain text
  or small boxes over solid lifelines, every message a slanted stroke with an open 'V' head; the
  head was looked for as a wide run across the shaft, which an open head's parting barbs never make,
  and the figure read as no sequence at all.
- Dotted lifelines (1 px dots 3-4 px apart: draw.io's and Visual Paradigm's dotted style): a column
  inked over a quarter of its rows was no lifeline, and no message had lifelines to join."""

from __future__ import annotations

import math
from collections import Counter

import cv2
import numpy as np
import pytest
from ce_helpers import edge_pairs, named_boxes, png_bytes
from PIL import Image, ImageDraw, ImageFont

from crafteditor.assemble.slanted import slanted_strokes
from crafteditor.config import Config
from crafteditor.convert import convert
from crafter.spec.model import Node

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def _scaled_sequence_png(scale: int) -> tuple[bytes, Counter]:
    """'Client' and 'Billing' (tall letters) boxed top and bottom, dashed lifelines, two messages
    with filled heads and labels above, drawn at 1x and resampled ``scale`` times larger."""
    names, xs = ["Client", "Billing"], [70, 250]
    W, H = 320, 240
    img = Image.new("RGB", (W, H), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 15)
    for x in xs:
        for y in range(54, H - 60, 8):
            d.line([(x, y), (x, y + 4)], fill=(80, 80, 80), width=1)
    named_boxes(d, font, names, xs, (20, H - 60), 32, 8, (226, 226, 240), "black", pad=10)
    want: Counter = Counter()
    for k, y in enumerate((100, 150)):
        a, b = (0, 1) if k % 2 == 0 else (1, 0)
        s = 1 if b > a else -1
        d.line([(xs[a], y), (xs[b], y)], fill="black", width=1)
        d.polygon([(xs[b], y), (xs[b] - 10 * s, y - 5), (xs[b] - 10 * s, y + 5)], fill="black")
        d.text(((xs[0] + xs[1]) / 2 - 20, y - 20), f"call{k}", fill="black", font=font)
        want[(names[a], names[b])] += 1
    img = img.resize((W * scale, H * scale), Image.LANCZOS)
    return png_bytes(np.asarray(img)), want


def test_a_large_scale_export_reads_its_participants_and_messages():
    png, want = _scaled_sequence_png(3)
    fig = convert(png, Config()).figure
    boxes = sorted(c.label for c in fig.components if isinstance(c, Node) and c.label)
    assert boxes == ["Billing", "Billing", "Client", "Client"], boxes
    assert edge_pairs(fig) == want, edge_pairs(fig)


def _ladder_png(names: tuple[str, ...], boxed: bool) -> tuple[bytes, Counter]:
    """Six slanted messages dropping 30 px each, open heads, a label over each; 2 px lifelines."""
    xs = [80 + 300 * i for i in range(len(names))]
    W, H = xs[-1] + 100, 460
    img = Image.new("RGB", (W, H), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 15)
    for x, name in zip(xs, names):
        tw = d.textlength(name, font=font)
        if boxed:
            d.rectangle([x - tw / 2 - 8, 20, x + tw / 2 + 8, 48], outline="black")
        d.text((x - tw / 2, 26), name, fill="black", font=font)
        d.line([(x, 55), (x, H - 20)], fill="black", width=2)
    want: Counter = Counter()
    y = 90
    for k, label in enumerate(["SYN", "SYN-ACK", "ACK", "GET /index", "200 OK", "FIN"]):
        a = k % 2 if len(names) == 2 else (0, 1, 2, 1)[k % 4]
        b = 1 - a if len(names) == 2 else (1, 2, 1, 0)[k % 4]
        y1 = y + 30
        d.line([(xs[a], y), (xs[b], y1)], fill="black", width=2)
        ang = math.atan2(y1 - y, xs[b] - xs[a])
        for s in (-1, 1):
            d.line([(xs[b], y1), (xs[b] - 12 * math.cos(ang + s * 0.4), y1 - 12 * math.sin(ang + s * 0.4))],
                   fill="black", width=2)
        tw = d.textlength(label, font=font)
        d.text(((xs[a] + xs[b]) / 2 - tw / 2, (y + y1) / 2 - 22), label, fill="black", font=font)
        want[(names[a], names[b])] += 1
        y = y1 + 30
    return png_bytes(np.asarray(img)), want


@pytest.mark.parametrize(("names", "boxed"), [(("Client", "Server"), False), (("Client", "Server"), True),
                                              (("Host A", "Router", "Host B"), False)],
                         ids=["plain-names", "boxed", "three-hosts"])
def test_a_ladder_diagram_of_slanted_open_headed_messages_joins_its_participants(names, boxed):
    png, want = _ladder_png(names, boxed)
    fig = convert(png, Config()).figure
    labels = sorted(c.label for c in fig.components if isinstance(c, Node) and c.label)
    assert labels == sorted(names), labels
    assert edge_pairs(fig) == want, edge_pairs(fig)


def _dotted_sequence_png(on: int, off: int) -> tuple[bytes, Counter]:
    """Three boxed participants (top only), lifelines dotted ``on`` px on, ``off`` off, four
    messages with filled heads."""
    names, xs = ["Client", "Server", "Store"], [80, 290, 500]
    W, H = 590, 330
    img = Image.new("RGB", (W, H), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 15)
    for x, name in zip(xs, names):
        tw = d.textlength(name, font=font)
        d.rectangle([x - tw / 2 - 10, 20, x + tw / 2 + 10, 52], fill=(235, 235, 250), outline="black")
        d.text((x - tw / 2, 28), name, fill="black", font=font)
        for y in range(54, H - 10, on + off):
            d.line([(x, y), (x, y + on - 1)], fill=(90, 90, 90), width=1)
    want: Counter = Counter()
    for (a, b), y in zip([(0, 1), (1, 2), (2, 1), (1, 0)], (110, 160, 210, 260)):
        s = 1 if b > a else -1
        d.line([(xs[a], y), (xs[b], y)], fill="black", width=1)
        d.polygon([(xs[b], y), (xs[b] - 10 * s, y - 5), (xs[b] - 10 * s, y + 5)], fill="black")
        d.text(((xs[a] + xs[b]) / 2 - 15, y - 20), "call", fill="black", font=font)
        want[(names[a], names[b])] += 1
    return png_bytes(np.asarray(img)), want


# (closing a column's gaps up to 6 px had read these, and made a false sequence of dev G_clem_sleep-cycle, a
# state diagram; round 19's seq_strokes.dotted tells a dotted column by its regular dots, the state diagram unmoved)
@pytest.mark.parametrize(("on", "off"), [(1, 3), (1, 4)])
def test_dotted_lifelines_carry_their_messages(on, off):
    png, want = _dotted_sequence_png(on, off)
    fig = convert(png, Config()).figure
    assert edge_pairs(fig) == want, edge_pairs(fig)


def test_collinear_pieces_far_apart_are_no_slanted_message():
    """Two short strokes on one slanted course, 130 px apart (a self-message's return by one lifeline,
    a stretch of a border by the next: PlantUML's template-jar read a thick false message there) are
    no message; the same course inked all the way is one."""
    lines = [(50.0, 20.0, 290.0), (350.0, 20.0, 290.0)]
    for whole in (False, True):
        ink = np.zeros((300, 400), np.uint8)
        for x in (50, 350):
            ink[20:290, x] = 1
        if whole:
            cv2.line(ink, (54, 100), (348, 115), 1, 1)
        else:
            cv2.line(ink, (54, 100), (114, 103), 1, 1)
            cv2.line(ink, (250, 110), (348, 115), 1, 1)
        cv2.fillPoly(ink, [np.array([[51, 100], [63, 95], [63, 106]])], 1)
        mask = ink.astype(bool)
        rgb = np.where(mask[..., None], 0, 255).astype(np.uint8).repeat(3, axis=2)
        found = [(a, b) for a, b, *_ in slanted_strokes(mask, rgb, mask, lines)]
        assert found == ([(1, 0)] if whole else []), (whole, found)
