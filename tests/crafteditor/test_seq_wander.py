"""Napkin-style messages that wander (issue 31, seq13): a hand-drawn sequence diagram's messages bow and
waver by tens of px between their lifelines (websequencediagrams' napkin, js-sequence-diagrams' hand
theme); each is read as one stroke from lifeline to lifeline, its direction from its head, and one that
passes over a lifeline joins the two outer ones."""

from __future__ import annotations

import math

import numpy as np
from PIL import Image, ImageDraw

from crafteditor.assemble.seq_parts import Lifeline
from crafteditor.assemble.seq_wander import wandering_messages

XS = (100, 700, 1300)
TOP, FOOT = 80, 760


def _napkin(messages: list[tuple[int, int, int, float]]) -> tuple[np.ndarray, np.ndarray]:
    """Lifelines at :data:`XS` (each leaning a few px) and bowed messages (from, to, row, bow px) with a
    filled head at the target; the RGB image and its ink."""
    im = Image.new("RGB", (1400, 840), "white")
    d = ImageDraw.Draw(im)
    for x in XS:
        d.line([(x, TOP), (x + 4, (TOP + FOOT) / 2), (x - 2, FOOT)], fill="black", width=3)
    for a, b, y, bow in messages:
        xa, xb = XS[a], XS[b]
        pts = [(xa + (xb - xa) * t, y + bow * math.sin(math.pi * t) + 4 * math.sin(9 * t)) for t in np.linspace(0, 1, 60)]
        d.line(pts, fill="black", width=3)
        hx, hy = pts[-1]
        s = 1 if xb > xa else -1
        d.polygon([(hx, hy), (hx - s * 22, hy - 10), (hx - s * 22, hy + 10)], fill="black")
    rgb = np.asarray(im)
    return rgb, rgb.min(axis=2) < 128


def _lines() -> list[Lifeline]:
    return [Lifeline(node=k, x=float(x), y0=TOP, y1=FOOT, width=3.0, color=(0, 0, 0), style="solid") for k, x in
            enumerate(XS)]


def test_bowed_messages_join_their_lifelines_each_way():
    rgb, ink = _napkin([(0, 1, 200, 30.0), (1, 0, 330, -25.0), (1, 2, 450, 20.0), (2, 0, 600, 35.0)])
    got = sorted(((m.source, m.target), round(m.points[0][1])) for m in wandering_messages(ink, rgb, _lines(), []))
    assert [p for p, _ in got] == [(0, 1), (1, 0), (1, 2), (2, 0)]


def test_a_message_already_read_and_a_note_box_are_not_read_again():
    rgb, ink = _napkin([(0, 1, 200, 30.0)])
    first = wandering_messages(ink, rgb, _lines(), [])
    assert len(first) == 1
    assert wandering_messages(ink, rgb, _lines(), first) == []
    # a note's frame across two lifelines: two strokes high, no message
    im = Image.new("RGB", (1400, 840), "white")
    ImageDraw.Draw(im).rectangle([120, 300, 670, 360], outline="black", width=3)
    rgb = np.asarray(im)
    assert wandering_messages(rgb.min(axis=2) < 128, rgb, _lines(), []) == []


def test_a_bowed_stroke_with_no_head_is_no_message():
    """A chart's line or a rule bowing from one column to another has no arrowhead: no message."""
    im = Image.new("RGB", (1400, 840), "white")
    d = ImageDraw.Draw(im)
    pts = [(XS[0] + (XS[1] - XS[0]) * t, 300 + 30 * math.sin(math.pi * t)) for t in np.linspace(0, 1, 60)]
    d.line(pts, fill="black", width=3)
    rgb = np.asarray(im)
    assert wandering_messages(rgb.min(axis=2) < 128, rgb, _lines(), []) == []


def test_a_curved_edge_below_short_columns_is_no_message():
    """A state machine's curved edge under two short vertical stubs taken for lifelines (rows 80-150):
    it runs where no lifeline is, so it is no message (and the figure no sequence through it)."""
    im = Image.new("RGB", (1400, 840), "white")
    d = ImageDraw.Draw(im)
    for x in XS:
        d.line([(x, TOP), (x, 150)], fill="black", width=3)
    pts = [(120 + 560 * t, 600 + 30 * math.sin(math.pi * t)) for t in np.linspace(0, 1, 60)]
    d.line(pts, fill="black", width=3)
    d.polygon([(680, 600), (658, 590), (658, 610)], fill="black")
    rgb = np.asarray(im)
    ink = rgb.min(axis=2) < 128
    short = [Lifeline(node=k, x=float(x), y0=TOP, y1=150, width=3.0, color=(0, 0, 0), style="solid")
             for k, x in enumerate(XS)]
    assert wandering_messages(ink, rgb, short, []) == []


def test_a_message_already_read_between_nearer_lifelines_is_not_read_again_wider():
    """The row reading's 0 -> 1 on a bowed 0 -> 2 stroke's rows: the stroke is that message, not a
    second edge."""
    rgb, ink = _napkin([(0, 2, 300, 25.0)])
    wide = wandering_messages(ink, rgb, _lines(), [])
    assert [(m.source, m.target) for m in wide] == [(0, 2)]
    part = [wide[0].__class__(0, 1, [(float(XS[0]), 300.0), (float(XS[1]), 305.0)], 3.0, (0, 0, 0), "solid",
                              True, False)]
    assert wandering_messages(ink, rgb, _lines(), part) == []
