"""``crafter bench cli``: how long a command takes to start, in fresh processes.

A command imports only the module that registers it (:data:`crafter.cli.COMMANDS`), so a
render never pays for PyTorch or LangGraph. This prints the time to a command's ``--help``
(imports and argument parsing, no work) for a few commands, side by side with loading every
command module, as the CLI did before (``CRAFTER_CLI_LOAD_ALL=1``).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

import typer

from crafter.cli.app import bench

CASES = (("render", "--help"), ("chart", "--help"), ("import", "--help"), ("generate", "--help"))


def _seconds(argv: tuple[str, ...], load_all: bool) -> float:
    env = dict(os.environ, CRAFTER_CLI_LOAD_ALL="1" if load_all else "")
    code = "import sys; from crafter.cli import main; sys.exit(main(sys.argv[1:]))"
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", code, *argv], env=env, check=True, capture_output=True)
    return time.perf_counter() - t0


@bench.command("cli")
def bench_cli(repeat: int = typer.Option(3, "--repeat", min=1, help="Runs per case (the median is shown)")) -> None:
    """Start-up time of CLI commands: only the command's module vs every module loaded.

    Example: crafter bench cli --repeat 3
    """
    typer.echo(f"{'command':<22}{'own module (s)':>16}{'all modules (s)':>17}{'ratio':>8}")
    for argv in CASES:
        own = statistics.median(_seconds(argv, False) for _ in range(repeat))
        every = statistics.median(_seconds(argv, True) for _ in range(repeat))
        typer.echo(f"{' '.join(argv):<22}{own:>16.2f}{every:>17.2f}{every / own:>7.1f}×")
    typer.echo(f"(median of {repeat} fresh processes each; load average {os.getloadavg()[0]:.1f})")
