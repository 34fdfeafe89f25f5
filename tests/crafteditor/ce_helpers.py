"""Small image builders shared by the CraftEditor tests (imported as ``ce_helpers``)."""

from __future__ import annotations

import io
import os

import numpy as np
from PIL import Image


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
