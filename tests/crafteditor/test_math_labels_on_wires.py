"""A math label beside a line names the wire (an edge label or free text): it makes no node and no edge
end (issue 31, round 15). Round 14's lone labels had turned into structure: the pockets of paper that
mamba3's lines and boxes fence in, each holding an A or an X beside a wire, were read as hand-drawn nodes,
and d2l's LSTM C_t at the end of the '+' line became an edge's end."""

from __future__ import annotations

import math

import numpy as np
from ce_helpers import edge_pairs
from PIL import Image, ImageDraw, ImageFont

from crafteditor.config import Config
from crafteditor.convert import convert

INK, LINE, RED = (46, 61, 75), (40, 40, 40), (190, 30, 30)


def _font(size: int, italic: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype("DejaVuSerif-Italic.ttf" if italic else "DejaVuSans.ttf", size)


def _arrow(d: ImageDraw.ImageDraw, p: tuple[float, float], q: tuple[float, float], head: int = 12) -> None:
    ux, uy = (q[0] - p[0]) / math.dist(p, q), (q[1] - p[1]) / math.dist(p, q)
    bx, by = q[0] - ux * head, q[1] - uy * head
    d.line([p, (bx, by)], fill=LINE, width=2)
    d.polygon([(bx - uy * head / 2, by + ux * head / 2), (bx + uy * head / 2, by - ux * head / 2), q], fill=LINE)


def _box(d: ImageDraw.ImageDraw, x0: int, y0: int, x1: int, y1: int, name: str, fill=None) -> None:
    d.rectangle([x0, y0, x1, y1], outline=LINE, width=2, fill=fill)
    d.text(((x0 + x1) / 2, (y0 + y1) / 2), name, fill=INK, font=_font(16), anchor="mm")


def _labelled_arrow() -> np.ndarray:
    """Encoder -> Decoder, an italic z over the arrow."""
    im = Image.new("RGB", (560, 200), (255, 255, 255))
    d = ImageDraw.Draw(im)
    _box(d, 20, 65, 180, 135, "Encoder")
    _box(d, 360, 65, 520, 135, "Decoder")
    _arrow(d, (182, 100), (358, 100))
    d.text((270, 88), "z", fill=INK, font=_font(20, italic=True), anchor="mb")
    return np.asarray(im)


def _wires() -> np.ndarray:
    """A block's frame round two wide boxes and three wires between them, each named by a red italic letter
    beside it under the upper box (mamba3's A, X, B): the frame, the boxes and the wires fence in pockets of
    paper, each holding a letter."""
    im = Image.new("RGB", (420, 420), (255, 255, 255))
    d = ImageDraw.Draw(im)
    d.rectangle([10, 10, 410, 410], outline=LINE, width=3)
    _box(d, 40, 40, 380, 90, "Mixer", fill=(220, 232, 245))
    _box(d, 40, 330, 380, 380, "Projection", fill=(225, 240, 220))
    for x, name in ((110, "A"), (210, "X"), (310, "B")):
        d.line([(x, 330), (x, 91)], fill=LINE, width=2)
        d.text((x - 8, 100), name, fill=RED, font=_font(20, italic=True), anchor="rt")
    return np.asarray(im)


def _wire_out() -> np.ndarray:
    """Cell -> C_t: the arrow ends at the variable it carries out, no node there."""
    im = Image.new("RGB", (560, 200), (255, 255, 255))
    d = ImageDraw.Draw(im)
    _box(d, 20, 65, 180, 135, "Cell")
    _arrow(d, (182, 100), (420, 100))
    d.text((430, 100), "C", fill=INK, font=_font(22), anchor="lm")
    d.text((446, 104), "t", fill=INK, font=_font(14), anchor="lt")
    return np.asarray(im)


def _nodes(fig) -> list[str]:
    return sorted(c.label or "" for c in fig.components if c.kind == "node")


def test_a_label_beside_an_arrow_labels_it_and_makes_no_node():
    fig = convert(_labelled_arrow(), Config(quality=False)).figure
    assert _nodes(fig) == ["Decoder", "Encoder"]
    assert edge_pairs(fig) == {("Encoder", "Decoder"): 1}
    assert [c.label for c in fig.components if c.kind == "edge"] == ["z"]


def test_letters_beside_wires_make_no_nodes_of_the_pockets_they_stand_in():
    # read as a sketch, every pocket of paper holding a label may be a hand-drawn node: a letter beside
    # its pocket's side is no such label (a hand-drawn node's letter is set in its middle)
    fig = convert(_wires(), Config.preset("sketch")).figure
    assert _nodes(fig) == ["Mixer", "Projection"]
    assert edge_pairs(fig) == {("Mixer", "Projection"): 3}


def test_an_arrow_ending_at_a_math_label_is_no_edge_and_the_label_stays_text():
    fig = convert(_wire_out(), Config(quality=False)).figure
    assert _nodes(fig) == ["Cell"]
    assert not [c for c in fig.components if c.kind == "edge"]
    assert [c.text for c in fig.components if c.kind == "text"] == ["C_{t}"]


def test_a_run_of_empty_scripts_is_no_math_label_and_raises_nothing():
    """Text that is only an empty script's braces ('_{}', read off a code figure) has no pieces: the check
    had indexed the first of none and aborted the figure."""
    from crafteditor.ocr.runs import TextRun

    def run(text: str) -> TextRun:
        return TextRun(text=text, x=0.0, y=0.0, w=20.0, h=10.0, angle=0.0, font_px=10.0, bold=False,
                       color=(0, 0, 0), confidence=1.0, baseline=8.0, glyphs=np.ones((10, 20), bool))

    assert [run(t).math_label for t in ("_{}", "^{}", "", "A", "C_{t}", "x1", "10")] == [
        False, False, False, True, True, True, False]
