"""Layout and render throughput on synthetic diagrams of 10, 30 and 100 nodes.

The figures are what research diagrams look like: a main chain with side branches, two
groups, a few labelled and dashed edges. The layout engine is started first and its
start-up (launching Node and loading elkjs) is reported on its own; then each size is
laid out and rendered once to warm up and ``repeats`` times more; medians are reported.

``crafter bench render`` prints :func:`bench_render`; ``python -m crafter.benchmarks.render
[sizes…] [auto|python|elk…]`` prints :func:`bench_layout` per engine (layout alone, with
its CPU time, Node's included).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from dataclasses import dataclass

from crafter.formats import figure_to_png_bytes
from crafter.layout import elk, layout_figure
from crafter.layout.state import ELK_MAX_LEAVES
from crafter.render import draw_svg
from crafter.spec.model import Edge, Figure, Group, Node

_WORDS = ("Encoder", "Attention", "Projection", "Decoder", "Retriever", "Tokenizer", "Pooling", "Classifier",
          "Embedding", "Normalize", "Feed-forward", "Sampler")


def bench_figure(n_nodes: int) -> Figure:
    """A diagram of ``n_nodes`` nodes: a chain with a branch off every third node, and two groups."""
    chain_len = max(2, round(n_nodes * 0.6))
    comps: list = []
    nodes: list[str] = []
    for i in range(n_nodes):
        nid = f"n{i}"
        nodes.append(nid)
        label = f"{_WORDS[i % len(_WORDS)]} {i}" if i % 5 else f"{_WORDS[i % len(_WORDS)]} block with a longer label {i}"
        comps.append(Node(kind="node", id=nid, label=label, shape="round" if i % 7 == 0 else "box"))
    k = 0
    for i in range(1, chain_len):
        comps.append(Edge(kind="edge", id=f"e{k}", source=nodes[i - 1], target=nodes[i],
                          label="features" if i % 6 == 0 else None))
        k += 1
    parent = 0
    for j in range(chain_len, n_nodes):  # branches hang off the chain
        comps.append(Edge(kind="edge", id=f"e{k}", source=nodes[parent], target=nodes[j],
                          style="dashed" if j % 2 else "solid"))
        k += 1
        parent = (parent + 3) % chain_len
    third = max(1, chain_len // 3)
    comps.append(Group(kind="group", id="g0", label="Stage one", members=nodes[1:1 + third]))
    comps.append(Group(kind="group", id="g1", label="Stage two", members=nodes[1 + third:1 + 2 * third]))
    return Figure(title=None, components=comps)


@dataclass(frozen=True)
class BenchRow:
    nodes: int
    edges: int
    layout_ms: float  # median, warm
    render_ms: float  # SVG writing, median
    png_ms: float  # SVG -> PNG at 150 dpi through cairosvg (one run)
    first_layout_ms: float  # the cold first call

    @property
    def total_ms(self) -> float:
        return self.layout_ms + self.render_ms


@dataclass(frozen=True)
class BenchReport:
    engine: str
    startup_ms: float  # layout engine start-up (e.g. launching Node and loading ELK), once per process
    rows: list[BenchRow]


def bench_render(sizes: tuple[int, ...] = (10, 30, 100), repeats: int = 5, engine: str = "auto") -> BenchReport:
    """Time layout and rendering per figure size (see the module docstring)."""
    startup_ms, engine_name = _engine_startup(engine)
    rows = []
    for n in sizes:
        fig = bench_figure(n)
        t0 = time.perf_counter()
        laid = layout_figure(fig, engine=engine)
        first = (time.perf_counter() - t0) * 1000
        draw_svg(laid)
        lay, ren = [], []
        for _ in range(repeats):
            t0 = time.perf_counter()
            laid = layout_figure(fig, engine=engine)
            t1 = time.perf_counter()
            draw_svg(laid)
            t2 = time.perf_counter()
            lay.append((t1 - t0) * 1000)
            ren.append((t2 - t1) * 1000)
        t0 = time.perf_counter()
        figure_to_png_bytes(laid, 150)  # once: rasterising is the slow export, and scales with the canvas
        png_ms = (time.perf_counter() - t0) * 1000
        rows.append(BenchRow(n, len(fig.of_kind("edge")), statistics.median(lay), statistics.median(ren),
                             png_ms, first))
    return BenchReport(engine_name, startup_ms, rows)


def _engine_startup(engine: str) -> tuple[float, str]:
    """(start-up ms, engine description): starts the layout engine once and waits for its warm-up,
    so the medians below measure warm layouts (warm-up time is shown in the description)."""
    info = engine_startup(engine)
    if info["engine"] == "python":
        why = f" (ELK not available: {info['elk_unavailable']})" if info.get("elk_unavailable") else " (no start-up)"
        return 0.0, "python" + why
    return float(info["startup_ms"]), (f"ELK (elkjs {info.get('elkjs', '')}, one long-lived Node process; "
                                       f"background warm-up {info['warmup_ms']:.0f} ms)")


def engine_startup(engine: str = "auto") -> dict:
    """Start the layout engine if it needs starting; report what it is and how long that took.

    For ELK: ``startup_ms`` (launching Node and loading elkjs, until it answers) and
    ``warmup_ms`` (waiting for the background warm-up layouts that let V8 compile ELK).
    """
    if engine == "python":
        return {"engine": "python", "startup_ms": 0.0}
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
