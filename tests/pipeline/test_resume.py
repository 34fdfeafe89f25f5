"""Durable runs: a run SIGKILLed mid-way and resumed ends with the same figure as an uninterrupted run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from pipeline_script import ADD_CLASSIFIER, BRIEF, PLAN

from crafter.graph.pipeline import generate, list_runs, resume
from crafter.spec import print_dsl

CLI = [sys.executable, "-c", "import sys; from crafter.cli import main; sys.exit(main())"]


def _script(path: Path, *, slow: str | None, marker: Path | None) -> Path:
    """A backend script: the plan, and the repair that adds the classifier; ``slow`` stalls one task."""
    plan = {"task": "plan", "text": PLAN}
    repair = {"task": "repair", "match": "Classifier", "text": ADD_CLASSIFIER}
    for rule in (plan, repair):
        if rule["task"] == slow:
            rule.update(delay=1.5, touch=str(marker))
    path.write_text(json.dumps({"rules": [plan, repair]}))
    return path


def _kill_when(marker: Path, proc: subprocess.Popen, timeout: float = 90.0) -> None:
    t0 = time.time()
    while not marker.exists():
        if proc.poll() is not None:
            raise AssertionError(f"the run ended before the slow step: {proc.stderr.read()}")
        if time.time() - t0 > timeout:
            proc.kill()
            raise AssertionError("the slow step never started")
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()


@pytest.mark.parametrize("slow", ["repair", "plan"])
def test_killed_and_resumed_equals_uninterrupted(tmp_path, slow) -> None:
    reference = generate(BRIEF, backend=f"scripted:{_script(tmp_path / 'fast.json', slow=None, marker=None)}",
                         db_path=tmp_path / "reference.sqlite", rounds=3)
    assert reference.status == "done" and reference.issues_fixed

    db = tmp_path / "runs.sqlite"
    marker = tmp_path / "slow-step-started"
    script = _script(tmp_path / "slow.json", slow=slow, marker=marker)
    proc = subprocess.Popen(CLI + ["generate", BRIEF, "--backend", f"scripted:{script}", "--db", str(db),
                                   "--run-id", "killme", "-o", str(tmp_path / "never.svg"), "-q"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _kill_when(marker, proc)
    assert proc.returncode == -signal.SIGKILL
    assert not (tmp_path / "never.svg").exists()
    [info] = list_runs(db)
    assert info.run_id == "killme" and info.shown_status == "interrupted" and info.resumable

    resumed = resume("killme", db_path=db)
    assert resumed.status == "done", resumed.message
    assert print_dsl(resumed.figure) == print_dsl(reference.figure)
    assert len(resumed.issues_fixed) == len(reference.issues_fixed)
    assert list_runs(db)[0].shown_status == "done"


def test_resume_from_the_cli(tmp_path) -> None:
    db = tmp_path / "runs.sqlite"
    marker = tmp_path / "slow-step-started"
    script = _script(tmp_path / "slow.json", slow="repair", marker=marker)
    proc = subprocess.Popen(CLI + ["generate", BRIEF, "--backend", f"scripted:{script}", "--db", str(db),
                                   "--run-id", "cli-run", "-o", str(tmp_path / "a.svg"), "-q"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _kill_when(marker, proc)
    runs = subprocess.run(CLI + ["runs", "--db", str(db)], capture_output=True, text=True)
    assert "cli-run" in runs.stdout and "interrupted" in runs.stdout
    out = tmp_path / "resumed.svg"
    done = subprocess.run(CLI + ["resume", "cli-run", "--db", str(db), "-o", str(out), "-q"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert out.exists() and '<g id="classifier"' in out.read_text()
    assert "3 fixed" in done.stdout
