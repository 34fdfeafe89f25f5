"""How a FigureSpec lives inside a Crafter SVG, and reading it back.

Every SVG Crafter writes carries its figure as JSON text in
``<metadata><crafter:figure xmlns:crafter="https://crafter.dev/ns" format="json">…``.
The JSON is XML-escaped element text (not CDATA, which would break on a label
containing ``]]>``), so any label survives, and :func:`load_svg` restores the exact
figure: ``load_svg(figure_to_svg(fig)) == fig`` for a laid-out ``fig``.

SVG is parsed with defusedxml: no entity expansion, no external references.
:func:`read_embedded_figure` is the boundary for importers of foreign SVG: it returns
``None`` when the document carries no Crafter figure.
"""

from __future__ import annotations

import json
from pathlib import Path as FsPath
from typing import Any

from defusedxml import ElementTree as SafeET
from defusedxml.common import DefusedXmlException

from crafter.base.markup import CRAFTER_NS, SVG_NS
from crafter.errors import InputError, SpecError
from crafter.spec.model import Figure, figure_from_data

MAX_SVG_BYTES = 200 * 1024 * 1024  # the most SVG any reader takes in (Crafter's own or a foreign one)


def read_embedded_figure(root: Any, *, file: str | None = None) -> Figure | None:
    """The figure embedded in a parsed SVG (an ElementTree element), or None if it has none.

    Raises :class:`SpecError` when the embedded figure is there but damaged.
    """
    el = root.find(f"{{{SVG_NS}}}metadata/{{{CRAFTER_NS}}}figure")
    if el is None:
        el = root.find(f".//{{{CRAFTER_NS}}}figure")  # an editor may have moved <metadata>
    if el is None:
        return None
    text = el.text or ""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise SpecError(f"the embedded Crafter figure is not valid JSON ({e.msg} at character {e.pos})",
                        file=file) from None
    return figure_from_data(data, file=file)


def read_svg_source(source: str | bytes | FsPath) -> tuple[bytes, str | None]:
    """The bytes of an SVG given as a path, or as SVG text/bytes, and its file name (None for text).

    Refuses a file or text over :data:`MAX_SVG_BYTES` before reading it.
    """
    if isinstance(source, FsPath) or (isinstance(source, str) and not source.lstrip().startswith("<")):
        p = FsPath(source)
        file = str(p)
        if not p.exists():
            raise InputError("no such file", file=file)
        if p.stat().st_size > MAX_SVG_BYTES:
            raise InputError(f"SVG is {p.stat().st_size // 2**20} MB; the limit is {MAX_SVG_BYTES // 2**20} MB",
                             file=file)
        return p.read_bytes(), file
    data = source.encode("utf-8") if isinstance(source, str) else source
    if len(data) > MAX_SVG_BYTES:
        raise InputError(f"SVG is {len(data) // 2**20} MB; the limit is {MAX_SVG_BYTES // 2**20} MB")
    return data, None


def parse_svg(source: str | bytes | FsPath) -> tuple[Any, str | None]:
    """Parse SVG from a path, or from SVG text/bytes; returns (root element, file name or None)."""
    data, file = read_svg_source(source)
    try:
        root = SafeET.fromstring(data)
    except DefusedXmlException as e:
        raise InputError(f"refusing unsafe XML ({type(e).__name__}: DTDs and entities are not allowed)",
                         file=file) from None
    except Exception as e:  # ParseError and friends: not XML at all
        raise InputError(f"not an SVG file: {e}", file=file) from None
    if root.tag not in (f"{{{SVG_NS}}}svg", "svg"):
        raise InputError(f"not an SVG file: the root element is <{root.tag.split('}')[-1]}>, not <svg>", file=file)
    return root, file


def load_svg(path_or_text: str | bytes | FsPath) -> Figure:
    """The figure embedded in a Crafter SVG (a path, or the SVG text itself).

    A well-formed SVG that Crafter did not write raises :class:`InputError` saying so.
    """
    root, file = parse_svg(path_or_text)
    fig = read_embedded_figure(root, file=file)
    if fig is None:
        raise InputError(
            "this SVG carries no Crafter figure (no <crafter:figure> in its <metadata>); "
            "only SVGs written by Crafter can be opened as figures", file=file)
    return fig
