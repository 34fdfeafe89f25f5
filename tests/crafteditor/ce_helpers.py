"""Small image builders shared by the CraftEditor tests (imported as ``ce_helpers``)."""

from __future__ import annotations

import io
import os
from collections import Counter

import numpy as np
from PIL import Image

from crafter.spec.model import Edge, Figure, Node


def png_bytes(arr: np.ndarray, **save) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(arr).save(buf, format="PNG", **save)
    return buf.getvalue()


def box_image(w: int = 96, h: int = 64, color=(30, 60, 120)) -> np.ndarray:
    """A white image with one outlined filled rectangle: a tiny valid figure."""
    a = np.full((h, w, 3), 255, np.uint8)
    a[12:h - 12, 16:w - 16] = (214, 230, 244)
    a[12, 16:w - 16] = color
    a[h - 13, 16:w - 16] = color
    a[12:h - 12, 16] = color
    a[12:h - 12, w - 17] = color
    return a


def die_on(x: str) -> str:
    """A task for the executors' crash tests: kills its own worker process when given "die"."""
    if x == "die":
        os._exit(3)
    return x


def edge_pairs(fig: Figure, lifelines: bool = False) -> Counter:
    """(sender, receiver) label pairs of the edges; a sequence's lifelines (an edge from a
    participant's box to its repeat at the foot: two nodes, one name) left out unless asked for."""
    labels = {c.id: (c.label or "").strip() for c in fig.components if isinstance(c, Node)}
    return Counter((labels.get(e.source, "?"), labels.get(e.target, "?"))
                   for e in fig.components if isinstance(e, Edge)
                   and lifelines == (e.source != e.target and labels.get(e.source) == labels.get(e.target)))
