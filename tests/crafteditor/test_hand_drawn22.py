"""Hand-drawn figures of round 22 (issue 31): a sketch exported on dark paper (Excalidraw's dark mode) keeps its
colours: its boxes come back as dark boxes with light outlines, not as the theme's white cards on a black page."""

from __future__ import annotations

import io

import numpy as np
from handdrawn import pencil_sketch
from PIL import Image

from crafteditor.config import Config
from crafteditor.convert import convert
from crafteditor.paint import luma


def _hex(c: str) -> tuple[int, int, int]:
    return int(c[1:3], 16), int(c[3:5], 16), int(c[5:7], 16)


def test_a_sketch_on_dark_paper_keeps_its_dark_boxes_and_light_outlines():
    png, words, _ = pencil_sketch(0)
    dark = 255 - np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))  # light pencil on a near-black page
    buf = io.BytesIO()
    Image.fromarray(dark).save(buf, "PNG")
    fig = convert(buf.getvalue(), Config.preset("sketch")).figure
    nodes = [c for c in fig.components if c.kind == "node" and c.label in words]
    assert len(nodes) >= len(words) - 1, [c.label for c in fig.components if c.kind == "node"]
    for n in nodes:
        assert n.fill is not None and float(luma(_hex(n.fill))) < 80, (n.label, n.fill)  # the page's own dark
        # the pencil's own light grey (its blurred rim: darker than its core), well clear of the page
        assert n.stroke is not None and float(luma(_hex(n.stroke))) > float(luma(_hex(n.fill))) + 60, (n.label, n.stroke)
