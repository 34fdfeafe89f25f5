"""Photographed whiteboards and paper: the lighting evened out before anything is read.

A phone photo of a whiteboard has no paper colour: the board runs from light grey in the lamp's
light to mid grey in a corner, with sensor noise over all of it, so no paint covers it (its
commonest exact colour is 0.2-0.4 % of the pixels; a drawn figure's, even a JPEG's, is 27 % and
more on the real set) and the reading traced the shading as thousands of grey polygons (one
whiteboard of the dev set came back as 2,400 elements, SSIM 0.60). Here the board's own
brightness is estimated where nothing is drawn (a closing at low resolution takes the marker
strokes out, a median smooths what is left) and every pixel is divided by it: the board comes
out white, the marker strokes in their colours, as on a drawn figure.

Such a photo is read at a longer side of at most PHOTO_SIDE px (its marker strokes stay several
px wide, its letters 15 px tall and more): a 2592×1944 board had cost 20 % of all CraftEditor's
CPU time on the real set. Its pixels per inch shrink with it, so the figure keeps its size.

Only the pixels read change: the figure drawn back is still compared with the photo.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np

from crafteditor.assemble.builder import hex_rgb
from crafteditor.loading import RasterImage
from crafteditor.paint import luma, luma_summed
from crafter.spec.model import Box, Figure, Image

PHOTO_TOP_SHARE = 0.02  # an image whose commonest exact colour covers less than this share is a photo
UNEVEN = 12.0  # ...and its paper is lit unevenly where its brightness spreads this far (5th-95th percentile)
WORK_SIDE = 512  # the lighting is estimated at this longer side (px)
STROKE_SHARE = 0.03  # marker strokes and letters are narrower than this share of the longer side
HEADROOM = 1.08  # the paper's noise above its estimate is clipped to white too
PHOTO_SIDE = 1600  # a photographed board is read at most this long a side (px)
PAPER_WHITE = 235.0  # a node's fill this light (luma) on an evened photo is the paper's
PAPER_SIDE = 96  # the board's lighting is drawn back as a picture this long a side (px), stretched


@dataclass
class EvenedPhoto:
    image: RasterImage  # the pixels to read: lighting evened, at most PHOTO_SIDE px a side, dpi shrunk alike
    paper: np.ndarray  # the board's own colour and lighting, small (RGB uint8)


def evened_photo(image: RasterImage) -> EvenedPhoto | None:
    """The image to read for a photographed board or page, and its paper; None for a drawn
    figure (read as it is)."""
    h, w = image.rgb.shape[:2]
    paper = _paper(image.rgb)
    if paper is None:
        return None
    lit = _divided(image.rgb, paper)
    ph, pw = paper.shape[:2]
    g = PAPER_SIDE / max(ph, pw)
    small = cv2.resize(paper, (max(1, round(pw * g)), max(1, round(ph * g))), interpolation=cv2.INTER_AREA)
    f = PHOTO_SIDE / max(h, w)
    if f >= 1.0:
        return EvenedPhoto(replace(image, rgb=lit), small)
    read = cv2.resize(lit, (max(1, round(w * f)), max(1, round(h * f))), interpolation=cv2.INTER_AREA)
    return EvenedPhoto(replace(image, rgb=read, dpi=image.dpi * read.shape[1] / w), small)


def on_paper(fig: Figure, paper: np.ndarray) -> Figure:
    """``fig`` drawn over its board's paper (the lighting the reading divided out): a picture
    stretched over the whole canvas under everything, the photo's look in one element."""
    ok, jpg = cv2.imencode(".jpg", cv2.cvtColor(paper, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 85])
    if not ok:
        return fig
    href = "data:image/jpeg;base64," + base64.b64encode(jpg.tobytes()).decode("ascii")
    c = fig.canvas
    back = Image(kind="image", id="paper", href=href, alt="the photographed board's paper",
                 box=Box(x=0.0, y=0.0, w=float(c.w), h=float(c.h)))
    # the colours were read off the evened board (paper white): drawn on the board's own grey, they
    # are dimmed as the lighting dims them there (a red marker read pink came back pale on grey)
    light = paper.reshape(-1, 3).astype(np.float32).mean(axis=0) / 255.0
    # a box on the board is the board inside (read white, as the paper was): left unfilled; so is
    # a picture kept of what was left over (its paper was a white patch on the grey board)
    comps = [x.model_copy(update={"fill": "none"}) if x.kind in ("node", "group") and _paper_white(x.fill)
             else _see_through(x, light) if isinstance(x, Image) else x for x in fig.components
             # a traced leftover's paper (its patch's white ground traced as a shape of its own) is the board's
             if not (x.kind == "path" and getattr(x, "fill", None) not in (None, "none") and _paper_white(x.fill))]
    comps = [_dimmed(x, light) for x in comps]
    return fig.model_copy(update={"components": [back, *comps]})


