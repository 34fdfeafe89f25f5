"""The `craftbench` command: generate a suite, run systems on it, report."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer
from rich.progress import Progress, track

from craftbench.cases import generate_cases, load_cases, write_suite
from craftbench.makers import MAKERS, draw_makers
from craftbench.report import write_report
from craftbench.runner import run_benchmark
from craftbench.systems import get_system
from crafter.cli.support import run_app

app = typer.Typer(name="craftbench", help="CraftBench: a reproducible benchmark of figure systems.",
                  no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)


@app.command()
def generate(
    suite: str = typer.Option("smoke", help="Named suite (smoke, v1) or a new name with --seed"),
    n: Optional[int] = typer.Option(None, help="Cases per figure-type × condition cell (default: the suite's)"),
    seed: Optional[int] = typer.Option(None, help="Seed (default: the suite's; named suites regenerate bit for bit)"),
    output: Path = typer.Option(..., "-o", "--output", help="Folder for the suite"),
) -> None:
    """Generate benchmark cases with ground truth (FigureSpec, reference SVG and PNG).

    Example: craftbench generate --suite smoke -o bench/smoke
    """
    cases = generate_cases(suite, n=n, seed=seed)
    list(track([None], description=f"writing {len(cases)} cases", transient=True))
    write_suite(cases, output)
    typer.echo(f"wrote {len(cases)} cases to {output}")


@app.command()
def makers(
    kind: str = typer.Argument(..., help=f"Which maker draws: {', '.join(sorted(MAKERS))}"),
    output: Path = typer.Option(..., "-o", "--output", help="Folder for figs/ and manifest.json"),
    n: int = typer.Option(20, "-n", min=1, help="How many figures"),
    seed: int = typer.Option(0, help="Seed (the same seed draws the same figures)"),
) -> None:
    """Draw figures with a real maker's own tool (truth from their source) for the real track.

    Example: craftbench makers charts -o /tmp/makers/charts -n 40
    """
    manifest = draw_makers(kind, output, n=n, seed=seed)
    typer.echo(f"wrote {manifest}; score with: crafteditor bench -n 0 --real {output} --split all --per-figure")


@app.command()
def run(
    suite_dir: Path = typer.Option(..., "--suite", help="A folder written by `craftbench generate`"),
    systems: str = typer.Option("crafter,crafter-norepair,vtracer", help="Comma-separated systems: crafter, "
                                "crafter-norepair, crafter-rules, oneshot, crafteditor, vtracer, reference, empty, "
                                "openai:URL"),
    output: Path = typer.Option(..., "-o", "--output", help="Run folder (resumable: rerun to continue)"),
    workers: int = typer.Option(1, help="Parallel workers"),
    executor: str = typer.Option("local", help="local (process pool) or ray"),
    timeout: float = typer.Option(600.0, "--timeout", min=0, help="Seconds per case and system; a case still "
                                  "running then is recorded as timed out (0: no limit)"),
) -> None:
    """Run systems on a suite; one JSONL line per case and system; resumes where it stopped.

    Example: craftbench run --suite bench/smoke --systems crafter,vtracer -o runs/smoke
    """
    names = [s.strip() for s in systems.split(",") if s.strip()]
    cases = load_cases(suite_dir)
    total = sum(1 for c in cases for s in names if get_system(s).supports(c))
    with Progress() as progress:
        task = progress.add_task("running", total=total)
        run_benchmark(suite_dir, names, output, workers=workers, executor=executor,
                      on_result=lambda row: progress.advance(task), timeout=timeout or None)
    typer.echo(f"results in {output / 'results.jsonl'}")


@app.command()
def report(run_dir: Path = typer.Argument(..., help="A folder written by `craftbench run`")) -> None:
    """Write report.md and a self-contained report.html for a run.

    Example: craftbench report runs/smoke
    """
    md, html = write_report(run_dir)
    typer.echo(f"wrote {md} and {html}")
    typer.echo(md.read_text(encoding="utf-8").split("## Plots")[0])


def main(argv: list[str] | None = None) -> int:
    return run_app(app, argv, user_errors=(FileNotFoundError, KeyError, ValueError))


if __name__ == "__main__":
    sys.exit(main())
