"""PowerPoint files back into FigureSpecs.

:func:`import_pptx` reads any ``.pptx``:

1. **A Crafter PPTX** carries its FigureSpec (a custom XML part). What was changed in
   PowerPoint (or by any program that edits PPTX: python-pptx, LibreOffice Impress) is merged
   into it by component id (:mod:`crafter.formats.pptx.merge`): moved and resized shapes,
   renamed labels, recolouring, deleted and added shapes and connectors, chart data edited.
2. **Any other PPTX** is imported best-effort (:mod:`crafter.formats.pptx.convert`): the
   first slide's shapes become nodes, connectors edges, text boxes text, pictures images,
   charts chart components; its title placeholder the figure's title.

Untrusted files are opened with the checks of :func:`crafter.formats.pptx.package.open_pptx`
(not a zip, zip bombs, DOCTYPE/entity declarations: an :class:`InputError` naming the file
and part); a slide of more than :data:`crafter.formats.pptx.drawn.MAX_SHAPES` shapes is
refused; a linked (external) picture is reported and never fetched. What the import did is
listed in the :class:`ImportReport`.
"""

from __future__ import annotations

from pathlib import Path as FsPath
from typing import Any

from crafter.errors import InputError, SpecError
from crafter.formats.pptx.convert import NewComponents
from crafter.formats.pptx.drawn import read_slides
from crafter.formats.pptx.merge import merge_pptx_edits
from crafter.formats.pptx.package import MAX_PPTX_BYTES, SlideFrame, open_pptx, read_spec_part
from crafter.formats.sanitize import ImportReport
from crafter.spec.model import Figure, figure_from_data

__all__ = ["ImportReport", "import_pptx", "pptx_to_figure"]


def import_pptx(source: str | bytes | FsPath, *, report: ImportReport | None = None) -> Figure:
    """A ``.pptx`` (a path or its bytes) as a FigureSpec; see the module docstring."""
    if isinstance(source, bytes):
        return pptx_to_figure(source, report=report)
    p = FsPath(source)
    if not p.exists():
        raise InputError("no such file", file=str(p))
    if p.stat().st_size > MAX_PPTX_BYTES:
        raise InputError(f"the file is {p.stat().st_size // 2**20} MB; PowerPoint files are limited to "
                         f"{MAX_PPTX_BYTES // 2**20} MB", file=str(p))
    return pptx_to_figure(p.read_bytes(), file=str(p), report=report)


def pptx_to_figure(data: bytes, *, file: str | None = None, report: ImportReport | None = None) -> Figure:
    """PPTX bytes as a FigureSpec: a Crafter PPTX's edits merged, any other imported best-effort."""
    report = report if report is not None else ImportReport()
    prs = open_pptx(data, file=file)
    payload = read_spec_part(prs, file=file)
    if payload is not None:
        try:
            fig = Figure.from_dict(payload["figure"], file=file)
        except SpecError as e:
            report.skipped.append(f"the stored FigureSpec is invalid ({e}); the slides were imported instead")
        else:
            report.crafter = True
            return merge_pptx_edits(fig, payload, prs, report=report, file=file)
    return foreign_figure(prs, report=report, file=file)


def foreign_figure(prs: Any, *, report: ImportReport, file: str | None = None) -> Figure:
    """The first slide of a PPTX Crafter did not write, as new components."""
    n_slides = len(prs.slides)
    if n_slides == 0:
        raise InputError("the presentation has no slides", file=file)
    w, h = (prs.slide_width or 9_144_000) / 9525, (prs.slide_height or 6_858_000) / 9525
    frame = SlideFrame(0.0, 0.0, w, h)
    drawn = [d for d in read_slides(prs, [frame], set(), file=file, report=report) if d.slide == 0]
    if n_slides > 1:
        report.skipped.append(f"slides 2–{n_slides}: only the first slide of a presentation is imported")
    title = None
    shapes = []
    for d in drawn:
        if d.placeholder in ("title", "ctrTitle") and title is None and d.text:
            title = " ".join(d.text.split())
        elif d.placeholder is not None and d.paragraphs is None:
            continue  # an empty placeholder ("Click to add text") draws nothing
        else:
            shapes.append(d)
    maker = NewComponents(set(), report)
    maker.add(shapes, {}, {})
    if not maker.comps:
        raise InputError("the first slide holds nothing a figure can be made of (no shapes, text, pictures or "
                         "charts)", file=file)
    data: dict[str, Any] = {"components": maker.comps}
    if title:
        data["title"] = title
    return figure_from_data(data, file=file)
