"""IR fidelity on figures we draw ourselves: edge-label and group-title sizes, arrowhead kinds and sizes.

Figures drawn by two makers with exact truth from their source, each at several scales (a figure
exported at 2x has labels and heads twice the theme's):

* ``crafter``: Crafter's own renderer, random chains and fans with labelled edges, groups, and heads of
  every kind at random sizes;
* ``matplotlib``: boxes and ``annotate`` arrows (filled ``-|>`` and hollow UML triangles drawn with
  ``fc='white'``), labels with ``ax.text``.

CraftEditor reads each back; per maker and scale it prints the share of true edges found (by their end
labels), and among those found: the head kind right, the head size within 20 %, the label's size
within 20 %, and group titles' size within 20 %. Drawing and reading are separate steps, so one drawn
set can be read by two versions of CraftEditor:

    python -m craftbench.ir_fidelity draw /tmp/irf -n 8 [--makers crafter,matplotlib] [--scales 1,2]
    python -m craftbench.ir_fidelity read /tmp/irf
"""

from __future__ import annotations

import argparse
import io
import json
import math
import random
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from crafteditor.convert import convert
from crafter.base.rules import edge_font, group_font
from crafter.base.theme import get_theme, styled_theme
from crafter.formats.raster import svg_to_png
from crafter.render.markers import default_head_size
from crafter.render.svg import ensure_layout, figure_to_svg
from crafter.spec import Figure, parse_dsl

WORDS = ["Client", "Server", "Cache", "Store", "Queue", "Parser", "Model", "Loader", "Worker", "Index", "Router",
         "Agent", "Viewer", "Encoder", "Decoder", "Planner", "Reader", "Writer", "Broker", "Logger"]
VERBS = ["calls", "reads", "writes", "sends", "feeds", "loads", "owns", "uses", "emits", "syncs"]
KINDS = ["arrow", "arrow", "open", "diamond", "triangle_open"]


@dataclass
class TrueEdge:
    source: str
    target: str
    head: str
    head_px: float  # the head's length along the line in the original, px
    label: str | None
    label_px: float | None


@dataclass
class Drawn:
    png: bytes
    width: float  # the original's width in its own units (the read figure's canvas is compared to it)
    edges: list[TrueEdge]
    titles: dict[str, float] = field(default_factory=dict)  # group title -> font px


def crafter_figure(seed: int, scale: float) -> Drawn:
    rng = random.Random(seed)
    names = rng.sample(WORDS, rng.randint(4, 6))
    node_fs = rng.choice([11, 12, 13, 14])
    lines = [f"figure direction={rng.choice(['LR', 'TB'])}"]
    lines += [f'{n.lower()} node "{n}" font_size={node_fs}' for n in names]
    edges: list[TrueEdge] = []
    for i in range(1, len(names)):
        src, tgt = names[rng.randrange(i)], names[i]
        kind = rng.choice(KINDS)
        hs = rng.choice([None, 10, 12, 14, 16])
        lab = rng.choice(VERBS) if kind != "triangle_open" and rng.random() < 0.7 else None
        lfs = rng.choice([10.5, 12, 13, 14]) if lab else None
        attrs = f" head={kind}" + (f" head_size={hs}" if hs else "") + (f" font_size={lfs}" if lab else "")
        lines.append(f'e{i} edge {src.lower()} -> {tgt.lower()}' + (f' "{lab}"' if lab else "") + attrs)
        edges.append(TrueEdge(src, tgt, kind, float(hs or 8), lab, lfs))
    titles = {}
    if rng.random() < 0.6:
        gfs = rng.choice([11, 13, 15])
        members = ", ".join(n.lower() for n in names[1:3])
        lines.append(f'grp group "Stage" [{members}] font_size={gfs}')
        titles["Stage"] = float(gfs)
    fig = ensure_layout(parse_dsl("\n".join(lines) + "\n"), relayout=True)
    png = svg_to_png(figure_to_svg(fig), width=round(fig.canvas.w * scale))
    return Drawn(png, fig.canvas.w, edges, titles)


def matplotlib_figure(seed: int, scale: float) -> Drawn:
    import matplotlib  # heavy: only this maker needs it

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # heavy: only this maker needs it

    rng = random.Random(seed)
    names = rng.sample(WORDS, 4)
    dpi = 100
    w_in, h_in = 6.0, 3.2
    f, ax = plt.subplots(figsize=(w_in, h_in), dpi=dpi)
    ax.set_xlim(0, w_in * dpi)
    ax.set_ylim(h_in * dpi, 0)
    ax.axis("off")
    fs_pt = rng.choice([9, 10, 11])
    pos = {names[0]: (300, 50), names[1]: (110, 240), names[2]: (300, 240), names[3]: (490, 240)}
    for n, (x, y) in pos.items():
        ax.add_patch(plt.Rectangle((x - 60, y - 20), 120, 40, fc="#E8EEF7", ec="#333333", lw=1.2))
        ax.text(x, y, n, ha="center", va="center", fontsize=fs_pt)
    edges = []
    for n in names[1:]:
        kind = rng.choice(["arrow", "triangle_open"])
        mut = rng.choice([12, 16, 20])  # head length, points at dpi 100
        x, y = pos[n]
        tx, ty = pos[names[0]][0] + (x - 300) * 0.3, pos[names[0]][1] + 20
        style = "-|>"
        fc = "white" if kind == "triangle_open" else "#333333"
        ax.annotate("", xy=(tx, ty), xytext=(x, y - 20), arrowprops=dict(
            arrowstyle=f"{style},head_length={mut / 20:.2f},head_width={mut / 40:.2f}", lw=1.2, fc=fc, ec="#333333",
            shrinkA=0, shrinkB=0))
        # matplotlib: head_length is in units of the mutation scale (10 pt); the head's outline is stroked, so
        # what shows is longer by the mitred tip (half the line width over the sine of the half-angle, tan = 1/2)
        # and half the line width at the back
        head_px = (mut / 20 * 10 + 1.2 * (0.5 / math.sin(math.atan(0.5)) + 0.5)) * dpi / 72
        edges.append(TrueEdge(n, names[0], kind, head_px, None, None))
    buf = io.BytesIO()
    f.savefig(buf, format="png", dpi=dpi * scale)
    plt.close(f)
    return Drawn(buf.getvalue(), w_in * dpi, edges)


