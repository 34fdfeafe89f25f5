"""The `crafter` typer app and its `bench` sub-app, on which every command module registers.

Errors a user can act on (:class:`CrafterError`) become one readable line and exit code 1
(:mod:`crafter.cli.support`), never a traceback.
"""

from __future__ import annotations

import typer

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
