"""Vectorize: a raster figure → FigureSpec, by CraftEditor (positions pinned, as detected).

CraftEditor is another package of this project; this agent only calls its public entry
point (``crafteditor.assemble.vectorize``, falling back to ``crafteditor.convert.convert``),
so the pipeline's critique and repair run on a converted PNG exactly as on a generated
figure. CraftEditor's own errors (a corrupt or enormous image) are CrafterErrors that
name the file.

A hand-drawn sketch or a scan read with the default settings comes back as hundreds of
stroke fragments (1,612 free paths for one composite sketch of the benchmark), and the rest
of the pipeline then lays out, checks and renders every one of them (123 s for that case).
When free paths swamp the figure the image is read again with CraftEditor's ``scan``
preset (denoised, wider colour tolerance, leftovers as image patches: 298 paths, 4 s), and
the reading with fewer components is kept.
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


SWAMPED_PATHS = 200  # free paths that make a reading "mostly stroke fragments"...
SWAMPED_SHARE = 0.8  # ...when they are also this share of all components


def vectorize(image_path: str) -> Figure:
    """The figure CraftEditor reads from the image (read again as a scan when it is mostly fragments)."""
    fn = _entry_point()
    if fn is None:
        raise VectorizeUnavailable("CraftEditor not available: install the crafteditor package to turn images "
                                   "into figures")
    fig = _as_figure(fn(image_path))
    if _swamped(fig):
        try:
            from crafteditor.config import Config

            scan = _as_figure(fn(image_path, Config.preset("scan")))
        except (ImportError, TypeError):  # an entry point without presets: keep the first reading
            return fig
        if len(scan.components) < len(fig.components):
            return scan
    return fig


def _swamped(fig: Figure) -> bool:
    paths = sum(c.kind == "path" for c in fig.components)
    return paths >= SWAMPED_PATHS and paths >= SWAMPED_SHARE * len(fig.components)


def _as_figure(out: Any) -> Figure:
    fig = getattr(out, "figure", out)
    if isinstance(fig, dict):
        fig = Figure.from_dict(fig)
    if not isinstance(fig, Figure):
        raise VectorizeUnavailable(f"CraftEditor returned {type(fig).__name__}, not a figure")
    return fig
