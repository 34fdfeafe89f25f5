"""The one place the app calls into the rest of Crafter.

The app (``app.py``) never imports the pipeline, renderer, exporters, table readers or
CraftEditor directly; it calls these functions. Two reasons:

* every part the app needs is named here once, with the call the app relies on, so a
  change in one of them is a change in one file;
* a part that is missing or broken in this installation becomes a
  :class:`FeatureUnavailable` with a sentence for the page, never a traceback, and the
  rest of the app keeps working.

No pipeline logic lives here: each function is a thin adapter.
"""

from __future__ import annotations

import io
import os
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from crafter.errors import CrafterError, InputError
from crafter.spec import Figure

# --------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------


class FeatureUnavailable(CrafterError):
    """A part of Crafter the app needs is not installed (or failed to import)."""


def _unavailable(what: str, e: ImportError) -> FeatureUnavailable:
    missing = e.name or str(e)
    return FeatureUnavailable(f"{what} is not available in this installation ({missing} could not be loaded)")


def user_message(e: BaseException) -> str:
    """One readable line for any error: ours as they are, others with their type."""
    if isinstance(e, CrafterError):
        return str(e)
    text = str(e).strip().splitlines()[0] if str(e).strip() else ""
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


# --------------------------------------------------------------------------------------
# Rendering and export
# --------------------------------------------------------------------------------------


def render(fig: Figure, *, relayout: bool = False) -> tuple[Figure, str]:
    """(laid-out figure, SVG text). Layout runs only when geometry is missing or asked for."""
    try:
        from crafter.render import draw_svg, ensure_layout
    except ImportError as e:
        raise _unavailable("The renderer", e) from None
    laid = ensure_layout(fig, relayout=relayout)
    return laid, draw_svg(laid)


@dataclass(frozen=True)
class ExportFormat:
    suffix: str  # ".pdf", ".vl.json"...
    label: str  # button text
    description: str
    mime: str
    raster: bool = False  # takes a dpi


_MIME = {
    ".svg": "image/svg+xml", ".png": "image/png", ".pdf": "application/pdf", ".json": "application/json",
    ".dsl": "text/plain", ".tex": "application/x-tex", ".drawio": "application/xml",
    ".vl.json": "application/json", ".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
}
_LABEL = {
    ".svg": "SVG (editable)", ".png": "PNG", ".pdf": "PDF", ".json": "FigureSpec JSON", ".dsl": "FigureSpec DSL",
    ".tex": "LaTeX / TikZ", ".drawio": "draw.io", ".vl.json": "Vega-Lite",
}
_DESCRIPTION = {
    ".svg": "editable vector figure; opens in Inkscape or Illustrator, and in Crafter again",
    ".pdf": "vector PDF with fonts embedded, for LaTeX and Word",
    ".png": "raster image",
    ".dsl": "the figure as editable text (Crafter's DSL)",
    ".json": "the figure as FigureSpec JSON",
}
# What a first-time user looks for first; the rest follow in the registry's order.
_FIRST = (".svg", ".pdf", ".png")


def export_formats() -> list[ExportFormat]:
    """Every format the exporter registry offers, SVG/PDF/PNG first."""
    try:
        from crafter.render.export import exporter_for, supported_suffixes
    except ImportError as e:
        raise _unavailable("Export", e) from None
    suffixes = supported_suffixes()
    ordered = [s for s in _FIRST if s in suffixes] + [s for s in suffixes if s not in _FIRST]
    out = []
    for s in ordered:
        exp = exporter_for("figure" + s)
        out.append(ExportFormat(
            suffix=s, label=_LABEL.get(s, s.lstrip(".").upper()), description=_DESCRIPTION.get(s) or exp.description or "",
            mime=_MIME.get(s, "application/octet-stream"), raster=s == ".png"))
    return out


def export_bytes(fig: Figure, suffix: str, *, dpi: int = 300) -> bytes:
    """The figure as a file of format ``suffix``, in memory."""
    try:
        from crafter.render import ensure_layout
        from crafter.render.export import ExportOptions, exporter_for
    except ImportError as e:
        raise _unavailable("Export", e) from None
    exporter = exporter_for("figure" + suffix)
    if exporter.needs_layout:
        fig = ensure_layout(fig)
    return exporter.write(fig, ExportOptions(dpi=dpi))


