"""An unfilled diamond drawn with rounded corners (Excalidraw's default since 2023) is a node.

Fitted to a sharp diamond its face scored IoU 0.89, under the 0.9 an unfilled (canvas-coloured)
face must reach, and a dev Excalidraw flowchart's decision lost its node and both its edges."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from crafteditor.config import Config
from crafteditor.convert import convert

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def _cubic(p0, c, p3, n=16):
    t = np.linspace(0, 1, n)[:, None]
    p0, c, p3 = (np.array(v, float) for v in (p0, c, p3))
    return [tuple(p) for p in (1 - t) ** 3 * p0 + 3 * (1 - t) ** 2 * t * c + 3 * (1 - t) * t * t * c + t ** 3 * p3]


def _rounded_diamond(cx, cy, w, h):
    corners = [(cx, cy - h / 2), (cx + w / 2, cy), (cx, cy + h / 2), (cx - w / 2, cy)]
    pts = []
    for k, c in enumerate(corners):
        a, b = corners[k - 1], corners[(k + 1) % 4]
        p0 = (c[0] + 0.25 * (a[0] - c[0]), c[1] + 0.25 * (a[1] - c[1]))
        p3 = (c[0] + 0.25 * (b[0] - c[0]), c[1] + 0.25 * (b[1] - c[1]))
        pts += _cubic(p0, c, p3)
    return pts


def test_an_unfilled_rounded_diamond_is_a_node_with_its_edge():
    im = Image.new("RGB", (620, 260), "white")
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(FONT, 17)
    pts = _rounded_diamond(150, 130, 240, 170)
    d.line(pts + [pts[0]], fill=(30, 30, 30), width=2, joint="curve")
    d.text((112, 120), "Valid?", fill=(30, 30, 30), font=font)
    d.rounded_rectangle((430, 95, 590, 165), radius=10, outline=(30, 30, 30), width=2)
    d.text((470, 120), "Store", fill=(30, 30, 30), font=font)
    d.line((272, 130, 420, 130), fill=(30, 30, 30), width=2)
    d.polygon([(428, 130), (414, 123), (414, 137)], fill=(30, 30, 30))
    fig = convert(np.asarray(im), Config(quality=False)).figure
    nodes = {c.id: c for c in fig.components if c.kind == "node"}
    assert any(n.shape == "diamond" and "Valid" in (n.label or "") for n in nodes.values())
    edges = [c for c in fig.components if c.kind == "edge"]
    assert any("Valid" in (nodes[e.source].label or "") and "Store" in (nodes[e.target].label or "")
               for e in edges if e.source in nodes and e.target in nodes)
