"""Exporting a figure to a file whose suffix picks the format: .svg .png .pdf .json .dsl, and more.

Formats live in a registry, so another area adds one without touching this file::

    from crafter.render.export import register_exporter
    register_exporter(".drawio", lambda fig, opts: drawio_xml(fig).encode(), description="draw.io diagram")

An exporter takes a laid-out :class:`Figure` (unless registered with ``needs_layout=False``)
and :class:`ExportOptions`, and returns the file's bytes; :func:`export_figure` writes them
atomically. PNG and PDF go through cairosvg, which sees only fontconfig fonts: the shipped
DejaVu fonts are added to fontconfig's search path (the same TTFs layout measures with),
and cairo embeds the glyphs it uses as font subsets in the PDF.
"""

from __future__ import annotations

import os
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path as FsPath
from typing import Callable

from crafter.errors import InputError, RenderError
from crafter.render.svg import EMPTY_FIGURE, draw_svg, ensure_layout
from crafter.spec.model import Figure

MAX_PNG_PIXELS = 150_000_000  # ≈ 12,000 × 12,000: beyond this a PNG is not a figure, and costs GBs of memory
MIN_DPI, MAX_DPI = 10, 2400


@dataclass(frozen=True)
class ExportOptions:
    dpi: int = 300  # raster resolution; 96 dpi is 1 px per SVG user unit
    path: FsPath | None = None  # the file being written (exporters that write side files, e.g. TikZ images)


ExportFn = Callable[[Figure, ExportOptions], bytes]


@dataclass(frozen=True)
class Exporter:
    suffix: str  # lower case, with the dot; may have several parts (".vl.json")
    write: ExportFn
    needs_layout: bool = True
    description: str = ""


_EXPORTERS: dict[str, Exporter] = {}


def register_exporter(suffix: str, fn: ExportFn, *, needs_layout: bool = True, description: str = "") -> None:
    """Add (or replace) the exporter for files ending in ``suffix``."""
    suffix = suffix.lower()
    if not suffix.startswith("."):
        suffix = "." + suffix
    _EXPORTERS[suffix] = Exporter(suffix, fn, needs_layout, description)


def _register_optional_exporters() -> None:
    # crafter.export registers .tex .tikz .drawio .vl.json; imported here, lazily, because it
    # imports this module (and costs start-up time nobody exporting SVG should pay)
    import crafter.export  # noqa: F401


def supported_suffixes() -> list[str]:
    _register_optional_exporters()
    return sorted(_EXPORTERS)


def exporter_for(path: str | FsPath) -> Exporter:
    """The exporter whose suffix is the longest match for ``path`` ('.vl.json' before '.json')."""
    _register_optional_exporters()
    name = FsPath(path).name.lower()
    matches = [s for s in _EXPORTERS if name.endswith(s) and len(name) > len(s)]
    if not matches:
        suffix = FsPath(path).suffix or "(none)"
        raise InputError(f"cannot export to '{suffix}' files; supported: {', '.join(supported_suffixes())}",
                         file=str(path))
    return _EXPORTERS[max(matches, key=len)]


def export_figure(fig: Figure, path: str | FsPath, *, dpi: int = 300, relayout: bool = False) -> None:
    """Write ``fig`` to ``path`` in the format its suffix names (laid out first when needed)."""
    if not fig.components:
        raise RenderError(EMPTY_FIGURE)
    exporter = exporter_for(path)
    _check_dpi(dpi)
    if exporter.needs_layout or relayout:
        fig = ensure_layout(fig, relayout=relayout)
    data = exporter.write(fig, ExportOptions(dpi=dpi, path=FsPath(path)))
    from crafter.spec.io import write_bytes_atomic

    write_bytes_atomic(FsPath(path), data)


# ---------------------------------------------------------------------------------
# PNG and PDF through cairosvg
# ---------------------------------------------------------------------------------


def figure_to_png_bytes(fig: Figure, dpi: int = 300, *, relayout: bool = False) -> bytes:
    """The figure as PNG bytes at ``dpi`` (scale dpi/96), with the dpi recorded in the file."""
    _check_dpi(dpi)
    return _png(ensure_layout(fig, relayout=relayout), dpi)


def figure_to_pdf_bytes(fig: Figure, *, relayout: bool = False) -> bytes:
    """The figure as a one-page vector PDF, fonts embedded."""
    return _pdf(ensure_layout(fig, relayout=relayout))


