"""Nodes real typeset diagrams lost (issue 31, round 4), reproduced on figures drawn here with
PIL: pictograms with their names set under them (a cloud architecture's icons), a cycle's hub
circle with arrowheads sitting on the ring around it, and dark tiles holding a pictogram with
their names set over their top left corner (drawio's 'modern dark' network); with the real
set present, the dev figures each fault was found on."""

from __future__ import annotations

import numpy as np
import pytest
from ce_helpers import png_bytes
from conftest import REAL_MANIFEST
from PIL import Image, ImageDraw, ImageFont

from crafteditor.config import Config
from crafteditor.convert import convert
from crafteditor.ocr.corrections import split_case_joins
from crafteditor.realset import load_real, score_real
from crafter.spec.model import Node

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def _node_labels(fig) -> list[str]:
    return sorted(" ".join(c.label.split()) for c in fig.components if isinstance(c, Node) and c.label and c.label.strip())


def _icon(d: ImageDraw.ImageDraw, x: int, y: int, kind: int) -> None:
    """A 56 px pictogram in several colours and strokes (a monitor, a database, a gear-ish logo)."""
    if kind == 0:  # a monitor: screen, stand and foot
        d.rectangle((x, y, x + 56, y + 36), fill=(60, 60, 60))
        d.rectangle((x + 5, y + 5, x + 51, y + 31), fill=(120, 190, 240))
        d.rectangle((x + 24, y + 37, x + 32, y + 48), fill=(60, 60, 60))
        d.rectangle((x + 12, y + 49, x + 44, y + 54), fill=(60, 60, 60))
    elif kind == 1:  # a database: stacked discs
        for k in range(3):
            d.ellipse((x + 4, y + k * 16, x + 52, y + 18 + k * 16), fill=(40, 150, 220), outline=(255, 255, 255), width=2)
    else:  # a logo: a ring with three dots
        d.ellipse((x, y, x + 56, y + 56), outline=(120, 60, 200), width=7)
        for cx, cy in ((28, 6), (8, 44), (48, 44)):
            d.ellipse((x + cx - 7, y + cy - 7, x + cx + 7, y + cy + 7), fill=(240, 140, 30))


def _captioned_icons() -> bytes:
    """Three pictograms, each with its name centred under it (one on two lines), arrows between."""
    im = Image.new("RGB", (760, 260), "white")
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(FONT, 15)
    names = (("Web Client",), ("Orders DB",), ("Message Bus", "[Kafka]"))
    for k, lines in enumerate(names):
        x = 80 + k * 260
        _icon(d, x, 60, k)
        for j, line in enumerate(lines):
            d.text((x + 28, 128 + j * 20), line, fill=(30, 30, 30), font=font, anchor="mt")
        if k:
            d.line((x - 180, 88, x - 16, 88), fill="black", width=2)
            d.polygon([(x - 8, 88), (x - 20, 82), (x - 20, 94)], fill="black")
    return png_bytes(np.asarray(im))


def test_pictograms_with_names_under_them_are_nodes():
    fig = convert(_captioned_icons(), Config(quality=False)).figure
    assert _node_labels(fig) == ["Message Bus [Kafka]", "Orders DB", "Web Client"], _node_labels(fig)
    icons = [c for c in fig.components if isinstance(c, Node) and c.label and c.label.strip()]
    # the pictogram is drawn as traced: its node is neither filled nor outlined
    assert all(n.fill == "none" and n.stroke == "none" for n in icons)


def _cycle() -> bytes:
    """A hub circle with its name, inside a ring whose arrowheads sit on it (a build cycle)."""
    im = Image.new("RGB", (700, 700), "white")
    d = ImageDraw.Draw(im)
    c, r_in, r_out = 350, 200, 250
    d.ellipse((c - r_out, c - r_out, c + r_out, c + r_out), outline=(40, 40, 40), width=3)
    d.ellipse((c - r_in, c - r_in, c + r_in, c + r_in), outline=(40, 40, 40), width=3)
    for ang in (90, 210, 330):
        a = np.radians(ang)
        mx, my = c + 225 * np.cos(a), c - 225 * np.sin(a)
        tx, ty = -np.sin(a), -np.cos(a)  # along the ring
        nx, ny = np.cos(a), -np.sin(a)
        pts = [(mx + 30 * tx, my + 30 * ty), (mx - 10 * tx + 40 * nx, my - 10 * ty + 40 * ny),
               (mx - 10 * tx - 40 * nx, my - 10 * ty - 40 * ny)]
        d.polygon(pts, fill="white", outline=(40, 40, 40), width=3)
    font = ImageFont.truetype(FONT, 30)
    d.text((c, c - 20), "Build the", fill="black", font=font, anchor="mm")
    d.text((c, c + 22), "controller", fill="black", font=font, anchor="mm")
    return png_bytes(np.asarray(im))


