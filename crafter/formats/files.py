"""Figure files as text (.dsl, .json) and the one way every format writes a file (atomically).

A chart may name a table file beside the figure (``data=results.csv``): reading a
.dsl or .json file resolves it against the figure's folder.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path as FsPath

from crafter.charts.data_refs import resolve_data_urls
from crafter.errors import InputError, SpecError
from crafter.spec.dsl import figure_from_text, print_dsl
from crafter.spec.model import Figure


def _read_umask() -> int:
    mask = os.umask(0)  # the only way to read it; done once at import, before any threads write files
    os.umask(mask)
    return mask


_UMASK = _read_umask()


def read_figure_text(path: FsPath) -> Figure:
    """A .json file as JSON, any other text file as DSL; table files it names are read in."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as e:
        raise InputError(f"not UTF-8 text (byte {e.start})", file=str(path)) from None
    fmt = "json" if path.suffix.lower() == ".json" else "dsl"
    return _resolve_table_files(figure_from_text(text, fmt=fmt, file=str(path)), path)


def _resolve_table_files(fig: Figure, path: FsPath) -> Figure:
    """Charts may name a table file beside the figure (data=results.csv): read it in now."""
    if not any(c.kind == "chart" and isinstance(c.spec.get("data"), dict) and "url" in c.spec["data"]
               for c in fig.components):
        return fig
    try:
        return resolve_data_urls(fig, path.parent)
    except SpecError as e:
        raise e.located(file=str(path)) from None


def save_figure(fig: Figure, path: str | FsPath) -> None:
    """Write a figure as .dsl or .json (every other format goes through :func:`crafter.formats.export_figure`)."""
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
