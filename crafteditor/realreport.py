"""The ``real`` track of ``crafteditor bench``: scores per split and per maker, the aims, report.html.

:func:`run_bench` gives one :class:`BenchRow` per real figure; this module sums them up the
way CraftBench reports a track: per split (the frozen ``test`` split first), per style or chart
maker (:func:`crafteditor.realset.figure_group`), and the issue's aims with pass or fail on the
test split. :func:`crafteditor.realhtml.write_report` writes ``report.json`` (the summary, the aims and every
row) and ``report.html``, a page a person reads: the aims, the tables, and original | CraftEditor |
vtracer side by side for the worst figures (:mod:`crafteditor.realhtml` writes those).

Means are over the figures that have the score (node F1 only where the truth lists nodes,
chart values only where it lists values). "Fewer elements" and "CPU time" are ratios of the
means over the same figures (vtracer's mean elements over ours; our mean CPU seconds over
vtracer's), as the synthetic bench prints them.
"""

from __future__ import annotations

import statistics
from typing import Any

from crafteditor.bench import BenchRow

# key, what it means, direction, target, format
AIMS = (
    ("words", "words kept as text", ">=", 0.97, "{:.1%}"),
    ("nodes", "node F1", ">=", 0.85, "{:.3f}"),
    ("edges", "edge F1", ">=", 0.75, "{:.3f}"),
    ("values", "chart values within 2 % of the axis range", ">=", 0.90, "{:.1%}"),
    ("ssim", "SSIM of the SVG drawn back", ">=", 0.90, "{:.3f}"),
    ("fewer_elements", "times fewer elements than vtracer", ">=", 8.0, "{:.1f}×"),
    ("cpu_ratio", "times vtracer's CPU time", "<=", 4.0, "{:.1f}×"),
    ("over_budget", "figures over their time budget", "<=", 0, "{:d}"),
    ("failed", "figures that failed to convert", "<=", 0, "{:d}"),
)
SCORE_KEYS = ("words", "nodes", "edges", "values", "images", "components", "component_edges")
WORST = 8  # figures shown side by side, by each of the two orders (SSIM, words)


def _mean(values) -> float:
    vals = [float(v) for v in values if v is not None and v == v]
    return statistics.fmean(vals) if vals else float("nan")


def score_value(v: Any) -> float | None:
    """A score of :func:`score_real` as a number (a dict of chart values gives its share within 2 %)."""
    if isinstance(v, dict):
        v = v.get("within_2pct", v.get("share"))
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    return float(v)


def is_over_budget(r: BenchRow) -> bool:
    """Stages were skipped past the figure's budget, or the figure took longer than it (CPU
    time: the budget's clock, :func:`crafteditor.config.budget_clock`)."""
    return bool(r.over_budget) or (r.budget_s is not None and r.ce_cpu > r.budget_s)


def summarise(rows: list[BenchRow]) -> dict[str, Any]:
    """The track's numbers over ``rows`` (NaN where no figure has the score)."""
    out: dict[str, Any] = {"n": len(rows)}
    for k in SCORE_KEYS:
        vals = [score_value(r.scores.get(k)) for r in rows]
        vals = [v for v in vals if v is not None and v == v]
        out[k] = _mean(vals)
        out[f"n_{k}"] = len(vals)
    out["ssim"], out["vt_ssim"] = _mean(r.ce_ssim for r in rows), _mean(r.vt_ssim for r in rows)
    out["gmsd"], out["vt_gmsd"] = _mean(r.ce_gmsd for r in rows), _mean(r.vt_gmsd for r in rows)
    out["elements"], out["vt_elements"] = _mean(r.ce_elements for r in rows), _mean(r.vt_elements for r in rows)
    out["fewer_elements"] = out["vt_elements"] / out["elements"] if out["elements"] else float("nan")
    out["cpu"], out["vt_cpu"] = _mean(r.ce_cpu for r in rows), _mean(r.vt_cpu for r in rows)
    out["cpu_ratio"] = out["cpu"] / out["vt_cpu"] if out["vt_cpu"] else float("nan")
    out["seconds"] = _mean(r.ce_seconds for r in rows)
    out["read_surely"] = _mean(r.text_confidence for r in rows)
    out["over_budget"] = sum(is_over_budget(r) for r in rows)
    out["failed"] = sum(bool(r.error) for r in rows)  # scored as nothing recovered
    out["slowest"] = max((r.ce_seconds for r in rows), default=float("nan"))  # wall seconds, the slowest figure
    out["cpu_stages"] = _summed(r.cpu_stages for r in rows)  # CPU seconds per stage, summed over the figures
    out["cpu_parts"] = _summed(r.cpu_parts for r in rows)
    return out


