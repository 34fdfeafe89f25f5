"""Exports to the tools researchers finish figures in, and the way back.

Importing this package registers its formats with ``crafter.render.export``, so
``crafter render fig.dsl -o fig.tex`` (and the app's export menu) can write them:

| suffix      | what                                                             |
|-------------|------------------------------------------------------------------|
| ``.tex``    | standalone LaTeX (TikZ + pgfplots), compiles with pdflatex       |
| ``.tikz``   | the bare ``tikzpicture``, to ``\\input`` into a paper             |
| ``.drawio`` | diagrams.net mxGraph XML (uncompressed), imports back            |
| ``.vl.json``| the figure's chart(s) as Vega-Lite (several: one ``vconcat``)     |

And back: :func:`import_svg` (a Crafter SVG edited in Inkscape, merged into its figure;
a foreign SVG, sanitised) and :func:`drawio_to_figure`.
"""

from __future__ import annotations

import base64
import re
from pathlib import Path as FsPath

from crafter.export.drawio import drawio_to_figure, figure_to_drawio
from crafter.export.svg_import import ImportReport, import_svg, sanitize_svg
from crafter.export.tikz import TikzOptions, figure_to_latex, figure_to_tikz
from crafter.export.vegalite import chart_to_vegalite, figure_to_vegalite, vegalite_json
from crafter.spec.model import Figure, Image

__all__ = [
    "ImportReport", "TikzOptions", "chart_to_vegalite", "drawio_to_figure", "figure_to_drawio", "figure_to_latex",
    "figure_to_tikz", "figure_to_vegalite", "import_svg", "load_drawio", "sanitize_svg", "write_side_images",
    "write_tikz",
]


def load_drawio(path: str | FsPath) -> Figure:
    """A ``.drawio`` file as a FigureSpec."""
    from crafter.errors import InputError

    p = FsPath(path)
    if not p.exists():
        raise InputError("no such file", file=str(p))
    return drawio_to_figure(p.read_bytes(), file=str(p))


def write_side_images(fig: Figure, path: FsPath) -> dict[str, str]:
    """Write the figure's PNG/JPEG images next to ``path`` as ``<stem>-<id>.<ext>``; id → file name."""
    from crafter.spec.io import write_bytes_atomic

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


def _side_images(fig: Figure, opts: object) -> TikzOptions:
    """Images as side files when the exporter is told where the file goes (ExportOptions.path)."""
    path = getattr(opts, "path", None)
    return TikzOptions(image_files=write_side_images(fig, FsPath(path)) if path else {})


def write_tikz(fig: Figure, path: str | FsPath, *, standalone: bool | None = None) -> list[FsPath]:
    """Write ``fig`` as LaTeX at ``path`` (standalone for .tex, the bare picture otherwise).

    Raster images become side files ``<stem>-<id>.<ext>`` next to it, since LaTeX cannot
    read data URIs. Returns every file written.
    """
    from crafter.spec.io import write_text_atomic

    p = FsPath(path)
    standalone = p.suffix.lower() == ".tex" if standalone is None else standalone
    files = write_side_images(fig, p)
    opts = TikzOptions(image_files=files)
    write_text_atomic(p, figure_to_latex(fig, opts) if standalone else figure_to_tikz(fig, opts))
    return [p] + [p.with_name(f) for f in files.values()]


def _register() -> None:
    from crafter.render.export import ExportOptions, register_exporter

    def tex(fig: Figure, opts: ExportOptions) -> bytes:
        return figure_to_latex(fig, _side_images(fig, opts)).encode("utf-8")

    def tikz(fig: Figure, opts: ExportOptions) -> bytes:
        return figure_to_tikz(fig, _side_images(fig, opts)).encode("utf-8")

    def drawio(fig: Figure, opts: ExportOptions) -> bytes:
        return figure_to_drawio(fig).encode("utf-8")

    def vegalite(fig: Figure, opts: ExportOptions) -> bytes:
        return vegalite_json(fig).encode("utf-8")

    register_exporter(".tex", tex, description="standalone LaTeX: TikZ and pgfplots, compiles with pdflatex")
    register_exporter(".tikz", tikz, description="the tikzpicture alone, to \\input into a LaTeX document")
    register_exporter(".drawio", drawio, description="diagrams.net (draw.io) diagram")
    register_exporter(".vl.json", vegalite, needs_layout=False,
                      description="the figure's chart(s) as a Vega-Lite spec")


_register()
