"""What remains: ink no detector explained (icons, photos, free curves) as vtracer paths or a raster patch.

Each connected blob of unexplained ink (nearby pieces merged) is one object. It is traced
with vtracer when it is drawing-like (few colours) and the paths cost less than the PNG
patch would; otherwise the patch is embedded as an ``image`` component (a data URI, never
an external reference). vtracer's paths are translated to absolute figure coordinates so
they satisfy the FigureSpec's ``path`` rules.
"""

from __future__ import annotations

import base64
import io
import re
from dataclasses import dataclass

import cv2
import numpy as np
import vtracer
from PIL import Image

from crafteditor.blobs import find_blobs
from crafteditor.config import Config, past
from crafteditor.paint import color_distance


@dataclass
class TracedPath:
    d: str  # absolute path data in image pixels × scale (user units)
    fill: str


@dataclass
class TracedObject:
    """One blob of leftover ink, as paths or as an image patch (box in user units)."""

    box: tuple[float, float, float, float]
    paths: list[TracedPath]
    href: str | None  # data: URI when embedded as an image
    ink: int  # pixels of ink it covers


# vtracer's next layer within this RGB distance of the one below it is drawn as part of it (its
# colour taken): an anti-aliased rim traced as a layer of its own was an element of its own
SAME_FILL = 8.0
# vtracer drops specks under this many pixels: at 2, a curve's anti-aliased fringe came back as
# slivers of paths (wandb and tuning-playbook curves: 20-30 elements each, SSIM within 0.002)
SPECKLE = 4
_CMD = re.compile(r"([MLCQZ])|(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)")


