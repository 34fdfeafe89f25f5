"""Figure files → style evidence: Crafter SVGs by their embedded figure, other SVGs, PDFs and rasters
through a vectoriser (CraftEditor's, handed in: crafter never imports it).

* a **Crafter SVG** carries its FigureSpec: read exactly (theme and house style included);
* a **foreign SVG** is drawn to PNG and read by the vectoriser; its ``font-family`` attributes name the font;
* a **PDF**'s first page is drawn to PNG with poppler's ``pdftoppm`` and read likewise; ``pdffonts`` names its fonts;
* a **PNG/JPEG** goes to the vectoriser as it is.

An unreadable file raises a :class:`CrafterError` naming it; :func:`learn_from_files` records it
and goes on with the rest.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any, Callable
from xml.etree import ElementTree as ET

from PIL import Image

from crafter.errors import CrafterError, InputError
from crafter.formats.raster import svg_to_png
from crafter.formats.sanitize import ImportReport, local_name
from crafter.formats.svg import parse_svg
from crafter.formats.svg_import import import_svg
from crafter.formats.svg_import.elements import length, own_style
from crafter.spec.model import Figure
from crafter.style.learn import learn_style
from crafter.style.observe import Evidence, observe
from crafter.style.pixels import corner_radii, edge_label_sizes, edge_widths, font_votes, read_gray

Vectorizer = Callable[[str], Figure]
RASTER_SUFFIXES = (".png", ".jpg", ".jpeg")
READABLE = (".svg", ".pdf", *RASTER_SUFFIXES)
READ_DPI = 192  # foreign SVGs and PDF pages are drawn at 2× CSS px for the vectoriser
MAX_FIGURES = 200
ROUNDED = 1.5  # px: a corner radius above this is a rounded box


def svg_fonts(root: ET.Element) -> list[str]:
    """The ``font-family`` each ``<text>`` of an SVG is drawn with (inherited from its parents)."""
    out: list[str] = []

    def walk(el: ET.Element, family: str | None, depth: int) -> None:
        if depth > 200:
            return
        family = own_style(el).get("font-family") or el.get("font-family") or family
        if local_name(el.tag) == "text" and family:
            out.append(family.strip())
        for child in el:
            walk(child, family, depth + 1)

    walk(root, None, 0)
    return out


def _png_with_dpi(png: bytes, dpi: int) -> bytes:
    im = Image.open(io.BytesIO(png))
    buf = io.BytesIO()
    im.save(buf, format="PNG", dpi=(dpi, dpi))
    return buf.getvalue()


def _need_vectorizer(vectorizer: Vectorizer | None, path: Path) -> Vectorizer:
    if vectorizer is None:
        raise InputError("reading a raster figure needs CraftEditor (pip install the crafter package with it; "
                         "no 'crafter.vectorizers' entry point is installed)", file=str(path))
    return vectorizer


def _run(cmd: list[str], path: Path) -> str:
    exe = shutil.which(cmd[0])
    if exe is None:
        raise InputError(f"reading a PDF needs poppler's {cmd[0]} (apt-get install poppler-utils)", file=str(path))
    try:
        out = subprocess.run([exe, *cmd[1:]], capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        raise InputError(f"{cmd[0]} took over 120 s", file=str(path)) from None
    if out.returncode != 0:
        raise InputError(f"not a readable PDF ({cmd[0]}: {out.stderr.strip()[:200] or out.returncode})", file=str(path))
    return out.stdout


def pdf_fonts(path: Path) -> list[str]:
    """Font names a PDF uses (``pdffonts``), subset prefixes kept (the class reader drops them)."""
    try:
        text = _run(["pdffonts", "-f", "1", "-l", "1", str(path)], path)
    except InputError:
        return []
    return [line.split()[0] for line in text.splitlines()[2:] if line.strip()]


def read_evidence(path: str | Path, vectorizer: Vectorizer | None = None) -> Evidence:
    """What one figure file shows of its style."""
    p = Path(path)
    if not p.exists():
        raise InputError("no such file", file=str(p))
    suffix = p.suffix.lower()
    if suffix not in READABLE:
        raise InputError(f"cannot learn a style from '{suffix or p.name}' files (use {', '.join(READABLE)})", file=str(p))
    if suffix == ".svg":
        return _read_svg(p, vectorizer)
    if suffix == ".pdf":
        vec = _need_vectorizer(vectorizer, p)
        with tempfile.TemporaryDirectory(prefix="crafter-style-") as tmp:
            _run(["pdftoppm", "-r", str(READ_DPI), "-f", "1", "-l", "1", "-singlefile", "-png", str(p),
                  str(Path(tmp) / "page")], p)
            fig = vec(str(Path(tmp) / "page.png"))
            ev = observe(fig, Evidence(file=str(p), reader="pdf", exact=False))
            _glyph_votes(ev, Path(tmp) / "page.png", fig)
        for name in pdf_fonts(p):
            ev.add("font.family", name)
        return ev
    fig = _need_vectorizer(vectorizer, p)(str(p))
    ev = observe(fig, Evidence(file=str(p), reader="crafteditor", exact=False))
    _glyph_votes(ev, p, fig)
    return ev


def _glyph_votes(ev: Evidence, image: Path, fig: Figure) -> None:
    """The font class the labels' letter shapes vote for (a raster names no font), the edge labels'
    size from their letters (the vectoriser keeps none), the edges' stroke width and the corner radius of boxes."""
    read = read_gray(image, fig)
    if read is None:
        return
    votes = font_votes(read, fig)
    for cls, weight in votes:
        ev.add("font.class", cls, weight)
    tally: dict[str, float] = {}
    for cls, weight in votes:
        tally[cls] = tally.get(cls, 0.0) + weight
    for size in edge_label_sizes(read, fig, max(tally, key=lambda k: tally[k]) if tally else "sans"):
        ev.add("sizes.edge_label", size)
    widths = edge_widths(read, fig)
    if widths:  # measured, they replace the vectoriser's (kept only when far from the paper theme's)
        ev.obs["strokes.edge"] = [(w, 1.0) for w in widths]
    radii = corner_radii(read, fig)
    rounded = [r for r in radii if r > ROUNDED]
    # a figure that rounds some boxes shows its radius; one that rounds none, square corners
    for r in rounded if rounded and len(rounded) >= 0.3 * len(radii) else [0.0] * len(radii):
        ev.add("shapes.corner_radius", r)


