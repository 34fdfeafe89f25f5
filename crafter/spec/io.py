"""Reading and writing FigureSpecs as files: .dsl, .json, and Crafter .svg (IR in <metadata>).

The suffix picks the form. SVG loading is delegated to ``crafter.render.svg_io`` so the
knowledge of how the IR sits inside an SVG lives in one place.
"""

from __future__ import annotations

import json
from pathlib import Path as FsPath

from crafter.errors import InputError, SpecError
from crafter.spec.dsl import parse_dsl, print_dsl
from crafter.spec.model import Figure, figure_from_data

MAX_SPEC_BYTES = 50 * 1024 * 1024  # a figure spec larger than this is not a figure


def _read_umask() -> int:
    import os

    mask = os.umask(0)  # the only way to read it; done once at import, before any threads write files
    os.umask(mask)
    return mask


_UMASK = _read_umask()


def figure_from_text(text: str, *, fmt: str, file: str | None = None) -> Figure:
    """Parse figure text in ``fmt`` ('dsl' or 'json')."""
    if fmt == "json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise SpecError(f"invalid JSON: {e.msg}", line=e.lineno, column=e.colno, file=file) from None
        return figure_from_data(data, file=file)
    if fmt == "dsl":
        return parse_dsl(text, file=file)
    raise InputError(f"unknown figure format '{fmt}' (expected dsl or json)", file=file)


def load_figure(path: str | FsPath) -> Figure:
    """Load a figure from a .dsl, .json or Crafter .svg file."""
    p = FsPath(path)
    if not p.exists():
        raise InputError("no such file", file=str(p))
    if p.stat().st_size > MAX_SPEC_BYTES:
        raise InputError(f"file is {p.stat().st_size // 2**20} MB; figure specs are limited to "
                         f"{MAX_SPEC_BYTES // 2**20} MB", file=str(p))
    suffix = p.suffix.lower()
    if suffix == ".svg":
        # the embedded figure, with edits made in other editors merged in; a foreign SVG sanitised
        from crafter.export.svg_import import import_svg

        return import_svg(p)
    try:
        text = p.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as e:
        raise InputError(f"not UTF-8 text (byte {e.start})", file=str(p)) from None
    if suffix == ".json":
        fig = figure_from_text(text, fmt="json", file=str(p))
    elif suffix in (".dsl", ".txt", ".crafter"):
        fig = figure_from_text(text, fmt="dsl", file=str(p))
    else:
        raise InputError(f"unknown figure file type '{suffix}' (expected .dsl, .json or .svg)", file=str(p))
    return _resolve_table_files(fig, p)


def _resolve_table_files(fig: Figure, path: FsPath) -> Figure:
    """Charts may name a table file beside the figure (data=results.csv): read it in now."""
    if not any(c.kind == "chart" and isinstance(c.spec.get("data"), dict) and "url" in c.spec["data"]
               for c in fig.components):
        return fig
    from crafter.charts.data_refs import resolve_data_urls

    try:
        return resolve_data_urls(fig, path.parent)
    except SpecError as e:
        raise e.located(file=str(path)) from None


def save_figure(fig: Figure, path: str | FsPath) -> None:
    """Write a figure as .dsl or .json (other formats go through crafter.render.export)."""
    p = FsPath(path)
    suffix = p.suffix.lower()
    if suffix == ".json":
        text = fig.to_json()
    elif suffix == ".dsl":
        text = print_dsl(fig)
    else:
        raise InputError(f"save_figure writes .dsl or .json, not '{suffix}'", file=str(p))
    write_text_atomic(p, text)


def write_text_atomic(path: FsPath, text: str) -> None:
    """Write via a temporary file and rename, so a kill never leaves half a file."""
    write_bytes_atomic(path, text.encode("utf-8"))


def write_bytes_atomic(path: FsPath, data: bytes) -> None:
    import os
    import tempfile

    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        # mkstemp makes the file 0600; give it the mode a plain open() would (0666 less the umask)
        os.chmod(tmp, 0o666 & ~_UMASK)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
