"""``crafter bench pipeline``: seconds per figure over ten fixed briefs, with issues and rounds.

The briefs cover what the pipeline meets: diagrams of 4–12 nodes written as prose, lists
and arrow chains (one for a 3.3 in column, which the repair loop must make legible);
charts from a table; two-panel figures (a diagram next to a chart). Each
runs end to end through the real graph (ingest … critique/repair) with a SQLite run store
in a temporary directory. The first run of the process (imports, the layout engine's
start) is timed separately as the cold start (a chart is drawn once too, untimed, so the
chart code is loaded); p50/p95 are over the warm runs.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from crafter.graph.pipeline import generate


@dataclass(frozen=True)
class BenchCase:
    name: str
    kind: str  # diagram | chart | two_panel
    brief: str
    table: str | None = None  # CSV text
    width_in: float | None = None  # print width: a wide figure at 3.3 in must be repaired (6 pt check)


_RESULTS_CSV = """model,accuracy,params_m
ResNet-50,76.1,25.6
ViT-B/16,81.2,86.6
ConvNeXt-T,82.1,28.6
Swin-T,81.3,28.3
DeiT-S,79.8,22.1
"""
_CURVE_CSV = "epoch,loss,split\n" + "".join(
    f"{e},{round(2.4 * 0.82 ** e + 0.1, 3)},train\n{e},{round(2.5 * 0.85 ** e + 0.25, 3)},val\n" for e in range(1, 11))
_ABLATION_CSV = """variant,f1
full model,0.912
no retriever,0.844
no re-ranker,0.887
no fine-tuning,0.801
"""

CASES: tuple[BenchCase, ...] = (
    BenchCase("10-node pipeline", "diagram",
              "Raw images -> Augmentation -> Patch embedding -> Transformer encoder -> Pooling -> Projection head "
              "-> Contrastive loss. A \"Momentum encoder\" feeds a \"Memory queue\", which is passed to the "
              "contrastive loss; the \"Optimizer\" updates the transformer encoder."),
    BenchCase("encoder-decoder", "diagram", "An encoder feeds a latent code, which is passed to the decoder. "
                                            "The decoder output goes to a reconstruction loss."),
    BenchCase("numbered steps", "diagram", "The pipeline has five steps:\n1. Data collection\n2. Cleaning and "
                                           "deduplication\n3. Tokenizer training\n4. Pre-training\n5. Evaluation"),
    BenchCase("RAG", "diagram", "Documents are chunked and embedded; the embeddings are stored in a vector index. "
                                "The retriever reads from the vector index and the LLM generator receives context "
                                "from the retriever. The LLM generator produces a grounded answer."),
    BenchCase("RL loop", "diagram", "The actor sends actions to the environment; the environment returns rewards to "
                                    "the critic, and the critic updates the actor. A \"Replay buffer\" feeds the critic."),
    BenchCase("12-node bullets", "diagram",
              "- Sensor input\n- Noise filter\n- Feature extractor\n- Temporal encoder\n- Attention pooling\n"
              "- Fusion layer\n- Classifier\n- Calibration\n- Decision rule\n- Alert service\n- Dashboard\n"
              "- Audit log\nThe stages form a processing pipeline in this order.", width_in=3.3),
    BenchCase("bar chart", "chart", "Bar chart of accuracy by model.", _RESULTS_CSV),
    BenchCase("line chart", "chart", "Plot loss against epoch as lines, coloured by split.", _CURVE_CSV),
    BenchCase("two-panel ablation", "two_panel",
              "Left: the system, where a query encoder feeds a retriever, which is passed to a re-ranker and then "
              "to the generator. Right: F1 of each variant as bars.", _ABLATION_CSV),
    BenchCase("two-panel training", "two_panel",
              "Training pipeline: Data loader -> Model -> Loss -> Optimizer. Next to it, plot the loss curve over "
              "epochs for train and val.", _CURVE_CSV),
)


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    k = (len(s) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def run_bench(*, backend: str = "craftlm", rounds: int = 3, repeat: int = 1,
              progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Run every case ``repeat`` times (after one cold warm-up run); return the numbers as JSON data."""
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="crafter-bench-") as tmp:
        db = Path(tmp) / "runs.sqlite"

        def one(case: BenchCase) -> dict[str, Any]:
            data = None
            if case.table:
                data = Path(tmp) / f"{case.name.replace(' ', '_')}.csv"
                data.write_text(case.table, encoding="utf-8")
            t0 = time.perf_counter()
            try:
                r = generate(case.brief, data=data, backend=backend, rounds=rounds, db_path=db, width_in=case.width_in)
                status, message = r.status, r.message
            except Exception as e:  # a case that cannot run is reported, the bench goes on
                return {"case": case.name, "kind": case.kind, "status": "error", "message": str(e),
                        "seconds": time.perf_counter() - t0}
            return {"case": case.name, "kind": case.kind, "status": status, "message": message,
                    "seconds": time.perf_counter() - t0, "components": r.components,
                    "nodes": len(r.figure.of_kind("node")) if r.figure else 0,
                    "found": len(r.issues_found), "fixed": len(r.issues_fixed), "left": len(r.issues_left),
                    "rounds": r.rounds, "tokens_per_forward": r.tokens_per_forward, "model_calls": r.model.get("calls", 0)}

        cold = one(CASES[0])
        # the chart code (and its fonts, tick locators) loads on the first chart: warm it too, untimed
        one(next(c for c in CASES if c.kind == "chart"))
        if progress:
            progress(f"cold start: {cold['seconds']:.2f} s ({CASES[0].name})")
        for _ in range(repeat):
            for case in CASES:
                row = one(case)
                rows.append(row)
                if progress:
                    progress(f"{case.name}: {row['seconds']:.2f} s, {row['status']}")
    ok = [r for r in rows if r["status"] == "done"]
    secs = [r["seconds"] for r in ok]
    by_kind = {}
    for kind in ("diagram", "chart", "two_panel"):
        ks = [r["seconds"] for r in ok if r["kind"] == kind]
        by_kind[kind] = {"n": len(ks), "p50": _pct(ks, 0.5), "p95": _pct(ks, 0.95)}
    ten = [r["seconds"] for r in ok if r["case"] == CASES[0].name]
    return {
        "backend": backend, "rounds": rounds, "repeat": repeat, "cold_start_s": cold["seconds"],
        "runs": len(rows), "ok": len(ok), "p50_s": _pct(secs, 0.5), "p95_s": _pct(secs, 0.95),
        "ten_node_p50_s": _pct(ten, 0.5), "by_kind": by_kind,
        "issues_found": sum(r.get("found", 0) for r in ok), "issues_fixed": sum(r.get("fixed", 0) for r in ok),
        "mean_rounds": statistics.mean([r["rounds"] for r in ok]) if ok else 0.0,
        "cases": rows,
    }


