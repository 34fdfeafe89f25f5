"""Sequence diagrams whose participants or message starts the reading lost (issue #31).

- Mermaid's ``autonumber``: a filled disc holding the message's number over the lifeline where each
  message starts. The disc is ink 20 px either side of the lifeline, no row stopped there, and every
  message was lost (edges 0.00).
- A note a participant's size over a lifeline (PlantUML's notes): taken for the participant repeated
  at the foot, it ended the lifeline, and the messages below it were lost."""

from __future__ import annotations

from collections import Counter

import numpy as np
from ce_helpers import edge_pairs, png_bytes
from PIL import Image, ImageDraw, ImageFont

from crafteditor.config import Config
from crafteditor.convert import convert

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def _participants(d: ImageDraw.ImageDraw, xs: list[int], names: list[str], H: int, font, fill, outline,
                  dashed: bool = False) -> None:
    for x in xs:
        for y in range(90, H - 80, 8 if dashed else 1):
            d.line([(x, y), (x, y + (4 if dashed else 1))], fill=outline, width=2 if not dashed else 1)
    for x, name in zip(xs, names):
        tw = d.textlength(name, font=font)
        for y in (40, H - 80):
            d.rectangle([x - tw / 2 - 16, y, x + tw / 2 + 16, y + 50], fill=fill, outline=outline, width=2)
            d.text((x - tw / 2, y + 15), name, fill="black", font=font)


def _arrow(d: ImageDraw.ImageDraw, xa: int, xb: int, y: int) -> None:
    s = 1 if xb > xa else -1
    d.line([(xa, y), (xb, y)], fill=(51, 51, 51), width=2)
    d.polygon([(xb, y), (xb - 14 * s, y - 6), (xb - 14 * s, y + 6)], fill=(51, 51, 51))


def _autonumber_png() -> tuple[bytes, Counter]:
    """Mermaid's default theme with ``autonumber``: two participants, five messages, a numbered disc
    (24 px radius) at each message's start."""
    names, xs = ["Vendor", "Report"], [160, 560]
    W, H = 720, 700
    img = Image.new("RGB", (W, H), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 20)
    _participants(d, xs, names, H, font, (236, 236, 255), (147, 112, 219))
    want: Counter = Counter()
    for k, y in enumerate(range(170, 590, 90)):
        a, b = (1, 0) if k % 2 == 0 else (0, 1)
        d.text((330, y - 32), f"step{k}", fill=(51, 51, 51), font=font)
        _arrow(d, xs[a], xs[b], y)
        d.ellipse([xs[a] - 24, y - 24, xs[a] + 24, y + 24], fill=(51, 51, 51))
        d.text((xs[a] - 6, y - 12), str(k + 1), fill="white", font=font)
        want[(names[a], names[b])] += 1
    return png_bytes(np.asarray(img)), want


def test_autonumber_badges_leave_the_messages_they_start():
    png, want = _autonumber_png()
    fig = convert(png, Config()).figure
    assert edge_pairs(fig) == want, edge_pairs(fig)


def _note_png() -> tuple[bytes, Counter]:
    """Three boxed participants with dashed lifelines; a note the middle one's size over its lifeline
    halfway down, and two messages to it below the note."""
    names, xs = ["Alpha", "Beta", "Gamma"], [110, 330, 550]
    W, H = 680, 640
    img = Image.new("RGB", (W, H), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 18)
    _participants(d, xs, names, H, font, (254, 254, 206), (168, 0, 54), dashed=True)
    want: Counter = Counter()
    _arrow(d, xs[0], xs[2], 140)
    want[("Alpha", "Gamma")] += 1
    tw = d.textlength("Beta", font=font)
    d.rectangle([xs[1] - tw / 2 - 16, 200, xs[1] + tw / 2 + 16, 250], fill=(251, 251, 119), outline=(168, 0, 54))
    d.text((xs[1] - 20, 215), "Memo", fill="black", font=font)
    for y, (a, b) in ((330, (0, 1)), (420, (2, 1))):
        d.text(((xs[a] + xs[b]) / 2 - 25, y - 26), f"ask{y}", fill="black", font=font)
        _arrow(d, xs[a], xs[b], y)
        want[(names[a], names[b])] += 1
    return png_bytes(np.asarray(img)), want


def test_a_note_a_participants_size_is_no_foot_of_its_lifeline():
    png, want = _note_png()
    fig = convert(png, Config()).figure
    assert edge_pairs(fig) == want, edge_pairs(fig)


def _icons_png() -> tuple[bytes, Counter]:
    """PlantUML's monochrome skin: two boxed participants, then a database and an actor drawn as
    icons with their names under them, the two names 1.2 em apart (one line of text to OCR), and the
    footbox repeating them (names over the icons); three messages."""
    W, H = 680, 520
    img = Image.new("RGB", (W, H), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 14)
    names, xs = ["Request", "Review", "Cache approve", "Load create"], [60, 170, 420, 530]
    for x in xs:
        for y in range(92, H - 94, 10):
            d.line([(x, y), (x, y + 5)], fill=(56, 56, 56), width=1)
    for x, name in zip(xs, names):
        tw = d.textlength(name, font=font)
        if name in ("Request", "Review"):
            for y in (56, H - 96):
                d.rectangle([x - tw / 2 - 8, y, x + tw / 2 + 8, y + 32], fill=(248, 248, 248), outline=(56, 56, 56))
                d.text((x - tw / 2, y + 8), name, fill="black", font=font)
            continue
        for top, ty in ((14, 70), (H - 70, H - 90)):
            if name == "Cache approve":
                d.rectangle([x - 18, top + 6, x + 18, top + 44], fill=(248, 248, 248), outline=(56, 56, 56))
                d.ellipse([x - 18, top, x + 18, top + 12], fill=(248, 248, 248), outline=(56, 56, 56))
            else:
                d.ellipse([x - 7, top, x + 7, top + 14], outline=(56, 56, 56), width=2)
                d.line([(x, top + 14), (x, top + 32), (x - 10, top + 46)], fill=(56, 56, 56), width=2)
                d.line([(x, top + 32), (x + 10, top + 46)], fill=(56, 56, 56), width=2)
                d.line([(x - 12, top + 20), (x + 12, top + 20)], fill=(56, 56, 56), width=2)
            d.text((x - tw / 2, ty), name, fill="black", font=font)
    want: Counter = Counter()
    for y, (a, b) in ((160, (1, 2)), (230, (0, 3)), (300, (3, 1))):
        d.text(((xs[a] + xs[b]) / 2 - 20, y - 20), f"call{y}", fill="black", font=font)
        _arrow(d, xs[a], xs[b], y)
        want[(names[a], names[b])] += 1
    return png_bytes(np.asarray(img)), want


def test_icon_participants_whose_names_read_as_one_line_are_two():
    png, want = _icons_png()
    fig = convert(png, Config()).figure
    assert edge_pairs(fig) == want, edge_pairs(fig)
