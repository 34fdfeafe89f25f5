"""Every CLI command has help with an example; user errors are one line, never a traceback."""

from __future__ import annotations

import subprocess
import sys

import click
import pytest
import typer.main

from crafter.cli import COMMANDS as COMMAND_MODULES
from crafter.cli import app, load_commands, main

load_commands()  # every module registers its commands on `app`


def _commands(group: click.Group, prefix: tuple[str, ...] = ()):
    for name, cmd in group.commands.items():
        if hasattr(cmd, "commands"):  # a typer group is not always a click.Group
            yield from _commands(cmd, prefix + (name,))
        else:
            yield prefix + (name,), cmd


def _all_commands():
    from craftbench.cli import app as bench_app
    from crafteditor.cli import app as editor_app

    for prog, typer_app in (("crafter", app), ("crafteditor", editor_app), ("craftbench", bench_app)):
        for path, cmd in _commands(typer.main.get_command(typer_app)):
            yield (prog, *path), cmd


COMMANDS = list(_all_commands())


@pytest.mark.parametrize("path,cmd", COMMANDS, ids=lambda x: " ".join(x) if isinstance(x, tuple) else "")
def test_every_command_has_help_with_example(path, cmd) -> None:
    assert cmd.help and cmd.help.strip(), f"{' '.join(path)} has no help"
    assert "Example" in cmd.help, f"{' '.join(path)} help has no example"


def test_missing_file_is_one_line(capsys) -> None:
    assert main(["validate", "does-not-exist.dsl"]) == 1
    err = capsys.readouterr().err.strip()
    assert err == "error: does-not-exist.dsl: no such file"


def test_syntax_error_is_one_line(tmp_path, capsys) -> None:
    f = tmp_path / "bad.dsl"
    f.write_text('a node "A"\nb node "B" fill\n')
    assert main(["validate", str(f)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "line 2" in err[0] and "expected '='" in err[0]


def test_console_script_exit_code(tmp_path) -> None:
    f = tmp_path / "bad.json"
    f.write_text("{not json")
    proc = subprocess.run([sys.executable, "-m", "crafter.cli", "validate", str(f)], capture_output=True, text=True)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr and "invalid JSON" in proc.stderr


def test_schema_command(tmp_path) -> None:
    out = tmp_path / "schema.json"
    assert main(["schema", "-o", str(out)]) == 0
    import json

    schema = json.loads(out.read_text())
    assert schema["title"] == "Crafter FigureSpec"
    assert "Node" in schema["$defs"] and "Edge" in schema["$defs"]


@pytest.mark.parametrize("argv", [["nosuchcmd"], ["render", "x.dsl"]])
def test_usage_errors_are_short_not_tracebacks(argv, capsys) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "Error:" in err


def test_module_entry_point_sees_every_command() -> None:
    proc = subprocess.run([sys.executable, "-m", "crafter.cli", "--help"], capture_output=True, text=True)
    assert proc.returncode == 0 and "generate" in proc.stdout and "chart" in proc.stdout


def test_test_modules_have_unique_names() -> None:
    """pytest imports test folders without __init__.py by basename: two test_cli.py break collection."""
    from collections import Counter
    from pathlib import Path

    names = Counter(p.name for p in Path(__file__).resolve().parents[1].rglob("*.py") if p.name != "conftest.py")
    assert [n for n, k in names.items() if k > 1] == []


def test_the_command_map_says_which_module_registers_each_command() -> None:
    registered = {" ".join(path) for path, _ in _commands(typer.main.get_command(app))}
    mapped = {name for names in COMMAND_MODULES.values() for name in names}
    assert registered == mapped


def test_a_drawing_command_starts_without_the_model_or_the_graph() -> None:
    code = ("import sys; from crafter.cli import main; rc = main(['render', '--help']); "
            "print(sorted(m for m in ('torch', 'langgraph', 'transformers') if m in sys.modules)); sys.exit(rc)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "[]"