def format_report(rep: dict[str, Any]) -> str:
    lines = [f"crafter bench pipeline — backend {rep['backend']}, up to {rep['rounds']} repair rounds, "
             f"{rep['repeat']} run(s) per brief", ""]
    lines.append(f"{'case':<22} {'kind':<10} {'status':<7} {'nodes':>5} {'found':>5} {'fixed':>5} {'left':>4} "
                 f"{'rounds':>6} {'seconds':>8}")
    for r in rep["cases"]:
        lines.append(f"{r['case']:<22} {r['kind']:<10} {r['status']:<7} {r.get('nodes', 0):>5} {r.get('found', 0):>5} "
                     f"{r.get('fixed', 0):>5} {r.get('left', 0):>4} {r.get('rounds', 0):>6} {r['seconds']:>8.2f}")
        if r["status"] != "done" and r.get("message"):
            lines.append(f"    {r['message']}")
    lines.append("")
    lines.append(f"seconds per figure: p50 {rep['p50_s']:.2f}, p95 {rep['p95_s']:.2f} over {rep['ok']}/{rep['runs']} "
                 f"runs (cold start {rep['cold_start_s']:.2f} s)")
    for kind, k in rep["by_kind"].items():
        if k["n"]:
            lines.append(f"  {kind:<10} p50 {k['p50']:.2f}, p95 {k['p95']:.2f} (n={k['n']})")
    lines.append(f"10-node diagram: p50 {rep['ten_node_p50_s']:.2f} s")
    lines.append(f"issues: {rep['issues_found']} found, {rep['issues_fixed']} fixed; mean rounds {rep['mean_rounds']:.2f}")
    return "\n".join(lines)
