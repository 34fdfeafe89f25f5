"""Block arrows set in the gap between two boxes (Google Drawings', draw.io's, PowerPoint's 'block
arrow' shape: a pale-filled bar with a dark outline ending in a wide triangle, touching neither node):
they were traced as paths joined to nothing (issue 31: a scheduling-queue diagram's six transitions all
lost). Each is an edge from the box behind its tail to the box its tip points at."""

from __future__ import annotations

import io
import math

import numpy as np
from PIL import Image, ImageDraw, ImageFont
from scipy import ndimage

from crafteditor import convert
from crafteditor.assemble.block_arrows import block_arrows, filled_holes
from crafter.spec.model import Edge, Node

FONT = ImageFont.truetype("DejaVuSans.ttf", 18)
FILL, OUTLINE = (207, 226, 243), (60, 60, 60)


def _block_arrow(d: ImageDraw.ImageDraw, tail: tuple[float, float], tip: tuple[float, float],
                 shaft: float = 8.0, head_w: float = 20.0, head_len: float = 16.0) -> None:
    L = math.dist(tail, tip)
    ux, uy = (tip[0] - tail[0]) / L, (tip[1] - tail[1]) / L
    vx, vy = -uy, ux
    bx, by = tip[0] - ux * head_len, tip[1] - uy * head_len
    pts = [(tail[0] + vx * shaft / 2, tail[1] + vy * shaft / 2), (bx + vx * shaft / 2, by + vy * shaft / 2),
           (bx + vx * head_w / 2, by + vy * head_w / 2), tip, (bx - vx * head_w / 2, by - vy * head_w / 2),
           (bx - vx * shaft / 2, by - vy * shaft / 2), (tail[0] - vx * shaft / 2, tail[1] - vy * shaft / 2)]
    d.polygon(pts, fill=FILL, outline=OUTLINE)


def _figure() -> bytes:
    im = Image.new("RGB", (640, 420), "white")
    d = ImageDraw.Draw(im)
    boxes = {"Queue": (230, 20, 420, 70), "Worker": (250, 170, 400, 250), "Retry": (20, 350, 200, 400)}
    for name, (x0, y0, x1, y1) in boxes.items():
        d.rectangle((x0, y0, x1, y1), fill=(255, 217, 102), outline=(90, 90, 90), width=2)
        w = d.textlength(name, font=FONT)
        d.text(((x0 + x1 - w) / 2, (y0 + y1) / 2 - 11), name, fill="black", font=FONT)
    _block_arrow(d, (325, 90), (325, 152))  # Queue -> Worker, 20 px short of each
    _block_arrow(d, (230, 270), (160, 335))  # Worker -> Retry, a diagonal 20-40 px off both
    _block_arrow(d, (120, 335), (240, 90))  # Retry -> Queue, a long diagonal
    buf = io.BytesIO()
    im.save(buf, format="PNG")
    return buf.getvalue()


def test_block_arrows_between_boxes_are_edges():
    fig = convert(_figure()).figure
    names = {c.id: c.label for c in fig.components if isinstance(c, Node)}
    pairs = {(names.get(e.source), names.get(e.target)) for e in fig.components if isinstance(e, Edge)}
    assert ("Queue", "Worker") in pairs, pairs
    assert ("Worker", "Retry") in pairs, pairs
    assert ("Retry", "Queue") in pairs, pairs


def test_a_thick_bar_or_a_word_is_no_block_arrow():
    im = Image.new("RGB", (300, 120), "white")
    d = ImageDraw.Draw(im)
    d.rectangle((20, 20, 200, 28), fill=FILL, outline=OUTLINE)  # a bar with no head
    d.text((20, 60), "flushBackoffQCompleted", fill="black", font=FONT)  # a word left as ink
    rgb = np.asarray(im)
    ink = (rgb.astype(int).sum(axis=2) < 3 * 235)
    assert block_arrows(ink, rgb, [])[0] == []


def test_the_blobs_holes_are_filled_as_scipy_fills_them():
    """A block arrow's outline closes round its pale inside: the blob read is outline and inside, the
    holes filled by the flood fill exactly as scipy's binary_fill_holes fills them (4-connected ground)."""
    rng = np.random.default_rng(1)
    for trial in range(150):
        h, w = (int(v) for v in rng.integers(1, 90, 2))
        m = rng.random((h, w)) < rng.uniform(0.2, 0.7)
        assert np.array_equal(filled_holes(m), ndimage.binary_fill_holes(m)), trial
    ring = np.zeros((30, 40), bool)
    ring[5:25, 5:35] = True
    ring[7:23, 7:33] = False  # an outlined bar: its inside is filled
    assert filled_holes(ring)[15, 20] and filled_holes(ring).sum() == 20 * 30
