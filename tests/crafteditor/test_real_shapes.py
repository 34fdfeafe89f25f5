"""Shapes real figures draw that Crafter's own proportions do not (issue 31): trapezoids of any
slant (ML encoders and decoders), reproduced on figures drawn here with PIL."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from ce_helpers import png_bytes
from PIL import Image, ImageDraw, ImageFont

from crafteditor.config import Config
from crafteditor.convert import convert
from crafteditor.realset import svg_words

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
INK = (30, 60, 120)


def _encoder_decoder(narrow: float) -> bytes:
    """An encoder narrowing to the right (its narrow side ``narrow`` of the wide one), a box, a
    decoder widening again, arrows between them, and a pooling trapezoid narrow on top."""
    im = Image.new("RGB", (900, 420), "white")
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(FONT, 20)
    inset = 240 * (1 - narrow) / 2
    d.polygon([(60, 80), (240, 80 + inset), (240, 320 - inset), (60, 320)], fill=(214, 230, 244), outline=INK, width=3)
    d.text((80, 188), "Encoder", fill=(20, 20, 20), font=font)
    d.rectangle((360, 160, 500, 240), fill=(250, 235, 200), outline=(120, 80, 20), width=3)
    d.text((395, 188), "Latent", fill=(20, 20, 20), font=font)
    d.polygon([(620, 80 + inset), (800, 80), (800, 320), (620, 320 - inset)], fill=(244, 214, 214),
              outline=(120, 30, 30), width=3)
    d.text((660, 188), "Decoder", fill=(20, 20, 20), font=font)
    for x0, x1 in ((245, 352), (505, 612)):
        d.line((x0, 200, x1 - 8, 200), fill=(40, 40, 40), width=3)
        d.polygon([(x1, 200), (x1 - 14, 193), (x1 - 14, 207)], fill=(40, 40, 40))
    d.polygon([(380, 300), (480, 300), (520, 380), (340, 380)], fill=(225, 240, 220), outline=(40, 100, 40), width=3)
    d.text((400, 330), "Pool", fill=(20, 20, 20), font=font)
    return png_bytes(np.asarray(im))


@pytest.mark.parametrize("narrow", [0.4, 0.6, 0.8])
def test_trapezoids_become_trapezoid_nodes_with_their_labels(narrow):
    conv = convert(_encoder_decoder(narrow), Config(quality=False))
    nodes = {c.label: c for c in conv.figure.components if c.kind == "node"}
    assert nodes["Encoder"].shape == "trapezoid_right"
    assert nodes["Decoder"].shape == "trapezoid_left"
    assert nodes["Pool"].shape == "trapezoid"
    assert nodes["Latent"].shape == "box"
    edges = {(c.source, c.target) for c in conv.figure.components if c.kind == "edge"}
    assert edges == {(nodes["Encoder"].id, nodes["Latent"].id), (nodes["Latent"].id, nodes["Decoder"].id)}
    # no stray diagonals: the slanted sides are the nodes' own
    assert not [c for c in conv.figure.components if c.kind == "path"]
    assert all(svg_words(conv.svg)[w] == 1 for w in ("encoder", "decoder", "latent", "pool"))


def _pipeline_with_badges_and_metro() -> bytes:
    """Three boxes with arrows inside a frame, a circled step number over each (white on a navy
    disc), an outlined circled '4', and three thick coloured lines running in parallel."""
    im = Image.new("RGB", (1000, 560), "white")
    d = ImageDraw.Draw(im)
    font, small = ImageFont.truetype(FONT, 20), ImageFont.truetype(FONT, 15)
    d.rectangle((20, 20, 980, 300), outline=(60, 60, 60), width=2)
    d.text((34, 28), "Training pipeline", fill=(20, 20, 20), font=font)
    for i, (x, word) in enumerate(zip((60, 340, 620), ("Load", "Train", "Eval"))):
        d.rectangle((x, 110, x + 200, 190), fill=(214, 230, 244), outline=INK, width=3)
        d.text((x + 70, 138), word, fill=(20, 20, 20), font=font)
        cx, cy = x + 100, 80
        d.ellipse((cx - 13, cy - 13, cx + 13, cy + 13), fill=INK)
        d.text((cx - 5, cy - 10), str(i + 1), fill=(255, 255, 255), font=small)
    for x0, x1 in ((262, 332), (542, 612)):
        d.line((x0, 150, x1 - 8, 150), fill=(40, 40, 40), width=3)
        d.polygon([(x1, 150), (x1 - 14, 143), (x1 - 14, 157)], fill=(40, 40, 40))
    for k, c in enumerate([(228, 26, 28), (55, 126, 184), (77, 175, 74)]):
        y = 360 + k * 14
        d.line([(60, y), (400, y), (480, y + 80), (900, y + 80)], fill=c, width=10, joint="curve")
    d.ellipse((900, 100, 930, 130), outline=(200, 60, 20), width=2)
    d.text((909, 104), "4", fill=(200, 60, 20), font=small)
    return png_bytes(np.asarray(im))


@pytest.fixture(scope="module")
def pipeline():
    return convert(_pipeline_with_badges_and_metro(), Config(quality=False))


def test_circled_step_numbers_are_circle_nodes_with_their_number(pipeline):
    circles = sorted(c.label for c in pipeline.figure.components if c.kind == "node" and c.shape == "circle")
    assert circles == ["1", "2", "3", "4"]


def test_thick_parallel_lines_keep_their_width_colour_and_course(pipeline):
    paths = [c for c in pipeline.figure.components if c.kind == "path"]
    assert sorted(p.stroke for p in paths) == ["#377EB8", "#4DAF4A", "#E41A1C"]
    for p in paths:
        assert p.fill == "none" and 8 <= p.stroke_width <= 12
        xs = [float(v.split(",")[0]) for v in p.d.replace("M", " ").replace("L", " ").split()]
        assert min(xs) < 70 and max(xs) > 890  # one line from end to end, not sections of it


def test_arrows_beside_thick_lines_keep_their_heads(pipeline):
    nodes = {c.id: c.label for c in pipeline.figure.components if c.kind == "node"}
    edges = {(nodes[c.source], nodes[c.target], c.head) for c in pipeline.figure.components if c.kind == "edge"}
    assert edges == {("Load", "Train", "arrow"), ("Train", "Eval", "arrow")}


def test_a_frame_around_the_figure_is_a_group_not_a_node(pipeline):
    groups = [c for c in pipeline.figure.components if c.kind == "group"]
    assert len(groups) == 1 and groups[0].label == "Training pipeline"
    assert len(groups[0].members) >= 3


def test_a_frame_around_labels_and_arrows_keeps_them():
    """A frame holding labels and arrows but no boxes was read as one node: its labels joined into
    one centred label and its arrows vanished under it."""
    im = Image.new("RGB", (460, 420), "white")
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(FONT, 20)
    d.rectangle((20, 20, 430, 400), outline=(60, 60, 60), width=2)
    d.text((40, 40), "Inputs", fill=(20, 20, 20), font=font)
    for i, word in enumerate(("tokens", "positions", "masks")):
        y = 110 + i * 90
        d.text((60, y), word, fill=(20, 20, 20), font=font)
        d.line((200, y + 12, 380, y + 12), fill=(40, 40, 40), width=3)
        d.polygon([(392, y + 12), (378, y + 5), (378, y + 19)], fill=(40, 40, 40))
    conv = convert(png_bytes(np.asarray(im)), Config(quality=False))
    comps = conv.figure.components
    assert not [c for c in comps if c.kind == "node"]
    assert [c.label for c in comps if c.kind == "group"] == ["Inputs"]
    assert sorted(c.text for c in comps if c.kind == "text") == ["masks", "positions", "tokens"]
    assert sum(c.kind in ("path", "edge") for c in comps) == 3


def test_only_long_thick_strokes_are_traced_apart():
    """Thick lines are traced on their own; a filled blob with its thin arrow (ViT's token pills:
    thick for their size, but not long) stays with the thin lines, as before."""
    from crafteditor.lines.widths import width_classes

    mask = np.zeros((300, 900), np.uint8)
    for y in range(10, 40, 4):  # thin connectors
        cv2.line(mask, (20, y), (880, y), 1, 1)
    for x in range(100, 800, 60):  # short arrows, each with a filled pill at its foot (32 x 64 in all)
        cv2.line(mask, (x, 60), (x, 84), 1, 2)
        cv2.ellipse(mask, (x, 104), (16, 20), 0, 0, 360, 1, -1)
    assert len(width_classes(mask.astype(bool))) == 1
    cv2.line(mask, (50, 220), (850, 230), 1, 10)  # a metro line
    thin, thick = width_classes(mask.astype(bool))
    assert thick[225, 450] and not thick[104, 100] and thin[104, 100]


def test_other_closed_polygons_are_filled_paths_with_their_text_kept():
    """A triangle (no trapezoid: it has no narrow side) and a pentagon match no node shape: each is
    one filled, stroked path, and its label stays text."""
    im = Image.new("RGB", (560, 260), "white")
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(FONT, 20)
    d.polygon([(60, 210), (150, 40), (240, 210)], fill=(225, 240, 220), outline=(40, 100, 40), width=3)
    d.text((128, 168), "Top", fill=(20, 20, 20), font=font)
    d.polygon([(420, 30), (520, 100), (480, 220), (360, 220), (320, 100)], fill=(244, 214, 214),
              outline=(120, 30, 30), width=3)
    d.text((392, 130), "Core", fill=(20, 20, 20), font=font)
    conv = convert(png_bytes(np.asarray(im)), Config(quality=False))
    comps = conv.figure.components
    assert not [c for c in comps if c.kind == "node"]
    assert sorted(c.text for c in comps if c.kind == "text") == ["Core", "Top"]
    paths = sorted((c for c in comps if c.kind == "path"), key=lambda c: c.d)
    assert [(p.fill, p.stroke, p.d.count("L") + 1) for p in paths] == [("#E1F0DC", "#286428", 3),
                                                                       ("#F4D6D6", "#781E1E", 5)]


def test_the_skeleton_thinned_piece_by_piece_is_skimages():
    from skimage.morphology import skeletonize

    from crafteditor.lines.skeleton import skeleton

    rng = np.random.default_rng(3)
    m = np.zeros((400, 600), np.uint8)
    for _ in range(40):
        x, y = (int(v) for v in rng.integers(0, 560, 2))
        cv2.line(m, (x, y % 400), (x + int(rng.integers(-80, 80)), (y + int(rng.integers(-80, 80))) % 400), 1,
                 int(rng.integers(1, 6)))
    cv2.rectangle(m, (20, 20), (140, 120), 1, -1)  # a filled blob: thinned on its own
    cv2.circle(m, (480, 300), 50, 1, -1)
    assert np.array_equal(skeleton(m.astype(bool)), skeletonize(m.astype(bool)))
