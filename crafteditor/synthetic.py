"""Seeded test figures with known answers: diagrams drawn by Crafter, charts drawn by matplotlib.

Both come with their ground truth, so the benchmark and the tests can score a conversion
component by component (:mod:`crafteditor.scoring`):

* :func:`random_diagram` lays nodes of every shape on a grid with pinned boxes, joins
  neighbours with straight or L-shaped routes (solid, dashed, dotted; one- or two-headed;
  some labelled), frames some pairs in groups and adds a caption. Rendered with
  ``crafter.render.figure_to_png_bytes``.
* :func:`random_chart` draws a bar, line or scatter chart with matplotlib and returns the
  data series it plotted.
"""

from __future__ import annotations

import io
import random
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from crafter.base.geometry import meet_outline
from crafter.base.text import text_width
from crafter.formats import figure_to_png_bytes
from crafter.spec.model import Box, Edge, Figure, Group, Node, Point, Size, Text

WORDS = (
    "Encoder", "Decoder", "Attention", "Embedding", "Tokenizer", "Retriever", "Ranker", "Memory", "Planner",
    "Critic", "Policy", "Reward", "Dataset", "Features", "Classifier", "Optimizer", "Scheduler", "Sampler",
    "Buffer", "Index", "Query", "Context", "Output", "Input", "Loss", "Gradient", "Backbone", "Head", "Adapter",
    "Prompt", "Agent", "Tool", "Cache", "Router", "Expert", "Gate", "Mixer", "Pooling", "Projection", "Softmax",
)
QUALIFIERS = ("Image", "Text", "Visual", "Shared", "Global", "Local", "Sparse", "Dense", "Frozen", "Learned",
              "Vector", "Graph", "Audio", "Latent", "Masked")
EDGE_WORDS = ("train", "query", "update", "features", "logits", "top-k", "tokens", "scores", "batch", "reward")
SHAPES = ("box", "round", "ellipse", "circle", "diamond", "parallelogram", "hexagon", "cylinder", "document")
FILLS = ("#D6E6F4", "#FBEBCB", "#CDEBE1", "#F3E0EC", "#DDF0FB", "#F2F5FA", "#FFFFFF")


