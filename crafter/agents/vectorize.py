"""Vectorize: a raster figure → FigureSpec, by CraftEditor (positions pinned, as detected).

CraftEditor is another package of this project; this agent only calls its public entry
point, so the pipeline's critique and repair run on a converted PNG exactly as on a
generated figure.
"""

from __future__ import annotations

from typing import Any

from crafter.errors import CrafterError
from crafter.spec import Figure

_ENTRY_POINTS = ("image_to_figure", "convert_image", "vectorize", "convert")


class VectorizeUnavailable(CrafterError):
    """CraftEditor is not installed (or has no entry point this version knows)."""


def vectorize(image_path: str) -> Figure:
    """The figure CraftEditor reads from the image."""
    try:
        import crafteditor
    except ImportError:
        raise VectorizeUnavailable("CraftEditor not available: install the crafteditor package to "
                                   "turn images into figures") from None
    for name in _ENTRY_POINTS:
        fn = getattr(crafteditor, name, None)
        if callable(fn):
            out: Any = fn(image_path)
            fig = getattr(out, "figure", out)
            if isinstance(fig, Figure):
                return fig
            if isinstance(fig, dict):
                return Figure.from_dict(fig)
    raise VectorizeUnavailable("CraftEditor not available: this crafteditor version has no image → figure "
                               f"entry point ({', '.join(_ENTRY_POINTS)})")
