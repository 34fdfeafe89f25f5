"""The `crafter` command: a thin shell over the library.

Each area registers its own commands from its own module on :data:`crafter.cli.app.app`
or on the :data:`~crafter.cli.app.bench` sub-app. Errors a user can act on
(:class:`CrafterError`) become one readable line and exit code 1, never a traceback.

Start-up: a command imports only the module that registers it, so ``crafter render`` never
loads PyTorch or LangGraph (``crafter bench cli`` prints the start-up times). ``crafter
--help`` and an unknown command load every module. :data:`COMMANDS` says which module
registers which command; a test checks it against what the modules register.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterable

from crafter.cli.app import app, bench, fail
from crafter.cli.support import run_app

__all__ = ["COMMANDS", "app", "bench", "fail", "load_commands", "main"]

# module under crafter.cli -> the commands it registers ("bench NAME" for the bench sub-app)
COMMANDS: dict[str, tuple[str, ...]] = {
    "charts": ("chart", "bench chart"),
    "figures": ("render", "validate", "schema", "bench render"),
    "startup": ("bench cli",),
    "formats": ("import", "vegalite", "sanitize", "bench export"),
    "model": ("complete", "train", "train-names", "train-edits", "bench decode"),
    "pipeline": ("generate", "edit", "runs", "resume", "bench pipeline", "bench briefs"),
    "style": ("style learn", "style show", "style list", "style schema", "bench style"),
    "serve": ("serve", "bench serve"),
    "export": ("export-model",),
}


def _modules_for(argv: list[str]) -> Iterable[str]:
    words = [a for a in argv if not a.startswith("-")]
    if words and words[0] == "bench" and len(words) > 1:
        wanted = f"bench {words[1]}"
    elif words and words[0] != "bench":
        wanted = words[0]
    else:
        return COMMANDS  # `crafter`, `crafter --help`, `crafter bench`: list everything
    # a sub-app's command ("style learn") is found by its first word
    owners = [m for m, names in COMMANDS.items() if wanted in names or any(n.split()[0] == wanted for n in names)]
    return owners or COMMANDS  # an unknown command: load all, so click's message lists them


def load_commands(argv: list[str] | None = None) -> None:
    """Register the commands ``argv`` needs (all of them when ``argv`` is None)."""
    for module in COMMANDS if argv is None else _modules_for(argv):
        importlib.import_module(f"crafter.cli.{module}")


def main(argv: list[str] | None = None) -> int:
    """Console-script entry point: run the CLI, turning user errors into one line."""
    args = sys.argv[1:] if argv is None else list(argv)
    load_commands(None if os.environ.get("CRAFTER_CLI_LOAD_ALL") else args)
    return run_app(app, argv)