def _label(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.45:
        return rng.choice(WORDS)
    if r < 0.85:
        return f"{rng.choice(QUALIFIERS)} {rng.choice(WORDS).lower()}"
    return f"{rng.choice(WORDS)}\n{rng.choice(QUALIFIERS).lower()} {rng.choice(WORDS).lower()}"


def random_diagram(seed: int, *, cols: int = 4, rows: int = 3, groups: int = 1,
                   heads: tuple[str, ...] = ("arrow",)) -> Figure:
    """A pinned diagram with known geometry (every box and route set).

    ``heads``: the arrowhead kinds edges draw from (the IR's names: arrow, open, diamond…);
    they are drawn with their own random stream, so the default figures never change.
    """
    rng = random.Random(seed)
    head_rng = random.Random(seed * 7919 + 17)
    dx, dy = 180.0, 120.0
    margin = 30.0
    grid = _grid_nodes(rng, rows, cols, dx, dy, margin)
    comps: list[Any] = list(grid.values())
    comps.extend(_neighbour_edges(rng, head_rng, grid, heads))
    comps.extend(_pair_groups(rng, grid, groups))
    width = margin * 2 + 160 + (cols - 1) * dx
    height = margin * 2 + 100 + (rows - 1) * dy + 30
    comps.append(Text(kind="text", id="caption", text=f"Figure {seed % 9 + 1}: synthetic pipeline",
                      at=Point(x=width / 2, y=height - 22), font_size=12.0))
    return Figure(canvas=Size(w=width, h=height), components=comps)


def _grid_nodes(rng: random.Random, rows: int, cols: int, dx: float, dy: float,
                margin: float) -> dict[tuple[int, int], Node]:
    """Nodes of random shapes, labels and fills on a grid (a few cells left empty), by cell."""
    grid: dict[tuple[int, int], Node] = {}
    used_labels: set[str] = set()
    for r in range(rows):
        for c in range(cols):
            if rng.random() < 0.15:
                continue
            shape = rng.choice(SHAPES)
            label = _label(rng)
            while label in used_labels:
                label = _label(rng)
            used_labels.add(label)
            lines = label.split("\n")
            tw = max(text_width(s, 12.0) for s in lines)
            w = max(90.0, tw + 28)
            h = 40.0 if len(lines) == 1 else 52.0
            if shape in ("diamond", "hexagon", "parallelogram"):
                w = min(160.0, w + 30)
                h += 14 if shape == "diamond" else 0
            if shape == "ellipse":
                w += 16
            if shape == "cylinder":
                h += 14
            if shape == "circle":
                w = h = max(70.0, tw + 26)
            cx = margin + 80 + c * dx
            cy = margin + 50 + r * dy
            fill = rng.choice(FILLS)
            node = Node(kind="node", id=f"n{r}{c}", label=label, shape=shape, fill=fill,
                        box=Box(x=round(cx - w / 2), y=round(cy - h / 2), w=round(w), h=round(h)), pinned=True,
                        width=round(w), height=round(h))
            grid[(r, c)] = node
    return grid


def _neighbour_edges(rng: random.Random, head_rng: random.Random, grid: dict[tuple[int, int], Node],
                     heads: tuple[str, ...]) -> list[Edge]:
    """Edges between grid neighbours (right, down, or down-then-right), some dashed, some
    labelled, their heads drawn from ``heads`` with ``head_rng``."""
    edges = []
    k = 0
    for (r, c), a in sorted(grid.items()):
        for (dr, dc) in ((0, 1), (1, 0), (1, 1)):
            b = grid.get((r + dr, c + dc))
            if b is None or rng.random() < (0.35 if (dr, dc) != (1, 1) else 0.8):
                continue
            if (dr, dc) == (1, 1) and (r + 1, c) in grid:
                continue  # the bend would run under the node below: an ambiguous picture
            ab, bb = a.box, b.box
            if dr == 0:  # left to right
                y = (ab.cy + bb.cy) / 2
                route = [Point(x=ab.right, y=y), Point(x=bb.x, y=y)]
            elif dc == 0:  # top to bottom
                x = (ab.cx + bb.cx) / 2
                route = [Point(x=x, y=ab.bottom), Point(x=x, y=bb.y)]
            else:  # down, then right (an orthogonal bend)
                route = [Point(x=ab.cx, y=ab.bottom), Point(x=ab.cx, y=bb.cy), Point(x=bb.x, y=bb.cy)]
            # curved outlines: start and end on the outline, like the layout would
            route = _clip_route(route, a, b)
            if route is None:
                continue
            k += 1
            style = rng.choices(("solid", "dashed", "dotted"), (0.7, 0.2, 0.1))[0]
            kw: dict[str, Any] = {}
            if rng.random() < 0.1:
                kw["tail"] = head_rng.choice(heads)
            if heads != ("arrow",):
                kw["head"] = head_rng.choice(heads)
            if style != "solid":
                kw["style"] = style
            label = None
            if dr == 0 and rng.random() < 0.35:
                label = rng.choice(EDGE_WORDS)
                fs = 10.5
                lw_ = text_width(label, fs) + 6
                lh = fs * 1.25 + 2
                mx = (route[0].x + route[-1].x) / 2
                if route[-1].x - route[0].x >= lw_ + 16:
                    kw["label"] = label
                    kw["label_box"] = Box(x=mx - lw_ / 2, y=route[0].y - lh - 2, w=lw_, h=lh)
            edges.append(Edge(kind="edge", id=f"e{k}", source=a.id, target=b.id, route=route, **kw))
    return edges


def _pair_groups(rng: random.Random, grid: dict[tuple[int, int], Node], groups: int) -> list[Group]:
    """Up to ``groups`` frames, each around two horizontally adjacent nodes no frame holds yet."""
    out: list[Group] = []
    made = 0
    for (r, c), a in sorted(grid.items(), key=lambda kv: rng.random()):
        if made >= groups:
            break
        b = grid.get((r, c + 1))
        if b is None:
            continue
        if any(a.id in x.members or b.id in x.members for x in out):
            continue
        pad, band = 12.0, 20.0
        x0 = min(a.box.x, b.box.x) - pad
        y0 = min(a.box.y, b.box.y) - pad - band
        x1 = max(a.box.right, b.box.right) + pad
        y1 = max(a.box.bottom, b.box.bottom) + pad
        if y0 < 12 or x0 < 12:
            continue  # the renderer would grow the canvas and shift the whole drawing
        made += 1
        out.append(Group(kind="group", id=f"g{made}", label=f"Stage {made}", members=[a.id, b.id],
                         box=Box(x=x0, y=y0, w=x1 - x0, h=y1 - y0), pinned=True))
    return out


def _clip_route(route: list[Point], a: Node, b: Node) -> list[Point] | None:
    pts = [(p.x, p.y) for p in route]
    assert a.box is not None and b.box is not None
    pts[-1] = meet_outline(b.shape, b.box, pts[-2], pts[-1])
    pts[0] = meet_outline(a.shape, a.box, pts[1], pts[0])
    if any(abs(p[0] - q[0]) + abs(p[1] - q[1]) < 24 for p, q in zip(pts, pts[1:])):
        return None
    return [Point(x=round(x, 2), y=round(y, 2)) for x, y in pts]


def diagram_png(fig: Figure, dpi: int = 150) -> bytes:
    return figure_to_png_bytes(fig, dpi)


# -- charts ---------------------------------------------------------------------------------

@dataclass
class ChartTruth:
    kind: str  # bar, line, scatter
    series: dict[str, list[tuple[Any, float]]]  # name -> [(x, y)]
    y_range: tuple[float, float]
    x_range: tuple[float, float] | None = None
    log_y: bool = False
    title: str = ""
    labels: list[str] = field(default_factory=list)  # every word drawn (titles, ticks, legend)
    horizontal: bool = False  # bars: categories on the y axis, values along x (y_range is theirs)


def random_chart(seed: int, dpi: int = 150) -> tuple[bytes, ChartTruth]:
    """A matplotlib chart PNG and the data it shows."""
    import matplotlib  # heavy: 1.5 s to import with pyplot; only the charts need it

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # heavy: see above; after use("Agg")

    rng = random.Random(seed)
    kind = ("bar", "line", "scatter")[seed % 3]
    fig, ax = plt.subplots(figsize=(5.0, 3.4))
    series: dict[str, list[tuple[Any, float]]] = {}
    log_y = False
    # drawn from its own stream, so the figures' other draws are what they were before it
    horizontal = kind == "bar" and random.Random(seed * 31 + 7).random() < 0.35
    if kind == "bar":
        cats = rng.sample(["ResNet", "ViT", "Swin", "BERT", "GPT", "CLIP", "T5", "LLaMA", "Mamba"], rng.randint(3, 6))
        vals = [round(rng.uniform(10, 95), 1) for _ in cats]
        color = rng.choice(["#4C72B0", "#DD8452", "#55A868", "#C44E52"])
        if horizontal:
            ax.barh(cats, vals, color=color)
            ax.set_xlabel("Accuracy (%)")
        else:
            ax.bar(cats, vals, color=color)
            ax.set_ylabel("Accuracy (%)")
        series["value"] = list(zip(cats, vals))
    elif kind == "line":
        n = rng.randint(5, 10)
        xs = list(range(1, n + 1))
        names = rng.sample(["train", "val", "test", "baseline"], rng.randint(1, 3))
        log_y = rng.random() < 0.3
        for name in names:
            a, b = rng.uniform(0.5, 3), rng.uniform(0.2, 1.2)
            ys = [round(a * x ** b + rng.uniform(0, 1), 2) for x in xs]
            if log_y:
                ys = [round(10 ** (0.3 * x * b + rng.uniform(0, 0.2)), 2) for x in xs]
            ax.plot(xs, ys, marker="o", label=name)
            series[name] = list(zip(xs, ys))
        if log_y:
            ax.set_yscale("log")
        if len(names) > 1:
            ax.legend()
        ax.set_xlabel("Epoch")
        ax.set_ylabel("Loss")
    else:
        names = rng.sample(["model A", "model B", "model C"], rng.randint(1, 2))
        for name in names:
            xs = [round(rng.uniform(0, 100), 1) for _ in range(rng.randint(6, 14))]
            ys = [round(rng.uniform(0, 50), 1) for _ in xs]
            ax.scatter(xs, ys, label=name)
            series[name] = list(zip(xs, ys))
        if len(names) > 1:
            ax.legend()
        ax.set_xlabel("Parameters (M)")
        ax.set_ylabel("Latency (ms)")
    title = rng.choice(["Accuracy by model", "Training curves", "Cost versus quality", "Results"])
    ax.set_title(title)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    y0, y1 = ax.get_ylim()
    x0, x1 = ax.get_xlim()
    plt.close(fig)
    if horizontal:
        y0, y1 = x0, x1
    truth = ChartTruth(kind=kind, series=series, y_range=(y0, y1), x_range=None if kind == "bar" else (x0, x1),
                       log_y=log_y, title=title, horizontal=horizontal)
    return buf.getvalue(), truth


GALLERY_STYLES = ("grouped", "stacked", "hbar", "errorbars", "grid_markers", "hgrouped", "value_labels")


def gallery_chart(style: str, seed: int = 0, dpi: int = 150) -> tuple[bytes, ChartTruth]:
    """A chart in one of the styles papers use beyond plain bars, lines and points
    (:data:`GALLERY_STYLES`), drawn with matplotlib as a researcher would, and what it shows:
    grouped and stacked bars, horizontal bars (plain and grouped), bars with error bars or value
    labels, line series with square, diamond and triangle markers under a grid."""
    import matplotlib  # heavy: 1.5 s to import with pyplot; only the charts need it

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # heavy: see above; after use("Agg")

    if style not in GALLERY_STYLES:
        raise ValueError(f"unknown gallery style '{style}'; expected one of {', '.join(GALLERY_STYLES)}")
    rng = random.Random(seed * 101 + GALLERY_STYLES.index(style))
    fig, ax = plt.subplots(figsize=(5.0, 3.4))
    series: dict[str, list[tuple[Any, float]]] = {}
    horizontal = style in ("hbar", "hgrouped")
    kind = "line" if style == "grid_markers" else "bar"
    cats = rng.sample(["ResNet", "ViT", "Swin", "BERT", "GPT", "CLIP", "T5", "Mamba"], rng.randint(3, 5))
    x = np.arange(len(cats))
    names = rng.sample(["ours", "baseline", "zero-shot", "fine-tuned", "prior"], 2)
    if style in ("grouped", "hgrouped"):
        w = 0.38
        for k, name in enumerate(names):
            vals = [round(rng.uniform(40, 90), 1) for _ in cats]
            off = (k - 0.5) * w
            if horizontal:
                ax.barh(x + off, vals, w, label=name)
            else:
                ax.bar(x + off, vals, w, label=name)
            series[name] = list(zip(cats, vals))
        (ax.set_yticks if horizontal else ax.set_xticks)(x, cats)
        ax.legend(loc="best")  # where it hides no bar, as an author would place it
        if not horizontal:
            ax.set_ylim(0, 115)  # room for the legend above the bars
            ax.grid(axis="y", alpha=0.4)
    elif style == "stacked":
        bottom = np.zeros(len(cats))
        for name in ("forward", "backward"):
            vals = [round(rng.uniform(0.5, 3.0), 2) for _ in cats]
            ax.bar(cats, vals, bottom=bottom, label=name)
            bottom += np.array(vals)
            series[name] = list(zip(cats, vals))
        ax.set_ylabel("ms")
        ax.set_ylim(0, float(bottom.max()) * 1.35)
        ax.legend(loc="upper right")
    elif style == "hbar":
        vals = [round(rng.uniform(10, 95), 1) for _ in cats]
        ax.barh(cats, vals, color="#4C72B0")
        ax.set_xlabel("Score")
        series["value"] = list(zip(cats, vals))
    elif style == "value_labels":
        vals = [round(rng.uniform(55, 92), 1) for _ in cats]
        bars = ax.bar(cats, vals, color="#8172B3")
        ax.bar_label(bars, fmt="%.1f")
        ax.set_ylim(40, 100)
        ax.set_ylabel("Top-1 (%)")
        series["value"] = list(zip(cats, vals))
    elif style == "errorbars":
        vals = [round(rng.uniform(0.4, 0.85), 3) for _ in cats]
        errs = [round(rng.uniform(0.015, 0.05), 3) for _ in cats]
        ax.bar(cats, vals, yerr=errs, capsize=4, color="#55A868")
        ax.set_ylabel("mAP")
        series["value"] = list(zip(cats, vals))
    else:  # grid_markers
        xs = list(range(0, 9))
        for name, marker in zip(names, rng.sample(["s", "D", "^", "o"], 2)):
            a, b = rng.uniform(0.2, 1.0), rng.uniform(0.05, 0.3)
            ys = [round(a + b * xx + rng.uniform(0, 0.15), 3) for xx in xs]
            ax.plot(xs, ys, "-" + marker, label=name)
            series[name] = list(zip(xs, ys))
        ax.grid(True, alpha=0.3)
        ax.set_xlabel("Step")
        ax.legend(loc="upper left")
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    y0, y1 = ax.get_xlim() if horizontal else ax.get_ylim()
    x0, x1 = ax.get_xlim()
    plt.close(fig)
    truth = ChartTruth(kind=kind, series=series, y_range=(y0, y1), x_range=(x0, x1) if kind == "line" else None,
                       title="", horizontal=horizontal)
    return buf.getvalue(), truth
