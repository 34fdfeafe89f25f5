"""The per-file quality report: how faithful and how editable a conversion is.

* **SSIM** of the re-rendered figure (Crafter's renderer, at the input's dpi, aligned on the
  canvas origin) against the input, in grayscale;
* **elements**: drawing elements in the output SVG, and components by kind;
* **editability**: the share of recognised characters kept as ``<text>``, the share of ink
  explained by primitives (text, shapes, lines, charts) rather than traced paths or
  embedded patches, and their mean.
"""

from __future__ import annotations

import io
import re
from typing import Any

import numpy as np
from PIL import Image

from crafteditor.paint import luma_summed
from crafter.formats import figure_to_png_bytes
from crafter.render import figure_to_svg
from crafter.spec.model import Figure

_DRAWING_TAGS = re.compile(r"<(path|rect|ellipse|circle|polygon|polyline|line|text|image)\b")
_VIEWBOX = re.compile(r'viewBox="(-?[\d.]+) (-?[\d.]+) ([\d.]+) ([\d.]+)"')


def svg_element_count(svg: str) -> int:
    """Drawing elements in an SVG, outside <defs> and <metadata> (markers drawn once count once)."""
    body = re.sub(r"<metadata>.*?</metadata>", "", svg, flags=re.S)
    return len(_DRAWING_TAGS.findall(body))


def render_aligned(fig: Figure, dpi: float, size: tuple[int, int], svg: str | None = None) -> np.ndarray:
    """The figure rendered at ``dpi`` as an H×W×3 array cropped/padded to the input's pixel grid.

    The renderer may grow the canvas to fit something drawn past its edge; the SVG's viewBox
    says by how much, so the input's origin is found again.
    """
    svg = svg if svg is not None else figure_to_svg(fig)
    d = int(round(min(max(dpi, 10), 2400)))
    png = figure_to_png_bytes(fig, d)
    arr = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))
    m = _VIEWBOX.search(svg[:4000])
    x0, y0 = (float(m.group(1)), float(m.group(2))) if m else (0.0, 0.0)
    k = d / 96.0
    ox, oy = int(round(-x0 * k)), int(round(-y0 * k))
    h, w = size
    out = np.full((h, w, 3), 255, np.uint8)
    src = arr[max(0, oy):oy + h, max(0, ox):ox + w]
    out[max(0, -oy):max(0, -oy) + src.shape[0], max(0, -ox):max(0, -ox) + src.shape[1]] = src[:h, :w]
    return out


def ssim(a: np.ndarray, b: np.ndarray) -> float:
    """Grayscale structural similarity of two same-sized images: RGB (H×W×3, made grey with the
    ITU-R 601 luma weights) or grey already (H×W). CraftBench's score is this one too."""
    from skimage.metrics import structural_similarity  # heavy: 0.9-1.4 s to import; only scoring needs it

    ga = luma_summed(a) if a.ndim == 3 else a
    gb = luma_summed(b) if b.ndim == 3 else b
    return float(structural_similarity(ga, gb, data_range=255.0))


def component_counts(fig: Figure) -> dict[str, int]:
    counts: dict[str, int] = {}
    for c in fig.components:
        counts[c.kind] = counts.get(c.kind, 0) + 1
    return counts


def quality_report(vec: Any, svg: str, rendered: np.ndarray | None = None) -> dict[str, Any]:
    """The report for one conversion (``vec`` is a :class:`crafteditor.assemble.Vectorized`)."""
    stats = vec.stats
    chars = stats.get("text_chars", 0)
    text_share = (stats.get("text_chars_kept", 0) / chars) if chars else 1.0
    ink = stats.get("ink_pixels", 0)
    primitive = min(1.0, stats.get("ink_primitive", 0) / ink) if ink else 1.0
    traced = min(1.0, stats.get("ink_traced", 0) / ink) if ink else 0.0
    report: dict[str, Any] = {
        "elements": svg_element_count(svg),
        "components": component_counts(vec.figure),
        "text_as_text": round(text_share, 4),
        "ink_primitives": round(primitive, 4),
        "ink_traced": round(traced, 4),
        "editability": round(0.5 * text_share + 0.5 * primitive, 4),
    }
    if rendered is not None:
        report["ssim"] = round(ssim(vec.image.rgb, rendered), 4)
    return report