def _read_svg(p: Path, vectorizer: Vectorizer | None) -> Evidence:
    report = ImportReport()
    fig = import_svg(p, report=report)
    if report.crafter:
        return observe(fig, Evidence(file=str(p), reader="crafter-svg", exact=True))
    root, _ = parse_svg(p)
    vec = _need_vectorizer(vectorizer, p)
    with tempfile.TemporaryDirectory(prefix="crafter-style-") as tmp:
        png = Path(tmp) / "figure.png"
        data = p.read_bytes()
        w = _css_width(root, fig.canvas.w if fig.canvas else None)
        png.write_bytes(_png_with_dpi(svg_to_png(data, width=round(w * READ_DPI / 96) if w else None,
                                                 background="white"), READ_DPI))
        read = vec(str(png))
        ev = observe(read, Evidence(file=str(p), reader="svg", exact=False))
        _glyph_votes(ev, png, read)
    for family in svg_fonts(root):
        ev.add("font.family", family)
    return ev


def _css_width(root: ET.Element, canvas_w: float | None) -> float | None:
    """The SVG's width in CSS px (``width="304pt"`` is 405 px): sizes are learned in the px figures use."""
    raw = root.get("width")
    if raw is None or raw.strip().endswith("%"):
        return canvas_w
    return length(raw, canvas_w or 0.0) or canvas_w


def learn_from_files(paths: list[str | Path], name: str, *, vectorizer: Vectorizer | None = None,
                     progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """A style learned from figure files; unreadable ones are named in ``unreadable`` and skipped."""
    if not paths:
        raise InputError("no figures given: name the figures to learn a style from (PNG, JPG, SVG or PDF)")
    if len(paths) > MAX_FIGURES:
        raise InputError(f"{len(paths)} figures given; a style is learned from at most {MAX_FIGURES}")
    evidence: list[Evidence] = []
    unreadable: list[dict[str, str]] = []
    for path in paths:
        try:
            evidence.append(read_evidence(path, vectorizer))
            if progress:
                progress(f"read {path}")
        except CrafterError as e:
            unreadable.append({"file": str(path), "reason": e.message})
            if progress:
                progress(f"skipped {path}: {e.message}")
        except Exception as e:  # a reader's bug must not stop the rest: name the file, go on
            unreadable.append({"file": str(path), "reason": f"internal error: {type(e).__name__}: {e}"})
            if progress:
                progress(f"skipped {path}: internal error: {type(e).__name__}: {e}")
    if not evidence:
        why = "; ".join(f"{u['file']}: {u['reason']}" for u in unreadable)
        raise InputError(f"none of the {len(paths)} figures could be read ({why})")
    return learn_style(evidence, name, unreadable=unreadable)


def valid_name(name: str) -> str:
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9 ._-]{0,79}", name):
        raise InputError(f"'{name}' is not a style name (letters, digits, space, '.', '_' or '-'; up to 80)")
    return name
