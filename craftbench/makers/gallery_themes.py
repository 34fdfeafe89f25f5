"""Vega-Lite's and Altair's own examples (:mod:`craftbench.makers.gallery`) drawn under every theme of
vega-themes that vl-convert carries (dark, excel, fivethirtyeight, ggplot2, googlecharts, latimes, quartz,
vox, the Carbon ones; not urbaninstitute or powerbi, whose fonts vl-convert lacks) and none: the same examples in
every theme, so a bench grouped by theme (``vega-lite-dark``, ``vega-altair-vox``…) tells which theme's look
the reader misreads. The truth of each figure is read off the scene graph drawn under its own theme.

    craftbench makers gallery-themes -o /tmp/makers/vlthemes -n 150 --seed 1
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from craftbench.makers import gallery


def draw(figs: Path, n: int, seed: int) -> list[dict[str, Any]]:
    """Up to ``n`` figures: seeded examples, each under every theme in turn."""
    return gallery.draw(figs, n, seed, themes=gallery.THEMES)