def file_stem(title: str | None, default: str = "figure") -> str:
    """A safe file name from a figure title: 'Method overview (v2)' -> 'method-overview-v2'."""
    stem = re.sub(r"[^\w]+", "-", (title or "").strip().lower(), flags=re.UNICODE).strip("-_")
    return stem[:80] or default


# --------------------------------------------------------------------------------------
# Opening figures
# --------------------------------------------------------------------------------------


def open_figure_bytes(data: bytes, filename: str) -> Figure:
    """A figure from an uploaded Crafter SVG, DSL or JSON file."""
    from crafter.spec import figure_from_text

    suffix = Path(filename).suffix.lower()
    if suffix == ".svg":
        try:
            from crafter.render.svg_io import load_svg
        except ImportError as e:
            raise _unavailable("Opening SVG files", e) from None
        try:
            return load_svg(data)
        except CrafterError as e:
            if e.file is None:
                e.file = filename
            raise
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise InputError(f"not UTF-8 text (byte {e.start}); save it as UTF-8", file=filename) from None
    fmt = "json" if suffix == ".json" else "dsl"
    return figure_from_text(text, fmt=fmt, file=filename)


def figure_without_geometry(fig: Figure) -> Figure:
    """The figure without layout results (boxes, routes, canvas); pinned boxes are kept.

    What the DSL editor shows by default: the text people write, not coordinates.
    """
    data = fig.to_dict()
    data.pop("canvas", None)
    for c in data.get("components", []):
        if not c.get("pinned"):
            c.pop("box", None)
        for key in ("route", "label_box"):
            c.pop(key, None)
    return Figure.from_dict(data)


def has_geometry(fig: Figure) -> bool:
    return fig.canvas is not None or any(getattr(c, "box", None) is not None for c in fig.components)


# --------------------------------------------------------------------------------------
# Tables
# --------------------------------------------------------------------------------------


def read_table(data: bytes, filename: str) -> Any:
    """A typed :class:`crafter.data.Table` from an upload."""
    try:
        from crafter.data import read_table_bytes
    except ImportError as e:
        raise _unavailable("Reading tables", e) from None
    return read_table_bytes(data, filename)


def table_preview(table: Any, rows: int = 200) -> Any:
    """The first rows of a Table as a pandas DataFrame, for st.dataframe."""
    import pandas as pd

    return pd.DataFrame({c.name: c.values[:rows] for c in table.columns})


def table_summary(table: Any) -> str:
    types = ", ".join(f"{c.name} ({c.type})" for c in table.columns)
    return f"{table.n_rows} rows × {len(table.columns)} columns: {types}"


# --------------------------------------------------------------------------------------
# The pipeline
# --------------------------------------------------------------------------------------


@dataclass
class PipelineResult:
    """What the app keeps from a pipeline run (generate, edit, reopened run)."""

    figure: Figure
    svg: str
    issues: list[dict[str, Any]] = field(default_factory=list)
    report: dict[str, Any] = field(default_factory=dict)
    run_id: str | None = None


def _graph():
    try:
        import crafter.graph as graph
    except ImportError as e:
        raise _unavailable("The figure pipeline", e) from None
    return graph


def _as_result(res: Any) -> PipelineResult:
    """Adapt the pipeline's RunResult (an object or a dict) to what the app keeps."""
    get = (lambda k, d=None: res.get(k, d)) if isinstance(res, dict) else (lambda k, d=None: getattr(res, k, d))
    fig = get("figure")
    if isinstance(fig, dict):
        fig = Figure.from_dict(fig)
    if fig is None:
        raise CrafterError("the pipeline finished without a figure")
    svg = get("svg")
    if not svg:
        fig, svg = render(fig)
    report = get("report") or {}
    if not isinstance(report, dict):
        report = report.to_dict() if hasattr(report, "to_dict") else dict(vars(report))
    return PipelineResult(fig, svg, list(get("issues") or []), report, get("run_id") or report.get("run_id"))


def generate(brief: str, *, table: Any = None, image: bytes | None = None, backend: str = "craftlm",
             rounds: int = 3, theme: str | None = None, width_in: float | None = None,
             db_path: str | None = None, on_event: Callable[[Any], None] | None = None) -> PipelineResult:
    """Run the whole pipeline on a brief (plus an optional table and reference image)."""
    graph = _graph()
    res = graph.generate(brief, data=table, image=image, backend=backend, rounds=rounds,
                         db_path=db_path, on_event=on_event)
    result = _as_result(res)
    return _apply_look(result, theme=theme, width_in=width_in)


