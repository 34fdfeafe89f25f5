"""Sequence diagrams in looks the drawn sets lacked until round 19 (issue #31).

- pgf-umlsd (TikZ, LaTeX papers and theses): participants in boxes with a black drop shadow at the top only,
  lifelines of 1 px dots every 6 or 7 rows (a sixth of the rows inked: too few for a dashed line). No lifeline
  was found and every message was lost (a drawn set of 19 real sources: edges 0.00).
- Mermaid at 1x with activation bars: a message's head at a bar just above the foot box, and the antialiased
  seam where the lifeline meets that box, read as a flowchart's arrowhead down the column into the box; the
  lifeline was dropped with all its messages."""

from __future__ import annotations

from collections import Counter

import numpy as np
from ce_helpers import edge_pairs, png_bytes
from PIL import Image, ImageDraw, ImageFont
from test_seq_badges import FONT, _arrow

from crafteditor.assemble.seq_strokes import dotted
from crafteditor.config import Config
from crafteditor.convert import convert


def _umlsd_png(names: list[str], msgs: list[tuple[int, int]], H: int) -> tuple[bytes, Counter]:
    """pgf-umlsd's look: shadowed boxes over dotted lifelines, thin messages with a label above each."""
    xs = [120 + 220 * k for k in range(len(names))]
    img = Image.new("RGB", (120 + 220 * len(names), H), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 20)
    for x, name in zip(xs, names):
        tw = d.textlength(name, font=font)
        d.rectangle([x - tw / 2 - 24 + 6, 16, x + tw / 2 + 24 + 6, 82], fill="black")  # the drop shadow
        d.rectangle([x - tw / 2 - 24, 10, x + tw / 2 + 24, 76], fill="white", outline="black", width=1)
        d.text((x - tw / 2, 30), name, fill="black", font=font)
        d.line([(x - tw / 2, 55), (x + tw / 2, 55)], fill="black", width=1)  # underlined
        for y in range(88, H - 12, 7):
            d.point((x, y), fill="black")
    want: Counter = Counter()
    for k, (a, b) in enumerate(msgs):
        y = 140 + 60 * k
        d.text(((xs[a] + xs[b]) / 2 - 40, y - 26), f"call {k}", fill="black", font=font)
        _arrow(d, xs[a], xs[b], y)
        want[(names[a], names[b])] += 1
    return png_bytes(np.asarray(img)), want


def test_a_pgf_umlsd_diagram_reads_its_dotted_lifelines_and_messages():
    png, want = _umlsd_png(["Alice", "Bob", "John"], [(0, 2), (2, 1), (1, 0), (2, 0)], 420)
    assert edge_pairs(convert(png, Config()).figure) == want


def test_a_short_pgf_umlsd_diagram_with_two_messages_is_read():
    # the lifelines run 2.2 box heights: a solid column that short under an unrepeated box is no lifeline
    png, want = _umlsd_png(["Alice", "Bob"], [(0, 1), (1, 0)], 240)
    assert edge_pairs(convert(png, Config()).figure) == want


def test_dotted_wants_regular_short_dots():
    col = np.zeros((120, 3), bool)
    col[2::7, 0] = True  # dots every 7 rows ...
    col[44:49, 0] = False  # ... a message's row takes one out
    col[60, 0] = True  # a label's glyph adds a speck
    col[2:120:3, 1] = True
    col[::2, 1] = True  # ink on most rows: a dashed or solid line, no dotted one
    rng = np.random.default_rng(3)
    col[rng.choice(120, 14, replace=False), 2] = True  # specks with no pitch
    assert dotted(col).tolist() == [True, False, False]


def _mermaid_bar_png() -> tuple[bytes, Counter]:
    """Mermaid's default theme at 1x: 3 px lifelines, two activation bars (a faint face, antialiased sides 2 and
    3 px wide) on the right one along most of it, each from a call to its dashed reply, the last reply leaving
    the bar 12 px above the foot box; the lifeline's foot antialiased into the box."""
    names, xs = ["kubelet", "Runtime"], [160, 460]
    W, H = 620, 520
    foot = H - 80
    img = Image.new("RGB", (W, H), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 14)
    line, grey = (147, 112, 219), (102, 102, 102)
    for x, name in zip(xs, names):
        d.line([(x, 90), (x, foot)], fill=line, width=3)
        tw = d.textlength(name, font=font)
        for y in (40, foot):
            d.rectangle([x - tw / 2 - 16, y, x + tw / 2 + 16, y + 50], fill=(236, 236, 255), outline=line, width=2)
            d.text((x - tw / 2, y + 17), name, fill="black", font=font)
        d.point([(x - 3, foot - 1), (x + 3, foot - 1)], fill=(200, 190, 230))  # the seam
    x = xs[1]
    want: Counter = Counter()
    for call, reply in ((150, 260), (330, foot - 12)):
        d.rectangle([x - 6, call, x + 6, reply + 1], fill=(244, 244, 244))
        d.rectangle([x - 6, call, x - 5, reply + 1], fill=grey)
        d.rectangle([x + 4, call, x + 6, reply + 1], fill=grey)
        d.text((270, call - 22), f"rpc{call}", fill=(51, 51, 51), font=font)
        _arrow(d, xs[0], x - 6, call)
        d.text((270, reply - 22), f"reply{reply}", fill=(51, 51, 51), font=font)
        for xd in range(x - 6, xs[0] + 14, -12):  # dashes 8 px on, 4 off
            d.line([(xd - 7, reply), (xd, reply)], fill=(51, 51, 51), width=2)
        d.polygon([(xs[0], reply), (xs[0] + 14, reply - 6), (xs[0] + 14, reply + 6)], fill=(51, 51, 51))
        want[("kubelet", "Runtime")] += 1
        want[("Runtime", "kubelet")] += 1
    return png_bytes(np.asarray(img)), want


def test_a_message_at_an_activation_bar_over_the_foot_box_keeps_the_lifeline():
    png, want = _mermaid_bar_png()
    assert edge_pairs(convert(png, Config()).figure) == want