def trace_leftovers(rgb: np.ndarray, leftover: np.ndarray, background: np.ndarray, config: Config,
                    scale: float, deadline: float | None = None) -> list[TracedObject]:
    """Unexplained ink as vtracer paths or embedded image patches, one object per cluster of ink.
    Past ``deadline`` (:func:`~crafteditor.config.budget_clock`) the rest is kept as image patches (no tracing)."""
    if config.trace == "none" or not leftover.any():
        return []
    min_px = config.trace_min_area / (scale * scale)
    # pieces a few pixels apart belong to one object (the strokes of an icon)
    grown = cv2.dilate(leftover.astype(np.uint8), np.ones((7, 7), np.uint8))
    n, lab, stats, _ = find_blobs(grown)
    H, W = leftover.shape
    out: list[TracedObject] = []
    patches = config.replace(trace="image") if deadline is not None else config
    for i in range(1, n):
        x, y, w, h, _ = stats[i]
        own = (lab[y:y + h, x:x + w] == i) & leftover[y:y + h, x:x + w]
        ink = int(own.sum())
        if ink < min_px:
            continue
        pad = 2
        x0, y0, x1, y1 = max(0, x - pad), max(0, y - pad), min(W, x + w + pad), min(H, y + h + pad)
        keep = np.zeros((y1 - y0, x1 - x0), bool)
        keep[y - y0:y - y0 + h, x - x0:x - x0 + w] = own
        keep = cv2.dilate(keep.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
        patch = rgb[y0:y1, x0:x1].copy()
        patch[~keep] = background
        late = past(deadline)
        obj = _trace_patch(patch, keep, (x0, y0), background, patches if late else config, scale)
        obj.ink = ink
        out.append(obj)
    return out


def image_object(rgb: np.ndarray, box: tuple[int, int, int, int], scale: float) -> TracedObject:
    """A rectangle of the image (x0, y0, x1, y1 in pixels) kept as an embedded PNG."""
    x0, y0, x1, y1 = box
    href = _data_url(_png_bytes(np.ascontiguousarray(rgb[y0:y1, x0:x1])))
    return TracedObject(box=(x0 * scale, y0 * scale, (x1 - x0) * scale, (y1 - y0) * scale), paths=[], href=href,
                        ink=(x1 - x0) * (y1 - y0))


def _trace_patch(patch: np.ndarray, keep: np.ndarray, origin: tuple[int, int], background: np.ndarray,
                 config: Config, scale: float) -> TracedObject:
    x0, y0 = origin
    h, w = patch.shape[:2]
    box = (x0 * scale, y0 * scale, w * scale, h * scale)
    mode = config.trace
    if mode == "auto":
        quant = (patch[keep] >> 3).astype(np.int32)
        colours = len(np.unique((quant[:, 0] << 10) | (quant[:, 1] << 5) | quant[:, 2])) if quant.size else 0
        mode = "image" if colours > 48 else "vtracer"
    if mode == "vtracer":
        paths = _vtracer_paths(_png_bytes(patch, level=1), (x0, y0), background, scale)
        cost = sum(len(p.d) for p in paths)
        # the paths where they are no bigger than twice the patch as a PNG (encoded only to compare)
        if paths is not None and (config.trace == "vtracer" or cost <= 2 * len(_data_url(_png_bytes(patch)))):
            return TracedObject(box=box, paths=paths, href=None, ink=0)
    # kept as a picture: only its own ink is opaque. Painted the page's colour around the ink, a
    # leftover's box hid what was read there (a large frame's patch covered the groups, frames
    # and labels inside it: Azure's environment diagram, SSIM 0.60)
    seen = np.dstack([patch, np.where(keep, 255, 0).astype(np.uint8)])
    return TracedObject(box=box, paths=[], href=_data_url(_png_bytes(seen)), ink=0)


def _data_url(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def _png_bytes(patch: np.ndarray, level: int | None = None) -> bytes:
    """PNG bytes of a patch: as small as Pillow makes them (``optimize``: the embedded patch, and
    the size paths are weighed against: at zlib 6, 4 % larger, the paper figures' small colour
    patches were traced into black wedges), or at zlib ``level`` (1 for vtracer's input: 6× faster)."""
    buf = io.BytesIO()
    if level is None:
        Image.fromarray(patch).save(buf, format="PNG", optimize=True)
    else:
        Image.fromarray(patch).save(buf, format="PNG", compress_level=level)
    return buf.getvalue()


def _vtracer_paths(png: bytes, origin: tuple[int, int], background: np.ndarray, scale: float) -> list[TracedPath]:
    svg = vtracer.convert_raw_image_to_svg(png, img_format="png", colormode="color", hierarchical="stacked",
                                           mode="spline", filter_speckle=SPECKLE, path_precision=2)
    out: list[TracedPath] = []
    rgbs: list[list[int]] = []  # each path's colour, as out
    boxes: list[tuple[float, float, float, float]] = []  # each path's extent, as out (grown as layers join it)
    for m in re.finditer(r'<path d="([^"]*)" fill="(#[0-9A-Fa-f]{6})" transform="translate\((-?[\d.]+),(-?[\d.]+)\)"',
                         svg):
        d, fill, tx, ty = m.group(1), m.group(2), float(m.group(3)), float(m.group(4))
        rgb = [int(fill[i:i + 2], 16) for i in (1, 3, 5)]
        if color_distance(rgb, background) < 12:
            continue  # the patch's own background
        absolute = absolute_path(d, origin[0] + tx, origin[1] + ty, scale)
        if absolute is None or len(re.findall(r"-?\d+(?:\.\d+)?", absolute)) < 2:
            continue  # no drawing in it (review: a path without numbers had no extent)
        box = _extent(absolute)
        j = _joins(rgbs, boxes, rgb, box)
        if j is not None:
            out[j].d += " " + absolute
            boxes[j] = _union(boxes[j], box)
        else:
            out.append(TracedPath(d=absolute, fill=fill.upper()))
            rgbs.append(rgb)
            boxes.append(box)
    return out


def _joins(rgbs: list[list[int]], boxes: list[tuple[float, float, float, float]], rgb: list[int],
           box: tuple[float, float, float, float]) -> int | None:
    """The path a new layer of the stack joins: the last one in (nearly) its colour, where every
    layer drawn above that one lies clear of it (so it looks the same one layer lower); None: a
    path of its own. One object's pieces of one colour were a path each: the letters of a
    traced word, the boxes of a traced icon (a stack's very next layer in its colour joined
    always: an anti-aliased rim traced as a layer of its own was an element of its own)."""
    for j in range(len(rgbs) - 1, -1, -1):
        if color_distance(rgbs[j], rgb) <= SAME_FILL:
            return j
        if _overlap(boxes[j], box):
            return None
    return None


def _extent(d: str) -> tuple[float, float, float, float]:
    v = [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", d)]
    xs, ys = v[0::2], v[1::2]
    return min(xs), min(ys), max(xs), max(ys)


def _union(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    return min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def absolute_path(d: str, dx: float, dy: float, scale: float) -> str | None:
    """Translate and scale path data made of absolute M/L/C/Q/Z commands (None if it has others)."""
    if re.search(r"[A-Za-z]", re.sub(r"[MLCQZeE]", "", d)):
        return None
    parts: list[str] = []
    coord = 0
    for m in _CMD.finditer(d):
        if m.group(1):
            parts.append(m.group(1))
            coord = 0
        else:
            v = float(m.group(2))
            v = (v + (dx if coord % 2 == 0 else dy)) * scale
            coord += 1
            parts.append(f"{v:.2f}".rstrip("0").rstrip("."))
    return " ".join(parts)
