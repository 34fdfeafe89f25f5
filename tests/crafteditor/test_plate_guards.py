"""A tight dark node between two headless lines is a node, not an edge label's plate
(crafteditor.assemble.plates): its light outline is drawn (wider than an antialiased rim), and the
frame read around its outline holds it. Taken for a plate, its two edges were joined into one
through it and its name left as a label."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from ce_helpers import edge_pairs, png_bytes
from PIL import Image, ImageDraw, ImageFont

from crafteditor.convert import convert
from crafter.spec.model import Node

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
CROPS = Path(__file__).parent / "crops"


def tight_dark_node_png() -> bytes:
    """'client' — 'proxy' — 'server': proxy a dark box tight around its white name, outlined 4 px in grey."""
    img = Image.new("RGB", (900, 300), "white")
    d = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 30)
    for x, name in ((20, "client"), (640, "server")):
        d.rectangle([x, 100, x + 220, 200], fill="white", outline="black", width=2)
        d.text((x + 110 - d.textlength(name, font=font) / 2, 132), name, fill="black", font=font)
    d.line([(242, 150), (395, 150)], fill="black", width=2)
    d.line([(505, 150), (638, 150)], fill="black", width=2)
    d.rectangle([395, 124, 505, 176], fill=(40, 40, 40), outline=(150, 150, 150), width=4)
    d.text((450 - d.textlength("proxy", font=font) / 2, 134), "proxy", fill="white", font=font)
    return png_bytes(np.asarray(img))


def test_a_tight_dark_node_with_a_drawn_outline_is_a_node_between_two_edges():
    fig = convert(tight_dark_node_png()).figure
    assert "proxy" in [c.label for c in fig.components if isinstance(c, Node)]
    assert edge_pairs(fig) == {("client", "proxy"): 1, ("proxy", "server"): 1}



def test_a_link_runs_on_under_white_port_labels_on_a_dark_page():
    """draw.io's modern-dark network (a dev figure's crop): a light grey link from 'leaf1' down to
    'client1' carries a white port label by each end ('e1-1', 'eth1'). The plates, lighter than
    the link, were traced as its ink, nicked at their rims, each nick read as a head: the link fell
    into three pieces, joined to the labels instead (leaf1 → 'e1-1' → 'eth1' ← client1)."""
    fig = convert((CROPS / "clab_port_labels_link.png").read_bytes()).figure
    pairs = edge_pairs(fig)
    assert pairs[("leaf1", "client1")] == 1, pairs
    assert not any("?" in pair for pair in pairs), pairs  # no edge to a port label
