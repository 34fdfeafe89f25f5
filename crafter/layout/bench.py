"""Layout timings: :func:`bench_layout` lays out a synthetic diagram and reports milliseconds.

Run ``python -m crafter.layout.bench`` (sizes as arguments, default 10 30 100) to print
them; ``crafter bench render`` (``crafter.render.bench``) reports layout and rendering
together on the same figures. Node's start-up is reported on its own: it is paid once per
process, not per figure.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

from crafter.layout.figure import ELK_MAX_LEAVES, layout_figure
from crafter.spec.model import Figure


def bench_figure(n_nodes: int) -> Figure:
    """The renderer's benchmark diagram (a chain with branches and two groups), for comparable numbers."""
    from crafter.render.bench import bench_figure as render_bench_figure

    return render_bench_figure(n_nodes)


def engine_startup(engine: str = "auto") -> dict:
    """Start the layout engine if it needs starting; report what it is and how long that took.

    For ELK: ``startup_ms`` (launching Node and loading elkjs, until it answers) and
    ``warmup_ms`` (waiting for the background warm-up layouts that let V8 compile ELK).
    """
    if engine == "python":
        return {"engine": "python", "startup_ms": 0.0}
    from crafter.layout import elk

    if not elk.elk_available():
        return {"engine": "python", "startup_ms": 0.0, "elk_unavailable": elk.unavailable_reason()}
    srv = elk.server()
    # Node compiles ELK while it warms up in the background; a benchmark waits for that
    warmup_ms = srv.warm_up() * 1000
    return {"engine": "elk", "elkjs": srv.elkjs_version, "startup_ms": round(srv.startup_ms or 0.0, 1),
            "warmup_ms": round(warmup_ms, 1)}


def bench_layout(n_nodes: int, *, engine: str = "auto", repeats: int = 5) -> dict:
    """Time ``layout_figure`` on an ``n_nodes`` diagram.

    Returns ``{"nodes", "edges", "engine", "startup_ms", "first_ms", "median_ms", "min_ms",
    "cpu_ms"}``: start-up of the engine (Node + elkjs, once per process), the first (cold)
    layout of this figure, the median and best wall time of ``repeats`` warm runs, and the
    median CPU time of a warm run (Python plus the Node process): on a busy machine the
    wall time mostly measures the other processes, the CPU time what layout costs.
    """
    info = engine_startup(engine)
    fig = bench_figure(n_nodes)
    used = info["engine"]
    if engine == "auto" and n_nodes > ELK_MAX_LEAVES:
        used = "python"
    srv = None
    if used == "elk":
        from crafter.layout import elk

        srv = elk.server()
    t0 = time.perf_counter()
    layout_figure(fig, engine=engine)
    first = (time.perf_counter() - t0) * 1000
    runs, cpu = [], []
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        layout_figure(fig, engine=engine)
        runs.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000 + (srv.last_cpu_ms if srv is not None else 0.0))
    return {
        "nodes": n_nodes,
        "edges": len(fig.of_kind("edge")),
        "engine": used,
        "startup_ms": info["startup_ms"],
        "first_ms": round(first, 1),
        "median_ms": round(statistics.median(runs), 1) if runs else round(first, 1),
        "min_ms": round(min(runs), 1) if runs else round(first, 1),
        "cpu_ms": round(statistics.median(cpu), 1) if cpu else None,
    }


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    sizes = [int(a) for a in args if a.isdigit()] or [10, 30, 100]
    engines = [a for a in args if not a.isdigit()] or ["auto", "python"]
    for engine in engines:
        info = engine_startup(engine)
        warm = f", warm-up {info['warmup_ms']:.0f} ms more" if "warmup_ms" in info else ""
        print(f"engine {engine}: {info['engine']}, start-up {info['startup_ms']:.0f} ms{warm}")
        for n in sizes:
            r = bench_layout(n, engine=engine, repeats=5 if n <= 300 else 1)
            print(f"  {r['nodes']:>5} nodes {r['edges']:>5} edges  first {r['first_ms']:8.1f} ms  "
                  f"median {r['median_ms']:8.1f} ms  best {r['min_ms']:8.1f} ms  CPU {r['cpu_ms']:8.1f} ms"
                  f"  ({r['engine']})")
    try:
        load = os.getloadavg()[0]
        print(f"(load average {load:.1f} on {os.cpu_count()} cores: wall times grow with it, CPU times do not)")
    except OSError:
        pass


if __name__ == "__main__":
    main()
