"""`crafter chart` (a table → a chart file) and `crafter bench chart`: thin shells over crafter.charts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from crafter.base.theme import Theme, figure_theme
from crafter.benchmarks.charts import format_rows, run_bench
from crafter.charts import make_chart, recommend
from crafter.charts.compile.chart import plan_for
from crafter.charts.render.chart_layout import layout_chart
from crafter.charts.theme import chart_theme
from crafter.cli.app import app, bench
from crafter.cli.style_option import load_style_option, style_option
from crafter.data import read_table
from crafter.errors import CrafterError, InputError
from crafter.formats.registry import export_figure
from crafter.formats.vegalite import to_vegalite
from crafter.spec import Figure
from crafter.style import MIN_CONFIDENCE, apply_style, value

OUTPUT_HELP = ("Output file; the suffix picks the format: .svg .png .pdf (the figure), .json / .dsl "
               "(the FigureSpec), .vl.json (a standalone Vega-Lite spec for the Vega editor)")


def _fit_total_width(chart, theme: Theme | str, width: str) -> None:
    """Set the chart's plot width so the whole chart is a column wide (single/double) or ``width`` px."""
    try:
        ct = chart_theme(theme, width=width if width in ("single", "double") else float(width))
    except ValueError:
        raise InputError(f"--width must be single, double or a number of px, not '{width}'") from None
    layout = layout_chart(plan_for(chart), ct, width=ct.width)
    chart.width = round(layout.pw, 1)


@app.command()
def chart(
    data: Path = typer.Argument(..., help="A table: .csv .tsv .txt .json .jsonl .xlsx"),
    output: Path = typer.Option(..., "-o", "--output", help=OUTPUT_HELP),
    x: Optional[str] = typer.Option(None, "--x", help="Column on x (may be 'mean(col)', 'count()', 'col:O')"),
    y: Optional[str] = typer.Option(None, "--y", help="Column on y"),
    color: Optional[str] = typer.Option(None, "--color", help="Column for colour (series, groups)"),
    mark: Optional[str] = typer.Option(None, "--mark", help="bar, line, point, area, rect, boxplot, ..."),
    column: Optional[str] = typer.Option(None, "--column", help="One panel per value of this column (facets)"),
    size: Optional[str] = typer.Option(None, "--size", help="Column for point size"),
    shape: Optional[str] = typer.Option(None, "--shape", help="Column for point shape"),
    error: Optional[str] = typer.Option(None, "--error", help="Error column, or stdev / stderr / ci / iqr over rows"),
    xscale: Optional[str] = typer.Option(None, "--xscale", help="linear, log or symlog"),
    yscale: Optional[str] = typer.Option(None, "--yscale", help="linear, log or symlog"),
    stack: bool = typer.Option(False, "--stack", help="Stack bars/areas instead of grouping them"),
    horizontal: Optional[bool] = typer.Option(None, "--horizontal/--vertical", help="Bar orientation"),
    legend: Optional[str] = typer.Option(None, "--legend", help="Legend place: top, right, bottom, left, top-right, none"),
    title: Optional[str] = typer.Option(None, "--title", help="Chart title"),
    theme: str = typer.Option("paper", "--theme", help="paper, slides or mono"),
    width: Optional[str] = typer.Option(None, "--width", help="single (3.3 in), double (7 in) or px"),
    sheet: Optional[str] = typer.Option(None, "--sheet", help="Spreadsheet sheet (name or number); first by default"),
    chart_id: str = typer.Option("chart", "--id", help="Component id of the chart"),
    dpi: int = typer.Option(300, help="Resolution for .png"),
    explain: bool = typer.Option(False, "--explain", help="Print why this chart was chosen"),
    style: Optional[str] = style_option(),
) -> None:
    """Make a chart from a table; fields left out are chosen from the data.

    Examples:
      crafter chart examples/data/accuracy.csv --x model --y top1_accuracy --color dataset -o acc.svg
      crafter chart examples/data/loss_curves.tsv -o loss.png
      crafter chart results.csv -o fig.vl.json
      crafter chart results.csv -o fig.svg --style mylab.style.json
    """
    if theme not in ("paper", "slides", "mono"):
        raise InputError(f"unknown theme '{theme}'; expected paper, slides or mono")
    table = read_table(data, sheet=int(sheet) if sheet is not None and sheet.isdigit() else sheet)
    if explain:
        choice = recommend(table, x=x, y=y, color=color, mark=mark, column=column)
        typer.echo(f"{choice.mark}: x={choice.x} y={choice.y} color={choice.color} ({choice.reason})")
    house = load_style_option(style)
    styled = apply_style(Figure(theme=theme), house)  # type: ignore[arg-type]
    th = figure_theme(styled)
    if legend is None and house is not None:
        legend = value(house, "chart.legend_orient", MIN_CONFIDENCE)
    c = make_chart(table, x=x, y=y, color=color, mark=mark, column=column, size=size, shape=shape, error=error,
                   xscale=xscale, yscale=yscale, stack=stack or None, horizontal=horizontal, legend=legend,
                   id=chart_id, title=title, theme=th)
    if width is not None:
        _fit_total_width(c, th, width)
    name = output.name.lower()
    if name.endswith(".vl.json"):
        output.write_text(json.dumps(to_vegalite(c, th), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    else:
        fig = Figure(theme=theme, style=styled.style, components=[c])  # type: ignore[arg-type]
        export_figure(fig, output, dpi=dpi)
    typer.echo(f"wrote {output}")


@bench.command("chart")
def bench_chart(
    n: int = typer.Option(30, "-n", help="Charts per renderer and chart kind (after the first call)"),
    vl_convert: bool = typer.Option(True, "--vl-convert/--no-vl-convert", help="Also time vl-convert-python"),
) -> None:
    """Charts per second: Crafter's renderer vs matplotlib's SVG output of the same charts (first call apart).

    Example: crafter bench chart -n 50
    """
    if n < 1:
        raise CrafterError("-n must be at least 1")
    rows = run_bench(n, vl_convert=vl_convert)
    typer.echo(format_rows(rows))
    ours = [r for r in rows if r.renderer == "crafter"]
    mpl = [r for r in rows if r.renderer.startswith("matplotlib")]
    if ours and mpl:
        speed = sum(m.per_chart_ms for m in mpl) / sum(o.per_chart_ms for o in ours)
        typer.echo(f"crafter is {speed:.1f}x matplotlib's SVG speed over these charts (after the first call)")
