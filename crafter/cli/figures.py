"""`crafter render`, `validate`, `schema` (a figure file in, a file or a verdict out) and `crafter bench render`."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Optional

import typer

from crafter.benchmarks.render import bench_render
from crafter.cli.app import app, bench
from crafter.cli.style_option import layer_data, load_style_option, style_option
from crafter.errors import InputError
from crafter.formats import load_figure
from crafter.formats.registry import export_figure
from crafter.spec import json_schema


@app.command()
def render(
    source: Path = typer.Argument(..., help="A figure: .dsl, .json or a Crafter .svg"),
    output: Path = typer.Option(..., "-o", "--output", help="Output file; its suffix picks the format "
                                "(.svg .png .pdf .json .dsl and any export format registered)"),
    dpi: int = typer.Option(300, help="Resolution for raster output (.png)"),
    theme: Optional[str] = typer.Option(None, help="Override the figure's theme (paper, slides, mono)"),
    direction: Optional[str] = typer.Option(None, help="Override the layout direction (LR, TB, RL, BT)"),
    relayout: bool = typer.Option(False, "--relayout", help="Lay out again even if the figure holds a layout"),
    style: Optional[str] = style_option(),
) -> None:
    """Lay out and render a figure.

    Example: crafter render examples/rag_pipeline.dsl -o rag.svg
    In a house style: crafter render examples/rag_pipeline.dsl -o rag.pdf --style mylab
    """
    fig = load_figure(source)
    updates = {k: v for k, v in (("theme", theme), ("direction", direction), ("style", layer_data(load_style_option(style))))
               if v is not None}
    if updates:
        fig = fig.model_validate({**fig.model_dump(), **updates})
        relayout = True
    export_figure(fig, output, dpi=dpi, relayout=relayout)
    typer.echo(f"wrote {output}")


@app.command()
def validate(source: Path = typer.Argument(..., help="A figure: .dsl, .json or a Crafter .svg")) -> None:
    """Check a figure for errors without rendering it.

    Example: crafter validate examples/rag_pipeline.dsl
    """
    fig = load_figure(source)
    counts: dict[str, int] = {}
    for c in fig.components:
        counts[c.kind] = counts.get(c.kind, 0) + 1
    summary = ", ".join(f"{n} {k}{'s' if n != 1 else ''}" for k, n in counts.items()) or "no components"
    typer.echo(f"{source}: valid ({summary})")


@app.command()
def schema(output: Optional[Path] = typer.Option(None, "-o", "--output", help="Write to a file instead of stdout")) -> None:
    """Print the FigureSpec JSON Schema.

    Example: crafter schema -o figurespec.schema.json
    """
    text = json.dumps(json_schema(), indent=2)
    if output:
        output.write_text(text + "\n", encoding="utf-8")
        typer.echo(f"wrote {output}")
    else:
        typer.echo(text)


@bench.command("render")
def bench_render_command(
    sizes: str = typer.Option("10,30,100", help="Comma-separated node counts"),
    repeats: int = typer.Option(5, min=1, help="Timed runs per size (the median is shown)"),
    engine: str = typer.Option("auto", help="Layout engine: auto, elk or python"),
) -> None:
    """Time layout and SVG rendering per figure size, after a warm-up run.

    Example: crafter bench render --sizes 10,30,100 --repeats 5
    """
    try:
        counts = tuple(int(s) for s in sizes.split(",") if s.strip())
    except ValueError:
        raise InputError(f"--sizes takes comma-separated node counts, not '{sizes}'") from None
    if not counts or min(counts) < 2:
        raise InputError("--sizes needs node counts of at least 2")
    report = bench_render(counts, repeats=repeats, engine=engine)
    startup = "n/a" if math.isnan(report.startup_ms) else f"{report.startup_ms:.0f} ms"
    typer.echo(f"layout engine: {report.engine}")
    typer.echo(f"engine start-up (once per process, not in the rows below): {startup}")
    typer.echo(f"{'nodes':>6} {'edges':>6} {'layout ms':>10} {'render ms':>10} {'total ms':>9} "
               f"{'png@150 ms':>11} {'first layout ms':>16}")
    for r in report.rows:
        typer.echo(f"{r.nodes:>6} {r.edges:>6} {r.layout_ms:>10.1f} {r.render_ms:>10.1f} {r.total_ms:>9.1f} "
                   f"{r.png_ms:>11.1f} {r.first_layout_ms:>16.1f}")
    typer.echo(f"(median of {repeats} warm runs; total = layout + SVG render; png = one SVG->PNG at 150 dpi)")
