"""CLI commands of the formats area: importing SVG, draw.io and PowerPoint back, Vega-Lite per chart,
sanitising SVG, and ``crafter bench export``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from crafter.base.theme import figure_theme
from crafter.benchmarks.exports import export_bench_figure, run_export_bench
from crafter.cli.app import app, bench
from crafter.errors import InputError
from crafter.formats import (
    ImportReport,
    figure_to_vegalite,
    import_pptx,
    import_svg,
    load_drawio,
    load_figure,
    sanitize_svg,
    to_vegalite,
)
from crafter.formats.files import write_text_atomic
from crafter.formats.registry import export_figure


def load_any(source: Path, report: ImportReport | None = None):
    """A figure from .dsl/.json, a Crafter or foreign .svg (merged/sanitised), a .drawio or a .pptx file."""
    suffix = source.suffix.lower()
    if suffix in (".svg", ".pptx"):  # these two say what they merged, removed or skipped
        if not source.exists():
            raise InputError("no such file", file=str(source))
        return (import_svg if suffix == ".svg" else import_pptx)(source, report=report)
    if suffix == ".xml":
        return load_drawio(source)
    return load_figure(source)


@app.command("import")
def import_command(
    source: Path = typer.Argument(..., help="An SVG (a Crafter SVG edited elsewhere, or any SVG), a .drawio or a "
                                  ".pptx file"),
    output: Path = typer.Option(..., "-o", "--output", help="Where to write the figure: .dsl, .json, or any "
                                "format `crafter render` writes (.svg, .tex, .drawio…)"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Do not list what was merged or removed"),
) -> None:
    """Bring a figure back from Inkscape, Illustrator, diagrams.net or PowerPoint.

    A Crafter SVG or PPTX keeps its FigureSpec: the edits made to the drawing (labels, colours,
    moved boxes, deleted components) are merged into it. A foreign SVG is sanitised and
    imported as path/text/image components; a foreign PPTX's shapes become nodes and edges.

    Example: crafter import edited.svg -o figure.dsl
    """
    report = ImportReport()
    fig = load_any(source, report)
    export_figure(fig, output)
    if not quiet:
        for line in report.lines():
            typer.echo(f"  {line}")
    kind = "Crafter figure with edits merged" if report.merged else "Crafter figure" if report.crafter \
        else "figure"
    typer.echo(f"wrote {output} ({kind}, {len(fig.components)} components)")


@app.command("vegalite")
def vegalite_command(
    source: Path = typer.Argument(..., help="A figure with charts (.dsl, .json, .svg, .drawio)"),
    output: Path = typer.Option(..., "-o", "--output", help="Output .vl.json file"),
    chart: Optional[str] = typer.Option(None, "--chart", help="Id of one chart (default: all charts; several "
                                        "are stacked in one vconcat spec)"),
) -> None:
    """Export a figure's charts as Vega-Lite (opens in the Vega editor).

    Example: crafter vegalite results.dsl --chart acc -o acc.vl.json
    """
    fig = load_any(source)
    if chart is None:
        spec = figure_to_vegalite(fig)
    else:
        found = next((c for c in fig.of_kind("chart") if c.id == chart), None)
        if found is None:
            ids = ", ".join(c.id for c in fig.of_kind("chart")) or "none"
            raise InputError(f"no chart with id '{chart}' (charts: {ids})", file=str(source))
        spec = to_vegalite(found, figure_theme(fig))
    write_text_atomic(output, json.dumps(spec, indent=2, ensure_ascii=False) + "\n")
    typer.echo(f"wrote {output}")


@app.command("sanitize")
def sanitize_command(
    source: Path = typer.Argument(..., help="Any SVG file"),
    output: Path = typer.Option(..., "-o", "--output", help="Where to write the cleaned SVG"),
) -> None:
    """Remove scripts, event handlers, external references, foreignObject and entities from an SVG.

    Example: crafter sanitize downloaded.svg -o clean.svg
    """
    text, report = sanitize_svg(source)
    write_text_atomic(output, text)
    for line in report.lines():
        typer.echo(f"  {line}")
    typer.echo(f"wrote {output} ({len(report.removed)} unsafe item(s) removed)")


@bench.command("export")
def bench_export(nodes: int = typer.Option(2000, help="Nodes in the synthetic figure (chains of 10, one edge each)")) -> None:
    """Print how long each export and import takes on a large synthetic figure.

    Example: crafter bench export --nodes 2000
    """
    fig = export_bench_figure(nodes)
    typer.echo(f"{nodes} nodes, {len(fig.of_kind('edge'))} edges")
    for name, seconds in run_export_bench(fig):
        typer.echo(f"{name:<34} {seconds:7.3f} s")
