"""Page-coloured free lines: a line read in (nearly) the page's own colour that runs over the
page is no drawing, and drawn it scars the ink it crosses.

A hand-styled sequence diagram's strokes carry a near-white rim (#EFEFEF to #F4F4F4 on white)
that the line finder reads as lines of their own: 42 free lines on one dev figure
(C_k8s-enhancements_kubeadm-reset), each drawn 2 px wide in the page's colour along the arrow
or lifeline it lay beside, ink on one side of it and the page on the other. A light line on a
dark fill (a white divider in a dark header) has that fill on both sides, and stays; so does a
faint gridline, with the page on both sides (wandb's #F2F2F4 on white).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from crafteditor.assemble.builder import FigureBuilder, hex_rgb
from crafteditor.paint import color_distance, distances
from crafter.spec.model import Path

PAGE_NEAR = 30.0  # a stroke this close to the page's colour (RGB distance) is page-coloured
SIDE_INK = 60.0  # a side of the line whose pixels differ from the page by this much (median) is a fill
STEP_PX = 3.0  # the sides are sampled every this many image pixels along the line


def drop_page_coloured(b: FigureBuilder, comps: list[Any]) -> list[Any]:
    """``comps`` without the free stroked lines in the page's colour that lie on the page."""
    page = np.asarray(b.paints.background_rgb, np.float32)
    return [c for c in comps if not _on_page(b, c, page)]


def _on_page(b: FigureBuilder, c: Any, page: np.ndarray) -> bool:
    drawn = b.free_points.get(c.id) if isinstance(c, Path) else None  # a free line's points (leftovers.free_line)
    if drawn is None or c.fill != "none" or not (c.stroke or "").startswith("#"):
        return False
    if color_distance(hex_rgb(c.stroke), page) > PAGE_NEAR:
        return False
    pts = [(x / b.s, y / b.s) for x, y in drawn]  # image pixels
    if len(pts) < 2:
        return False
    off = (c.stroke_width or 1.0) / b.s / 2 + 2.0  # past the stroke, on either side
    sides: tuple[list[tuple[float, float]], list[tuple[float, float]]] = ([], [])
    for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
        n = math.dist((x0, y0), (x1, y1))
        if n < 1e-6:
            continue
        nx, ny = -(y1 - y0) / n * off, (x1 - x0) / n * off
        for t in np.linspace(0.0, 1.0, max(2, int(n / STEP_PX) + 1)):
            x, y = x0 + t * (x1 - x0), y0 + t * (y1 - y0)
            sides[0].append((x + nx, y + ny))
            sides[1].append((x - nx, y - ny))
    rgb = b.image.rgb
    h, w = rgb.shape[:2]
    inks = []
    for side in sides:
        xy = np.round(np.asarray(side)).astype(int).reshape(-1, 2)
        xy = xy[(xy[:, 0] >= 0) & (xy[:, 0] < w) & (xy[:, 1] >= 0) & (xy[:, 1] < h)]
        inks.append(float(np.median(distances(rgb[xy[:, 1], xy[:, 0]], page))) if len(xy) else 0.0)
    # ink along one side, the page along the other: the rim of a stroke, read as a line of its own
    # (a faint gridline has the page on both sides, a divider its fill)
    return min(inks) < SIDE_INK <= max(inks)
