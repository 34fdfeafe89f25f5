"""The `crafter` command: a thin shell over the library.

Each area registers its own commands from its own module (listed in
``_COMMAND_MODULES``) on :data:`app` or on the :data:`bench` sub-app. Errors a user can
act on (:class:`CrafterError`) become one readable line and exit code 1, never a traceback.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Optional

import typer

from crafter.errors import CrafterError

app = typer.Typer(
    name="crafter",
    help="Crafter: editable, semantically structured SVG scientific figures.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
bench = typer.Typer(
    help="Benchmarks that print throughput figures (never timed assertions).\n\nExample: crafter bench render",
    no_args_is_help=True,
)
app.add_typer(bench, name="bench")


def fail(message: str, code: int = 1) -> "typer.Exit":
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(code)


@app.command()
def render(
    source: Path = typer.Argument(..., help="A figure: .dsl, .json or a Crafter .svg"),
    output: Path = typer.Option(..., "-o", "--output", help="Output file; its suffix picks the format "
                                "(.svg .png .pdf .json .dsl and any export format registered)"),
    dpi: int = typer.Option(300, help="Resolution for raster output (.png)"),
    theme: Optional[str] = typer.Option(None, help="Override the figure's theme (paper, slides, mono)"),
    direction: Optional[str] = typer.Option(None, help="Override the layout direction (LR, TB, RL, BT)"),
    relayout: bool = typer.Option(False, "--relayout", help="Lay out again even if the figure holds a layout"),
) -> None:
    """Lay out and render a figure.

    Example: crafter render examples/rag_pipeline.dsl -o rag.svg
    """
    from crafter.render.export import export_figure
    from crafter.spec import load_figure

    fig = load_figure(source)
    updates = {k: v for k, v in (("theme", theme), ("direction", direction)) if v is not None}
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
    from crafter.spec import load_figure

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
    from crafter.spec import json_schema

    text = json.dumps(json_schema(), indent=2)
    if output:
        output.write_text(text + "\n", encoding="utf-8")
        typer.echo(f"wrote {output}")
    else:
        typer.echo(text)


# Modules that add commands to `app` / `bench`. Each belongs to one area of the code.
_COMMAND_MODULES = (
    "crafter.cli_bench_render",  # crafter bench render
    "crafter.cli_chart",  # crafter chart, crafter bench chart
    "crafter.cli_llm",  # crafter complete, crafter train, crafter bench decode
    "crafter.cli_pipeline",  # crafter generate/edit/runs/resume, crafter bench pipeline
    "crafter.cli_export",  # extra export formats
)


def _load_command_modules() -> None:
    for name in _COMMAND_MODULES:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name != name:  # the module exists but something it imports is missing
                raise


_load_command_modules()


def main(argv: list[str] | None = None) -> int:
    """Console-script entry point: run the CLI, turning user errors into one line."""
    from crafter.cli_support import run_app

    return run_app(app, argv)


if __name__ == "__main__":
    # `python -m crafter.cli`: run the copy the command modules registered on, not __main__'s
    from crafter.cli import main as _main

    sys.exit(_main())