def _summed(dicts) -> dict[str, float]:
    """Each key's sum over ``dicts``, in the order the keys first appear."""
    out: dict[str, float] = {}
    for d in dicts:
        for k, v in d.items():
            out[k] = round(out.get(k, 0.0) + float(v), 3)
    return out


def cpu_split(summary: dict[str, Any]) -> tuple[float, list[tuple[str, float]], list[tuple[str, float]]]:
    """A summary's CPU seconds over its stages, then its stages and its costly parts, costliest first."""
    stages, parts = summary.get("cpu_stages") or {}, summary.get("cpu_parts") or {}
    return (sum(stages.values()), sorted(stages.items(), key=lambda kv: -kv[1]),
            sorted(parts.items(), key=lambda kv: -kv[1]))


def format_cpu_split(summary: dict[str, Any]) -> str:
    """Where the CPU went: each stage's CPU seconds summed over the figures, and its share of our total;
    then the costly parts (they run inside the stages)."""
    total, stages, parts = cpu_split(summary)
    if not total:
        return ""
    split = ", ".join(f"{k} {v:.1f} ({v / total:.0%})" for k, v in stages)
    line = f"CPU s by stage ({summary['n']} figures, {total:.1f} s): {split}"
    if parts:
        line += "\n  of which: " + ", ".join(f"{k} {v:.1f}" for k, v in parts)
    return line


