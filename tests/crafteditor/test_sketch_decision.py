"""When a figure is read as hand-drawn (issue 31, sketch11): the outlines' sides must wobble.

A typeset sequence diagram's lifelines and messages fence in pockets of paper that match a box
loosely (arrowheads and self-calls notch them), a typeset box holding an icon or a glyph's remnant
matches loosely too: rough, yet typeset. Read twice, the second time as a sketch, such a figure went
through a median that erased its 1 px dashed lifelines and thin arrows (a sequencediagram.org
ladder, a PlantUML state machine, a PowerPoint UML diagram on dev). A hand-drawn box's sides wobble
along their run; a typeset box's are straight, however notched."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from crafteditor.config import Config
from crafteditor.paint import find_paints
from crafteditor.shapes.sketch import (
    BOX_STRAY_PX,
    ROUGH_PX,
    WOBBLE_PX,
    _side_stray,
    _side_wobble,
    find_sketch_shapes,
    looks_hand_drawn,
)
from tests.crafteditor.test_sketch import _wobbly_box


def _dashed_v(d: ImageDraw.ImageDraw, x: int, y0: int, y1: int, on: int = 5, off: int = 4) -> None:
    for y in range(y0, y1, on + off):
        d.line([(x, y), (x, min(y + on, y1))], fill=(60, 60, 60), width=1)


def _arrow(d: ImageDraw.ImageDraw, x0: int, x1: int, y: int) -> None:
    d.line([(x0, y), (x1, y)], fill=(0, 0, 0), width=1)
    s = 1 if x1 > x0 else -1
    d.polygon([(x1, y), (x1 - 9 * s, y - 4), (x1 - 9 * s, y + 4)], fill=(0, 0, 0))


def _ladder(scale: int = 1) -> np.ndarray:
    """A typeset sequence diagram: heads, 1 px dashed lifelines, messages between them with filled
    heads, self-calls, activation bars (drawn at 1x, then enlarged ``scale`` times)."""
    im = Image.new("RGB", (520, 460), "white")
    d = ImageDraw.Draw(im)
    xs = (80, 260, 440)
    for x in xs:
        d.rectangle([x - 50, 10, x + 50, 40], outline=(0, 0, 0), width=1)
        _dashed_v(d, x, 41, 450)
    for i, y in enumerate(range(80, 440, 45)):
        a, b = (xs[i % 3], xs[(i + 1) % 3]) if i % 2 == 0 else (xs[(i + 1) % 3], xs[i % 3])
        _arrow(d, a, b, y)
        if i % 3 == 1:  # a self-call: out, down, back in
            x = xs[(i + 2) % 3]
            d.line([(x, y + 8), (x + 35, y + 8), (x + 35, y + 22)], fill=(0, 0, 0), width=1)
            _arrow(d, x + 35, x, y + 22)
        if i % 4 == 2:  # an activation bar on the receiver
            d.rectangle([b - 5, y, b + 5, y + 40], outline=(0, 0, 0), fill="white", width=1)
    if scale > 1:
        im = im.resize((im.width * scale, im.height * scale), Image.LANCZOS)
    return np.asarray(im)


def test_a_typeset_sequence_ladder_read_once_keeps_no_loose_outlines():
    """Read with the jpeg preset (a JPEG: no second reading follows), a ladder's pockets between
    lifelines and messages are no nodes; read with the auto preset they are rough (it reads them
    again, as a sketch: see looks_rough)."""
    for scale in (1, 2):
        rgb = _ladder(scale)
        config = Config.preset("jpeg")
        assert find_sketch_shapes(rgb, find_paints(rgb, config), config, 1.0, []) == [], scale



def test_a_ladder_read_once_by_the_auto_preset_keeps_no_loose_outlines():
    """The auto preset reads a rough figure again as a sketch, unless the time budget refuses: then no
    second reading follows, and the outlines must wobble as for the jpeg preset (the gate had been keyed
    on the preset alone, and a refused re-read kept a ladder's pockets as nodes)."""
    rgb = _ladder()
    config = Config.preset("auto")
    paints = find_paints(rgb, config)
    assert find_sketch_shapes(rgb, paints, config, 1.0, [])  # rough: the second reading decides
    assert find_sketch_shapes(rgb, paints, config, 1.0, [], rereads=False) == []


def _pocket() -> np.ndarray:
    """The paper between two lifelines and two messages: straight sides notched by arrowheads (a
    triangle into each side) and a self-call's loop (a rectangle bitten out of one side)."""
    m = np.ones((270, 130), bool)
    yy, xx = np.mgrid[:270, :130]
    for cy in (60, 140, 200):
        m &= ~((xx < 10 - abs(yy - cy) * 2.2) & (xx >= 0))  # an arrowhead pointing into the left side
        m &= ~((xx > 120 + abs(yy - cy) * 2.2))
    m[100:125, 95:] = False  # a self-call's loop
    return m


def test_rough_notched_straight_sides_are_no_sign_of_a_sketch_and_wobbling_ones_are():
    import cv2

    from crafteditor.shapes.sketch import sketch_ink

    pocket = _pocket()
    assert _side_wobble(pocket) < 1e-6 and _side_stray(pocket) <= BOX_STRAY_PX
    rgb, (x, y, w, h) = _wobbly_box(0.0)
    ink = sketch_ink(rgb, find_paints(rgb, Config.preset("sketch")))
    _, lab = cv2.connectedComponents((~ink).astype(np.uint8), connectivity=4)
    inside = lab == lab[y + h // 2, x + w // 2]
    ys, xs = np.nonzero(inside)
    hole = inside[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    assert _side_wobble(hole) >= 2 * WOBBLE_PX
    box = type("S", (), {"shape": "round", "dashed": "solid"})()
    dashed = type("S", (), {"shape": "round", "dashed": "dashed"})()
    ellipse = type("S", (), {"shape": "ellipse", "dashed": "solid"})()
    rough = ROUGH_PX + 1.0
    notched = (box, rough, _side_stray(pocket), _side_wobble(pocket))
    wobbly = (box, rough, _side_stray(hole), _side_wobble(hole))
    assert not looks_hand_drawn([notched] * 4)  # a typeset ladder's pockets
    assert looks_hand_drawn([wobbly] * 2)
    assert looks_hand_drawn([wobbly, (ellipse, rough, 5.0, 0.9)])  # an ellipse beside a wobbling box
    assert not looks_hand_drawn([(ellipse, rough, 5.0, 0.9)] * 2)  # pockets between curves alone
    assert not looks_hand_drawn([wobbly, (dashed, rough, 0.5, 0.4)])  # a dashed hole bows at its gaps


def test_a_pencil_sketch_as_a_jpeg_keeps_its_outlines():
    """A hand-drawn figure read once (a q75 JPEG: the jpeg preset, no second reading) keeps its
    wobbly outlines as nodes: their sides wobble."""
    import io

    from handdrawn import pencil_sketch

    png, words, _ = pencil_sketch(0)
    buf = io.BytesIO()
    Image.open(io.BytesIO(png)).convert("RGB").save(buf, "JPEG", quality=75)
    rgb = np.asarray(Image.open(io.BytesIO(buf.getvalue())).convert("RGB"))
    config = Config.preset("jpeg")
    assert len(find_sketch_shapes(rgb, find_paints(rgb, config), config, 1.0, [])) >= len(words) - 1
