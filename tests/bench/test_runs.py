"""A suite end to end: generate, run the sanity systems, report; reproducible and resumable."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from craftbench.cases import CONDITIONS, FIGURE_TYPES, generate_cases, write_suite
from craftbench.report import write_report
from craftbench.runner import read_results, run_benchmark


@pytest.fixture(scope="module")
def suite(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("suite")
    write_suite(generate_cases("smoke"), out)
    return out


def test_named_suite_regenerates_bit_for_bit() -> None:
    a = [c.to_json() for c in generate_cases("smoke")]
    b = [c.to_json() for c in generate_cases("smoke")]
    assert a == b


def test_suite_covers_every_cell_and_track(suite: Path) -> None:
    rows = [json.loads(line) for line in (suite / "cases.jsonl").read_text().splitlines()]
    cells = {(r["figure_type"], r["condition"]) for r in rows}
    assert {(t, c) for t in FIGURE_TYPES for c in CONDITIONS} <= cells
    assert {r["condition"] for r in rows} >= {"vectorize", "repair"}
    for r in rows:
        case_dir = suite / r["id"]
        assert (case_dir / "reference.svg").exists() and (case_dir / "reference.png").exists()
        if r["condition"] in ("sketch", "vectorize"):
            assert (case_dir / r["inputs"]["image"]).exists()
    # features are recorded per case, so coverage can be audited
    assert all("condition" in r["features"] for r in rows)


def test_reference_scores_perfectly_and_empty_scores_zero(suite: Path, tmp_path: Path) -> None:
    run_benchmark(suite, ["reference", "empty"], tmp_path)
    rows = read_results(tmp_path)
    ref = [r for r in rows if r["system"] == "reference"]
    empty = [r for r in rows if r["system"] == "empty"]
    assert ref and empty
    for r in ref:
        assert r["component_f1"] == 1.0, r["case"]
        assert r["text_cer"] == 0.0
        if "chart_error" in r:
            assert r["chart_error"] == 0.0
        if "ssim" in r and r["condition"] == "vectorize":
            assert r["ssim"] > 0.99
    for r in empty:
        assert r["component_f1"] == 0.0
    md, html = write_report(tmp_path)
    text = md.read_text()
    assert "component_f1" in text and "reference" in text and "empty" in text
    assert "data:image/png;base64," in html.read_text()


def test_run_resumes_without_redoing_work(suite: Path, tmp_path: Path) -> None:
    run_benchmark(suite, ["empty"], tmp_path)
    first = (tmp_path / "results.jsonl").read_text().splitlines()
    # simulate a kill mid-write: a truncated last line
    (tmp_path / "results.jsonl").write_text("\n".join(first[:-1]) + "\n" + first[-1][:10])
    run_benchmark(suite, ["empty"], tmp_path)
    rows = read_results(tmp_path)
    keys = [(r["case"], r["system"]) for r in rows]
    assert len(keys) == len(set(keys)) == len(first)


def test_a_case_that_runs_past_its_limit_is_recorded_and_the_run_goes_on(suite: Path) -> None:
    """A stuck system (here: sleeping inside a catch-all) is stopped at the limit, not waited for."""
    import time

    from craftbench.cases import load_cases
    from craftbench.systems import System, run_system

    class Stuck(System):
        name = "stuck"

        def run(self, case, case_dir):
            try:
                time.sleep(30)
            except Exception:  # a system's own catch-all must not swallow the limit
                pass
            raise AssertionError("not reached")

    case = load_cases(suite)[0]
    t0 = time.perf_counter()
    out = run_system(Stuck(), case, suite / case.id, timeout=0.5)
    assert time.perf_counter() - t0 < 10
    assert out.error == "timed out after 0.5 s" and out.figure is None
    import signal

    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)  # the alarm is disarmed afterwards
