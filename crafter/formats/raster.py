"""PNG and PDF through cairosvg: a figure's SVG drawn to pixels or to a vector page.

cairosvg sees only fontconfig fonts: the shipped DejaVu fonts are added to fontconfig's
search path (the same TTFs layout measures with), and cairo embeds the glyphs it uses as
font subsets in the PDF. :func:`svg_to_png` is the one SVG → PNG path for every part of the
project (CraftEditor's and CraftBench's scores rasterise through it too).
"""

from __future__ import annotations

import hashlib
import html
import os
import re
import struct
import tempfile
import zlib
from pathlib import Path as FsPath

from crafter.base.text import FONT_DIR, text_width
from crafter.errors import RenderError
from crafter.formats.registry import check_dpi
from crafter.render import draw_svg, ensure_layout
from crafter.spec.markup import SCRIPT_SCALE
from crafter.spec.model import Figure

MAX_PNG_PIXELS = 150_000_000  # ≈ 12,000 × 12,000: beyond this a PNG is not a figure, and costs GBs of memory

_SVG_WIDTH = re.compile(r'<svg[^>]*?\swidth="([0-9.]+)(?:px)?"')
_SVG_HEIGHT = re.compile(r'<svg[^>]*?\sheight="([0-9.]+)(?:px)?"')


def figure_to_png_bytes(fig: Figure, dpi: int = 300, *, relayout: bool = False) -> bytes:
    """The figure as PNG bytes at ``dpi`` (scale dpi/96), with the dpi recorded in the file."""
    check_dpi(dpi)
    return png_of_laid_out(ensure_layout(fig, relayout=relayout), dpi)


def figure_to_pdf_bytes(fig: Figure, *, relayout: bool = False) -> bytes:
    """The figure as a one-page vector PDF, fonts embedded."""
    return pdf_of_laid_out(ensure_layout(fig, relayout=relayout))


def png_of_laid_out(fig: Figure, dpi: int) -> bytes:
    svg = draw_svg(fig, text_order="visual", embed_spec=False)
    w, h = svg_size(svg)
    if w is None or h is None:
        raise RenderError("internal: the SVG has no width/height")
    scale = dpi / 96
    pw, ph = max(1, round(w * scale)), max(1, round(h * scale))
    if pw * ph > MAX_PNG_PIXELS:
        raise RenderError(f"a PNG at {dpi} dpi would be {pw} × {ph} pixels; use a lower --dpi, "
                          "or export .svg or .pdf, which have no pixel size")
    return _with_png_dpi(svg_to_png(svg, width=pw, height=ph), dpi)


def pdf_of_laid_out(fig: Figure) -> bytes:
    svg = draw_svg(fig, text_order="visual", embed_spec=False)
    return cairosvg().svg2pdf(bytestring=cairo_shifts(svg).encode("utf-8"))


def svg_to_png(svg: str | bytes, *, width: int | None = None, height: int | None = None,
               background: str | None = None) -> bytes:
    """Rasterise SVG text with cairosvg at (width, height) pixels (either may be left to the SVG)."""
    if isinstance(svg, bytes) and b"baseline-shift" in svg:
        svg = svg.decode("utf-8", errors="replace")
    data = cairo_shifts(svg).encode("utf-8") if isinstance(svg, str) else svg
    return cairosvg().svg2png(bytestring=data, output_width=width, output_height=height,
                              background_color=background)


_TEXT_EL = re.compile(r"(<text\b[^>]*>)(.*?)(</text>)", re.S)
_TAG = re.compile(r"<(text|tspan)\b([^>]*)>")
_SHIFT = re.compile(r'baseline-shift="(sub|super)"')
_SIZE = re.compile(r'font-size="([0-9.]+)"')
_X = re.compile(r'\sx="([-0-9.]+)"')
SUB_DY, SUPER_DY = 0.2, -0.4  # of the line's font size: where a sub- and a superscript's baseline sits


def cairo_shifts(svg: str) -> str:
    """``baseline-shift`` tspans (sub- and superscripts, :func:`crafter.render.svg.rich_text`) as
    ``dy`` moves, which cairosvg draws (it ignores baseline-shift, and centres each tspan of a
    middle-anchored line on its own): a shifted tspan moves off the baseline, the tspan after it
    back onto it; a centred line with shifts is started at its left end instead."""
    if "baseline-shift" not in svg:
        return svg
    return _TEXT_EL.sub(lambda m: _text_shifts(m.group(1), m.group(2)) + m.group(3), svg)


