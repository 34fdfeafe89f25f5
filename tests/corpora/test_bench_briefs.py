"""`crafter bench briefs` and the brief on the command line (stdin, @file, a bullet list after --)."""

from __future__ import annotations

import json
import subprocess
import sys

from crafter.benchmarks.briefs import format_report, run_briefs_bench
from crafter.cli import main


def test_the_table_puts_backends_side_by_side() -> None:
    runs = run_briefs_bench("dev", ["none", "none"], limit=3, rounds=0)
    text = format_report(runs, "dev", worst=2)
    assert "split dev: 3 briefs" in text
    nodes = next(line for line in text.splitlines() if line.strip().startswith("nodes"))
    assert len(nodes.split()) == 3 and nodes.split()[1] == nodes.split()[2]  # the same backend, the same numbers
    assert "per style" in text and "per phenomenon" in text and "worst 2 briefs" in text


def test_the_command_writes_json_per_brief(tmp_path, capsys) -> None:
    out = tmp_path / "briefs.json"
    assert main(["bench", "briefs", "--split", "dev", "--backend", "none", "--limit", "2", "--rounds", "0",
                 "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["split"] == "dev" and len(data["backends"][0]["briefs"]) == 2
    assert "nodes" in capsys.readouterr().out


def test_an_unknown_split_is_one_line(capsys) -> None:
    assert main(["bench", "briefs", "--split", "holdout", "--backend", "none"]) == 1
    assert "unknown split 'holdout'" in capsys.readouterr().err


def _generate(tmp_path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "crafter.cli", "generate", "--backend", "none", "--rounds", "0", "-q",
           "--db", str(tmp_path / "runs.sqlite"), "-o", str(tmp_path / "fig.dsl"), *args]
    return subprocess.run(cmd, input=stdin, capture_output=True, text=True, timeout=300)


def test_a_bullet_list_brief_goes_after_double_dash(tmp_path) -> None:
    r = _generate(tmp_path, "--", "- Encoder: reads the image\n- Decoder: writes the caption")
    assert r.returncode == 0, r.stderr
    text = (tmp_path / "fig.dsl").read_text()
    assert "Encoder" in text and "Decoder" in text


def test_a_brief_from_a_file_or_stdin(tmp_path) -> None:
    (tmp_path / "brief.md").write_text("The tokenizer feeds the encoder, which feeds the classifier.")
    r = _generate(tmp_path, "@" + str(tmp_path / "brief.md"))
    assert r.returncode == 0, r.stderr
    assert "classifier" in (tmp_path / "fig.dsl").read_text().lower()
    r = _generate(tmp_path, "-", stdin="A sensor sends readings to a filter, which drives the motor.")
    assert r.returncode == 0, r.stderr
    assert "filter" in (tmp_path / "fig.dsl").read_text().lower()