def check_aims(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """Each aim with its value on ``summary`` and whether it passes (None: no figure has the score)."""
    out = []
    for key, what, op, target, fmt in AIMS:
        v = summary.get(key, float("nan"))
        if v != v:
            passed = None
        else:
            passed = v >= target if op == ">=" else v <= target
        sign = "≥" if op == ">=" else "≤"
        out.append({"aim": key, "what": what, "target": f"{sign} {fmt.format(target)}", "value": v,
                    "shown": "—" if v != v else fmt.format(v), "pass": passed,
                    "figures": summary.get(f"n_{key}", summary["n"])})
    return out


def real_track(rows: list[BenchRow]) -> dict[str, Any]:
    """Summaries per split and per maker, and the aims on the test split (all figures where none is test)."""
    real = [r for r in rows if r.kind.startswith("real-")]
    splits = {s: summarise([r for r in real if r.split == s]) for s in ("test", "dev") if any(r.split == s for r in real)}
    splits["all"] = summarise(real)
    groups = {g: summarise([r for r in real if r.group == g]) for g in sorted({r.group for r in real})}
    # each split's own groups: a maker weak on the frozen test split and strong on dev shows here,
    # where the pooled groups above would average the two
    split_groups = {s: {g: summarise([r for r in real if r.split == s and r.group == g])
                        for g in sorted({r.group for r in real if r.split == s})}
                    for s in splits if s != "all"}
    aim_split = "test" if "test" in splits else "all"
    return {"aims_on": aim_split, "aims": check_aims(splits[aim_split]), "splits": splits, "groups": groups,
            "split_groups": split_groups,
            "perceptual": "GMSD (Xue et al. 2014; 0 = same edges, higher is worse)",
            "failed": [(r.name, r.error) for r in real if r.error]}


def shown_split_groups(track: dict[str, Any]) -> dict[str, dict[str, dict[str, Any]]]:
    """Each split's own makers, where there are two splits or more (one split alone: its makers are the
    pooled ones, shown once)."""
    return track.get("split_groups", {}) if len(track["splits"]) > 2 else {}


def worst_rows(rows: list[BenchRow], k: int = WORST) -> list[tuple[BenchRow, str]]:
    """The ``k`` lowest-SSIM figures, then the ``k`` with the fewest words kept, each once, with why."""
    real = [r for r in rows if r.kind.startswith("real-")]
    out: dict[str, tuple[BenchRow, str]] = {}
    for r in sorted(real, key=lambda r: (r.ce_ssim if r.ce_ssim == r.ce_ssim else -1.0))[:k]:
        out[r.name] = (r, f"SSIM {r.ce_ssim:.3f}")
    for r in sorted(real, key=lambda r: score_value(r.scores.get("words")) or 0.0)[:k]:
        why = f"words {score_value(r.scores.get('words')) or 0.0:.0%}"
        out[r.name] = (r, out[r.name][1] + ", " + why) if r.name in out else (r, why)
    return list(out.values())


def format_real(track: dict[str, Any]) -> str:
    """The track as text: one line per split and maker, then the aims with pass/fail."""
    head = (f"{'real track':<22}{'n':>4}{'words':>8}{'nodes':>7}{'edges':>7}{'values':>8}{'SSIM':>7}"
            f"{'vt SSIM':>8}{'GMSD':>7}{'vt GMSD':>8}{'fewer el':>9}{'CPU×vt':>8}{'over':>5}")
    lines = [head, "-" * len(head)]

    def line(name: str, s: dict[str, Any]) -> str:
        def f(v: float, fmt: str) -> str:
            return "—" if v != v else fmt.format(v)
        return (f"{name:<22}{s['n']:>4}{f(s['words'], '{:.1%}'):>8}{f(s['nodes'], '{:.2f}'):>7}"
                f"{f(s['edges'], '{:.2f}'):>7}{f(s['values'], '{:.0%}'):>8}{f(s['ssim'], '{:.3f}'):>7}"
                f"{f(s['vt_ssim'], '{:.3f}'):>8}{f(s['gmsd'], '{:.3f}'):>7}{f(s['vt_gmsd'], '{:.3f}'):>8}"
                f"{f(s['fewer_elements'], '{:.1f}×'):>9}{f(s['cpu_ratio'], '{:.1f}×'):>8}{s['over_budget']:>5}")
    for name, s in track["splits"].items():
        lines.append(line(f"split {name}", s))
    for name, s in track["groups"].items():
        lines.append(line(f"  {name}"[:21], s))
    for split, groups in shown_split_groups(track).items():
        lines.append(f"{split} split by maker:")
        lines.extend(line(f"  {name}"[:21], s) for name, s in groups.items())
    lines.append("")
    lines.append(f"aims on the {track['aims_on']} split:")
    for a in track["aims"]:
        mark = "n/a " if a["pass"] is None else ("PASS" if a["pass"] else "FAIL")
        lines.append(f"  {mark}  {a['what']:<44} {a['shown']:>8}  (aim {a['target']}, {a['figures']} figures)")
    s = track["splits"][track["aims_on"]]
    if s.get("n_components"):
        edges = f", edge F1 {s['component_edges']:.3f}" if s.get("n_component_edges") else ""
        lines.append(f"  (not an aim) with labelled groups as components: node F1 {s['components']:.3f}{edges}"
                     " (the truth lists some containers' titles as nodes)")
    for name, why in track.get("failed", []):
        lines.append(f"  failed: {name}: {why}")
    for name, sp in track["splits"].items():
        split = format_cpu_split(sp)
        if split:
            lines.append(f"split {name}: {split}")
    return "\n".join(lines)
