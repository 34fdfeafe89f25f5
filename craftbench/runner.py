"""Runs: every (case, system) pair once, scored, one JSONL line each; resumable.

``results.jsonl`` is appended line by line (flushed), so a killed run loses at most
the pairs in flight; a rerun reads it and skips finished pairs. Work goes through an
executor: ``local`` (a process pool, or in-process with one worker) or ``ray``.
"""

from __future__ import annotations

import json
import os
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any, Callable, Iterable

from craftbench import metrics
from craftbench.cases import Case, load_cases
from craftbench.systems import SystemOutput, get_system, run_system
from crafter.formats.files import write_text_atomic
from crafter.formats.svg import load_svg
from crafter.spec import Figure

VISUAL = {"sketch", "vectorize", "complete"}
DEFAULT_TIMEOUT = 600.0  # seconds per (case, system): one pathological input must not hold a run


def score(case: Case, out: SystemOutput, case_dir: Path) -> dict[str, Any]:
    """All metrics that apply to this case's condition."""
    row: dict[str, Any] = {"seconds": round(out.seconds, 4), "valid": 0.0}
    if out.error:
        row["error"] = out.error
    truth = case.truth_figure()
    fig = out.figure
    if fig is None and out.svg and not out.error:
        fig = _figure_from_svg(out.svg)
    if fig is not None:
        row["valid"] = 1.0
    pred = fig if fig is not None else Figure()
    if case.condition == "repair":
        faulty = Figure.from_dict(case.inputs["faulty"])
        row.update(metrics.repair_scores(truth, faulty, pred, case.inputs["fault_ids"], case.inputs["fault"]))
    if case.condition == "prose":  # the written corpus's rules: aliases, arrows by direction, groups by members
        row.update(metrics.prose_scores(truth, pred, case.inputs.get("aliases")))
    else:
        row.update(metrics.component_scores(truth, pred))
    row["text_cer"] = metrics.text_cer(truth, pred)
    err = metrics.chart_error(truth, pred)
    if err is not None:
        row["chart_error"] = err
    if fig is not None and any(getattr(c, "box", None) is not None for c in fig.components):
        row.update(metrics.layout_quality(fig))
    if out.svg:
        row.update(metrics.editability(out.svg, truth))
        ref = case_dir / "reference.png"
        if case.condition in VISUAL and ref.exists():
            try:
                row["ssim"] = metrics.ssim(ref.read_bytes(), candidate_svg=out.svg)
            except Exception as e:  # an SVG cairo cannot draw scores zero
                row["ssim"] = 0.0
                row.setdefault("error", f"render: {e}")
    else:
        row.update({"text_as_text": 0.0, "primitive_share": 0.0, "elements": 0.0})
        if case.condition in VISUAL:
            row["ssim"] = 0.0
    for key in ("tokens_per_forward", "tokens_per_second", "rounds", "issues_found", "issues_fixed"):
        if key in out.stats:
            row[key] = out.stats[key]
    return row


def _figure_from_svg(svg: str) -> Figure | None:
    try:
        return load_svg(svg)
    except Exception:
        return None


def _one(args: tuple[str, dict[str, Any], str, str, float | None]) -> dict[str, Any]:
    system_name, case_data, suite_dir, out_dir, timeout = args
    case = Case(**case_data)
    case_dir = Path(suite_dir) / case.id
    system = get_system(system_name)
    out = run_system(system, case, case_dir, timeout=timeout)
    row = {"case": case.id, "system": system_name, "figure_type": case.figure_type, "condition": case.condition,
           "features": case.features}
    row.update(score(case, out, case_dir))
    if out.svg:
        svg_dir = Path(out_dir) / "outputs" / _safe(system_name)
        svg_dir.mkdir(parents=True, exist_ok=True)
        (svg_dir / f"{case.id}.svg").write_text(out.svg, encoding="utf-8")
    return row


def _safe(name: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in name)


def run_benchmark(
    suite_dir: Path,
    systems: Iterable[str],
    out_dir: Path,
    *,
    workers: int = 1,
    executor: str = "local",
    on_result: Callable[[dict[str, Any]], None] | None = None,
    timeout: float | None = DEFAULT_TIMEOUT,
) -> Path:
    """Run every supported (case, system) pair not yet in ``out_dir/results.jsonl``.

    timeout: seconds per pair; a pair still running then is recorded as a timed-out
    failure and the run goes on (None: no limit).
    """
    cases = load_cases(suite_dir)
    systems = list(systems)
    for name in systems:
        get_system(name)  # unknown names fail before any work starts
    out_dir.mkdir(parents=True, exist_ok=True)
    results = out_dir / "results.jsonl"
    done = set()
    if results.exists():
        good, cut = [], False
        for line in results.read_text(encoding="utf-8").splitlines():
            try:
                r = json.loads(line)
                done.add((r["case"], r["system"]))
                good.append(line)
            except (json.JSONDecodeError, KeyError):
                cut = True  # a line cut by a kill: that pair runs again
        if cut:  # drop the fragment so the next line appended starts clean

            write_text_atomic(results, "".join(line + "\n" for line in good))
    (out_dir / "run.json").write_text(json.dumps({"suite_dir": str(suite_dir), "systems": systems}, indent=2))
    todo = []
    for case in cases:
        for name in systems:
            system = get_system(name)
            if (case.id, name) in done:
                continue
            if not system.supports(case):
                continue
            todo.append((name, case.__dict__, str(suite_dir), str(out_dir), timeout))

    def emit(row: dict[str, Any]) -> None:
        with results.open("a", encoding="utf-8") as f:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
            f.flush()
            os.fsync(f.fileno())
        if on_result:
            on_result(row)

    if executor == "ray":
        import ray  # heavy: an optional extra (crafter[ray]); only the ray executor needs it

        if not ray.is_initialized():
            ray.init(num_cpus=max(1, workers), include_dashboard=False)
        remote = ray.remote(_one)
        pending = [remote.remote(t) for t in todo]
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            emit(ray.get(ready[0]))
    elif workers <= 1:
        for t in todo:
            emit(_one(t))
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(_one, t) for t in todo]
            for fut in as_completed(futures):
                emit(fut.result())
    return results


def read_results(run_dir: Path) -> list[dict[str, Any]]:
    path = run_dir / "results.jsonl"
    if not path.exists():
        raise FileNotFoundError(f"{path}: no results (run `craftbench run` first)")
    rows, seen = [], set()
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        key = (row.get("case"), row.get("system"))
        if key not in seen:  # two runs writing one folder at once: count each pair once
            seen.add(key)
            rows.append(row)
    return rows
