"""Layout and render throughput on synthetic diagrams of 10, 30 and 100 nodes.

The figures are what research diagrams look like: a main chain with side branches, two
groups, a few labelled and dashed edges. The layout engine is started first and its
start-up (launching Node and loading elkjs) is reported on its own; then each size is
laid out and rendered once to warm up and ``repeats`` times more; medians are reported.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass

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
    from crafter.layout import layout_figure
    from crafter.render.export import figure_to_png_bytes
    from crafter.render.svg import draw_svg

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
    from crafter.layout.bench import engine_startup

    info = engine_startup(engine)
    if info["engine"] == "python":
        why = f" (ELK not available: {info['elk_unavailable']})" if info.get("elk_unavailable") else " (no start-up)"
        return 0.0, "python" + why
    return float(info["startup_ms"]), (f"ELK (elkjs {info.get('elkjs', '')}, one long-lived Node process; "
                                       f"background warm-up {info['warmup_ms']:.0f} ms)")