def test_a_hub_circle_with_arrowheads_on_its_ring_is_a_node():
    fig = convert(_cycle(), Config(quality=False)).figure
    assert "Build the controller" in _node_labels(fig), _node_labels(fig)


def _dark_tiles() -> bytes:
    """Dark tiles on a slate page, each holding a white pictogram, their names over their top
    left corner, lines between them."""
    page = (78, 88, 104)
    im = Image.new("RGB", (640, 420), page)
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(FONT, 13)
    tiles = {"north": (120, 40), "east": (400, 40), "west": (120, 260), "south": (400, 260)}
    for a in ("north", "east"):
        for b in ("west", "south"):
            (ax, ay), (bx, by) = tiles[a], tiles[b]
            d.line((ax + 45, ay + 90, bx + 45, by), fill=(150, 160, 175), width=3)
    for name, (x, y) in tiles.items():
        d.rectangle((x, y, x + 90, y + 90), fill=(2, 16, 48))
        d.rectangle((x + 22, y + 22, x + 68, y + 56), outline="white", width=3)  # a laptop
        d.line((x + 14, y + 66, x + 76, y + 66), fill="white", width=3)
        d.text((x - 2, y - 4), name, fill=(240, 240, 240), font=font, anchor="rb")
    return png_bytes(np.asarray(im))


def test_dark_tiles_take_the_names_over_their_corners():
    fig = convert(_dark_tiles(), Config(quality=False)).figure
    assert _node_labels(fig) == ["east", "north", "south", "west"], _node_labels(fig)
    tiles = [c for c in fig.components if isinstance(c, Node) and c.label and c.label.strip()]
    # the tile's fill is drawn under its pictogram (a path), the node over it left unfilled
    assert all(n.fill == "none" for n in tiles)
    assert sum(c.kind == "path" and c.fill == "#021030" for c in fig.components) == 4


@pytest.mark.parametrize("fid, least", [("C_nodejs-microservices_architecture", 0.9),
                                        ("C_ack-community_bootstrap-cycle", 0.99),
                                        ("C_clab-io-draw_modern-dark", 0.8)])
def test_real_captioned_and_hub_nodes(real_set, fid, least):
    figs = [f for f in load_real(real_set, "dev", manifest=REAL_MANIFEST) if f.id == fid]
    if not figs:
        pytest.skip(f"{fid} is not in the real set's dev split")
    conv = convert(figs[0].path.read_bytes(), Config(quality=False), name=fid)
    sc = score_real(conv.figure, conv.svg, figs[0].truth)
    assert sc["nodes"] >= least, (fid, sc)


def test_a_column_name_run_into_its_type_is_split():
    """A schema table's name overflowing into its type column was read as one word."""
    assert split_case_joins("achievement_idINTEGER") == "achievement_id INTEGER"
    assert split_case_joins("user_idBIGINT") == "user_id BIGINT"
    for word in ("getHTTPResponse", "parseJSON", "macOS", "TIMESTAMP(6)", "ResNet50", "name INTEGER"):
        assert split_case_joins(word) == word


def _connected_icons() -> bytes:
    """drawio's architecture look: pictograms named under them by captions wider than the
    picture, connectors whose arrowheads run into the picture's ring (a few px inside it), one of
    them slanted so its head lies beside the icon's corner."""
    im = Image.new("RGB", (820, 420), "white")
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(FONT, 15)
    spots = (((80, 60), ("Web Client Portal",), 0), ((380, 60), ("Orders Store",), 1),
             ((660, 250), ("Message Bus Service",), 2))
    for (x, y), lines, kind in spots:
        _icon(d, x, y, kind)
        for j, line in enumerate(lines):
            d.text((x + 28, y + 68 + j * 20), line, fill=(30, 30, 30), font=font, anchor="mt")
    # a straight connector with heads at both ends, each running 6 px into its icon
    d.line((142, 88, 374, 88), fill="black", width=2)
    for tip, back in (((142, 88), 154), ((374, 88), 362)):
        d.polygon([tip, (back, 82), (back, 94)], fill="black")
    # a slanted one from the database down to the bus, its head into the bus's ring
    d.line((440, 110, 664, 262), fill="black", width=2)
    d.polygon([(664, 262), (648, 259), (655, 249)], fill="black")
    return png_bytes(np.asarray(im))


def test_connectors_running_into_captioned_icons_join_them():
    fig = convert(_connected_icons(), Config(quality=False)).figure
    names = {c.id: " ".join(c.label.split()) for c in fig.components if isinstance(c, Node) and c.label}
    pairs = {frozenset((names.get(c.source), names.get(c.target))) for c in fig.components if c.kind == "edge"}
    assert frozenset(("Web Client Portal", "Orders Store")) in pairs, (names, pairs)
    assert frozenset(("Orders Store", "Message Bus Service")) in pairs, (names, pairs)
