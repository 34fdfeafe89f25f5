"""Sequence diagrams whose participants stand in coloured bands (PlantUML's ``box "..." #color``
around participants, a swimlane's fill): against the page colour alone each band was ink from side
to side, no lifeline in it was a thin column, and the figure read as no sequence at all (issue 31,
cluster-api's controlplane-init: nodes and edges 0)."""

from __future__ import annotations

from collections import Counter

import numpy as np
from ce_helpers import edge_pairs, png_bytes
from PIL import Image, ImageDraw, ImageFont

from crafteditor.assemble.seq_strokes import runs_to_ends, stroke_alone
from crafteditor.config import Config
from crafteditor.convert import convert
from crafter.spec.model import Node

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def _banded_sequence_png() -> tuple[bytes, Counter]:
    """Three participants, the last two in a green and a slate band, each drawn top and bottom;
    dashed lifelines, solid calls and dashed replies with filled heads, labels above."""
    W, H = 760, 430
    img = Image.new("RGB", (W, H), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 15)
    names, xs = ["Client", "Server", "Store"], [90, 360, 620]
    d.rectangle([300, 10, 420, H - 10], fill=(144, 238, 144), outline=(60, 60, 60))
    d.rectangle([520, 10, 720, H - 10], fill=(119, 136, 153), outline=(60, 60, 60))
    for x in xs:  # dashed lifelines
        for y in range(62, H - 62, 8):
            d.line([(x, y), (x, y + 4)], fill=(80, 80, 80), width=1)
    for x, name in zip(xs, names):
        tw = d.textlength(name, font=font)
        for y in (30, H - 62):
            d.rounded_rectangle([x - tw / 2 - 10, y, x + tw / 2 + 10, y + 32], radius=3, fill=(226, 226, 240),
                                outline=(40, 40, 40))
            d.text((x - tw / 2, y + 8), name, fill="black", font=font)
    msgs = [(0, 1, 120, False, "request"), (1, 2, 170, False, "read row"), (2, 1, 220, True, "row"),
            (1, 2, 270, False, "write row"), (2, 1, 310, True, "ok"), (1, 0, 350, True, "response")]
    want: Counter = Counter()
    for a, b, y, dashed, label in msgs:
        x0, x1 = xs[a], xs[b]
        s = 1 if x1 > x0 else -1
        if dashed:
            for x in range(x0, x1, 10 * s):
                d.line([(x, y), (x + 5 * s, y)], fill="black", width=1)
        else:
            d.line([(x0, y), (x1, y)], fill="black", width=1)
        d.polygon([(x1, y), (x1 - 10 * s, y - 5), (x1 - 10 * s, y + 5)], fill="black")
        tw = d.textlength(label, font=font)
        d.text(((x0 + x1) / 2 - tw / 2, y - 20), label, fill="black", font=font)
        want[(names[a], names[b])] += 1
    return png_bytes(np.asarray(img)), want


def test_messages_across_coloured_bands_join_their_participants():
    png, want = _banded_sequence_png()
    fig = convert(png, Config()).figure
    boxes = sorted(c.label for c in fig.components if isinstance(c, Node) and c.label)
    assert boxes == sorted(["Client", "Server", "Store"] * 2), boxes
    assert edge_pairs(fig) == want, edge_pairs(fig)
    assert edge_pairs(fig, lifelines=True) == Counter()  # a lifeline is no message


def test_a_filled_note_between_lifelines_is_no_message():
    """A note no shape was found for (filled, on a band of another colour): its top rows run from
    near one lifeline to near the next, but its fill lies under them all the way; a message's
    label sits above its stroke with paper between the words."""
    ink = np.zeros((120, 300), bool)
    text = np.zeros_like(ink)
    ink[20:50, 40:260] = True  # the note, filled
    assert not stroke_alone(ink, text, [20, 21], 10.0, 290.0)
    ink[90, 10:290] = True  # a message, its label above it
    for x in range(100, 200, 9):
        ink[78:86, x:x + 6] = text[76:88, x - 1:x + 8] = True
    assert stroke_alone(ink, text, [90], 10.0, 290.0)


def test_a_row_runs_on_to_both_lifelines_or_to_an_activation_bar():
    """A message's row reaches each lifeline it joins, or the side of a bar about it; a note set
    just after a message's head ends short of the next lifeline (it read as a message past it)."""
    ink = np.zeros((60, 400), bool)
    ink[:, [100, 200, 300]] = True  # lifelines
    ink[20, 100:197] = True  # a message from the first to the second lifeline...
    ink[12:40, 209:281] = True  # ...a note after its head, 19 px short of the third
    assert runs_to_ends(ink, 20, 100.0, 200.0)
    assert not runs_to_ends(ink, 20, 100.0, 300.0)
    ink[:, [292, 308]] = True  # an activation bar about the third lifeline, 8 px to either side
    ink[45, 200:292] = True  # a message to the bar's side
    assert runs_to_ends(ink, 45, 200.0, 300.0)


