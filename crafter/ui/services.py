"""The one place the app calls into the rest of Crafter.

The app's tabs never import the pipeline, renderer, formats or table readers directly;
they call these functions, so every part the app needs is named here once, with the call
the app relies on, and a change in one of them is a change in one file. No pipeline
logic lives here: each function is a thin adapter.

CraftEditor is another package of the project, which the library never imports: the app
hands it in (:func:`use_vectorizers`). Until it does, vectorising raises
:class:`FeatureUnavailable`, a sentence for the page, and the rest of the app works.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from crafter import graph
from crafter import style as house_style
from crafter.data import read_table_bytes
from crafter.errors import CrafterError, InputError
from crafter.formats import (
    ExportOptions,
    ImportReport,
    drawio_to_figure,
    exporter_for,
    import_svg,
    raster,
    supported_suffixes,
)
from crafter.formats.files import write_bytes_atomic
from crafter.formats.pptx.read import pptx_to_figure
from crafter.graph.runs import default_db_path, resolve_db_path
from crafter.render import draw_svg, ensure_layout
from crafter.spec import Figure, figure_from_text

# --------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------


class FeatureUnavailable(CrafterError):
    """A part of Crafter the app needs was not handed in (CraftEditor, the vectoriser)."""


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
    ".vl.json": "application/json", ".tikz": "application/x-tex",
    ".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    ".panels.pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
}
_LABEL = {
    ".svg": "SVG (editable)", ".png": "PNG", ".pdf": "PDF", ".json": "FigureSpec JSON", ".dsl": "FigureSpec DSL",
    ".tex": "LaTeX (TikZ)", ".tikz": "TikZ picture", ".drawio": "draw.io", ".vl.json": "Vega-Lite",
    ".pptx": "PowerPoint", ".panels.pptx": "PowerPoint (a slide per panel)",
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
    suffixes = supported_suffixes()
    ordered = [s for s in _FIRST if s in suffixes] + [s for s in suffixes if s not in _FIRST]
    out = []
    for s in ordered:
        exp = exporter_for("figure" + s)
        out.append(ExportFormat(
            suffix=s, label=_LABEL.get(s, s.lstrip(".").upper()),
            description=_DESCRIPTION.get(s) or exp.description or "",
            mime=_MIME.get(s, "application/octet-stream"), raster=s == ".png"))
    return out


def export_bytes(fig: Figure, suffix: str, *, dpi: int = 300) -> bytes:
    """The figure as a file of format ``suffix``, in memory."""
    exporter = exporter_for("figure" + suffix)
    if exporter.needs_layout:
        fig = ensure_layout(fig)
    return exporter.write(fig, ExportOptions(dpi=dpi))


def svg_size(svg: str) -> tuple[float | None, float | None]:
    """The SVG's width and height in px, as its root element says (None where it does not)."""
    return raster.svg_size(svg)


def file_stem(title: str | None, default: str = "figure") -> str:
    """A safe file name from a figure title: 'Method overview (v2)' -> 'method-overview-v2'."""
    stem = re.sub(r"[^\w]+", "-", (title or "").strip().lower(), flags=re.UNICODE).strip("-_")
    return stem[:80] or default


# --------------------------------------------------------------------------------------
# Opening figures
# --------------------------------------------------------------------------------------


@dataclass
class Opened:
    figure: Figure
    notes: list[str] = field(default_factory=list)  # what an import merged, removed or skipped


def open_figure_bytes(data: bytes, filename: str) -> Opened:
    """A figure from an uploaded file: Crafter SVG or PPTX (edits made elsewhere merged back), any
    other SVG (sanitised, imported as paths and text) or PPTX (its shapes), draw.io, DSL or JSON."""
    suffix = Path(filename).suffix.lower()
    if suffix == ".pptx":
        return _open_pptx(data, filename)
    if suffix in (".svg", ".drawio"):
        try:
            if suffix == ".drawio":
                return Opened(drawio_to_figure(data, file=filename))
            report = ImportReport()
            fig = import_svg(data, report=report)
        except CrafterError as e:
            if e.file is None:
                e.file = filename
            raise
        notes = report.lines()
        if not report.crafter:
            notes.insert(0, "not a Crafter SVG: its drawing was imported as shapes and text")
        return Opened(fig, notes)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise InputError(f"not UTF-8 text (byte {e.start}); save it as UTF-8", file=filename) from None
    fmt = "json" if suffix == ".json" else "dsl"
    return Opened(figure_from_text(text, fmt=fmt, file=filename))


def _open_pptx(data: bytes, filename: str) -> Opened:
    report = ImportReport()
    fig = pptx_to_figure(data, file=filename, report=report)
    notes = report.lines()
    if not report.crafter:
        notes.insert(0, "not a Crafter PowerPoint file: its first slide's shapes were imported")
    return Opened(fig, notes)


# --------------------------------------------------------------------------------------
# Tables
# --------------------------------------------------------------------------------------


