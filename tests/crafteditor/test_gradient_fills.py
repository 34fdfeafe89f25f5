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
