"""The one way a Crafter console script runs a typer app: user errors become one line.

Shared by ``crafter``, ``crafteditor`` and ``craftbench``: a :class:`CrafterError` (and the
plain ``FileNotFoundError``/``KeyError``/``ValueError`` a library raises for a bad name
or path) prints ``error: …`` and exits 1; usage errors print click's message and exit 2;
Ctrl-C exits 130. Anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

from typing import Any

# typer vendors its own click (typer._click); accept either click's exceptions
import click
import typer

from crafter.errors import CrafterError

try:  # pragma: no cover - depends on the installed typer
    from typer._click import exceptions as _typer_click
except ImportError:  # pragma: no cover
    _typer_click = None
_TyperClickException = getattr(_typer_click, "ClickException", None)
_TyperAbort = getattr(_typer_click, "Abort", None)

_CLICK_ERRORS = tuple(t for t in (click.ClickException, _TyperClickException) if isinstance(t, type))
_ABORTS = tuple(t for t in (click.exceptions.Abort, _TyperAbort, typer.Abort) if isinstance(t, type))


def run_app(app: Any, argv: list[str] | None = None, *, user_errors: tuple[type[BaseException], ...] = ()) -> int:
    """Run ``app`` and return the exit code instead of raising."""
    try:
        # with standalone_mode=False click returns a typer.Exit's code instead of raising it
        rc = app(args=argv, standalone_mode=False)
    except CrafterError as e:
        typer.echo(f"error: {e}", err=True)
        return 1
    except user_errors as e:  # type: ignore[misc]
        typer.echo(f"error: {e.args[0] if getattr(e, 'args', None) else e}", err=True)
        return 1
    except typer.Exit as e:
        return e.exit_code
    except _CLICK_ERRORS as e:  # usage errors: unknown command, missing option
        e.show()
        return e.exit_code
    except (KeyboardInterrupt, *_ABORTS):
        typer.echo("interrupted", err=True)
        return 130
    return rc if isinstance(rc, int) else 0