def read_table(data: bytes, filename: str) -> Any:
    """A typed :class:`crafter.data.Table` from an upload."""
    return read_table_bytes(data, filename)


def table_preview(table: Any, rows: int = 200) -> Any:
    """The first rows of a Table as a pandas DataFrame, for st.dataframe."""
    import pandas as pd  # heavy: 1.4 s to import (measured with -X importtime); only the table preview needs it

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
    issues: list[dict[str, Any]] = field(default_factory=list)  # issues left
    report: dict[str, Any] = field(default_factory=dict)  # the run's summary
    run_id: str | None = None
    warnings: list[str] = field(default_factory=list)
    applied: list[str] = field(default_factory=list)  # edits: what changed
    status: str = "done"
    message: str | None = None  # why a run stopped early


def _as_result(res: Any) -> PipelineResult:
    """The pipeline's RunResult → what the app keeps; a run with no figure is an error."""
    if res is None:
        raise CrafterError("the pipeline stopped without a result")
    if res.figure is None:
        raise CrafterError(res.message or f"run {res.run_id} has no figure ({res.status})")
    svg = res.svg
    fig = res.figure
    if not svg:
        fig, svg = render(fig)
    return PipelineResult(fig, svg, list(res.issues_left), res.summary(), res.run_id, list(res.warnings),
                          list(res.applied), res.status, res.message)


def stash_upload(name: str, data: bytes) -> str:
    """Keep an upload as a file the pipeline can read, next to the run store.

    The pipeline takes tables and images as paths and records them with the run, so a
    resumed run finds them again: the file lives under ``<run store folder>/uploads/``,
    named by its content hash, not in a temporary folder that vanishes.
    """
    digest = hashlib.sha256(data).hexdigest()[:16]
    safe = re.sub(r"[^\w.\-]+", "_", Path(name).name) or "upload"
    folder = resolve_db_path(None).parent / "uploads" / digest
    path = folder / safe
    if not path.exists():
        write_bytes_atomic(path, data)
    return str(path)


def generate(brief: str, *, table_file: tuple[str, bytes] | None = None, image_file: tuple[str, bytes] | None = None,
             backend: str = "craftlm", rounds: int = 3, theme: str | None = None, width_in: float | None = None,
             on_event: Callable[[Any], None] | None = None, style: str | None = None) -> PipelineResult:
    """Run the whole pipeline on a brief (plus an optional table and reference image); ``style``: a house
    style's name (``crafter style list``) the figure is drawn in."""
    data = stash_upload(*table_file) if table_file else None
    image = stash_upload(*image_file) if image_file else None
    events = graph.iter_generate(brief, data=data, image=image, backend=backend, rounds=rounds, theme=theme,
                                 width_in=width_in, vectorizer=_VECTORIZERS.pipeline, style=style_layer_data(style))
    return _as_result(graph.consume(events, on_event))


def edit(fig: Figure, instruction: str, *, backend: str = "craftlm", rounds: int = 1,
         on_event: Callable[[Any], None] | None = None) -> PipelineResult:
    """Change the figure as the instruction says (local repair: other components stay)."""
    return _as_result(graph.consume(graph.iter_edit(fig, instruction, backend=backend, rounds=rounds), on_event))


@dataclass
class RunRow:
    run_id: str
    kind: str
    brief: str
    status: str
    started: str
    summary: str
    resumable: bool


def list_runs(limit: int = 50) -> list[RunRow]:
    """Past runs in the run store, newest first."""
    rows = []
    for info in graph.list_runs(limit=limit):
        s = info.summary or {}
        comps = sum((s.get("components") or {}).values())
        bits = []
        if comps:
            bits.append(f"{comps} components")
        if "issues_left" in s:
            bits.append(f"{s['issues_left']} issues left")
        if s.get("seconds") is not None:
            bits.append(f"{s['seconds']:.1f} s")
        rows.append(RunRow(
            run_id=info.run_id, kind=info.kind, brief=info.brief, status=info.shown_status,
            started=dt.datetime.fromtimestamp(info.created).strftime("%Y-%m-%d %H:%M") if info.created else "",
            summary=", ".join(bits), resumable=info.resumable))
    return rows


def reopen_run(run_id: str) -> PipelineResult:
    """The figure a past run made (or had so far), without running anything."""
    return _as_result(graph.run_result(run_id))


def resume_run(run_id: str, *, on_event: Callable[[Any], None] | None = None) -> PipelineResult:
    """Continue an interrupted or failed run from its last checkpoint."""
    return _as_result(graph.consume(graph.iter_resume(run_id, vectorizer=_VECTORIZERS.pipeline), on_event))


def run_store_path() -> str:
    """Where the run store lives (CRAFTER_RUNS_DB, or the user's data folder)."""
    return str(default_db_path())


# --------------------------------------------------------------------------------------
# CraftEditor
# --------------------------------------------------------------------------------------


