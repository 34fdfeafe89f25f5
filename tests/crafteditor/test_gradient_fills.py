"""Boxes filled with a linear gradient (draw.io's ``gradientColor``, PowerPoint's shaded boxes): the
ramp reads as one face, one node with its label, and the arrow into it keeps its end; two flat fills
that meet (a class box's header and body) stay two tones."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from crafteditor.config import Config
from crafteditor.convert import convert
from crafteditor.paint import flattened_gradients
from crafteditor.realset import norm_word
from crafter.spec.model import Edge, Node

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
TOP, BOTTOM = np.array([255, 255, 255]), np.array([126, 166, 224])  # white to draw.io's blue (#7EA6E0)


def _gradient_box(a: np.ndarray, x0: int, y0: int, x1: int, y1: int) -> None:
    """A box filled white at the top to light blue at the bottom, outlined in black."""
    t = np.linspace(0.0, 1.0, y1 - y0 + 1)[:, None]
    a[y0:y1 + 1, x0:x1 + 1] = np.rint(TOP + t * (BOTTOM - TOP)).astype(np.uint8)[:, None, :]
    a[y0:y0 + 2, x0:x1 + 1] = 0
    a[y1 - 1:y1 + 1, x0:x1 + 1] = 0
    a[y0:y1 + 1, x0:x0 + 2] = 0
    a[y0:y1 + 1, x1 - 1:x1 + 1] = 0


def _figure() -> Image.Image:
    a = np.full((300, 640, 3), 255, np.uint8)
    _gradient_box(a, 60, 90, 240, 190)
    _gradient_box(a, 400, 90, 580, 190)
    im = Image.fromarray(a)
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(FONT, 20)
    d.text((150, 140), "Client", fill="black", font=font, anchor="mm")
    d.text((490, 140), "Server", fill="black", font=font, anchor="mm")
    d.line((241, 140, 385, 140), fill="black", width=2)
    d.polygon([(399, 140), (384, 132), (384, 148)], fill="black")
    return im


def _png(im: Image.Image) -> bytes:
    buf = io.BytesIO()
    im.save(buf, format="PNG")
    return buf.getvalue()


def test_a_gradient_box_is_one_node_and_the_arrow_into_it_keeps_its_end():
    fig = convert(_png(_figure()), Config()).figure
    nodes = {c.id: norm_word(c.label or "") for c in fig.components if isinstance(c, Node)}
    labelled = sorted(v for v in nodes.values() if v)
    assert labelled == [norm_word("Client"), norm_word("Server")]
    assert len(nodes) == 2  # no bands or blobs beside them
    ends = {(nodes.get(e.source), nodes.get(e.target)) for e in fig.components if isinstance(e, Edge)}
    assert (norm_word("Client"), norm_word("Server")) in ends


def test_a_ramp_is_painted_one_colour_and_its_label_kept():
    a = np.asarray(_figure())
    flat = flattened_gradients(a)
    inside = flat[100:180, 70:100]  # the left box's fill, clear of its label
    assert len(np.unique(inside.reshape(-1, 3), axis=0)) == 1
    label = a[130:150, 120:180]
    assert (flat[130:150, 120:180][label.max(axis=2) < 100] < 100).all()  # the glyphs' cores untouched


def test_two_flat_tones_that_meet_stay_two():
    # a UML class box: a filled header over a paler body, meeting in a sharp step, no line between
    a = np.full((200, 300, 3), 255, np.uint8)
    a[40:160, 50:250] = (218, 232, 252)
    a[40:80, 50:250] = (180, 200, 240)
    a[40:42, 50:250] = a[158:160, 50:250] = 0
    a[40:160, 50:52] = a[40:160, 248:250] = 0
    assert flattened_gradients(a) is a
    # and a header ramp that fades into its body in a few small steps is no ramp either: four bands
    b = a.copy()
    b[80:82, 52:248] = (199, 216, 246)
    assert np.array_equal(flattened_gradients(b), b)


def test_a_figure_without_soft_steps_is_left_as_it_is():
    a = np.full((120, 160, 3), 255, np.uint8)
    a[30:90, 40:120] = (200, 220, 240)
    assert flattened_gradients(a) is a


def _tile(a: np.ndarray, x0: int, y0: int, size: int, top, bottom) -> None:
    """A drawio AWS resource tile: a square ramp from ``top`` to ``bottom``, no outline."""
    t = np.linspace(0.0, 1.0, size)[:, None]
    a[y0:y0 + size, x0:x0 + size] = np.rint(np.array(top) + t * (np.array(bottom) - np.array(top))
                                           ).astype(np.uint8)[:, None, :]


def test_a_tile_ramp_without_outline_is_flattened_to_its_rim():
    # the ramp's outermost rows and columns step sharply to the page: painted the fill too, not
    # left as a frame of the ramp's two ends (a second outline the box and its arrows were read against)
    a = np.full((200, 200, 3), 255, np.uint8)
    _tile(a, 40, 40, 120, (247, 142, 4), (208, 92, 23))
    flat = flattened_gradients(a)
    assert len(np.unique(flat[40:160, 40:160].reshape(-1, 3), axis=0)) == 1
    assert (flat[:40] == 255).all() and (flat[160:] == 255).all()  # the page untouched


def test_a_captioned_gradient_tile_is_a_named_node_and_keeps_its_arrow():
    # drawio's AWS tiles: a gradient square, its name set below it (spacingTop=8: 1.4 font sizes
    # down), an arrow from it to a flat tile named just below
    a = np.full((320, 640, 3), 255, np.uint8)
    _tile(a, 80, 60, 130, (247, 142, 4), (208, 92, 23))
    a[60:190, 420:550] = (188, 19, 86)
    im = Image.fromarray(a)
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(FONT, 20)
    d.text((145, 190 + 28), "Lambda", fill=(35, 47, 62), font=font, anchor="mt")
    d.text((485, 190 + 14), "Queue", fill=(35, 47, 62), font=font, anchor="mt")
    d.line((212, 125, 405, 125), fill=(128, 128, 128), width=3)
    d.polygon([(418, 125), (402, 116), (402, 134)], fill=(128, 128, 128))
    fig = convert(_png(im), Config()).figure
    nodes = {c.id: norm_word(c.label or "") for c in fig.components if isinstance(c, Node)}
    assert sorted(v for v in nodes.values() if v) == [norm_word("Lambda"), norm_word("Queue")]
    ends = {(nodes.get(e.source), nodes.get(e.target)) for e in fig.components if isinstance(e, Edge)}
    assert (norm_word("Lambda"), norm_word("Queue")) in ends


def test_a_dotted_edge_beside_a_gradient_box_stays_an_edge():
    # a PowerPoint UML figure: a dotted dependency from a shaded class box to a flat one; the dots
    # beside the box are ink, never part of its flattened fill
    a = np.full((360, 640, 3), 255, np.uint8)
    _gradient_box(a, 60, 60, 240, 160)
    a[250:320, 400:580] = (0, 112, 192)
    im = Image.fromarray(a)
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(FONT, 20)
    d.text((150, 110), "Parser", fill="black", font=font, anchor="mm")
    d.text((490, 285), "Prefix", fill="white", font=font, anchor="mm")
    for x in range(244, 474, 8):  # dots out of the shaded box's side, then down into the flat box
        d.rectangle((x, 109, x + 3, 112), fill=(0, 112, 192))
    for y in range(109, 236, 8):
        d.rectangle((468, y, 471, y + 3), fill=(0, 112, 192))
    d.polygon([(470, 249), (461, 234), (479, 234)], fill=(0, 112, 192))
    flat = flattened_gradients(np.asarray(im))
    assert np.array_equal(flat[100:250, 242:], np.asarray(im)[100:250, 242:])
    fig = convert(_png(im), Config()).figure
    nodes = {c.id: norm_word(c.label or "") for c in fig.components if isinstance(c, Node)}
    assert sorted(v for v in nodes.values() if v) == [norm_word("Parser"), norm_word("Prefix")]
    ends = {(nodes.get(e.source), nodes.get(e.target)) for e in fig.components if isinstance(e, Edge)}
    assert (norm_word("Parser"), norm_word("Prefix")) in ends


def test_a_label_between_two_shapes_is_no_caption_of_either():
    # a state machine: 'From ASG' set on the line between an empty ring and a named state, 1.4 font
    # sizes under the ring and as near the state: the line's label, not the ring's caption
    im = Image.new("RGB", (400, 420), "white")
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(FONT, 20)
    d.ellipse((130, 0, 270, 140), outline="black", width=2)
    d.ellipse((150, 204, 250, 304), outline="black", width=2)
    d.text((200, 254), "Idle", fill="black", font=font, anchor="mm")
    d.line((200, 204, 200, 146), fill="black", width=2)
    d.polygon([(200, 141), (193, 154), (207, 154)], fill="black")
    d.text((200, 168), "From ASG", fill="black", font=font, anchor="mt")
    fig = convert(_png(im), Config()).figure
    labels = [norm_word(c.label or "") for c in fig.components if isinstance(c, Node)]
    assert [v for v in labels if v] == [norm_word("Idle")]


def test_band_medians_and_region_span_are_numpys_values():
    """The ramp test's per-band medians (from histograms) and a region's channel span (OpenCV's masked
    extremes) are exactly what ``np.median`` per band and the gathered pixels' range give."""
    from crafteditor.paint import _band_medians, _span

    rng = np.random.default_rng(7)
    for _ in range(200):
        count = rng.integers(1, 30, rng.integers(1, 40))
        bands = rng.permutation(np.repeat(np.arange(len(count)), count))
        colors = rng.integers(0, rng.integers(1, 257), (len(bands), 3)).astype(np.int16)
        expected = np.stack([np.median(colors[bands == b], axis=0) for b in range(len(count))])
        assert np.array_equal(_band_medians(bands, count, colors), expected)
        page = rng.integers(0, 256, (30, 40, 3)).astype(np.uint8)
        crop, inside = page[3:23, 5:35], rng.random((20, 30)) < 0.3
        inside[0, 0] = True
        px = crop[inside].astype(np.int16)
        assert _span(crop, inside) == int((px.max(axis=0) - px.min(axis=0)).max())
