"""A face cut by the glyph it holds is a node only when round (a TikZ operator circle, a numbered badge). draw.io's
cloud architectures set a service's icon on its card, a pictogram in a small outline (GCP's BigQuery magnifier in a
hexagon, Compute Engine's chip in a rounded square): taken for a node of its own, it made the card a frame and the
service's name the frame's title (draw.io's GCP 'Mobile Game Backend' template: nodes 0.52 -> 0.40 last round).
Drawn here with PIL: a circled × and a magnifier in a hexagon of about the same size; the circle is a node, the
hexagon is not."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw, ImageFont

from crafteditor.config import Config
from crafteditor.convert import convert
from crafter.spec.model import Node

SERIF = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"


def _page() -> bytes:
    img = Image.new("RGB", (300, 120), "white")
    d = ImageDraw.Draw(img)
    times = ImageFont.truetype(SERIF, 13)
    d.ellipse([59, 49, 81, 71], outline="black", width=2)  # 23 px across, as TikZ draws it at 1x
    d.text((70, 60), "×", fill="black", font=times, anchor="mm")
    # an icon: BigQuery's magnifier (a ring, its handle) in a hexagon, 28 x 24 px as draw.io's GCP stencil draws it
    d.polygon([(206, 60), (213, 48), (227, 48), (234, 60), (227, 72), (213, 72)], outline=(66, 133, 244), width=3)
    d.ellipse([213, 53, 225, 65], outline=(66, 133, 244), width=2)
    d.line([223, 63, 228, 68], fill=(66, 133, 244), width=2)
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def test_a_glyph_in_a_small_circle_is_a_node_and_in_a_small_hexagon_is_not():
    fig = convert(_page(), Config()).figure
    nodes = [c for c in fig.components if isinstance(c, Node)]
    assert any(c.shape == "circle" and c.box.x < 150 for c in nodes), [(c.shape, c.label, c.box) for c in nodes]
    assert not any(c.box.x > 150 and c.box.w < 40 and c.shape != "circle" and c.label in ("", "×") for c in nodes), \
        [(c.shape, c.label, c.box) for c in nodes]