@dataclass
class Vectorizers:
    """What the app hands in from CraftEditor: the Vectorize tab's converter and the pipeline's vectoriser."""

    convert: Callable[..., Any] | None = None  # (bytes, name=) -> an object with .figure, .svg, .report
    pipeline: Callable[[str], Figure] | None = None  # an image path -> Figure (generate with a reference image)


_VECTORIZERS = Vectorizers()


def use_vectorizers(convert: Callable[..., Any] | None, pipeline: Callable[[str], Figure] | None) -> None:
    """Hand CraftEditor to the app's services (``app.py`` does, at start)."""
    _VECTORIZERS.convert, _VECTORIZERS.pipeline = convert, pipeline


@dataclass
class Vectorized:
    name: str
    figure: Figure | None = None
    svg: str | None = None
    scores: dict[str, Any] = field(default_factory=dict)
    error: str | None = None


_SCORE_LABELS = (  # report key, label people read, format
    ("ssim", "Similarity (SSIM)", "{:.3f}"),
    ("editability", "Editability", "{:.0%}"),
    ("text_as_text", "Text kept as text", "{:.0%}"),
    ("text_confidence", "Words read surely", "{:.0%}"),  # share of words read above the reader's gate
    ("elements", "SVG elements", "{:d}"),
    ("seconds", "Seconds", "{:.1f}"),
)


def vectorize(data: bytes, name: str) -> Vectorized:
    """One PNG/JPEG → FigureSpec + SVG + quality scores through CraftEditor."""
    if _VECTORIZERS.convert is None:
        raise FeatureUnavailable("Vectorize needs CraftEditor, and the app was started without it")
    conv = _VECTORIZERS.convert(data, name=name)
    return Vectorized(name=name, figure=conv.figure, svg=conv.svg, scores=dict(conv.report))


def score_lines(report: dict[str, Any]) -> list[tuple[str, str]]:
    """(label, value) pairs of a CraftEditor quality report, in reading order."""
    out = []
    for key, label, fmt in _SCORE_LABELS:
        v = report.get(key)
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            try:
                out.append((label, fmt.format(v)))
            except ValueError:
                out.append((label, str(v)))
    comps = report.get("components")
    if isinstance(comps, dict) and comps:
        # '2 charts', '1 node' (the kinds are English nouns with a plain -s plural)
        out.append(("Components", ", ".join(f"{n} {k}{'' if n == 1 else 's'}" for k, n in comps.items())))
    return out


@dataclass
class UnsureWord:
    text: str
    score: float
    box: tuple[float, float, float, float]  # x, y, w, h in the input image's pixels
    maybe: str | None = None  # the known word one OCR slip away ('Returmns' -> 'returns'), where there is one


def unsure_words(report: dict[str, Any]) -> list[UnsureWord]:
    """The words the reader was unsure of (report ``unsure_words``), least sure first; entries
    that are not {"text", "score", "box": [x, y, w, h]} are left out (an optional "maybe" is the word
    the reading may stand for), and a report without the key (a CraftEditor that does not measure it)
    gives none."""
    out = []
    for w in report.get("unsure_words") or []:
        try:
            box = tuple(float(v) for v in w["box"])
            if len(box) != 4:
                continue
            maybe = w.get("maybe")
            out.append(UnsureWord(text=str(w["text"]), score=float(w["score"]), box=box,  # type: ignore[arg-type]
                                  maybe=str(maybe) if isinstance(maybe, str) and maybe.strip() else None))
        except (KeyError, TypeError, ValueError):
            continue
    return sorted(out, key=lambda u: u.score)


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


# -- house styles (crafter.style) ------------------------------------------------------------------


def learn_house_style(files: list[tuple[str, bytes]], name: str) -> dict[str, Any]:
    """A style learned from uploaded figures (rasters read by the CraftEditor the app was handed)."""
    paths = [stash_upload(n, data) for n, data in files]
    return house_style.learn_from_files(paths, house_style.valid_name(name), vectorizer=_VECTORIZERS.pipeline)


def house_styles() -> list[str]:
    """The styles kept in the user's config folder."""
    return house_style.installed_styles()


def keep_house_style(style: dict[str, Any]) -> str:
    return str(house_style.install_style(style))


def house_style_named(name: str) -> dict[str, Any]:
    return house_style.resolve_style(name)


def style_previews(style: dict[str, Any]) -> tuple[bytes | None, bytes]:
    """The style's colours as swatches and a sample figure drawn in it, as PNG."""
    swatches = house_style.swatch_figure(style)
    sw = raster.svg_to_png(draw_svg(ensure_layout(swatches)), width=720) if swatches is not None else None
    return sw, raster.svg_to_png(draw_svg(ensure_layout(house_style.sample_figure(style))), width=420)


def style_layer_data(name: str | None) -> dict[str, Any] | None:
    """The layer a named style puts on figures (what the pipeline's ``style`` takes), or None."""
    if not name:
        return None
    return house_style.style_layer(house_style.resolve_style(name)).model_dump(mode="json", exclude_none=True)