def _bars_sequence_png() -> tuple[bytes, Counter]:
    """PowerPoint's look: participants in solid coloured boxes with white names, dashed lifelines
    in their colours, solid activation bars 24 px wide, messages from bar side to bar side."""
    W, H = 900, 360
    img = Image.new("RGB", (W, H), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 22)
    names, xs = ["UI", "Logic", "Model"], [150, 450, 750]
    colours = [(0, 176, 80), (0, 112, 192), (112, 48, 160)]
    for x, name, c in zip(xs, names, colours):
        d.rectangle([x - 90, 14, x + 90, 74], fill=c)
        tw = d.textlength(name, font=font)
        d.text((x - tw / 2, 30), name, fill="white", font=font)
        for y in range(76, H - 4, 10):
            d.line([(x, y), (x, y + 5)], fill=c, width=2)
    for x, c, (y0, y1) in zip(xs, colours, [(110, 300), (140, 280), (170, 250)]):
        d.rectangle([x - 12, y0, x + 12, y1], fill=c)
    msgs = [(0, 1, 150, False), (1, 2, 180, False), (2, 1, 240, True), (1, 0, 270, True)]
    want: Counter = Counter()
    for a, b, y, dashed in msgs:
        s = 1 if xs[b] > xs[a] else -1
        x0, x1 = xs[a] + 12 * s, xs[b] - 12 * s
        c = colours[a]
        if dashed:
            for x in range(x0, x1, 10 * s):
                d.line([(x, y), (x + 5 * s, y)], fill=c, width=2)
        else:
            d.line([(x0, y), (x1, y)], fill=c, width=2)
        d.line([(x1 - 12 * s, y - 6), (x1, y), (x1 - 12 * s, y + 6)], fill=c, width=2)
        want[(names[a], names[b])] += 1
    return png_bytes(np.asarray(img)), want


def test_solid_activation_bars_and_boxes_stay_ink():
    """Solid bars and boxes are fills too, but no band: a message runs to a bar's side (read
    against the bar's colour as paper, it stopped short of its lifeline and the figure had none)."""
    png, want = _bars_sequence_png()
    pairs = edge_pairs(convert(png, Config()).figure)
    # each message joins its two participants (which way an open head by a bar points is read
    # wrong for the two dashed returns, as before this reader: a known gap, not asserted here)
    assert Counter(tuple(sorted(p)) for p in pairs.elements()) == Counter(
        tuple(sorted(p)) for p in want.elements()), pairs


def test_the_counts_filter_keeps_a_row_on_its_boundary():
    """``counts`` only filters: a dashed row of 7 inked pixels in 20 free of 50 (0.14 * 50 is
    7.000000000000001) joins with the counts as without them."""
    from crafteditor.assemble.seq_strokes import joins

    ink, text = np.zeros((3, 60), bool), np.zeros((3, 60), bool)
    text[1, 5:35] = True  # 30 of the 50 columns under text: 20 free, the last 20
    ink[1, 35:55:3] = True  # a dash in each eighth the text leaves free: 7 of 20 (35 %)
    counts = ink[0:3, 5:55].sum(axis=1)
    assert counts[1] == 7
    without = joins(ink, text, 0, 3, 5, 55)
    assert without[1]
    assert (joins(ink, text, 0, 3, 5, 55, counts=counts) == without).all()


def test_a_band_cut_by_a_fragment_is_paper_above_and_below_it():
    """PlantUML draws an ``alt``/``loop`` frame's inside white over the bands: each band is cut into pieces too short
    for a band (93 px above the first fragment in a cluster-api figure), stayed ink, and its lifeline was no thin
    column (the figure read with one lifeline, no sequence). Pieces of one colour in one column, the upper one ending
    on a frame's side running past it, are a band; filled boxes stacked in a flowchart's column stay ink."""
    from crafteditor.assemble.seq_ink import ink_mask

    img = Image.new("RGB", (720, 560), "white")
    d = ImageDraw.Draw(img)
    d.rectangle([150, 20, 360, 540], fill=(204, 204, 204), outline=(60, 60, 60))
    d.rectangle([160, 30, 350, 60], fill=(248, 248, 248), outline=(60, 60, 60))  # the participant's box
    for y in range(62, 540, 8):  # its dashed lifeline
        d.line([(255, y), (255, y + 4)], fill=(60, 60, 60), width=1)
    d.rectangle([100, 150, 640, 470], fill="white", outline="black", width=2)  # a fragment, wider than the band
    for y in (40, 300):  # a flowchart's column of two filled boxes of one colour, an arrow between
        d.rectangle([480, y, 600, y + 70], fill=(255, 224, 160), outline=None)
    d.line([(540, 110), (540, 300)], fill="black", width=2)
    ink = ink_mask(np.asarray(img), (255, 255, 255))
    assert not ink[100, 200] and not ink[500, 200]  # the band's fill, above and below the fragment
    assert ink[66, 255] and ink[100, 150]  # its lifeline's dash, its side
    assert ink[70, 540] and ink[340, 520]  # the boxes stacked in a column
