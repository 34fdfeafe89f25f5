"""Raster assets of a case: the reference SVG/PNG, and the inputs of the visual conditions.

* reference: the ground-truth figure rendered by Crafter (SVG + PNG at 150 dpi);
* ``sketch``: a hand-drawn-looking version — wobbly strokes from a smooth random
  displacement field, pencil-grey ink, paper grain, a slight tilt;
* ``complete``: the reference with the masked component's region greyed out;
* ``vectorize``: the clean reference PNG itself.
"""

from __future__ import annotations

import io
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFilter

from crafter.formats import figure_to_png_bytes
from crafter.layout import layout_figure
from crafter.render import figure_to_svg

REFERENCE_DPI = 150


def render_reference(fig, case_dir: Path) -> tuple[Path, Path]:
    laid = layout_figure(fig)
    svg = figure_to_svg(laid)
    (case_dir / "reference.svg").write_text(svg, encoding="utf-8")
    png = figure_to_png_bytes(laid, REFERENCE_DPI)
    (case_dir / "reference.png").write_bytes(png)
    return case_dir / "reference.svg", case_dir / "reference.png"


def sketchify(png: bytes, seed: int) -> bytes:
    """Make a clean figure look hand-drawn (deterministic for a seed)."""
    rng = np.random.default_rng(seed)
    img = np.asarray(_on_white(Image.open(io.BytesIO(png))).convert("L"), dtype=np.float32)
    h, w = img.shape
    # smooth displacement field: strokes wobble by a few pixels, letters stay legible
    amp = 2.5  # px of wobble (standard deviation)

    def field() -> np.ndarray:
        f = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 14)
        return f / (f.std() + 1e-9) * amp

    dx, dy = field(), field()
    gx, gy = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
    warped = cv2.remap(img, gx + dx, gy + dy, interpolation=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    # pencil: ink goes grey and slightly uneven, fills fade
    ink = 255 - warped
    ink = ink * rng.uniform(0.75, 0.9) * (0.85 + 0.15 * rng.random((h, w)).astype(np.float32))
    pencil = 255 - ink
    grain = rng.normal(0, 6, (h, w)).astype(np.float32)
    paper = np.clip(pencil * 0.97 + 8 + grain, 0, 255).astype(np.uint8)
    out = Image.fromarray(paper).rotate(rng.uniform(-1.2, 1.2), resample=Image.BICUBIC, fillcolor=245, expand=False)
    out = out.filter(ImageFilter.GaussianBlur(0.6))
    buf = io.BytesIO()
    out.save(buf, format="PNG")
    return buf.getvalue()


def _on_white(img: Image.Image) -> Image.Image:
    """Flatten transparency onto white (a transparent pixel would read as black ink)."""
    rgba = img.convert("RGBA")
    white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
    return Image.alpha_composite(white, rgba).convert("RGB")


def mask_region(png: bytes, boxes: list[tuple[float, float, float, float]], scale: float) -> bytes:
    img = _on_white(Image.open(io.BytesIO(png)))
    draw = ImageDraw.Draw(img)
    for x, y, w, h in boxes:
        pad = 6
        draw.rectangle([(x - pad) * scale, (y - pad) * scale, (x + w + pad) * scale, (y + h + pad) * scale],
                       fill=(190, 190, 190))
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def render_case_assets(case, case_dir: Path) -> None:
    fig = case.truth_figure()
    _, ref_png = render_reference(fig, case_dir)
    png = ref_png.read_bytes()
    seed = int(case.id.rsplit("-", 1)[-1], 16)
    if case.condition == "sketch":
        (case_dir / "sketch.png").write_bytes(sketchify(png, seed))
        case.inputs["image"] = "sketch.png"
    elif case.condition == "vectorize":
        case.inputs["image"] = "reference.png"
    elif case.condition == "complete":
        laid = layout_figure(fig)
        by_id = laid.by_id()
        boxes = []
        for cid in case.inputs.get("masked_ids", []):
            c = by_id.get(cid)
            if c is not None and c.kind == "node" and c.box is not None:
                boxes.append((c.box.x, c.box.y, c.box.w, c.box.h))
        if boxes:
            (case_dir / "masked.png").write_bytes(mask_region(png, boxes, REFERENCE_DPI / 96))
            case.inputs["image"] = "masked.png"
