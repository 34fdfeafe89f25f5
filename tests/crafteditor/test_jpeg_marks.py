"""A PNG that was once a JPEG (a page's screenshot saved as JPEG, then as PNG) is read as a JPEG file is,
with the jpeg preset: read as a clean PNG, every pale fill broke into noise and was traced as paths."""

import io
from pathlib import Path

import numpy as np
from ce_helpers import png_bytes
from PIL import Image, ImageDraw

from crafteditor.convert import convert
from crafteditor.jpeg_marks import has_jpeg_marks
from crafteditor.realset import _label
from crafter.spec.model import Edge, Node

HERE = Path(__file__).resolve().parent


def _boxes() -> Image.Image:
    """Pale filled boxes joined by thin grey links, as Mermaid's themes draw them."""
    img = Image.new("RGB", (480, 200), "white")
    d = ImageDraw.Draw(img)
    for x in (20, 180, 340):
        d.rectangle([x, 60, x + 120, 120], fill=(255, 244, 221), outline=(230, 210, 170))
    d.line([(140, 90), (180, 90)], fill=(80, 80, 80), width=1)
    d.line([(300, 90), (340, 90)], fill=(80, 80, 80), width=1)
    return img


def _via_jpeg(img: Image.Image, scale: float = 0.7, quality: int = 80) -> np.ndarray:
    small = img.resize((int(img.width * scale), int(img.height * scale)), Image.LANCZOS)
    buf = io.BytesIO()
    small.save(buf, "JPEG", quality=quality)
    return np.asarray(Image.open(io.BytesIO(buf.getvalue())).convert("RGB"))


def test_a_jpeg_screenshot_saved_as_png_shows_jpeg_marks_and_the_clean_render_does_not():
    img = _boxes()
    assert has_jpeg_marks(_via_jpeg(img))
    assert not has_jpeg_marks(np.asarray(img))
    # a clean render scaled down (Lanczos rings a little at every edge) is no JPEG
    assert not has_jpeg_marks(np.asarray(img.resize((336, 140), Image.LANCZOS)))


def test_a_png_with_jpeg_marks_is_read_with_the_jpeg_preset():
    conv = convert(png_bytes(_via_jpeg(_boxes())))
    assert conv.report["preset"] == "jpeg"
    assert convert(png_bytes(np.asarray(_boxes()))).report["preset"] == "auto"


def test_a_mermaid_screenshot_with_jpeg_marks_keeps_its_nodes_and_links():
    """mermaid-js/mermaid's docs example (MIT) in the base theme, scaled to 0.7 and saved as JPEG then PNG:
    read as a clean PNG, no node was found (each pale fill traced as paths) and no link joined two."""
    png = (HERE / "mermaid" / "flowchart_base_jpeg_marks.png").read_bytes()
    fig = convert(png).figure
    names = {c.id: _label(c.label) for c in fig.components if isinstance(c, Node)}
    assert {"square rect", "circle", "round rect", "rhombus"} <= set(names.values())
    pairs = {(names.get(e.source), names.get(e.target)) for e in fig.components if isinstance(e, Edge)}
    assert len(pairs & {("square rect", "circle"), ("square rect", "round rect"), ("circle", "rhombus"),
                        ("round rect", "rhombus")}) >= 3
