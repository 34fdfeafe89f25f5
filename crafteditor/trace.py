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
import math
import re
from dataclasses import dataclass

import cv2
import numpy as np
import vtracer
from PIL import Image
from scipy import ndimage

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
PICTO_SHAPES = ("box", "round", "ellipse", "circle")  # shapes a pictogram is drawn in (a tile, a disc): :func:`node_pictograms`
PICTO_MIN = 12  # px: a pictogram in a box is at least this tall and wide ...
PICTO_ASPECT = 2.5  # ... and at most this many times as long as it is wide (longer: a rule, a bar)
FOREIGN = 24  # a pixel this far (one channel) from a box's fill and outline is drawn on it
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


def ink_picture(rgb: np.ndarray, box: tuple[int, int, int, int], background: np.ndarray, scale: float,
                tol: int = 12) -> TracedObject:
    """A rectangle of the image (x0, y0, x1, y1 in pixels) kept as an embedded PNG whose pixels within
    ``tol`` of ``background`` (each channel) are clear: what lies under it shows."""
    x0, y0, x1, y1 = box
    patch = np.ascontiguousarray(rgb[y0:y1, x0:x1])
    ink = np.abs(patch.astype(np.int16) - np.asarray(background, dtype=np.int16)).max(axis=2) > tol
    seen = np.dstack([patch, np.where(ink, 255, 0).astype(np.uint8)])
    return TracedObject(box=(x0 * scale, y0 * scale, (x1 - x0) * scale, (y1 - y0) * scale), paths=[],
                        href=_data_url(_png_bytes(seen)), ink=int(ink.sum()))


def node_pictograms(rgb: np.ndarray, erased: np.ndarray, shapes: list, scale: float,
                    centres: list[tuple[float, float]]) -> list[TracedObject]:
    """The pictograms drawn inside boxes: a service's logo over its name in a tile (draw.io's Azure and AWS
    architecture diagrams), kept as pictures of ``rgb`` (only their own ink opaque).

    A node explains every pixel inside it (its fill, its label), so a logo in a tile was neither traced
    nor kept: it was gone (issue 31: 'Azure Cosmos DB', 'Azure Blob Storage', 'Web App' came back as
    bare tiles). Here ink inside a box or rounded box (``shapes``, no group, no class box's dividers) in
    neither its fill's nor its outline's colour, text erased (``erased``), in a compact blob
    (:data:`PICTO_MIN` px a side or more, :data:`PICTO_ASPECT` at most) is such a pictogram. A frame holding
    no shape and no text (``centres``: the text read, image pixels) is such a tile too (a router's arrows on a
    navy square, its name under it: the shape stage takes a box around a drawing for a frame)."""
    H, W = erased.shape[:2]
    out: list[TracedObject] = []
    for s in shapes:
        if s.shape not in PICTO_SHAPES or s.dividers:
            continue
        if s.is_group and (s.members or any(s.contains_point(cx, cy) for cx, cy in centres)):
            continue
        f = s.face
        ring = int(math.ceil(s.stroke_px + 3))
        x0, y0, x1, y1 = max(0, f.x), max(0, f.y), min(W, f.x + f.w), min(H, f.y + f.h)
        if x1 - x0 < 3 * PICTO_MIN or y1 - y0 < 2 * PICTO_MIN:
            continue
        inner = np.zeros((y1 - y0, x1 - x0), np.uint8)
        inner[:] = f.filled[y0 - f.y:y1 - f.y, x0 - f.x:x1 - f.x]
        inner = ndimage.binary_fill_holes(inner).astype(np.uint8)  # a white glyph on a navy tile is a hole in its face
        inner = cv2.erode(inner, np.ones((2 * ring + 1, 2 * ring + 1), np.uint8)).astype(bool)
        crop = erased[y0:y1, x0:x1].astype(np.int16)
        foreign = inner & (np.abs(crop - np.asarray(s.fill, np.int16)).max(axis=2) > FOREIGN)
        if s.stroke is not None:
            foreign &= np.abs(crop - np.asarray(s.stroke, np.int16)).max(axis=2) > FOREIGN
        if foreign.sum() < PICTO_MIN * PICTO_MIN // 2:
            continue
        # the pictogram's pieces (a router's four arrows) are one picture; specks (a JPEG's, a stray pixel) none
        n, _, stats, _ = find_blobs(cv2.dilate(foreign.astype(np.uint8), np.ones((5, 5), np.uint8)))
        parts = [stats[i] for i in range(1, n) if max(stats[i][2], stats[i][3]) >= PICTO_MIN // 2]
        if not parts:
            continue
        bx, by = min(p[0] for p in parts), min(p[1] for p in parts)
        bw, bh = max(p[0] + p[2] for p in parts) - bx, max(p[1] + p[3] for p in parts) - by
        if min(bw, bh) < PICTO_MIN or max(bw, bh) > PICTO_ASPECT * min(bw, bh):
            continue
        if bw > 0.8 * (x1 - x0) or bh > 0.8 * (y1 - y0):
            continue  # most of the box: an inner panel, not a logo on it
        box = (x0 + bx, y0 + by, x0 + bx + bw, y0 + by + bh)
        out.append(ink_picture(rgb, box, np.asarray(s.fill), scale, FOREIGN))
    return out


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
