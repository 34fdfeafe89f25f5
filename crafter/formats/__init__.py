"""Every file format a figure is written to or read from, chosen by the file's suffix.

Importing this package registers each format with :mod:`crafter.formats.registry`, so
``crafter render fig.dsl -o fig.tex``, :func:`load_figure` and the app's Export and Open tabs
see them all:

| suffix      | write | read | what                                                        |
|-------------|:-----:|:----:|-------------------------------------------------------------|
| ``.svg``    |   ✓   |  ✓   | editable SVG (FigureSpec in ``<metadata>``); edits merge back, foreign SVG sanitised |
| ``.png``    |   ✓   |      | raster at a dpi, through cairosvg                           |
| ``.pdf``    |   ✓   |      | vector PDF, fonts embedded                                  |
| ``.dsl``    |   ✓   |  ✓   | the FigureSpec DSL                                          |
| ``.json``   |   ✓   |  ✓   | the FigureSpec JSON                                         |
| ``.tex``    |   ✓   |      | standalone LaTeX (TikZ + pgfplots), compiles with pdflatex  |
| ``.tikz``   |   ✓   |      | the bare ``tikzpicture``, to ``\\input`` into a paper        |
| ``.drawio`` |   ✓   |  ✓   | diagrams.net mxGraph XML (uncompressed)                     |
| ``.vl.json``|   ✓   |      | the figure's chart(s) as Vega-Lite (several: one ``vconcat``) |
| ``.pptx``   |   ✓   |  ✓   | PowerPoint: native shapes, glued connectors, native charts    |
|             |       |      | with their data; edits merge back (``.panels.pptx``: a slide  |
|             |       |      | per panel)                                                    |
"""

from __future__ import annotations

import base64
import re
from pathlib import Path as FsPath

from crafter.errors import InputError
from crafter.formats.drawio.reader import drawio_to_figure
from crafter.formats.drawio.writer import figure_to_drawio
from crafter.formats.files import read_figure_text, save_figure, write_bytes_atomic, write_text_atomic
from crafter.formats.pptx.package import MAX_PPTX_BYTES
from crafter.formats.pptx.read import import_pptx
from crafter.formats.pptx.write import figure_to_pptx
from crafter.formats.raster import (
    figure_to_pdf_bytes,
    figure_to_png_bytes,
    pdf_of_laid_out,
    png_of_laid_out,
    svg_to_png,
)
from crafter.formats.registry import (
    ExportOptions,
    export_figure,
    exporter_for,
    load_figure,
    readable_suffixes,
    register_exporter,
    register_importer,
    supported_suffixes,
)
from crafter.formats.sanitize import ImportReport, sanitize_svg
from crafter.formats.svg import load_svg, read_embedded_figure
from crafter.formats.svg_import import import_svg
from crafter.formats.tikz import TikzOptions, figure_to_latex, figure_to_tikz
from crafter.formats.vegalite import figure_to_vegalite, to_vegalite, vegalite_json
from crafter.render import draw_svg
from crafter.spec.dsl import print_dsl
from crafter.spec.model import Figure, Image

__all__ = [
    "ExportOptions", "ImportReport", "TikzOptions", "draw_svg", "drawio_to_figure", "export_figure", "exporter_for",
    "figure_to_drawio", "figure_to_latex", "figure_to_pptx", "import_pptx", "figure_to_pdf_bytes", "figure_to_png_bytes",
    "figure_to_tikz",
    "figure_to_vegalite", "import_svg", "load_drawio", "load_figure", "load_svg", "readable_suffixes",
    "read_embedded_figure", "register_exporter", "register_importer", "sanitize_svg", "save_figure",
    "supported_suffixes", "svg_to_png", "to_vegalite", "vegalite_json", "write_side_images", "write_tikz",
]


def load_drawio(path: str | FsPath) -> Figure:
    """A ``.drawio`` file as a FigureSpec."""
    p = FsPath(path)
    if not p.exists():
        raise InputError("no such file", file=str(p))
    return drawio_to_figure(p.read_bytes(), file=str(p))