def _apply_look(result: PipelineResult, *, theme: str | None, width_in: float | None) -> PipelineResult:
    """Apply the user's theme and print width to a fresh figure (the pipeline may not take them)."""
    fig = result.figure
    updates = {}
    if theme and fig.theme != theme:
        updates["theme"] = theme
    if width_in and fig.width_in is None:
        updates["width_in"] = width_in
    if updates:
        data = fig.to_dict()
        data.update(updates)
        result.figure, result.svg = render(Figure.from_dict(data), relayout="theme" in updates)
    return result


def edit(fig: Figure, instruction: str, *, backend: str = "craftlm", rounds: int = 3,
         db_path: str | None = None, on_event: Callable[[Any], None] | None = None) -> PipelineResult:
    """Change the figure as the instruction says (local repair: other components stay)."""
    graph = _graph()
    res = graph.edit(fig, instruction, backend=backend, rounds=rounds, db_path=db_path, on_event=on_event)
    return _as_result(res)


def list_runs(db_path: str | None = None) -> list[dict[str, Any]]:
    """Past runs, newest first, as plain dicts (id, brief, status, started...)."""
    graph = _graph()
    runs = graph.list_runs(db_path) if db_path else graph.list_runs()
    out = []
    for r in runs:
        if not isinstance(r, dict):
            r = r.to_dict() if hasattr(r, "to_dict") else dict(vars(r))
        out.append(r)
    return out


def reopen_run(run_id: str, *, db_path: str | None = None) -> PipelineResult:
    """The latest figure of a past run (a finished run is not run again)."""
    graph = _graph()
    for name in ("load_run", "get_run", "run_result"):
        fn = getattr(graph, name, None)
        if fn is not None:
            return _as_result(fn(run_id, db_path=db_path) if db_path else fn(run_id))
    res = graph.resume(run_id, db_path=db_path) if db_path else graph.resume(run_id)
    return _as_result(res)


def default_db_path() -> str | None:
    """Where the run store lives (the pipeline's default), for the Settings tab."""
    env = os.environ.get("CRAFTER_DB")
    if env:
        return env
    try:
        graph = _graph()
    except FeatureUnavailable:
        return None
    for name in ("default_db_path", "DEFAULT_DB_PATH"):
        v = getattr(graph, name, None)
        if v is not None:
            return str(v() if callable(v) else v)
    return None


# --------------------------------------------------------------------------------------
# CraftEditor
# --------------------------------------------------------------------------------------


@dataclass
class Vectorized:
    name: str
    figure: Figure | None = None
    svg: str | None = None
    scores: dict[str, Any] = field(default_factory=dict)
    error: str | None = None


def vectorize(data: bytes, name: str) -> Vectorized:
    """One PNG/JPEG → FigureSpec + SVG + quality scores through CraftEditor."""
    try:
        import crafteditor
        convert = getattr(crafteditor, "convert_bytes", None) or getattr(crafteditor, "convert")
    except (ImportError, AttributeError) as e:
        err = e if isinstance(e, ImportError) else ImportError(name="crafteditor.convert")
        raise _unavailable("CraftEditor (Vectorize)", err) from None
    res = convert(data, name=name) if convert.__name__ == "convert_bytes" else convert(data)
    fig = getattr(res, "figure", None)
    if fig is None and isinstance(res, tuple):
        fig = res[0]
    report = getattr(res, "report", None) or (res[1] if isinstance(res, tuple) and len(res) > 1 else {})
    if not isinstance(report, dict):
        report = report.to_dict() if hasattr(report, "to_dict") else dict(vars(report))
    svg = getattr(res, "svg", None)
    if svg is None:
        fig, svg = render(fig)
    return Vectorized(name=name, figure=fig, svg=svg, scores=report)


def svgs_zip(items: list[tuple[str, str]]) -> bytes:
    """A zip of (file name, SVG text) pairs; names are made unique."""
    buf = io.BytesIO()
    seen: set[str] = set()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, svg in items:
            stem = file_stem(Path(name).stem, default="figure")
            candidate, i = f"{stem}.svg", 2
            while candidate in seen:
                candidate, i = f"{stem}-{i}.svg", i + 1
            seen.add(candidate)
            z.writestr(candidate, svg)
    return buf.getvalue()
