"""Chart rendering throughput: Crafter's renderer next to matplotlib's SVG backend (and vl-convert).

The same three charts (grouped bars, loss curves, a latency scatter; the example tables)
are drawn by each renderer in one process; the first call of each is timed on its own
(it pays for imports and caches), the rest give charts per second. Text stays text in
every SVG (matplotlib with ``svg.fonttype = none``) so the outputs are comparable.
"""

from __future__ import annotations

import io
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from crafter.base.theme import OKABE_ITO
from crafter.charts.build import make_chart
from crafter.charts.render.painter import chart_svg
from crafter.data import read_table
from crafter.formats.vegalite import to_vegalite

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "data"


@dataclass
class BenchRow:
    chart: str
    renderer: str
    first_ms: float
    per_chart_ms: float
    svg_bytes: int

    @property
    def charts_per_s(self) -> float:
        return 1000.0 / self.per_chart_ms if self.per_chart_ms > 0 else float("inf")


def _records() -> dict[str, list[dict[str, Any]]]:
    return {
        "bar": read_table(EXAMPLES / "accuracy.csv").to_records(),
        "line": read_table(EXAMPLES / "loss_curves.tsv").to_records(),
        "scatter": read_table(EXAMPLES / "latency.csv").to_records(),
    }


def _charts(records: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    loss = [r for r in records["line"] if r["seed"] == 0]
    return {
        "bar": make_chart(records["bar"], x="model", y="top1_accuracy", color="dataset", id="bar"),
        "line": make_chart(loss, x="step", y="train_loss", color="model", mark="line", yscale="log", id="line"),
        "scatter": make_chart(records["scatter"], x="latency_ms", y="top1_accuracy", color="family", mark="point",
                              id="scatter"),
    }


def _matplotlib_svg(kind: str, records: list[dict[str, Any]]) -> str:
    """The same chart drawn by matplotlib (object API, no pyplot), as SVG text."""
    import matplotlib  # heavy: 0.3 s to import; only this benchmark draws with it
    from matplotlib.figure import Figure

    with matplotlib.rc_context({"svg.fonttype": "none", "font.family": "DejaVu Sans", "font.size": 7.5}):
        fig = Figure(figsize=(3.3, 2.4))
        ax = fig.subplots()
        if kind == "bar":
            models = list(dict.fromkeys(r["model"] for r in records))
            sets = list(dict.fromkeys(r["dataset"] for r in records))
            w = 0.8 / len(sets)
            for j, d in enumerate(sets):
                vals = [next(r["top1_accuracy"] for r in records if r["model"] == m and r["dataset"] == d) for m in models]
                ax.bar([i - 0.4 + w * (j + 0.5) for i in range(len(models))], vals, w, label=d, color=OKABE_ITO[j])
            ax.set_xticks(range(len(models)), models, rotation=45, ha="right")
            ax.set_ylabel("top1 accuracy")
        elif kind == "line":
            for j, m in enumerate(dict.fromkeys(r["model"] for r in records)):
                pts = [(r["step"], r["train_loss"]) for r in records if r["model"] == m and r["seed"] == 0]
                ax.plot([p[0] for p in pts], [p[1] for p in pts], label=m, color=OKABE_ITO[j])
            ax.set_yscale("log")
            ax.set_xlabel("step")
            ax.set_ylabel("train loss")
        else:
            for j, f in enumerate(dict.fromkeys(r["family"] for r in records)):
                pts = [(r["latency_ms"], r["top1_accuracy"]) for r in records if r["family"] == f]
                ax.scatter([p[0] for p in pts], [p[1] for p in pts], label=f, color=OKABE_ITO[j], s=20)
            ax.set_xlabel("latency (ms)")
            ax.set_ylabel("top1 accuracy")
        ax.legend(frameon=False)
        ax.grid(True, color="#E3E3E3", linewidth=0.6)
        buf = io.StringIO()
        fig.savefig(buf, format="svg", bbox_inches="tight")
        return buf.getvalue()


def _time(fn: Callable[[], str], n: int) -> tuple[float, float, int]:
    t0 = time.perf_counter()
    out = fn()
    first = time.perf_counter() - t0
    t0 = time.perf_counter()
    for _ in range(n):
        out = fn()
    per = (time.perf_counter() - t0) / max(1, n)
    return first * 1000, per * 1000, len(out.encode("utf-8"))


def run_bench(n: int = 30, *, vl_convert: bool = True, kinds: tuple[str, ...] = ("bar", "line", "scatter")) -> list[BenchRow]:
    """Time each renderer on each chart: ``n`` charts after a separately timed first call."""
    records = _records()
    charts = _charts(records)
    rows: list[BenchRow] = []
    for kind in kinds:
        chart = charts[kind]
        f, p, size = _time(lambda: chart_svg(chart), n)
        rows.append(BenchRow(kind, "crafter", f, p, size))
        f, p, size = _time(lambda: _matplotlib_svg(kind, records[kind if kind != "line" else "line"]), max(3, n // 3))
        rows.append(BenchRow(kind, "matplotlib (svg)", f, p, size))
        if vl_convert:
            try:
                import vl_convert as vlc  # heavy: a JavaScript engine; only the optional comparison uses it

                spec = to_vegalite(chart)
                f, p, size = _time(lambda: vlc.vegalite_to_svg(spec), max(3, n // 3))
                rows.append(BenchRow(kind, "vl-convert", f, p, size))
            except ImportError:  # pragma: no cover
                pass
    return rows


def format_rows(rows: list[BenchRow]) -> str:
    head = f"{'chart':<8} {'renderer':<18} {'first call':>11} {'per chart':>10} {'charts/s':>9} {'SVG':>8}"
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(f"{r.chart:<8} {r.renderer:<18} {r.first_ms:>8.1f} ms {r.per_chart_ms:>7.2f} ms "
                     f"{r.charts_per_s:>9.1f} {r.svg_bytes / 1024:>6.1f}kB")
    return "\n".join(lines)
