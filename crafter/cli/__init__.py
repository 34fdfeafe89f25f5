"""The `crafter` command: a thin shell over the library.

Each area registers its own commands from its own module on :data:`crafter.cli.app.app`
or on the :data:`~crafter.cli.app.bench` sub-app; importing this package registers them
all. Errors a user can act on (:class:`CrafterError`) become one readable line and exit
code 1, never a traceback.
"""

from __future__ import annotations

# every module below registers its commands on `app` / `bench` when imported
from crafter.cli import charts as _charts  # noqa: F401  crafter chart, crafter bench chart
from crafter.cli import figures as _figures  # noqa: F401  crafter render, validate, schema, bench render
from crafter.cli import formats as _formats  # noqa: F401  crafter import, vegalite, sanitize, bench export
from crafter.cli import model as _model  # noqa: F401  crafter complete, train, bench decode
from crafter.cli import pipeline as _pipeline  # noqa: F401  crafter generate/edit/runs/resume, bench pipeline
from crafter.cli import serve as _serve  # noqa: F401  crafter serve, export-model, bench serve
from crafter.cli.app import app, bench, fail
from crafter.cli.support import run_app

__all__ = ["app", "bench", "fail", "main"]


def main(argv: list[str] | None = None) -> int:
    """Console-script entry point: run the CLI, turning user errors into one line."""
    return run_app(app, argv)

