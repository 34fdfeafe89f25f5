"""Excalidraw's boxes: hachure fills (diagonal pen strokes) read as flat-filled nodes, entity tables as class boxes."""

from __future__ import annotations

import io

import numpy as np
import pytest
from handdrawn import entity_tables, hatched_boxes
from PIL import Image, ImageDraw, ImageFont

from crafteditor.config import Config
from crafteditor.convert import convert
from crafteditor.hatching import dehatched
from crafteditor.loading import load_image
from crafteditor.realset import _label, norm_word
from crafter.spec.model import Edge, Node

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


@pytest.mark.parametrize("seed", [0, 1])
def test_hatched_boxes_are_nodes_with_their_labels_and_edges(seed):
    png, labels, edges = hatched_boxes(seed)
    fig = convert(png, Config()).figure
    nodes = {c.id: norm_word(c.label or "") for c in fig.components if isinstance(c, Node)}
    assert sorted(v for v in nodes.values() if v) == sorted(norm_word(w) for w in labels)
    assert not [c for c in fig.components if c.kind == "image" and c.box.w > 60]  # no box kept as a picture
    found = {(nodes.get(e.source), nodes.get(e.target)) for e in fig.components if isinstance(e, Edge)}
    assert sum((norm_word(a), norm_word(b)) in found for a, b in edges) >= len(edges) - 1


def test_a_hatched_box_is_read_on_its_pastel_and_keeps_its_outline_and_label():
    png, _, _ = hatched_boxes(0, n=1)
    image = load_image(png)
    flat = dehatched(image)
    assert flat is not None
    inside = flat.rgb[130:150, 60:90].reshape(-1, 3).astype(int)  # hachure left of the label
    assert np.ptp(inside, axis=0).max() <= 2  # one flat colour
    r, g, b = inside[0]
    assert r > g > b and b > 150  # orange strokes on white: a pale orange
    dark = (image.rgb.astype(int).sum(axis=2) < 150)
    assert (flat.rgb[dark].astype(int).sum(axis=1) < 150).mean() > 0.97  # outline and letters untouched


def _no_hachure() -> bytes:
    """Text, a fan of diagonal edges and parallel diagonal arrows: dense, diagonal, no hachure."""
    im = Image.new("RGB", (900, 500), "white")
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(FONT, 13)
    for i in range(12):
        d.text((20, 20 + 16 * i), "A wavy VW ax // vx zz xx AVAVA wax " * 2, fill=(20, 20, 20), font=font)
    for i in range(14):
        d.line((500, 40, 880, 40 + 30 * i), fill=(40, 40, 40), width=2)
    for i in range(4):
        d.line((40 + 30 * i, 480, 140 + 30 * i, 300), fill=(200, 60, 0), width=2)
    buf = io.BytesIO()
    im.save(buf, format="PNG")
    return buf.getvalue()


def test_text_and_fans_of_lines_are_no_hachure():
    assert dehatched(load_image(_no_hachure())) is None


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_sketched_entity_table_is_one_node_of_its_name_and_columns(seed):
    # Excalidraw's entity box: a shaded header box (a face) on an unfilled sketched body of bare
    # snake_case column names (no types): one class box, not a name node and a column node
    png, tables = entity_tables(seed)
    fig = convert(png, Config()).figure
    nodes = [_label(c.label) for c in fig.components if isinstance(c, Node)]
    assert sum(_label(t) in nodes for t in tables) >= 2