def write_side_images(fig: Figure, path: FsPath) -> dict[str, str]:
    """Write the figure's PNG/JPEG images next to ``path`` as ``<stem>-<id>.<ext>``; id → file name."""
    files: dict[str, str] = {}
    for im in fig.of_kind("image"):
        assert isinstance(im, Image)
        m = re.match(r"data:image/(png|jpeg|webp|gif);base64,(.*)$", im.href, re.S)
        if m is None or m.group(1) not in ("png", "jpeg"):
            continue  # pdflatex reads PNG and JPEG only; others stay placeholders
        side = path.with_name(f"{path.stem}-{im.id}.{'jpg' if m.group(1) == 'jpeg' else 'png'}")
        write_bytes_atomic(side, base64.b64decode("".join(m.group(2).split())))
        files[im.id] = side.name
    return files


def _side_images(fig: Figure, opts: ExportOptions) -> TikzOptions:
    """Images as side files when the exporter is told where the file goes (ExportOptions.path)."""
    return TikzOptions(image_files=write_side_images(fig, FsPath(opts.path)) if opts.path else {})


def write_tikz(fig: Figure, path: str | FsPath, *, standalone: bool | None = None) -> list[FsPath]:
    """Write ``fig`` as LaTeX at ``path`` (standalone for .tex, the bare picture otherwise).

    Raster images become side files ``<stem>-<id>.<ext>`` next to it, since LaTeX cannot
    read data URIs. Returns every file written.
    """
    p = FsPath(path)
    standalone = p.suffix.lower() == ".tex" if standalone is None else standalone
    files = write_side_images(fig, p)
    opts = TikzOptions(image_files=files)
    write_text_atomic(p, figure_to_latex(fig, opts) if standalone else figure_to_tikz(fig, opts))
    return [p] + [p.with_name(f) for f in files.values()]


def _register() -> None:
    register_exporter(".svg", lambda fig, opts: draw_svg(fig).encode("utf-8"),
                      description="editable SVG with the figure in <metadata>")
    register_exporter(".png", lambda fig, opts: png_of_laid_out(fig, opts.dpi), description="raster image at --dpi")
    register_exporter(".pdf", lambda fig, opts: pdf_of_laid_out(fig), description="vector PDF, fonts embedded")
    register_exporter(".json", lambda fig, opts: fig.to_json().encode("utf-8"), needs_layout=False,
                      description="FigureSpec JSON")  # the same text as save_figure
    register_exporter(".dsl", lambda fig, opts: print_dsl(fig).encode("utf-8"), needs_layout=False,
                      description="FigureSpec DSL")
    register_exporter(".tex", lambda fig, opts: figure_to_latex(fig, _side_images(fig, opts)).encode("utf-8"),
                      description="standalone LaTeX: TikZ and pgfplots, compiles with pdflatex")
    register_exporter(".tikz", lambda fig, opts: figure_to_tikz(fig, _side_images(fig, opts)).encode("utf-8"),
                      description="the tikzpicture alone, to \\input into a LaTeX document")
    register_exporter(".drawio", lambda fig, opts: figure_to_drawio(fig).encode("utf-8"),
                      description="diagrams.net (draw.io) diagram")
    register_exporter(".vl.json", lambda fig, opts: vegalite_json(fig).encode("utf-8"), needs_layout=False,
                      description="the figure's chart(s) as Vega-Lite spec")
    register_exporter(".pptx", lambda fig, opts: figure_to_pptx(fig),
                      description="PowerPoint: native shapes, glued connectors and charts with their data; "
                      "edits made in PowerPoint import back")
    register_exporter(".panels.pptx", lambda fig, opts: figure_to_pptx(fig, slides="panels"),
                      description="PowerPoint, one slide per panel")

    # the embedded figure, with edits made in other editors merged in; a foreign SVG sanitised
    register_importer(".svg", import_svg, description="a Crafter SVG (edits merged back) or any SVG (sanitised)")
    for suffix in (".dsl", ".txt", ".crafter"):
        register_importer(suffix, read_figure_text, description="FigureSpec DSL")
    register_importer(".json", read_figure_text, description="FigureSpec JSON")
    register_importer(".drawio", load_drawio, description="diagrams.net (draw.io) diagram")
    register_importer(".pptx", import_pptx, description="a Crafter PowerPoint file (edits merged back) or any "
                      "PowerPoint slide (best-effort)", max_bytes=MAX_PPTX_BYTES)


_register()
