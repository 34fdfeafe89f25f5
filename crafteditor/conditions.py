"""Delivery conditions: the same figure as repositories deliver it (``crafteditor bench --condition NAME``).

Our real figures are mostly clean 2× exports; figures reach repositories as 1× screenshots, downscaled
README images, JPEGs with ringing, slightly blurred exports, on a coloured page, or with wide margins. A
condition turns a figure's image into one of those, at load, so the bench can score the same figures and the
same truth under it. The real set's truth holds no coordinates (words, node and edge labels, chart values), so
it holds unchanged under every condition; :func:`apply_condition` gives the scale and offset the pixels took,
for a truth that has them.

Names (``+`` joins several, applied left to right: ``half+jpeg60``):

- ``half``, ``third``: downscaled to 1/2 or 1/3 with Lanczos (a 2× export shown at 1× or smaller), the file's
  dpi dropped as a screenshot's is;
- ``jpegNN``: flattened on white and saved as a JPEG of quality NN (1–95);
- ``blurN``: a Gaussian blur of radius N px (0.5–5);
- ``offwhite``: the page tinted cream (every pixel multiplied by :data:`OFFWHITE`), as a scan or a themed page;
- ``margin``: a wide margin (a quarter of the longer side) on every side, transparent where the figure has an
  alpha channel, else white.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageFilter

from crafter.errors import CrafterError

OFFWHITE = (246, 241, 228)  # a cream page: the tint of an off-white README card or a scanned page
MARGIN_SHARE = 0.25  # the margin added on each side, as a share of the figure's longer side
NAMES = ("half", "third", "jpegNN", "blurN", "offwhite", "margin")


class ConditionError(CrafterError):
    """A condition name that is not one of :data:`NAMES`."""


@dataclass(frozen=True)
class Step:
    kind: str  # scale, jpeg, blur, offwhite, margin
    amount: float = 0.0  # scale: the factor; jpeg: the quality; blur: the radius


def parse_condition(name: str) -> list[Step]:
    """The steps of a condition name such as ``half+jpeg60``; an unknown name is a :class:`ConditionError`."""
    steps = []
    for part in (p.strip().lower() for p in name.split("+")):
        if part in ("half", "third"):
            steps.append(Step("scale", 0.5 if part == "half" else 1 / 3))
        elif m := re.fullmatch(r"jpeg(\d+)", part):
            quality = int(m.group(1))
            if not 1 <= quality <= 95:
                raise ConditionError(f"condition {part!r}: a JPEG quality from 1 to 95")
            steps.append(Step("jpeg", quality))
        elif m := re.fullmatch(r"blur(\d+(?:\.\d+)?)", part):
            radius = float(m.group(1))
            if not 0.5 <= radius <= 5:
                raise ConditionError(f"condition {part!r}: a blur radius from 0.5 to 5 px")
            steps.append(Step("blur", radius))
        elif part in ("offwhite", "margin"):
            steps.append(Step(part))
        else:
            raise ConditionError(f"unknown condition {part!r} (one of {', '.join(NAMES)}, joined with '+')")
    if not steps:
        raise ConditionError("an empty condition")
    return steps


def apply_condition(data: bytes, name: str) -> tuple[bytes, float, tuple[float, float]]:
    """The image file ``data`` under condition ``name``: (the new file's bytes, the factor its pixel
    coordinates were scaled by, the offset then added to them in pixels)."""
    im = Image.open(io.BytesIO(data))
    im.load()
    dpi = im.info.get("dpi")
    fmt, jpeg = "PNG", b""
    scale, offset = 1.0, (0.0, 0.0)
    for step in parse_condition(name):
        if step.kind == "scale":
            im = _rgba_or_rgb(im)
            size = (max(1, round(im.width * step.amount)), max(1, round(im.height * step.amount)))
            scale, offset = scale * size[0] / im.width, (offset[0] * size[0] / im.width, offset[1] * size[1] / im.height)
            im = im.resize(size, Image.LANCZOS)
            dpi = None  # a screenshot or a downscaled copy says nothing of its resolution
        elif step.kind == "jpeg":
            buf = io.BytesIO()
            _on_white(im).save(buf, "JPEG", quality=int(step.amount), **({"dpi": tuple(float(v) for v in dpi)} if dpi else {}))
            jpeg = buf.getvalue()
            im = Image.open(io.BytesIO(jpeg))
            im.load()
            fmt = "JPEG"
        elif step.kind == "blur":
            im = _rgba_or_rgb(im).filter(ImageFilter.GaussianBlur(step.amount))
        elif step.kind == "offwhite":
            rgb = np.asarray(_on_white(im), dtype=np.float32)
            im = Image.fromarray(np.clip(rgb * np.array(OFFWHITE, np.float32) / 255.0 + 0.5, 0, 255).astype(np.uint8))
        else:  # margin
            im = _rgba_or_rgb(im)
            pad = round(MARGIN_SHARE * max(im.size))
            page = Image.new(im.mode, (im.width + 2 * pad, im.height + 2 * pad),
                             (255, 255, 255, 0) if im.mode == "RGBA" else (255, 255, 255))
            page.paste(im, (pad, pad))
            im, offset = page, (offset[0] + pad, offset[1] + pad)
        if step.kind != "jpeg":
            fmt = "PNG"
    if fmt == "JPEG":  # the last step was a JPEG: its bytes are the file
        return jpeg, scale, offset
    buf = io.BytesIO()
    im.save(buf, "PNG", **({"dpi": tuple(float(v) for v in dpi)} if dpi else {}))
    return buf.getvalue(), scale, offset


def _rgba_or_rgb(im: Image.Image) -> Image.Image:
    """The image as RGBA where it has transparency (palette transparency included), else RGB."""
    if im.mode in ("RGBA", "LA", "PA") or (im.mode == "P" and "transparency" in im.info):
        return im.convert("RGBA")
    return im.convert("RGB")


def _on_white(im: Image.Image) -> Image.Image:
    """The image flattened onto white, as a viewer shows it (``convert('RGB')`` would make transparency black)."""
    rgba = im.convert("RGBA")
    return Image.alpha_composite(Image.new("RGBA", rgba.size, (255, 255, 255, 255)), rgba).convert("RGB")
