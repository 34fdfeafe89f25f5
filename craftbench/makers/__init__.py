"""Figures drawn with the real makers' own tools, with truth taken from their source.

Fixes made on a handful of real figures do not carry to figures the project has not seen; figures drawn by
the makers themselves (Vega-Lite through vl-convert, ggplot2's grammar through plotnine, Mermaid in a
headless Chromium, TikZ through pdflatex…), many at a time with varied content, sizes and themes, show
which *classes* of figure CraftEditor misreads. Each maker module exposes

    draw(figs: Path, n: int, seed: int) -> list[dict]

which writes ``n`` figures under ``figs`` and returns their truth records in the real-figure set's schema
(``crafteditor.realset``: id, file relative to the folder above ``figs``, kind, text, nodes, edges,
chart…); :func:`draw_makers` writes them with a ``manifest.json``, so the real track scores them:

    craftbench makers charts -o /tmp/makers/charts -n 40
    craftbench makers mermaid-readme -o /tmp/makers/mmr -n 24   # Mermaid as READMEs draw it (handDrawn too)
    craftbench makers mermaid-wild -o /tmp/makers/mmw -n 40     # as repositories hold it (GitHub's column, transparent)
    craftbench makers mermaid-looks -o /tmp/makers/mml -n 36    # handDrawn, GitHub dark, themeVariables, graph, small, JPEG
    craftbench makers gallery -o /tmp/makers/gallery -n 300     # Vega-Lite's and Altair's own examples, truth off the scene graph
    craftbench makers gallery-themes -o /tmp/makers/vlt -n 150  # the same examples under every vega-theme (dark, excel, vox…)
    craftbench makers mermaid-versions -o /tmp/makers/mmv -n 48 # real sources from repositories, Mermaid 8/9/10/11
    craftbench makers excalidraw-real -o /tmp/makers/exr -n 40  # real .excalidraw scenes from repositories, rough.js
    craftbench makers drawio-real -o /tmp/makers/dio -n 60       # real .drawio files (and exports), draw.io's viewer
    craftbench makers mpl-gallery -o /tmp/makers/mplg -n 80     # seaborn/SciencePlots/mplhep examples, truth off the Figure
    craftbench makers seq-looks -o /tmp/makers/seq -n 72 --seed 15 # real sequences in Mermaid/PlantUML/js-sequence looks
    craftbench makers seq-puml -o /tmp/makers/seqpu -n 48 --seed 17 # real PlantUML sequence files, PlantUML's skins
    crafteditor bench -n 0 --real /tmp/makers/charts --split all --per-figure --json out.json

Every record's split is ``drawn``: these are the project's own renderings, never the frozen real test split.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path

from crafter.errors import CrafterError

# kind -> module; each module imports its maker's tool only inside draw() (they are optional at run time)
MAKERS: dict[str, str] = {
    "charts": "craftbench.makers.charts",
    "charts-spread": "craftbench.makers.charts_spread",
    "drawio-real": "craftbench.makers.drawio_real",
    "excalidraw": "craftbench.makers.excalidraw",
    "gallery": "craftbench.makers.gallery",
    "gallery-themes": "craftbench.makers.gallery_themes",
    "excalidraw-states": "craftbench.makers.excalidraw_states",
    "excalidraw-real": "craftbench.makers.excalidraw_real",
    "mermaid": "craftbench.makers.mermaid",
    "mermaid-readme": "craftbench.makers.mermaid_readme",
    "mermaid-wild": "craftbench.makers.mermaid_wild",
    "mermaid-looks": "craftbench.makers.mermaid_looks",
    "mermaid-versions": "craftbench.makers.mermaid_versions",
    "mpl-gallery": "craftbench.makers.mpl_gallery",
    "plantuml": "craftbench.makers.plantuml",
    "sequences": "craftbench.makers.sequences",
    "seq-real": "craftbench.makers.seq_real",
    "seq-looks": "craftbench.makers.seq_looks",
    "seq-puml": "craftbench.makers.seq_puml",
    "tikz": "craftbench.makers.tikz",
    "tikz-wild": "craftbench.makers.tikz_wild",
}


class MakerError(CrafterError):
    """An unknown maker kind, or a maker whose tool is not installed."""


def draw_makers(kind: str, out: Path, n: int = 20, seed: int = 0) -> Path:
    """Draw ``n`` figures of maker ``kind`` under ``out/figs`` and write ``out/manifest.json``; returns it."""
    if kind not in MAKERS:
        raise MakerError(f"unknown maker kind {kind!r} (known: {', '.join(sorted(MAKERS))})")
    try:
        module = importlib.import_module(MAKERS[kind])
    except ModuleNotFoundError as e:
        raise MakerError(f"maker {kind!r}: {e}") from None
    out = Path(out)
    figs = out / "figs"
    figs.mkdir(parents=True, exist_ok=True)
    records = [{**rec, "split": "drawn"} for rec in module.draw(figs, n=n, seed=seed)]
    manifest = out / "manifest.json"
    about = f"drawn by craftbench.makers.{kind} (n={n}, seed={seed}); truth from each figure's source"
    manifest.write_text(json.dumps({"about": about, "figures": records}, indent=1), encoding="utf-8")
    return manifest