MAKERS = {"crafter": crafter_figure, "matplotlib": matplotlib_figure}


def _slug(s: str) -> str:
    return s.lower().replace(" ", "_")


def score(drawn: Drawn, fig: Figure) -> dict[str, list[float]]:
    """Per measure, one 1/0 per true item it applies to."""
    k = fig.canvas.w / drawn.width if fig.canvas else 1.0
    theme = styled_theme(get_theme(fig.theme), fig.style)
    labels = {c.id: (getattr(c, "label", None) or getattr(c, "text", None) or "") for c in fig.components}
    found = {}
    for e in fig.of_kind("edge"):
        ends = (labels.get(e.source, e.source), labels.get(e.target, e.target))
        found[tuple(_slug(x) for x in ends)] = e
    out: dict[str, list[float]] = {"edges": [], "head_kind": [], "head_size": [], "label_size": [], "title_size": []}
    for t in drawn.edges:
        e = found.get((_slug(t.source), _slug(t.target)))
        out["edges"].append(float(e is not None))
        if e is None:
            continue
        out["head_kind"].append(float(e.head == t.head))
        size = e.head_size or default_head_size(e.stroke_width or theme.edge_width)
        out["head_size"].append(float(abs(size / (t.head_px * k) - 1) <= 0.2))
        if t.label_px and e.label:
            out["label_size"].append(float(abs(edge_font(e, theme) / (t.label_px * k) - 1) <= 0.2))
    for g in fig.of_kind("group"):
        if g.label in drawn.titles:
            out["title_size"].append(float(abs(group_font(g, theme) / (drawn.titles[g.label] * k) - 1) <= 0.2))
    return out


def draw(folder: Path, makers: list[str], scales: list[float], n: int) -> None:
    """Write each figure's PNG and its truth (truth.json) under ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    truth = []
    for maker in makers:
        for scale in scales:
            for seed in range(n):
                d = MAKERS[maker](seed, scale)
                name = f"{maker}_{scale:g}x_{seed}.png"
                (folder / name).write_bytes(d.png)
                truth.append({"file": name, "maker": maker, "scale": scale, "width": d.width, "titles": d.titles,
                              "edges": [asdict(e) for e in d.edges]})
    (folder / "truth.json").write_text(json.dumps(truth, indent=1), encoding="utf-8")


def read(folder: Path) -> list[tuple[str, float, dict[str, Any]]]:
    """Convert every drawn figure under ``folder`` and score it against its truth, per maker and scale."""
    tallies: dict[tuple[str, float], dict[str, list[float]]] = {}
    for rec in json.loads((folder / "truth.json").read_text(encoding="utf-8")):
        d = Drawn(b"", rec["width"], [TrueEdge(**e) for e in rec["edges"]], rec["titles"])
        tally = tallies.setdefault((rec["maker"], rec["scale"]), {})
        for key, vals in score(d, convert((folder / rec["file"]).read_bytes()).figure).items():
            tally.setdefault(key, []).extend(vals)
    return [(m, s, {k: (sum(v) / len(v), len(v)) if v else (None, 0) for k, v in t.items()})
            for (m, s), t in tallies.items()]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("step", choices=["draw", "read"])
    ap.add_argument("folder", type=Path)
    ap.add_argument("-n", type=int, default=8)
    ap.add_argument("--makers", default="crafter,matplotlib")
    ap.add_argument("--scales", default="1,2")
    a = ap.parse_args(argv)
    if a.step == "draw":
        draw(a.folder, a.makers.split(","), [float(s) for s in a.scales.split(",")], a.n)
        return
    rows = read(a.folder)
    keys = ["edges", "head_kind", "head_size", "label_size", "title_size"]
    print(f"{'maker':<11}{'scale':>6}  " + "  ".join(f"{k:>14}" for k in keys))
    for maker, scale, res in rows:
        cells = [f"{res[k][0] * 100:6.1f}% ({res[k][1]:>3})" if res.get(k, (None, 0))[0] is not None else f"{'-':>14}"
                 for k in keys]
        print(f"{maker:<11}{scale:>6g}  " + "  ".join(cells))


if __name__ == "__main__":
    main()