def _text_shifts(head: str, body: str) -> str:
    if "baseline-shift" not in body:
        return head + body
    size = _SIZE.search(head)
    fs = float(size.group(1)) if size else 12.0
    bold = 'font-weight="bold"' in head
    anchor = re.search(r'text-anchor="(middle|end)"', head)
    if anchor:  # each line (a tspan with an x) moved left by its width, or half of it
        head = head.replace(anchor.group(0), 'text-anchor="start"')
        cut = [m.start() for m in re.finditer(r"<tspan\b[^>]*\sx=", body)] + [len(body)]
        lines = [body[:cut[0]]] + [body[a:b] for a, b in zip(cut, cut[1:])]
        for i, line in enumerate(lines):
            x = _X.search(line)
            if not x:
                continue
            width = 0.0
            for attrs, piece in re.findall(r"<tspan\b([^>]*)>([^<]*)", line):
                small = _SHIFT.search(attrs) is not None
                width += text_width(html.unescape(piece), fs * SCRIPT_SCALE if small else fs, bold=bold)
            new_x = float(x.group(1)) - (width / 2 if anchor.group(1) == "middle" else width)
            lines[i] = line[:x.start()] + f' x="{new_x:.2f}"' + line[x.end():]
        body = "".join(lines)
    at = 0.0  # the current offset from the line's baseline

    def move(m: re.Match[str]) -> str:
        nonlocal at
        attrs = m.group(2)
        if " y=" in attrs:
            at = 0.0
        shift = _SHIFT.search(attrs)
        target = 0.0
        if shift:
            target = (SUB_DY if shift.group(1) == "sub" else SUPER_DY) * fs
        if abs(target - at) < 1e-6:
            return m.group(0)
        dy, at = target - at, target
        return f'<tspan dy="{dy:.2f}"{attrs}>'

    return head + _TAG.sub(move, body)


def svg_size(svg: str) -> tuple[float | None, float | None]:
    """The root element's width and height in px, as written (None where missing or not in px)."""
    head = svg[:3000]
    m_w, m_h = _SVG_WIDTH.search(head), _SVG_HEIGHT.search(head)
    return (float(m_w.group(1)) if m_w else None, float(m_h.group(1)) if m_h else None)


def _with_png_dpi(png: bytes, dpi: int) -> bytes:
    """Insert a pHYs chunk after IHDR so viewers and LaTeX know the print size."""
    ppm = round(dpi / 0.0254)
    body = b"pHYs" + struct.pack(">IIB", ppm, ppm, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    ihdr_end = 8 + 4 + 4 + 13 + 4  # signature, length, type, IHDR data, CRC
    return png[:ihdr_end] + chunk + png[ihdr_end:]


_FONTCONFIG_READY = False


def cairosvg():
    """cairosvg, with fontconfig told about the shipped fonts (once, before cairo loads any)."""
    global _FONTCONFIG_READY
    if not _FONTCONFIG_READY:
        _FONTCONFIG_READY = True
        if "FONTCONFIG_FILE" not in os.environ:
            conf = _fontconfig_file()
            if conf is not None:
                os.environ["FONTCONFIG_FILE"] = str(conf)
    import cairosvg as _cairosvg  # heavy: 1.6 s to import (cairo); and cairo must see FONTCONFIG_FILE first

    return _cairosvg


# Glyphs hinted at every size and on every surface. cairo's FreeType backend settles a font
# face's hinting on the first surface that draws with it and keeps it for the process; a PDF
# page (its surface asks for no hinting) or a face first drawn under 8 px (distributions unhint
# DejaVu there) would leave every later PNG of that face unhinted, its text moved by a pixel: a
# PNG would depend on what the process drew before it.
_HINTED = ('  <match target="font"><edit name="hinting" mode="assign"><bool>true</bool></edit></match>\n')


def _fontconfig_file() -> FsPath | None:
    """A fonts.conf that includes the system's and adds crafter/assets/fonts."""
    system = next((p for p in ("/etc/fonts/fonts.conf", "/usr/local/etc/fonts/fonts.conf") if os.path.exists(p)), None)
    include = f'<include ignore_missing="yes">{system}</include>' if system else ""
    cache = FsPath(tempfile.gettempdir()) / f"crafter-fontconfig-{os.getuid() if hasattr(os, 'getuid') else 0}"
    text = ('<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n'
            f"  {include}\n  <dir>{FONT_DIR}</dir>\n  <cachedir>{cache}</cachedir>\n{_HINTED}</fontconfig>\n")
    try:
        cache.mkdir(parents=True, exist_ok=True)
        # named by its content: processes of two checkouts (or versions) never rewrite each other's
        conf = cache / f"fonts-{hashlib.sha256(text.encode()).hexdigest()[:12]}.conf"
        if not conf.exists() or conf.read_text() != text:
            part = conf.with_suffix(f".{os.getpid()}.part")
            part.write_text(text)
            os.replace(part, conf)
        return conf
    except OSError:
        return None  # the system fonts still work; only the shipped ones are not added
