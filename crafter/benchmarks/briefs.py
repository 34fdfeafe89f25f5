"""``crafter bench briefs``: how much of a written brief's figure each backend recovers.

Every brief of a split of the written corpus (:mod:`crafter.corpora.briefs`) goes through
the whole pipeline as ``crafter generate`` runs it (plan, layout, critique, repair), once per
backend, in memory; the figure it ends with is scored against the brief's gold figure by the
rules of :mod:`crafter.corpora.scoring` (the same rules as CraftBench's prose track). The
table gives node, edge and group precision / recall / F1, micro-averaged over the briefs,
overall and per writing style, field and phenomenon, and seconds per brief. Numbers are
printed, never asserted.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Iterable

from crafter.corpora import Brief, FigureScore, load_briefs, score_figure, split_sha256, total
from crafter.errors import CrafterError
from crafter.graph import generate
from crafter.spec import Figure


@dataclass
class BriefResult:
    brief: Brief
    score: FigureScore
    seconds: float
    figure: Figure | None = None
    error: str | None = None


@dataclass
class BackendRun:
    backend: str
    results: list[BriefResult] = field(default_factory=list)

    @property
    def seconds_per_brief(self) -> float:
        return sum(r.seconds for r in self.results) / max(len(self.results), 1)

    @property
    def failed(self) -> int:
        return sum(r.error is not None for r in self.results)

    def score(self, keep: Callable[[Brief], bool] = lambda b: True) -> FigureScore:
        return total(r.score for r in self.results if keep(r.brief))


def run_brief(brief: Brief, backend: str, rounds: int) -> BriefResult:
    """One brief through the pipeline; a run that fails scores as an empty figure."""
    t0 = time.perf_counter()
    fig, error = None, None
    try:
        fig = generate(brief.text, backend=backend, rounds=rounds, persist=False).figure
    except CrafterError as e:
        error = str(e)
    seconds = time.perf_counter() - t0
    score = score_figure(brief.gold, fig if fig is not None else Figure(components=[]), brief.aliases)
    return BriefResult(brief, score, seconds, fig, error)


def run_briefs_bench(split: str = "dev", backends: Iterable[str] = ("none",), *, limit: int | None = None,
                     rounds: int = 3, progress: Callable[[str, int, int], None] | None = None) -> list[BackendRun]:
    """Each backend over the split's briefs (the first ``limit`` in id order, when given)."""
    briefs = list(load_briefs(split))[:limit]
    runs = []
    for spec in backends:
        run = BackendRun(spec)
        for i, b in enumerate(briefs):
            run.results.append(run_brief(b, spec, rounds))
            if progress is not None:
                progress(spec, i + 1, len(briefs))
        runs.append(run)
    return runs


def _cell(s: FigureScore, what: str) -> str:
    prf = getattr(s, what)
    return f"{prf.precision:.2f}/{prf.recall:.2f}/{prf.f1:.2f}"


def _breakdown(runs: list[BackendRun], title: str, values: Iterable[str],
               keep: Callable[[Brief, str], bool]) -> list[str]:
    lines = [f"{title} (node F1 / edge F1 / group F1; briefs)"]
    for v in values:
        n = sum(keep(r.brief, v) for r in runs[0].results)
        if not n:
            continue
        cells = []
        for run in runs:
            s = run.score(lambda b, v=v: keep(b, v))
            cells.append(f"{s.nodes.f1:.2f} / {s.edges.f1:.2f} / {s.groups.f1:.2f}")
        lines.append(f"  {v:<24}" + "".join(f"{c:>22}" for c in cells) + f"  ({n})")
    return lines


def format_report(runs: list[BackendRun], split: str, *, worst: int = 0) -> str:
    """The table ``crafter bench briefs`` prints: backends side by side."""
    if not runs or not runs[0].results:
        return "no briefs"
    n = len(runs[0].results)
    head = f"{'':<26}" + "".join(f"{r.backend:>22}" for r in runs)
    lines = [f"split {split}: {n} briefs (sha256 {split_sha256(split)[:12]}…); whole pipeline per brief, in memory",
             "precision/recall/F1, micro-averaged", head]
    for what in ("nodes", "edges", "groups"):
        lines.append(f"  {what:<24}" + "".join(f"{_cell(r.score(), what):>22}" for r in runs))
    lines.append(f"  {'seconds per brief':<24}" + "".join(f"{r.seconds_per_brief:>22.2f}" for r in runs))
    lines.append(f"  {'failed runs':<24}" + "".join(f"{r.failed:>22d}" for r in runs))
    styles = sorted({r.brief.style for r in runs[0].results})
    fields = sorted({r.brief.field for r in runs[0].results})
    phen = sorted({p for r in runs[0].results for p in r.brief.phenomena})
    lines += [""] + _breakdown(runs, "per style", styles, lambda b, v: b.style == v)
    lines += [""] + _breakdown(runs, "per field", fields, lambda b, v: b.field == v)
    lines += [""] + _breakdown(runs, "per phenomenon", phen, lambda b, v: v in b.phenomena)
    if worst:
        lines += ["", f"worst {worst} briefs of {runs[0].backend} (node F1, edge F1):"]
        ranked = sorted(runs[0].results, key=lambda r: (r.score.nodes.f1 + r.score.edges.f1, r.brief.id))
        for r in ranked[:worst]:
            lines.append(f"  {r.brief.id:<28} {r.score.nodes.f1:.2f} {r.score.edges.f1:.2f}  "
                         f"{r.brief.text[:90]!r}")
    return "\n".join(lines)


def report_json(runs: list[BackendRun], split: str) -> dict:
    """The same numbers for machines: per backend and per brief."""
    def prf(s: FigureScore) -> dict:
        return {k: {"tp": getattr(s, k).tp, "pred": getattr(s, k).n_pred, "gold": getattr(s, k).n_gold,
                    "f1": round(getattr(s, k).f1, 4)} for k in ("nodes", "edges", "groups")}
    return {"split": split, "sha256": split_sha256(split), "backends": [
        {"backend": r.backend, "seconds_per_brief": round(r.seconds_per_brief, 3), "failed": r.failed,
         "score": prf(r.score()),
         "briefs": [{"id": x.brief.id, "seconds": round(x.seconds, 3), "error": x.error, **prf(x.score)}
                    for x in r.results]} for r in runs]}