def _png(fig: Figure, dpi: int) -> bytes:
    svg = draw_svg(fig, text_order="visual", embed_spec=False)
    w, h = _svg_size(svg)
    scale = dpi / 96
    pw, ph = max(1, round(w * scale)), max(1, round(h * scale))
    if pw * ph > MAX_PNG_PIXELS:
        raise RenderError(f"a PNG at {dpi} dpi would be {pw} × {ph} pixels; use a lower --dpi, "
                          "or export .svg or .pdf, which have no pixel size")
    cairosvg = _cairosvg()
    png = cairosvg.svg2png(bytestring=svg.encode("utf-8"), output_width=pw, output_height=ph)
    return _with_png_dpi(png, dpi)


def _pdf(fig: Figure) -> bytes:
    svg = draw_svg(fig, text_order="visual", embed_spec=False)
    return _cairosvg().svg2pdf(bytestring=svg.encode("utf-8"))


def _svg_size(svg: str) -> tuple[float, float]:
    """width/height of the root element (the writer always sets them, in px)."""
    import re

    head = svg[:2000]
    m_w = re.search(r'<svg[^>]*\swidth="([0-9.]+)"', head)
    m_h = re.search(r'<svg[^>]*\sheight="([0-9.]+)"', head)
    if not (m_w and m_h):
        raise RenderError("internal: the SVG has no width/height")
    return float(m_w.group(1)), float(m_h.group(1))


def _with_png_dpi(png: bytes, dpi: int) -> bytes:
    """Insert a pHYs chunk after IHDR so viewers and LaTeX know the print size."""
    ppm = round(dpi / 0.0254)
    body = b"pHYs" + struct.pack(">IIB", ppm, ppm, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    ihdr_end = 8 + 4 + 4 + 13 + 4  # signature, length, type, IHDR data, CRC
    return png[:ihdr_end] + chunk + png[ihdr_end:]


def _check_dpi(dpi: int) -> None:
    if not (MIN_DPI <= dpi <= MAX_DPI):
        raise InputError(f"dpi must be between {MIN_DPI} and {MAX_DPI}, not {dpi}")


_FONTCONFIG_READY = False


def _cairosvg():
    """cairosvg, with fontconfig told about the shipped fonts (once, before cairo loads any)."""
    global _FONTCONFIG_READY
    if not _FONTCONFIG_READY:
        _FONTCONFIG_READY = True
        if "FONTCONFIG_FILE" not in os.environ:
            conf = _fontconfig_file()
            if conf is not None:
                os.environ["FONTCONFIG_FILE"] = str(conf)
    import cairosvg

    return cairosvg


def _fontconfig_file() -> FsPath | None:
    """A fonts.conf that includes the system's and adds crafter/assets/fonts."""
    import tempfile

    from crafter.render.text import FONT_DIR

    system = next((p for p in ("/etc/fonts/fonts.conf", "/usr/local/etc/fonts/fonts.conf") if os.path.exists(p)), None)
    include = f'<include ignore_missing="yes">{system}</include>' if system else ""
    cache = FsPath(tempfile.gettempdir()) / f"crafter-fontconfig-{os.getuid() if hasattr(os, 'getuid') else 0}"
    text = ('<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n'
            f"  {include}\n  <dir>{FONT_DIR}</dir>\n  <cachedir>{cache}</cachedir>\n</fontconfig>\n")
    try:
        cache.mkdir(parents=True, exist_ok=True)
        conf = cache / "fonts.conf"
        if not conf.exists() or conf.read_text() != text:
            conf.write_text(text)
        return conf
    except OSError:
        return None  # the system fonts still work; only the shipped ones are not added


# ---------------------------------------------------------------------------------
# Built-in formats
# ---------------------------------------------------------------------------------


def _export_svg(fig: Figure, opts: ExportOptions) -> bytes:
    return draw_svg(fig).encode("utf-8")


def _export_png(fig: Figure, opts: ExportOptions) -> bytes:
    return _png(fig, opts.dpi)


def _export_pdf(fig: Figure, opts: ExportOptions) -> bytes:
    return _pdf(fig)


def _export_json(fig: Figure, opts: ExportOptions) -> bytes:
    return fig.to_json().encode("utf-8")  # the same text as crafter.spec.save_figure


def _export_dsl(fig: Figure, opts: ExportOptions) -> bytes:
    from crafter.spec.dsl import print_dsl

    return print_dsl(fig).encode("utf-8")


register_exporter(".svg", _export_svg, description="editable SVG with the figure in <metadata>")
register_exporter(".png", _export_png, description="raster image at --dpi")
register_exporter(".pdf", _export_pdf, description="vector PDF, fonts embedded")
register_exporter(".json", _export_json, needs_layout=False, description="FigureSpec JSON")
register_exporter(".dsl", _export_dsl, needs_layout=False, description="FigureSpec DSL")
