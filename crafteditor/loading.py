"""Reading raster figures: PNG, JPEG, WebP (and anything else Pillow reads) into 8-bit RGB.

Every input becomes one :class:`RasterImage`: an ``H×W×3`` uint8 array with transparency
flattened onto the configured background, 16-bit and float samples scaled down,
grayscale and palette images expanded, EXIF rotation applied, and the file's dpi kept
(it decides how many pixels make one SVG user unit). Images over ``Config.max_pixels``
are refused before their pixels are decoded, so a decompression bomb costs nothing.
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Union

import cv2
import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

from crafteditor.config import Config
from crafteditor.paint import unique_rows
from crafter.errors import InputError

ImageSource = Union[str, Path, bytes, bytearray, np.ndarray, Image.Image]
DEFAULT_DPI = 96.0  # one pixel is one SVG user unit when the file does not say


@dataclass
class RasterImage:
    """A decoded figure: RGB pixels plus what the file said about itself."""

    rgb: np.ndarray  # H×W×3 uint8
    name: str  # the file name (or '<bytes>', '<array>') errors and reports use
    dpi: float  # pixels per inch the figure was rendered at
    source_format: str | None = None  # 'PNG', 'JPEG', 'WEBP'… (None for arrays)
    had_alpha: bool = False
    # the page a transparent figure was flattened onto, where enough of it was transparent to show
    # the page (the background is then known, not voted on: boxes drawn to the image's edge had
    # their outlines outvote the page, and a figure came back on black)
    page: tuple[int, int, int] | None = None

    @property
    def height(self) -> int:
        return int(self.rgb.shape[0])

    @property
    def width(self) -> int:
        return int(self.rgb.shape[1])

    @property
    def scale(self) -> float:
        """SVG user units per pixel (96 dpi user units)."""
        return DEFAULT_DPI / self.dpi


def load_image(source: ImageSource, config: Config | None = None, *, name: str | None = None) -> RasterImage:
    """Decode a path, encoded bytes, a numpy array or a PIL image into a :class:`RasterImage`."""
    config = config or Config()
    if isinstance(source, (str, Path)):
        path = Path(source)
        label = name or str(path)
        if not path.is_file():
            raise InputError("no such image file", file=label)
        try:
            with path.open("rb") as fh:
                data = fh.read()
        except OSError as e:
            raise InputError(f"cannot read: {e.strerror or e}", file=label) from None
        return _from_bytes(data, label, config)
    if isinstance(source, (bytes, bytearray)):
        return _from_bytes(bytes(source), name or "<bytes>", config)
    if isinstance(source, np.ndarray):
        label = name or "<array>"
        _check_pixels(source.shape[1] if source.ndim >= 2 else 0, source.shape[0] if source.ndim else 0, label, config)
        rgb = array_to_rgb(source, config.background, label)
        return RasterImage(rgb=rgb, name=label, dpi=float(config.dpi or DEFAULT_DPI))
    if isinstance(source, Image.Image):
        label = name or "<image>"
        _check_pixels(source.width, source.height, label, config)
        return _from_pil(source, label, config)
    raise InputError(f"cannot read an image from a {type(source).__name__}", file=name)


def _from_bytes(data: bytes, label: str, config: Config) -> RasterImage:
    if not data:
        raise InputError("empty file", file=label)
    with warnings.catch_warnings():
        # our own limit (checked from the header, before decoding) replaces Pillow's warning
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        try:
            im = Image.open(io.BytesIO(data))
        except Image.DecompressionBombError as e:
            raise InputError(f"image too large to open safely ({e})", file=label) from None
        except (UnidentifiedImageError, OSError, ValueError, SyntaxError) as e:
            raise InputError(f"not a readable image ({_reason(e)})", file=label) from None
        _check_pixels(im.width, im.height, label, config)
        try:
            im.load()
        except Image.DecompressionBombError as e:
            raise InputError(f"image too large to open safely ({e})", file=label) from None
        except (OSError, ValueError, SyntaxError, EOFError) as e:
            raise InputError(f"corrupt or truncated image ({_reason(e)})", file=label) from None
        return _from_pil(im, label, config)


def _reason(e: Exception) -> str:
    text = str(e).strip() or type(e).__name__
    # Pillow names the BytesIO object; the file name is already in the error
    return text.split(" <_io.BytesIO")[0] if "<_io.BytesIO" in text else text


def _check_pixels(width: int, height: int, label: str, config: Config) -> None:
    if width <= 0 or height <= 0:
        raise InputError(f"image has no pixels ({width}×{height})", file=label)
    if width * height > config.max_pixels:
        raise InputError(
            f"image is {width}×{height} = {width * height / 1e6:.1f} megapixels, over the limit of "
            f"{config.max_pixels / 1e6:.1f} (a decompression bomb?); raise max_pixels to convert it",
            file=label,
        )


def _from_pil(im: Image.Image, label: str, config: Config) -> RasterImage:
    fmt = im.format
    dpi = config.dpi or _file_dpi(im) or DEFAULT_DPI
    try:
        im = ImageOps.exif_transpose(im)
    except Exception:  # a broken EXIF block must not lose the picture
        pass
    # a tRNS chunk makes one colour (grey, RGB) or palette entries transparent
    had_alpha = im.mode in ("RGBA", "LA", "PA") or "transparency" in im.info
    if had_alpha and im.mode in ("RGB", "L", "1"):
        im = im.convert("RGBA")
    known = None  # the page, where the figure shows enough of it (see RasterImage.page)
    if im.mode in ("I;16", "I;16B", "I;16L", "I;16N", "I"):
        # 16-bit grayscale PNGs: Pillow hands them over as 'I;16' or 32-bit 'I' holding 0..65535
        arr = np.clip(np.asarray(im, dtype=np.int64), 0, 65535).astype(np.uint16)
        rgb = array_to_rgb(arr, config.background, label)
    elif im.mode == "F":
        rgb = array_to_rgb(np.asarray(im, dtype=np.float32), config.background, label)
    else:
        if im.mode == "P":
            im = im.convert("RGBA" if had_alpha else "RGB")
        elif im.mode in ("1", "L", "CMYK", "YCbCr", "LAB", "HSV"):
            im = im.convert("RGB")
        elif im.mode == "LA":
            im = im.convert("RGBA")
        elif im.mode == "PA":
            im = im.convert("RGBA")
        elif im.mode not in ("RGB", "RGBA"):
            im = im.convert("RGBA")
        arr = np.asarray(im)
        page = _page_for(arr, config.background)
        rgb = array_to_rgb(arr, page, label)
        if arr.ndim == 3 and arr.shape[2] == 4 and (arr[:, :, 3] < 128).mean() >= PAGE_SHOWS:
            known = _page_shown(rgb, arr[:, :, 3] < 128, _hex_rgb(page))
    return RasterImage(rgb=rgb, name=label, dpi=float(dpi), source_format=fmt, had_alpha=had_alpha, page=known)


# the share of transparent pixels from which a figure's page is taken as known (what was flattened onto)
PAGE_SHOWS = 0.05
# the share of the see-through pixels one tint covers, at least, for that tint to be the page
PAGE_TINT = 0.9
# a transparent figure whose ink is light (drawn for a dark page) is flattened onto this page
DARK_PAGE = "#0D1117"


def _page_shown(rgb: np.ndarray, clear: np.ndarray, page: tuple[int, int, int]) -> tuple[int, int, int]:
    """The page as the figure's see-through pixels (``clear``) show it once flattened: ``page``
    where they are fully clear; where nearly all of them (:data:`PAGE_TINT`) share one tint (a canvas
    washed over with a half-clear colour: an Excalidraw dark export's 33 % grey over the whole figure),
    that tint (a half-clear panel over most of a clear canvas is no page: the canvas round it shows). A page
    taken as white there had every white stroke on the 198-grey canvas read as the page and the
    canvas as ink: all of a dev figure's arrows were lost."""
    step = max(1, int(np.sqrt(clear.size / 250_000)))  # a sample is enough to decide
    seen = rgb[::step, ::step][clear[::step, ::step]]
    if seen.size == 0:
        return page
    colors, counts = unique_rows(seen.reshape(-1, 3))
    top = colors[int(np.argmax(counts))]
    if counts.max() < PAGE_TINT * len(seen):  # no one tint: the page shows through as it is
        return page
    return int(top[0]), int(top[1]), int(top[2])


def _page_for(arr: np.ndarray, background: str) -> str:
    """The page a transparent figure is flattened onto: ``background``, unless its opaque pixels
    vanish on it and show on a dark page (white text and lines drawn for a dark theme)."""
    if arr.ndim != 3 or arr.shape[2] != 4 or arr.dtype != np.uint8:
        return background
    step = max(1, int(np.sqrt(arr.shape[0] * arr.shape[1] / 250_000)))  # a sample is enough to decide
    a = arr[::step, ::step]
    opaque = a[..., 3] >= 128
    if opaque.sum() < 20 or opaque.mean() > 0.98:  # an opaque image has a page of its own
        return background
    color = a[..., :3][opaque].astype(np.int16)
    page = np.array(_hex_rgb(background), np.int16)
    shows = np.abs(color - page).max(axis=1) > 60  # ink that stands out from the page
    if shows.mean() < 0.02 and (np.abs(color - np.array(_hex_rgb(DARK_PAGE), np.int16)).max(axis=1) > 60).mean() > 0.5:
        return DARK_PAGE
    return background


def _file_dpi(im: Image.Image) -> float | None:
    dpi = im.info.get("dpi")
    if not dpi:
        return None
    try:
        value = float(dpi[0] if isinstance(dpi, (tuple, list)) else dpi)
    except (TypeError, ValueError):
        return None
    if not 10 <= value <= 2400:  # 1 dpi or 72000 dpi headers are junk, not a statement
        return None
    # pHYs stores pixels per metre: 150 dpi comes back as 150.0124
    return float(round(value)) if abs(value - round(value)) < 0.05 else value


def array_to_rgb(arr: np.ndarray, background: str, label: str) -> np.ndarray:
    """Any image array (gray, gray+alpha, RGB, RGBA; uint8, uint16, float) → H×W×3 uint8."""
    a = np.asarray(arr)
    if a.ndim == 2:
        a = a[:, :, None]
    if a.ndim != 3 or a.shape[2] not in (1, 2, 3, 4):
        raise InputError(f"expected an H×W, H×W×3 or H×W×4 image array, got shape {a.shape}", file=label)
    if a.dtype == np.uint8 and a.shape[2] in (3, 4):
        # 8-bit colour: opaque pixels are already the answer (the float round trip gives the
        # same bytes for 0.3 s of a 300 dpi figure's 2 CPU-s), so only the others are
        # flattened: a cairo render's few anti-aliased canvas-edge pixels (0.2% of a diagram).
        # cv2 drops the alpha channel 4× faster than a strided numpy copy: 17 → 6 ms at 150 dpi
        rgb = cv2.cvtColor(np.ascontiguousarray(a), cv2.COLOR_RGBA2RGB) if a.shape[2] == 4 else a.copy()
        if a.shape[2] == 4:
            partial = a[:, :, 3] != 255
            if partial.any():
                rgb[partial] = _flatten(a[partial][None], background, label)[0]
        return rgb
    return _flatten(a, background, label)


def _flatten(a: np.ndarray, background: str, label: str) -> np.ndarray:
    """H×W×C (C = 1..4) of any dtype → H×W×3 uint8, alpha composited onto ``background``."""
    a = _to_unit_float(a, label)
    channels = a.shape[2]
    if channels in (2, 4):
        color, alpha = a[:, :, :-1], a[:, :, -1:]
    else:
        color, alpha = a, None
    if color.shape[2] == 1:
        color = np.repeat(color, 3, axis=2)
    if alpha is not None:
        bg = np.array(_hex_rgb(background), dtype=np.float32) / 255.0
        color = color * alpha + bg[None, None, :] * (1.0 - alpha)
    return np.clip(np.rint(color * 255.0), 0, 255).astype(np.uint8)


def _to_unit_float(a: np.ndarray, label: str) -> np.ndarray:
    if a.dtype == np.uint8:
        return a.astype(np.float32) / 255.0
    if a.dtype == np.bool_:
        return a.astype(np.float32)
    if a.dtype == np.uint16:
        return a.astype(np.float32) / 65535.0
    if np.issubdtype(a.dtype, np.integer):
        top = 65535.0 if a.max(initial=0) > 255 else 255.0
        return np.clip(a.astype(np.float32) / top, 0.0, 1.0)
    if np.issubdtype(a.dtype, np.floating):
        if not np.isfinite(a).all():
            raise InputError("image array holds NaN or infinite values", file=label)
        top = 255.0 if a.max(initial=0.0) > 1.0 else 1.0
        return np.clip(a.astype(np.float32) / top, 0.0, 1.0)
    raise InputError(f"unsupported image array type {a.dtype}", file=label)


def _hex_rgb(color: str) -> tuple[int, int, int]:
    c = color.lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    if len(c) != 6:
        raise InputError(f"background must be a #rrggbb colour, not {color!r}")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)
