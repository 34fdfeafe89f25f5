"""SVG coming back: Crafter SVGs edited elsewhere (merge-back), and foreign SVGs (sanitised import).

:func:`import_svg` reads any SVG and returns a FigureSpec:

1. **A Crafter SVG** carries its figure in ``<metadata>``; what a person changed in
   Inkscape or Illustrator is merged into it (:mod:`crafter.formats.svg_import.merge_back`).
   An unedited file gives back exactly the embedded figure.
2. **Any other SVG** is imported as ``path``, ``text`` and ``image`` components in figure
   coordinates (:mod:`crafter.formats.svg_import.foreign`).

Either way the document is parsed safely and sanitised first
(:mod:`crafter.formats.sanitize`): scripts, event handlers, ``foreignObject``, animations
and every external reference go, and everything removed is listed in the
:class:`~crafter.formats.sanitize.ImportReport`. Both importers read elements through
:mod:`crafter.formats.svg_import.elements` (styles, lengths, colours, shapes, text lines).
"""

from __future__ import annotations

from pathlib import Path as FsPath

from crafter.errors import InputError
from crafter.formats.sanitize import ImportReport, local_name, safe_xml_root, sanitize_tree
from crafter.formats.svg import read_embedded_figure, read_svg_source
from crafter.formats.svg_import.foreign import foreign_figure
from crafter.formats.svg_import.merge_back import merge_svg_edits
from crafter.spec.model import Figure


def import_svg(source: str | bytes | FsPath, *, report: ImportReport | None = None) -> Figure:
    """Any SVG (a path, or the SVG text) → FigureSpec; see the module docstring."""
    report = report if report is not None else ImportReport()
    data, file = read_svg_source(source)
    root = safe_xml_root(data, file=file, what="SVG", report=report)
    if local_name(root.tag) != "svg":
        raise InputError(f"not an SVG file: the root element is <{local_name(root.tag)}>, not <svg>", file=file)
    fig = read_embedded_figure(root, file=file)
    sanitize_tree(root, report)
    if fig is not None:
        report.crafter = True
        return merge_svg_edits(root, fig, report=report, file=file)
    return foreign_figure(root, report=report, file=file)
