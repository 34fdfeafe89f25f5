"""Nodes and text real typeset diagrams lost (issue 31, round 3), reproduced on figures drawn
here with PIL: sequence headers in saturated colours with a soft drop shadow (Eraser.io's),
accepting states drawn as double circles with underscored names (graphviz's fsm), a word that
starts with K in a face whose K is short, blue boxes with long white names joined by blue
arrows (PowerPoint's UML), letters in circles barely wider than them, and photos stacked a
gutter apart (SAM's outputs); with the real set present, the dev figures each fault was found
on."""

from __future__ import annotations

import numpy as np
from ce_helpers import png_bytes
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from crafteditor.config import Config
from crafteditor.convert import convert
from crafteditor.ocr.corrections import restore_symbols
from crafteditor.photos import find_photos

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
SERIF = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
PAGE = (240, 244, 247)


def _shadowed_headers() -> bytes:
    """Three participants as Eraser.io draws them: white bold names on saturated rounded boxes,
    each with a grey shadow fading out below it, a lifeline under each and two messages."""
    im = Image.new("RGB", (800, 420), PAGE)
    shadow = Image.new("L", im.size, 0)
    ds = ImageDraw.Draw(shadow)
    xs = (40, 320, 580)
    for x in xs:
        ds.rounded_rectangle((x - 2, 30, x + 194, 86), 6, fill=60)
    shadow = shadow.filter(ImageFilter.GaussianBlur(4))
    im = Image.composite(Image.new("RGB", im.size, (150, 160, 170)), im, shadow)
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(FONT, 18)
    for x, name, fill in zip(xs, ("Caller", "Service", "Callback"), ((115, 15, 195), (44, 136, 217),
                                                                     (26, 174, 159))):
        d.line((x + 96, 80, x + 96, 400), fill=(200, 208, 216), width=4)
        d.rounded_rectangle((x, 27, x + 192, 76), 6, fill=fill)
        d.text((x + 96, 51), name, fill=(255, 255, 255), font=font, anchor="mm")
    for y, (a, b) in ((160, (0, 1)), (280, (1, 2))):
        d.line((xs[a] + 100, y, xs[b] + 86, y), fill=(200, 208, 216), width=4)
        d.polygon([(xs[b] + 92, y), (xs[b] + 80, y - 7), (xs[b] + 80, y + 7)], fill=(200, 208, 216))
    return png_bytes(np.asarray(im))


def test_shadowed_sequence_headers_are_labelled_nodes():
    conv = convert(_shadowed_headers(), Config(quality=False))
    labels = sorted(c.label for c in conv.figure.components if c.kind == "node")
    assert labels == ["Callback", "Caller", "Service"], labels
    assert not any(c.kind == "image" for c in conv.figure.components)  # no name kept as a picture


def _state_machine() -> bytes:
    """States of a parser as graphviz draws them: serif names with underscores in circles, the
    accepting ones in a double circle, arrows between them."""
    im = Image.new("RGB", (900, 300), "white")
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(SERIF, 22)
    centres = [(110, 150, True), (330, 150, False), (550, 150, False), (770, 150, True)]
    for k, (x, y, double) in enumerate(centres):
        d.ellipse((x - 55, y - 55, x + 55, y + 55), outline=(0, 0, 0), width=2)
        if double:
            d.ellipse((x - 62, y - 62, x + 62, y + 62), outline=(0, 0, 0), width=2)
        d.text((x, y), f"LR_{k}", fill=(0, 0, 0), font=font, anchor="mm")
        if k:
            x0 = centres[k - 1][0] + (62 if centres[k - 1][2] else 55)
            x1 = x - (62 if double else 55)
            d.line((x0, y, x1 - 12, y), fill=(0, 0, 0), width=2)
            d.polygon([(x1, y), (x1 - 14, y - 6), (x1 - 14, y + 6)], fill=(0, 0, 0))
    return png_bytes(np.asarray(im))


def test_double_circled_states_are_nodes_with_their_names():
    conv = convert(_state_machine(), Config(quality=False))
    labels = sorted(c.label for c in conv.figure.components if c.kind == "node")
    assert labels == ["LR_0", "LR_1", "LR_2", "LR_3"], labels


def test_a_short_k_in_a_word_stays_latin():
    # a hand-lettered 'Kubeadm': the K no taller than an x (what makes a lone K read as κ)
    mask = np.zeros((30, 120), bool)
    mask[10:24, 4:14] = True  # the K, x-height tall
    for x in range(18, 110, 13):
        mask[10:24, x:x + 9] = True  # the other letters
    centres = [9.0] + [22.0 + 13 * k for k in range(6)]
    assert restore_symbols("Kubeadm", centres, mask, 0, 24.0) == "Kubeadm"
    assert restore_symbols("K", centres[:1], mask[:, :16], 0, 24.0) == "κ"


