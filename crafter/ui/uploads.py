"""Checks on what users upload, before anything reads it: type, size, and "is it really one".

Each check raises :class:`~crafter.errors.InputError` with a message the app shows as is:
it names the file and says what to do. The limits are the app's, below the server's
own upload cap, so an oversized file gets a sentence rather than a browser error.
"""

from __future__ import annotations

import io
from pathlib import PurePath

from PIL import Image, UnidentifiedImageError

from crafter.errors import InputError

MB = 1024 * 1024
TABLE_SUFFIXES = ("csv", "tsv", "json", "xlsx")
IMAGE_SUFFIXES = ("png", "jpg", "jpeg")
FIGURE_SUFFIXES = ("svg", "dsl", "json", "drawio", "pptx", "txt")
MAX_TABLE_BYTES = 20 * MB
MAX_IMAGE_BYTES = 25 * MB
MAX_FIGURE_BYTES = 20 * MB
MAX_IMAGE_PIXELS = 50_000_000  # ≈ 7,000 × 7,000: a figure, not a decompression bomb


def _human(n: int) -> str:
    return f"{n / MB:.1f} MB" if n >= MB else f"{n / 1024:.0f} KB"


def suffix_of(name: str) -> str:
    return PurePath(name).suffix.lower().lstrip(".")


def check_upload(name: str, size: int, *, kinds: tuple[str, ...], max_bytes: int, what: str) -> str:
    """The file's suffix, if the type and size are acceptable for ``what`` ('a table'...)."""
    suffix = suffix_of(name)
    if suffix not in kinds:
        shown = f".{suffix}" if suffix else "no extension"
        raise InputError(f"{shown} files cannot be used as {what}; upload one of: "
                         + ", ".join("." + k for k in kinds), file=name)
    if size > max_bytes:
        raise InputError(f"the file is {_human(size)}; {what} may be at most {_human(max_bytes)}", file=name)
    if size == 0:
        raise InputError("the file is empty", file=name)
    return suffix


def check_image(name: str, data: bytes, *, max_bytes: int = MAX_IMAGE_BYTES) -> tuple[int, int]:
    """(width, height) of a PNG/JPEG upload, after checking it really is one."""
    check_upload(name, len(data), kinds=IMAGE_SUFFIXES, max_bytes=max_bytes, what="an image")
    try:
        with Image.open(io.BytesIO(data)) as im:
            fmt = im.format
            w, h = im.size
            if fmt not in ("PNG", "JPEG"):
                raise InputError(f"this is a {fmt or 'unknown'} image, not PNG or JPEG", file=name)
            if w * h > MAX_IMAGE_PIXELS:
                raise InputError(f"the image is {w} × {h} pixels; the limit is {MAX_IMAGE_PIXELS // 1_000_000} "
                                 "million pixels (scale it down first)", file=name)
            im.verify()
    except InputError:
        raise
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as e:
        raise InputError(f"not a readable PNG or JPEG image ({type(e).__name__})", file=name) from None
    except Image.DecompressionBombError:
        raise InputError("the image has too many pixels to open safely", file=name) from None
    return w, h
