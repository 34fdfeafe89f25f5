"""CraftEditor as Crafter's pipeline vectoriser: a raster figure → FigureSpec, positions pinned as detected.

Crafter's pipeline never imports CraftEditor: it is handed :func:`vectorize_for_pipeline`
(the app passes it; the CLI finds it under the ``crafter.vectorizers`` entry point this
package declares), so critique and repair run on a converted PNG exactly as on a
generated figure. CraftEditor's own errors (a corrupt or enormous image) are
CrafterErrors that name the file.

A hand-drawn sketch or a scan read with the default settings comes back as hundreds of
stroke fragments (1,612 free paths for one composite sketch of the benchmark), and the rest
of the pipeline then lays out, checks and renders every one of them (123 s for that case).
When free paths swamp the figure the image is read again with the ``scan`` preset
(denoised, wider colour tolerance, leftovers as image patches: 298 paths, 4 s), and the
reading with fewer components is kept.
"""

from __future__ import annotations

from typing import Any, Callable

from crafteditor.config import Config
from crafteditor.vectorizer import vectorize
from crafter.spec import Figure

SWAMPED_PATHS = 200  # free paths that make a reading "mostly stroke fragments"...
SWAMPED_SHARE = 0.8  # ...when they are also this share of all components


def vectorize_for_pipeline(image_path: str, *, read: Callable[..., Any] = vectorize) -> Figure:
    """The figure CraftEditor reads from the image (read again as a scan when it is mostly fragments)."""
    fig = _figure_of(read(image_path))
    if _swamped(fig):
        scan = _figure_of(read(image_path, Config.preset("scan")))
        if len(scan.components) < len(fig.components):
            return scan
    return fig


def _swamped(fig: Figure) -> bool:
    paths = sum(c.kind == "path" for c in fig.components)
    return paths >= SWAMPED_PATHS and paths >= SWAMPED_SHARE * len(fig.components)


def _figure_of(out: Any) -> Figure:
    return getattr(out, "figure", out)
