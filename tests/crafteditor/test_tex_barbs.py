"""TeX's small barbed arrow tips (TikZ's default ``->``): two arms of a few pixels on a thin line, too
thin for the filled-head opening and too short for the open-'V' skeleton search, so the janosh/diagrams
TikZ figures lost every head and their arrows were joined through the labels they point at (issue 31).
Drawn here with matplotlib's '->' at TeX's proportions."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from crafteditor.config import Config
from crafteditor.convert import convert
from crafteditor.lines.barbs import barb_at
from crafter.spec.model import Edge, Node


def _barbed(d: ImageDraw.ImageDraw, x0: int, x1: int, y: int) -> None:
    """A thin line from x0 to x1 (right to left where x1 < x0) ending in a TeX barbed tip: two curved
    arms 5 px back and 5 px out, drawn 2 px wide, as TikZ's '->' comes out at 200 dpi."""
    s = 1 if x1 > x0 else -1
    d.line([x0, y, x1, y], fill="black", width=2)
    for side in (-1, 1):
        d.line([(x1, y), (x1 - s * 2, y + side * 2), (x1 - s * 4, y + side * 4), (x1 - s * 5, y + side * 6)],
               fill="black", width=2)


def _tikz_png(width: int, boxes, words, arrows) -> bytes:
    """A TikZ-like figure in a serif face: ``boxes`` (x, w, word, colour) filled without outlines,
    ``words`` (x, word) borderless, ``arrows`` (x0, x1, y) thin lines with TeX's barbed tips."""
    img = Image.new("RGB", (width, 200), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf", 22)
    for x, w, word, colour in boxes:
        d.rectangle([x, 60, x + w, 140], fill=colour)
        d.text((x + w / 2, 100), word, fill="black", font=font, anchor="mm")
    for x, word in words:
        d.text((x, 100), word, fill="black", font=font, anchor="mm")
    for x0, x1, y in arrows:
        _barbed(d, x0, x1, y)
    buf = io.BytesIO()
    img.save(buf, format="PNG", dpi=(200, 200))
    return buf.getvalue()


def _chain() -> bytes:
    """encoder -> decoder and back: filled boxes without outlines, thin lines with TeX's barbed tips."""
    return _tikz_png(640, [(40, 160, "encoder", "#ffc080"), (440, 160, "decoder", "#80c0c0")], [],
                     [(201, 438, 85), (439, 202, 115)])


def test_thin_barbed_arrows_between_nodes_keep_their_heads_and_directions():
    fig = convert(_chain(), Config()).figure
    names = {c.id: c.label for c in fig.components if isinstance(c, Node)}
    pairs = {(names.get(e.source, ""), names.get(e.target, ""), e.head != "none", e.tail != "none")
             for e in fig.components if isinstance(e, Edge)}
    assert ("encoder", "decoder", True, False) in pairs, pairs
    assert ("decoder", "encoder", True, False) in pairs, pairs


def _mask(rows: list[str]) -> np.ndarray:
    return np.array([[ch == "#" for ch in r] for r in rows])


def test_a_barb_is_told_from_a_bare_line_end_and_a_t_junction():
    barb = _mask(["........#.....",
                  ".........#....",
                  "..........#...",
                  "...........#..",
                  "############..",
                  "...........#..",
                  "..........#...",
                  ".........#....",
                  "........#....."])
    assert barb_at(np.pad(barb, 4), (15.5, 8.5), (1.0, 0.0), 1.0) is not None
    bare = np.zeros_like(barb)
    bare[4, :12] = True
    assert barb_at(np.pad(bare, 4), (15.5, 8.5), (1.0, 0.0), 1.0) is None
    tee = np.zeros((21, 20), bool)
    tee[10, :12] = True
    tee[:, 12] = True  # the line ends on another line crossing it
    assert barb_at(tee, (11.5, 10.5), (1.0, 0.0), 1.0) is None


def test_a_borderless_label_two_arrows_join_is_a_node_and_a_free_end_stays_text():
    """layer -> relu -> layer -> out: 'relu' has no outline but two arrows meet it (a TikZ chain's
    borderless node); 'out' ends one arrow only (a free end's label)."""
    png = _tikz_png(900, [(20, 150, "layer 1", "#ffc080"), (480, 150, "layer 2", "#80c0c0")],
                    [(325, "relu"), (820, "out")], [(171, 292, 100), (358, 478, 100), (631, 790, 100)])
    fig = convert(png, Config()).figure
    nodes = {c.label: c for c in fig.components if isinstance(c, Node)}
    assert "relu" in nodes and nodes["relu"].stroke == "none", sorted(nodes)
    texts = [c.text for c in fig.components if c.kind == "text"]
    assert "out" not in nodes and "out" in texts, (sorted(nodes), texts)  # not "→ out": the tip is no text
    names = {c.id: c.label for c in nodes.values()}
    pairs = {(names.get(e.source), names.get(e.target)) for e in fig.components if isinstance(e, Edge)}
    assert {("layer 1", "relu"), ("relu", "layer 2")} <= pairs, pairs