def _dimmed(x: Any, light: np.ndarray) -> Any:
    """Component ``x`` with its colours (hex) multiplied by the board's ``light`` (RGB, 0-1)."""
    update = {}
    for name in ("fill", "stroke", "text_color", "color"):
        v = getattr(x, name, None)
        if isinstance(v, str) and len(v) == 7 and v.startswith("#"):
            rgb = hex_rgb(v)
            update[name] = "#" + "".join(f"{min(255, round(c * f)):02X}" for c, f in zip(rgb, light.tolist()))
    return x.model_copy(update=update) if update else x


def _see_through(img: Image, light: np.ndarray) -> Image:
    """A picture of the evened board with its paper-white pixels made transparent (fading in
    over the PAPER_WHITE band below white, so anti-aliased stroke edges blend with the board),
    the rest dimmed by the board's ``light`` (RGB, 0-1)."""
    head, _, data = (img.href or "").partition("base64,")
    if not head.startswith("data:image/png"):
        return img
    rgb = cv2.imdecode(np.frombuffer(base64.b64decode(data), np.uint8), cv2.IMREAD_COLOR)
    if rgb is None:
        return img
    grey = cv2.cvtColor(rgb, cv2.COLOR_BGR2GRAY).astype(np.float32)
    alpha = np.clip((255.0 - grey) / (255.0 - PAPER_WHITE), 0.0, 1.0) * 255.0
    dim = np.clip(rgb.astype(np.float32) * light[::-1] + 0.5, 0, 255).astype(np.uint8)  # BGR
    ok, png = cv2.imencode(".png", np.dstack([dim, alpha.astype(np.uint8)]))
    return img.model_copy(update={"href": "data:image/png;base64," + base64.b64encode(png.tobytes()).decode("ascii")}) \
        if ok else img


def _paper_white(fill: str | None) -> bool:
    """Whether a fill is the theme's (None) or near white: the evened paper's."""
    if fill is None:
        return True
    h = fill.lstrip("#")
    if len(h) != 6 or not all(ch in "0123456789abcdefABCDEF" for ch in h):
        return False
    r, g, b = (int(h[k:k + 2], 16) for k in (0, 2, 4))
    return float(luma_summed((r, g, b))) >= PAPER_WHITE


def even_lighting(rgb: np.ndarray) -> np.ndarray | None:
    """``rgb`` with the paper's lighting divided out (paper white), or None where the image is no
    photo of paper lit unevenly (a drawn figure is left as it is)."""
    paper = _paper(rgb)
    return None if paper is None else _divided(rgb, paper)


def _divided(rgb: np.ndarray, paper: np.ndarray) -> np.ndarray:
    """``rgb`` divided by its ``paper``, smoothed and stretched to its size: the paper white."""
    h, w = rgb.shape[:2]
    full = cv2.GaussianBlur(paper.astype(np.float32), (0, 0), _stroke_kernel() / 2)
    full = np.maximum(cv2.resize(full, (w, h), interpolation=cv2.INTER_LINEAR), 16.0)
    lit = np.clip(rgb.astype(np.float32) * (255.0 * HEADROOM) / full, 0, 255).astype(np.uint8)
    return lit


def _stroke_kernel() -> int:
    return 2 * int(STROKE_SHARE * WORK_SIDE / 2) + 1


def _paper(rgb: np.ndarray) -> np.ndarray | None:
    """The paper's colour where nothing is drawn, at WORK_SIDE px a side, or None where the image
    is no photo of paper lit unevenly."""
    h, w = rgb.shape[:2]
    if h < 64 or w < 64 or _top_share(rgb) >= PHOTO_TOP_SHARE:
        return None
    f = WORK_SIDE / max(h, w)
    small = cv2.resize(rgb, (max(1, round(w * f)), max(1, round(h * f))), interpolation=cv2.INTER_AREA)
    k = _stroke_kernel()
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    paper = cv2.morphologyEx(small, cv2.MORPH_CLOSE, kernel)  # dark strokes on light paper taken out
    paper = cv2.medianBlur(paper, k)
    lo, hi = np.percentile(luma(paper), [5, 95])
    return paper if hi - lo >= UNEVEN else None


def _top_share(rgb: np.ndarray) -> float:
    """The share of the pixels in the image's commonest exact colour (on a grid of every 2nd pixel)."""
    sub = rgb[::2, ::2]
    packed = (sub[..., 0].astype(np.int32) << 16) | (sub[..., 1].astype(np.int32) << 8) | sub[..., 2]
    counts = np.unique(packed.ravel(), return_counts=True)[1]
    return float(counts.max()) / packed.size
