"""A leftover kept as a picture hides nothing read under it (issue 31): its patch is opaque only
on its own ink. A large frame's patch, painted the page's colour around its ink, had covered the
groups and labels inside it (Azure's environment diagram came back as a blank frame)."""

from __future__ import annotations

import base64
import io

import numpy as np
from PIL import Image

from crafteditor.config import Config
from crafteditor.trace import trace_leftovers


def test_a_picture_patch_is_transparent_off_its_ink():
    h, w = 240, 320
    rgb = np.full((h, w, 3), 255, np.uint8)
    ring = np.zeros((h, w), bool)
    ring[20:220, 20:300] = True
    ring[30:210, 30:290] = False
    # a many-coloured frame (a gradient: too many colours to trace, so it is kept as a picture)
    ys, xs = np.nonzero(ring)
    rgb[ys, xs] = np.stack([xs * 255 // w, ys * 255 // h, 255 - xs * 255 // w], axis=1).astype(np.uint8)
    objs = trace_leftovers(rgb, ring, np.array([255, 255, 255], np.uint8), Config(), 1.0)
    assert len(objs) == 1 and objs[0].href is not None and not objs[0].paths
    im = Image.open(io.BytesIO(base64.b64decode(objs[0].href.partition("base64,")[2])))
    assert im.mode == "RGBA"
    alpha = np.asarray(im)[..., 3]
    x0, y0 = int(objs[0].box[0]), int(objs[0].box[1])
    assert alpha[25 - y0, 100 - x0] == 255  # the frame's ink
    assert alpha[120 - y0, 160 - x0] == 0  # inside the frame: whatever was read there shows



def test_a_traced_objects_pieces_of_one_colour_are_one_path_where_nothing_lies_between():
    """vtracer stacks an object's layers largest first: a tall dark bar, a red square, a small
    dark square beside it were a path each; the two dark pieces are one path now (the red
    square lies clear of the small one), while a dark dot drawn on the red square stays a path
    of its own above it."""
    from crafteditor.trace import _png_bytes, _vtracer_paths

    rgb = np.full((110, 110, 3), 255, np.uint8)
    rgb[5:105, 5:25] = (30, 30, 30)
    rgb[20:50, 40:70] = (220, 40, 40)
    rgb[20:30, 90:100] = (30, 30, 30)
    rgb[30:36, 50:56] = (30, 30, 30)
    paths = _vtracer_paths(_png_bytes(rgb, level=1), (0, 0), np.array([255, 255, 255]), 1.0)
    assert [p.fill for p in paths] == ["#1E1E1E", "#DC2828", "#1E1E1E"]
    assert paths[0].d.count("M") == 2 and paths[2].d.count("M") == 1
