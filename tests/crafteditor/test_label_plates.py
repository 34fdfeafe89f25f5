"""Labels set on a fill the detector's box reaches past (issue 31): a stacked bar's printed values,
white on the bar, whose box's border lies on the white page between the rows. Read against that
border the white glyphs were page, the bar touched the box's sides, and nothing was read (Altair's
barley: the values on its orange and yellow segments). Figures drawn here with PIL."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from crafteditor.config import Config
from crafteditor.ocr.read import read_text
from crafteditor.ocr.text_lines import _on_one_ground, glyph_mask, inner_plate, region_background
from crafteditor.paint import find_paints

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
FILLS = [(76, 120, 168), (245, 133, 24), (228, 87, 86), (114, 183, 178), (84, 162, 75), (238, 202, 59)]
ROWS = [["64.3", "55.5", "43.6", "63.9", "79.9", "92.9"], ["72.9", "51.5", "55.1", "61.8", "53.9", "82.3"],
        ["80.0", "56.3", "51.6", "72.2", "69.7", "100.3"], ["79.1", "50.6", "44.8", "77.4", "62.2", "110.5"]]


def stacked_bars() -> np.ndarray:
    """Four rows of six segments, 16 px tall with 4 px of page between rows, each value printed in
    white 11 px DejaVu at the segment's end."""
    im = Image.new("RGB", (560, 100), "white")
    d = ImageDraw.Draw(im)
    f = ImageFont.truetype(FONT, 11)
    for r, vals in enumerate(ROWS):
        y, x = 10 + r * 20, 60
        d.text((10, y + 2), f"Row {r + 1}", fill="black", font=f)
        for v, c in zip(vals, FILLS):
            w = int(float(v) * 0.75)
            d.rectangle([x, y, x + w - 1, y + 15], fill=c)
            d.text((x + w - d.textlength(v, font=f) - 4, y + 2), v, fill="white", font=f)
            x += w
    buf = io.BytesIO()
    im.save(buf, format="PNG")
    return np.asarray(Image.open(buf).convert("RGB"))


def test_white_values_on_bars_are_read():
    rgb = stacked_bars()
    read = {w for r in read_text(rgb, find_paints(rgb, Config()), Config()) for w in r.text.split()}
    # the values on the orange and yellow segments (none was read against the box's white border)
    assert {"51.5", "56.3", "50.6", "82.3", "92.9", "100.3", "110.5"} <= read
    assert {"64.3", "72.9", "80.0", "79.1", "Row"} <= read  # as before


def test_a_line_over_two_fills_is_not_read_on_one():
    rgb = stacked_bars()
    region = rgb[8:28, 118:180]  # a box over the orange and red segments of row 1, page above and below
    bg = region_background(region)
    plate = inner_plate(region, bg)
    assert plate is not None and tuple(bg) == (255, 255, 255)
    glyph, _ = glyph_mask(region, plate)
    assert not _on_one_ground(region, glyph, plate)


def _word(text: str, line_after: bool = False) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """``text`` in 20 px DejaVu on white, and the box (x0, y0, x1, y1) of its ink; with
    ``line_after`` a rule runs on from the word's end to the image's edge at mid height."""
    im = Image.new("RGB", (400, 60), "white")
    d = ImageDraw.Draw(im)
    d.text((20, 15), text, fill="black", font=ImageFont.truetype(FONT, 20))
    ink = np.asarray(im.convert("L")) < 128
    ys, xs = np.nonzero(ink)
    if line_after:
        d.line([(int(xs.max()) - 3, int(ys.mean())), (399, int(ys.mean()))], fill="black", width=2)
    return np.asarray(im), (int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1)


def test_a_box_cutting_a_words_last_or_first_glyph_takes_it_in():
    from crafteditor.ocr.text_lines import whole_end_glyphs
    rgb, (x0, y0, x1, y1) = _word("InstanceManager")
    # the detector's box, its margin above and below, ending 4 px inside the 'r' and starting inside the 'I'
    a, b = whole_end_glyphs(rgb, x0 + 1, y0 - 3, x1 - 4, y1 + 3)
    assert x0 - 4 <= a < x0 and x1 < b <= x1 + 4
    # a rule running on from the box's side is no glyph: the box stays
    rgb, (x0, y0, x1, y1) = _word("Transform", line_after=True)
    assert whole_end_glyphs(rgb, x0 - 3, y0 - 3, x1 - 4, y1 + 3)[1] == x1 - 4


def test_a_box_ending_in_a_far_words_first_glyph_keeps_its_end():
    """The first letter of the next word, 20 px past 'Input', cut 1 px by the box's side, is no glyph
    of this box's: the box had grown over the 'D' of 'Data' (x1 92 -> 108)."""
    from crafteditor.ocr.text_lines import whole_end_glyphs
    im = Image.new("RGB", (400, 60), "white")
    d = ImageDraw.Draw(im)
    f = ImageFont.truetype(FONT, 20)
    d.text((20, 15), "Input", fill="black", font=f)
    d_x = 20 + int(round(d.textlength("Input", font=f))) + 20
    d.text((d_x, 15), "Data", fill="black", font=f)
    rgb = np.asarray(im)
    ink = rgb.min(axis=2) < 128
    ys, xs = np.nonzero(ink[:, :d_x - 5])
    x0, y0, y1 = int(xs.min()), int(ys.min()), int(ys.max()) + 1
    d_left = int(np.flatnonzero(ink[:, d_x - 5:].any(axis=0))[0]) + d_x - 5
    assert whole_end_glyphs(rgb, x0 - 3, y0 - 3, d_left + 1, y1 + 3)[1] == d_left + 1



def test_a_link_touching_a_labels_last_letter_is_not_taken_in_with_it():
    """A Mermaid link runs on from the last letter of its edge label on a tight plate ('train', in a
    flowchart drawn by our Mermaid maker): the box cutting the 'n' took in the letter and the link's
    stub to the next node, the label came back as text '—train—' and the edge was lost."""
    from pathlib import Path

    from crafteditor.convert import convert
    png = (Path(__file__).parent / "crops" / "mermaid_link_from_label.png").read_bytes()
    parts = [(c.kind, getattr(c, "label", None)) for c in convert(png).figure.components]
    assert ("edge", "train") in parts and {"Stock", "Update"} <= {label for kind, label in parts if kind == "node"}
