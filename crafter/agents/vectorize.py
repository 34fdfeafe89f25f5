"""Vectorize: a raster figure → FigureSpec, by CraftEditor (positions pinned, as detected).

CraftEditor is another package of this project; this agent only calls its public entry
point (``crafteditor.assemble.vectorize``, falling back to ``crafteditor.convert.convert``),
so the pipeline's critique and repair run on a converted PNG exactly as on a generated
figure. CraftEditor's own errors (a corrupt or enormous image) are CrafterErrors that
name the file.
"""

from __future__ import annotations

import importlib
from typing import Any

from crafter.errors import CrafterError
from crafter.spec import Figure

# (module, function) pairs tried in order: the cheap one first (no rendering, no quality report)
_ENTRY_POINTS = (("crafteditor.assemble", "vectorize"), ("crafteditor.convert", "convert"),
                 ("crafteditor", "convert"))


class VectorizeUnavailable(CrafterError):
    """CraftEditor is not installed (or has no entry point this version knows)."""


def _entry_point() -> Any:
    for module, name in _ENTRY_POINTS:
        try:
            fn = getattr(importlib.import_module(module), name, None)
        except ImportError:
            continue
        if callable(fn):
            return fn
    return None


def vectorize(image_path: str) -> Figure:
    """The figure CraftEditor reads from the image."""
    fn = _entry_point()
    if fn is None:
        raise VectorizeUnavailable("CraftEditor not available: install the crafteditor package to turn images "
                                   "into figures")
    out: Any = fn(image_path)
    fig = getattr(out, "figure", out)
    if isinstance(fig, dict):
        fig = Figure.from_dict(fig)
    if not isinstance(fig, Figure):
        raise VectorizeUnavailable(f"CraftEditor returned {type(fig).__name__}, not a figure")
    return fig