def _joined_blue_boxes() -> bytes:
    """A class diagram as PowerPoint draws it: white names on blue boxes, joined by arrows of the
    boxes' own blue (dotted, and solid into a box), the names long words."""
    blue = (0, 112, 192)
    im = Image.new("RGB", (900, 420), (220, 230, 242))
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 18)
    boxes = {"CommandResult": (60, 40, 270, 100), "LogicManager": (60, 280, 270, 340),
             "ParserFactory": (520, 280, 730, 340)}
    for name, (x0, y0, x1, y1) in boxes.items():
        d.rectangle((x0, y0, x1, y1), fill=blue)
        d.text(((x0 + x1) // 2, (y0 + y1) // 2), name, fill="white", font=font, anchor="mm")
    for y in range(110, 272, 8):  # dotted, up into CommandResult
        d.rectangle((163, y, 166, y + 3), fill=blue)
    d.rectangle((163, 101, 166, 112), fill=blue)
    d.polygon([(164, 100), (156, 116), (172, 116)], fill=blue)
    d.rectangle((271, 309, 505, 311), fill=blue)  # solid, into ParserFactory
    d.polygon([(519, 310), (503, 302), (503, 318)], fill=blue)
    return png_bytes(np.asarray(im))


def test_boxes_joined_by_lines_of_their_own_colour_are_labelled_nodes():
    conv = convert(_joined_blue_boxes(), Config(quality=False))
    labels = sorted(c.label for c in conv.figure.components if c.kind == "node")
    assert labels == ["CommandResult", "LogicManager", "ParserFactory"], labels


def _circled_letters() -> bytes:
    """Operators as Mamba's figure draws them: a letter in a circle barely wider than it, arrows
    between them."""
    im = Image.new("RGB", (520, 160), "white")
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(FONT, 20)
    for k, letter in enumerate("NNN"):
        x = 80 + 170 * k
        d.ellipse((x - 16, 64, x + 16, 96), fill=(251, 229, 214), outline=(0, 0, 0), width=2)
        d.text((x, 80), letter, fill=(0, 0, 0), font=font, anchor="mm")
        if k:
            d.line((x - 154, 80, x - 29, 80), fill=(0, 0, 0), width=2)
            d.polygon([(x - 18, 80), (x - 30, 74), (x - 30, 86)], fill=(0, 0, 0))
    return png_bytes(np.asarray(im))


def test_a_letter_in_a_small_circle_keeps_its_size():
    conv = convert(_circled_letters(), Config(quality=False))
    nodes = [c for c in conv.figure.components if c.kind == "node" and c.label]
    assert len(nodes) >= 2 and all(c.label == "N" for c in nodes), [c.label for c in nodes]
    # drawn 20 px: not shrunk to fit inside the padding (a 23 px circle in a paper figure went to 6 pt)
    assert all((c.font_size or 12.0) >= 18.0 for c in nodes), [c.font_size for c in nodes]


def _stacked_photos() -> np.ndarray:
    """Three photos stacked 16 px apart, each in a thin frame, as SAM's figure shows its outputs."""
    rng = np.random.default_rng(3)
    a = np.full((420, 300, 3), 255, np.uint8)
    for k in range(3):
        y = 24 + k * 136  # on the 8 px block grid: two empty block rows between photos
        small = rng.integers(0, 255, (17, 27, 3)).astype(np.uint8)
        base = np.asarray(Image.fromarray(small).resize((200, 120), Image.BICUBIC), np.float32)
        a[y:y + 120, 50:250] = np.clip(base + rng.normal(0, 14, (120, 200, 3)), 0, 255).astype(np.uint8)
        a[y - 1, 49:251] = a[y + 120, 49:251] = 0
        a[y - 1:y + 121, 49] = a[y - 1:y + 121, 250] = 0
    return a


def test_stacked_photos_are_kept_as_three_images():
    boxes = sorted(p.box for p in find_photos(_stacked_photos()))
    assert len(boxes) == 3, boxes
    for k, (x0, y0, x1, y1) in enumerate(boxes):
        assert abs(y0 - (24 + k * 136)) <= 4 and abs(y1 - (144 + k * 136)) <= 4 and abs(x0 - 50) <= 4

