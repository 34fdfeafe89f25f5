"""The format registry: one writer and one reader per file suffix.

Every format Crafter writes or reads is registered here by the module that implements it
(:mod:`crafter.formats` wires them all), so the CLI, the app and the pipeline pick a
format by a file's name alone::

    from crafter.formats import register_exporter
    register_exporter(".drawio", lambda fig, opts: drawio_xml(fig).encode(), description="draw.io diagram")

A writer takes a laid-out :class:`Figure` (unless registered with ``needs_layout=False``)
and :class:`ExportOptions`, and returns the file's bytes; :func:`export_figure` writes them
atomically. A reader takes a path and returns a :class:`Figure`; :func:`load_figure` checks
the file first (present, not absurdly large).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path as FsPath
from typing import Callable

from crafter.errors import InputError, RenderError
from crafter.formats.files import write_bytes_atomic
from crafter.render import EMPTY_FIGURE, ensure_layout
from crafter.spec.model import Figure

MAX_FIGURE_FILE_BYTES = 50 * 1024 * 1024  # a figure file larger than this is not a figure
MIN_DPI, MAX_DPI = 10, 2400


@dataclass(frozen=True)
class ExportOptions:
    dpi: int = 300  # raster resolution; 96 dpi is 1 px per SVG user unit
    path: FsPath | None = None  # the file being written (exporters that write side files, e.g. TikZ images)


ExportFn = Callable[[Figure, ExportOptions], bytes]
ImportFn = Callable[[FsPath], Figure]


@dataclass(frozen=True)
class Exporter:
    suffix: str  # lower case, with the dot; may have several parts (".vl.json")
    write: ExportFn
    needs_layout: bool = True
    description: str = ""


@dataclass(frozen=True)
class Importer:
    suffix: str
    read: ImportFn
    description: str = ""
    max_bytes: int = MAX_FIGURE_FILE_BYTES


_EXPORTERS: dict[str, Exporter] = {}
_IMPORTERS: dict[str, Importer] = {}


def _normal(suffix: str) -> str:
    suffix = suffix.lower()
    return suffix if suffix.startswith(".") else "." + suffix


def register_exporter(suffix: str, fn: ExportFn, *, needs_layout: bool = True, description: str = "") -> None:
    """Add (or replace) the writer for files ending in ``suffix``."""
    suffix = _normal(suffix)
    _EXPORTERS[suffix] = Exporter(suffix, fn, needs_layout, description)


def register_importer(suffix: str, fn: ImportFn, *, description: str = "",
                      max_bytes: int = MAX_FIGURE_FILE_BYTES) -> None:
    """Add (or replace) the reader for files ending in ``suffix``."""
    suffix = _normal(suffix)
    _IMPORTERS[suffix] = Importer(suffix, fn, description, max_bytes)


def supported_suffixes() -> list[str]:
    """Every suffix a figure can be written to."""
    return sorted(_EXPORTERS)


def readable_suffixes() -> list[str]:
    """Every suffix a figure can be read from."""
    return sorted(_IMPORTERS)


def _longest_match(table: dict, path: str | FsPath) -> str | None:
    name = FsPath(path).name.lower()
    matches = [s for s in table if name.endswith(s) and len(name) > len(s)]
    return max(matches, key=len) if matches else None


def exporter_for(path: str | FsPath) -> Exporter:
    """The writer whose suffix is the longest match for ``path`` ('.vl.json' before '.json')."""
    suffix = _longest_match(_EXPORTERS, path)
    if suffix is None:
        shown = FsPath(path).suffix or "(none)"
        raise InputError(f"cannot export to '{shown}' files; supported: {', '.join(supported_suffixes())}",
                         file=str(path))
    return _EXPORTERS[suffix]


def importer_for(path: str | FsPath) -> Importer:
    """The reader for ``path``'s suffix."""
    suffix = _longest_match(_IMPORTERS, path)
    if suffix is None:
        shown = FsPath(path).suffix.lower()
        raise InputError(f"unknown figure file type '{shown}' (expected {', '.join(readable_suffixes())})",
                         file=str(path))
    return _IMPORTERS[suffix]


def export_figure(fig: Figure, path: str | FsPath, *, dpi: int = 300, relayout: bool = False) -> None:
    """Write ``fig`` to ``path`` in the format its suffix names (laid out first when needed)."""
    if not fig.components:
        raise RenderError(EMPTY_FIGURE)
    exporter = exporter_for(path)
    check_dpi(dpi)
    if exporter.needs_layout or relayout:
        fig = ensure_layout(fig, relayout=relayout)
    data = exporter.write(fig, ExportOptions(dpi=dpi, path=FsPath(path)))
    write_bytes_atomic(FsPath(path), data)


def load_figure(path: str | FsPath) -> Figure:
    """Load a figure from any readable file: .dsl, .json, a Crafter (or any) .svg, .drawio, …"""
    p = FsPath(path)
    if not p.exists():
        raise InputError("no such file", file=str(p))
    importer = importer_for(p)
    size = p.stat().st_size
    if size > importer.max_bytes:
        raise InputError(f"file is {size // 2**20} MB; figure files are limited to {importer.max_bytes // 2**20} MB",
                         file=str(p))
    return importer.read(p)


def check_dpi(dpi: int) -> None:
    if not (MIN_DPI <= dpi <= MAX_DPI):
        raise InputError(f"dpi must be between {MIN_DPI} and {MAX_DPI}, not {dpi}")
