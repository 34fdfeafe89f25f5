"""CLI commands of the pipeline: ``crafter generate``, ``edit``, ``runs``, ``resume``, ``bench pipeline``.

Thin shells over :mod:`crafter.graph.pipeline`; progress is a rich status line on stderr (plain
lines when stderr is not a terminal), the report goes to stdout.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from crafter.benchmarks.briefs import format_report as format_briefs_report
from crafter.benchmarks.briefs import report_json as briefs_json
from crafter.benchmarks.briefs import run_briefs_bench
from crafter.benchmarks.pipeline import format_report, run_bench
from crafter.cli.app import app, bench
from crafter.cli.style_option import layer_data, load_style_option, style_option
from crafter.errors import CrafterError, InputError
from crafter.formats.files import write_text_atomic
from crafter.formats.registry import exporter_for
from crafter.graph.pipeline import edit as run_edit
from crafter.graph.pipeline import generate as run_generate
from crafter.graph.pipeline import list_runs
from crafter.graph.pipeline import resume as run_resume
from crafter.style import MIN_CONFIDENCE, value

_BACKEND_HELP = "craftlm (built-in) | hf:/path/to/model | openai:http://host:port/v1 | none (rules only)"
_DB_HELP = "Run store file (default: $CRAFTER_RUNS_DB or ~/.local/share/crafter/runs.sqlite)"


class Progress:
    """Shows PipelineEvents: a live status line on a terminal, warnings always, plain lines with --verbose."""

    def __init__(self, *, verbose: bool = False, quiet: bool = False) -> None:
        self.console = Console(stderr=True, highlight=False)
        self.verbose = verbose
        self.quiet = quiet
        self.status = None
        self.round = 0
        self.issues: int | None = None
        self.tps: float | None = None

    def __enter__(self) -> "Progress":
        if self.console.is_terminal and not self.quiet:
            self.status = self.console.status("starting…", spinner="dots")
            self.status.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.status is not None:
            self.status.stop()

    def __call__(self, ev) -> None:  # a PipelineEvent
        if ev.round:
            self.round = ev.round
        if ev.issues_left is not None:
            self.issues = ev.issues_left
        if ev.tokens_per_s:
            self.tps = ev.tokens_per_s
        if ev.kind == "warning" and not self.quiet:
            self.console.print(f"[yellow]warning:[/yellow] {ev.message}", markup=True, highlight=False)
        elif self.verbose and ev.kind in ("start", "issues", "model"):
            self.console.print(ev.line(), markup=False)
        if self.status is not None and ev.kind in ("start", "issues", "model") and ev.node:
            bits = [f"round {self.round}" if self.round else "plan", ev.node]
            if ev.kind == "start" and ev.message:
                bits.append(ev.message)
            if self.issues is not None:
                bits.append(f"{self.issues} issue(s) left")
            if self.tps:
                bits.append(f"{self.tps:.0f} tok/s")
            self.status.update(" · ".join(bits))


def _read_brief(brief: Optional[str], brief_file: Optional[Path]) -> str:
    if brief_file is not None:
        try:
            return brief_file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise InputError(f"cannot read the brief: {e}", file=str(brief_file)) from None
    if brief == "-":
        return sys.stdin.read()
    if brief and brief.startswith("@") and len(brief) > 1:  # @notes.txt: the brief is in a file
        return _read_brief(None, Path(brief[1:]))
    return brief or ""


def _finish(result, output: Optional[Path], *, json_report: bool, dpi: int) -> None:
    """Save the figure, print the report; a failed run exits 1 after saying where its partial result is."""
    if output is not None and result.figure is not None and result.status == "done":
        result.save(output, dpi=dpi)
    if json_report:
        typer.echo(json.dumps({"run_id": result.run_id, **result.summary(), "output": str(output) if output else None,
                               "warnings": result.warnings, "issues_left": result.issues_left,
                               "applied": result.applied}, ensure_ascii=False))
    else:
        for line in result.report_lines():
            typer.echo(line)
        if output is not None and result.status == "done":
            typer.echo(f"wrote {output}")
    if result.status != "done":
        keep = (f"; the partial figure is kept in run {result.run_id} (continue with `crafter resume {result.run_id}`)"
                if result.figure is not None else "")
        raise CrafterError(f"run {result.run_id} {result.status}: {result.message}{keep}")


def _check_output(output: Optional[Path]) -> None:
    if output is None:
        return

    exporter_for(output)  # an unsupported suffix fails now, not after the run


@app.command()
def generate(
    brief: Optional[str] = typer.Argument(None, help="What the figure shows: the text, '-' (stdin) or @FILE; "
                                          "a brief that starts with '-' (a bullet list) goes after '--'"),
    output: Path = typer.Option(..., "-o", "--output", help="Output file: .svg .png .pdf .dsl .json …"),
    data: Optional[Path] = typer.Option(None, "--data", help="A table (CSV/TSV/JSON/XLSX) to chart"),
    image: Optional[Path] = typer.Option(None, "--image", help="A raster figure to vectorize (CraftEditor)"),
    backend: str = typer.Option("craftlm", "--backend", help=_BACKEND_HELP),
    rounds: int = typer.Option(3, "--rounds", min=0, max=20, help="Critique → repair rounds at most"),
    brief_file: Optional[Path] = typer.Option(None, "--brief-file", help="Read the brief from a file"),
    theme: Optional[str] = typer.Option(None, "--theme", help="paper | slides | mono"),
    width_in: Optional[float] = typer.Option(None, "--width-in", min=0.5, help="Print width in inches (3.3 single "
                                             "column, 7 double); enables the 6 pt font check"),
    db: Optional[Path] = typer.Option(None, "--db", help=_DB_HELP),
    run_id: Optional[str] = typer.Option(None, "--run-id", help="Id for the run (default: a fresh one)"),
    dpi: int = typer.Option(300, "--dpi", help="Resolution of .png output"),
    json_report: bool = typer.Option(False, "--json", help="Print the report as one JSON object"),
    verbose: bool = typer.Option(False, "-v", "--verbose", help="Print every step"),
    quiet: bool = typer.Option(False, "-q", "--quiet", help="No progress display"),
    style: Optional[str] = style_option(),
) -> None:
    """Make a checked, editable figure from a brief (and a table or a reference image).

    Example: crafter generate "An encoder feeds a latent code, which the decoder reads." -o fig.svg

    A bullet list as the brief: crafter generate -o fig.svg -- "- encoder: reads the image" (or @brief.md, or -).
    """
    text = _read_brief(brief, brief_file)
    _check_output(output)
    house = load_style_option(style)
    direction = value(house, "layout.direction", MIN_CONFIDENCE) if house is not None else None
    with Progress(verbose=verbose, quiet=quiet) as progress:
        result = run_generate(text, data=data, image=image, backend=backend, rounds=rounds, run_id=run_id,
                              db_path=db, on_event=progress, theme=theme, width_in=width_in, direction=direction,
                              style=layer_data(house))
    _finish(result, output, json_report=json_report, dpi=dpi)


@app.command()
def edit(
    figure: Path = typer.Argument(..., help="A Crafter SVG (or .dsl/.json figure)"),
    instruction: str = typer.Argument(..., help="What to change, in words"),
    output: Path = typer.Option(..., "-o", "--output", help="Output file: .svg .png .pdf .dsl .json …"),
    backend: str = typer.Option("craftlm", "--backend", help=_BACKEND_HELP + "; used only for what the rules "
                                "cannot do"),
    rounds: int = typer.Option(1, "--rounds", min=0, max=10, help="Repair rounds for issues the edit causes"),
    db: Optional[Path] = typer.Option(None, "--db", help=_DB_HELP),
    dpi: int = typer.Option(300, "--dpi", help="Resolution of .png output"),
    json_report: bool = typer.Option(False, "--json", help="Print the report as one JSON object"),
    verbose: bool = typer.Option(False, "-v", "--verbose", help="Print every step"),
    quiet: bool = typer.Option(False, "-q", "--quiet", help="No progress display"),
) -> None:
    """Change a figure by instruction; only what the instruction names changes.

    Example: crafter edit fig.svg "make the encoder blue and rename Decoder to Generator" -o out.svg
    """
    _check_output(output)
    with Progress(verbose=verbose, quiet=quiet) as progress:
        result = run_edit(figure, instruction, backend=backend, rounds=rounds, db_path=db, on_event=progress)
    _finish(result, output, json_report=json_report, dpi=dpi)


@app.command()
def runs(
    db: Optional[Path] = typer.Option(None, "--db", help=_DB_HELP),
    limit: int = typer.Option(20, "--limit", min=1, help="How many runs, newest first"),
    json_report: bool = typer.Option(False, "--json", help="One JSON object per line"),
) -> None:
    """List past runs with their brief and status.

    Example: crafter runs --limit 5
    """
    infos = list_runs(db, limit)
    if json_report:
        for i in infos:
            typer.echo(json.dumps({"run_id": i.run_id, "kind": i.kind, "status": i.shown_status, "brief": i.brief,
                                   "created": i.created, "summary": i.summary, "message": i.message},
                                  ensure_ascii=False))
        return
    if not infos:
        typer.echo("no runs yet")
        return

    table = Table(show_edge=False, pad_edge=False, box=None, header_style="bold")
    for col in ("run", "when", "kind", "status", "issues", "brief"):
        table.add_column(col, overflow="ellipsis", no_wrap=True, max_width=60 if col == "brief" else None)
    colours = {"done": "green", "failed": "red", "interrupted": "yellow", "running": "cyan"}
    for i in infos:
        s = i.summary
        issues = f"{s.get('issues_fixed', 0)}/{s.get('issues_found', 0)} fixed" if s else "–"
        status = i.shown_status
        table.add_row(i.run_id, time.strftime("%Y-%m-%d %H:%M", time.localtime(i.created)), i.kind,
                      f"[{colours.get(status, 'white')}]{status}[/]", issues, " ".join(i.brief.split()))
    Console(width=max(120, Console().width), highlight=False).print(table)


@app.command()
def resume(
    run_id: str = typer.Argument(..., help="The run's id (or a unique prefix), from `crafter runs`"),
    output: Optional[Path] = typer.Option(None, "-o", "--output", help="Where to write the figure"),
    db: Optional[Path] = typer.Option(None, "--db", help=_DB_HELP),
    backend: Optional[str] = typer.Option(None, "--backend", help="Override the run's backend"),
    dpi: int = typer.Option(300, "--dpi", help="Resolution of .png output"),
    json_report: bool = typer.Option(False, "--json", help="Print the report as one JSON object"),
    verbose: bool = typer.Option(False, "-v", "--verbose", help="Print every step"),
    quiet: bool = typer.Option(False, "-q", "--quiet", help="No progress display"),
) -> None:
    """Continue an interrupted run from its last finished step.

    Example: crafter resume 3f2a9c1b7e -o fig.svg
    """
    _check_output(output)
    with Progress(verbose=verbose, quiet=quiet) as progress:
        result = run_resume(run_id, db_path=db, backend=backend, on_event=progress)
    _finish(result, output, json_report=json_report, dpi=dpi)


@bench.command("pipeline")
def bench_pipeline(
    backend: str = typer.Option("craftlm", "--backend", help=_BACKEND_HELP),
    rounds: int = typer.Option(3, "--rounds", min=0, max=10),
    repeat: int = typer.Option(1, "--repeat", min=1, help="Runs per brief"),
    json_report: bool = typer.Option(False, "--json", help="Print the numbers as JSON"),
) -> None:
    """Seconds per figure (p50/p95) over ten fixed briefs, with issues found/fixed and rounds.

    Example: crafter bench pipeline --repeat 3   (or --backend none: the pipeline without a model)
    """
    report = run_bench(backend=backend, rounds=rounds, repeat=repeat,
                       progress=None if json_report else lambda line: typer.echo(line, err=True))
    typer.echo(json.dumps(report, indent=2) if json_report else format_report(report))


@bench.command("briefs")
def bench_briefs(
    split: str = typer.Option("dev", "--split", help="dev | test | train (the test split is frozen: report, never tune)"),
    backend: str = typer.Option("none,craftlm", "--backend",
                                help="Backends side by side, comma-separated: none (rules only), craftlm, hf:/path, "
                                     "openai:http://host:port/v1"),
    limit: Optional[int] = typer.Option(None, "--limit", min=1, help="Only the first N briefs (in id order)"),
    rounds: int = typer.Option(3, "--rounds", min=0, max=10, help="Critique → repair rounds, as crafter generate"),
    worst: int = typer.Option(10, "--worst", min=0, help="List the N briefs the first backend does worst on"),
    json_out: Optional[Path] = typer.Option(None, "--json", help="Also write every number, per brief, as JSON"),
) -> None:
    """Score each backend on the written brief corpus: node, edge and group P/R/F1 per style, field and phenomenon.

    Example: crafter bench briefs --split dev --backend none,craftlm
    """
    backends = [b.strip() for b in backend.split(",") if b.strip()]
    runs = run_briefs_bench(split, backends, limit=limit, rounds=rounds,
                            progress=lambda b, i, n: typer.echo(f"{b}: {i}/{n}", err=True) if i % 25 == 0 or i == n
                            else None)
    typer.echo(format_briefs_report(runs, split, worst=worst))
    if json_out is not None:
        write_text_atomic(json_out, json.dumps(briefs_json(runs, split), indent=1, ensure_ascii=False))
        typer.echo(f"wrote {json_out}")
