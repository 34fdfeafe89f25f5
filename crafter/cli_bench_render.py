"""`crafter bench render`: layout and render throughput for 10-, 30- and 100-node diagrams."""

from __future__ import annotations

import math

import typer

from crafter.cli import bench


@bench.command("render")
def bench_render_command(
    sizes: str = typer.Option("10,30,100", help="Comma-separated node counts"),
    repeats: int = typer.Option(5, min=1, help="Timed runs per size (the median is shown)"),
    engine: str = typer.Option("auto", help="Layout engine: auto, elk or python"),
) -> None:
    """Time layout and SVG rendering per figure size, after a warm-up run.

    Example: crafter bench render --sizes 10,30,100 --repeats 5
    """
    from crafter.errors import InputError
    from crafter.render.bench import bench_render

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
