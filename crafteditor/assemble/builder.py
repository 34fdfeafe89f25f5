"""What every part's assembly shares: fresh ids, image pixels → SVG user units, and colours
written down only where they differ from the theme's.

Coordinates are converted from image pixels to SVG user units (96 per inch) with the image's
dpi, so re-rendering at that dpi gives back an image of the input's size.
"""

from __future__ import annotations

import re

import numpy as np

from crafteditor.config import Config
from crafteditor.loading import RasterImage
from crafteditor.paint import Paints, color_distance, to_hex
from crafter.spec.model import Box, Point


class FigureBuilder:
    """The state one figure's assembly shares: the ids given out, the scale, the paints, and
    the count of characters kept as text (the report's ``text_chars_kept``)."""

    def __init__(self, image: RasterImage, config: Config, paints: Paints) -> None:
        self.image = image
        self.config = config
        self.paints = paints
        self.s = image.scale
        self.ids: set[str] = set()
        self.chars_kept = 0
        self.sequence_messages = 0  # the messages of the sequence diagram read, if one was (the report's stats)
        # the points (user units, as written) of each free line drawn as one open stroke, by the
        # path's id (:func:`~crafteditor.assemble.leftovers.free_line`): read back by the passes
        # after it (:mod:`~crafteditor.assemble.faint`, :mod:`~crafteditor.assemble.dashes`)
        self.free_points: dict[str, list[tuple[float, float]]] = {}

    def new_id(self, prefix: str, label: str | None = None) -> str:
        """A fresh id; from the label when there is one, so the DSL reads well ('encoder', 'n3')."""
        base = prefix
        if label:
            slug = re.sub(r"[^a-z0-9]+", "_", label.lower()).strip("_")[:24].strip("_")
            if slug and slug[0].isalpha():
                base = slug
        if base != prefix and base not in self.ids:
            self.ids.add(base)
            return base
        k = 1 if base == prefix else 2
        while f"{base}{k}" in self.ids:
            k += 1
        self.ids.add(f"{base}{k}")
        return f"{base}{k}"

    def box(self, x: float, y: float, w: float, h: float) -> Box:
        s = self.s
        return Box(x=round(x * s, 2), y=round(y * s, 2), w=round(max(0.0, w) * s, 2), h=round(max(0.0, h) * s, 2))

    def pt(self, p: tuple[float, float]) -> Point:
        return Point(x=round(p[0] * self.s, 2), y=round(p[1] * self.s, 2))

    def color_or_none(self, rgb, default: str, tol: float = 6.0, *, thin: bool = False) -> str | None:
        """The colour as hex, or None where it is the theme's ``default`` (``thin``: also a
        thin stroke's anti-aliased tint of it, see :func:`is_tint_of`)."""
        if rgb is None:
            return None
        if color_distance(rgb, hex_rgb(default)) <= tol:
            return None
        if thin and is_tint_of(rgb, hex_rgb(default), self.paints.background_rgb):
            return None
        return to_hex(rgb)


def is_tint_of(rgb, color, background, least: float = 0.6, tol: float = 10.0) -> bool:
    """Whether ``rgb`` is ``color`` thinned with the background: a stroke thinner than two pixels
    that falls between pixel rows never reaches its own colour (a 1 px edge at 150 dpi covers
    two rows ~65% each), so its darkest pixels are ``background + a·(color − background)``."""
    bg = np.asarray(background, np.float64)
    full = np.asarray(color, np.float64) - bg
    seen = np.asarray(rgb, np.float64) - bg
    span = float(full @ full)
    if span < 1.0:
        return False
    a = float(seen @ full) / span
    return least <= a <= 1.0 and float(np.linalg.norm(seen - a * full)) <= tol


def hex_rgb(hexstr: str) -> tuple[int, int, int]:
    """A theme colour '#rrggbb' as (r, g, b)."""
    h = hexstr.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)
