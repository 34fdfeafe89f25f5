"""Sequence diagrams in several makers' looks: PlantUML's skins (default, monochrome, blue, strictuml,
``handwritten``, a monochrome napkin) and Mermaid's themes, short and long (up to ~30 messages, 2,000+ px
tall at 150 dpi), with truth from each source (``craftbench.makers.plantuml`` and ``.mermaid``'s conventions).

A class of sequence diagrams read edges 0 and half their participants on the real test split; drawing
them in every look shows which looks fail (participants not found, the diagram not read as a sequence,
messages joined to the wrong lifeline, a re-read as a sketch that loses what the first reading had).

    craftbench makers sequences -o /tmp/makers/seq -n 24
"""

from __future__ import annotations

import random
import re
import shutil
from dataclasses import replace
from pathlib import Path

from craftbench.makers import mermaid, plantuml

PUML_SKINS = ("default", "monochrome", "blue", "strict", "handwritten", "napkin")
MERMAID_THEMES = ("default", "neutral", "forest", "dark")


def _puml(figs: Path, n: int, rng: random.Random) -> list[dict]:
    if shutil.which("plantuml") is None:
        raise plantuml.PlantumlMakerError("the sequences maker needs `plantuml` (Debian: apt-get install plantuml)")
    records, sources = [], []
    for i in range(n):
        long = i % 4 == 3
        d = plantuml.sequence(rng, steps=(14, 24) if long else (3, 9))
        skin = PUML_SKINS[i % len(PUML_SKINS)]
        dpi = rng.choice((96, 120, 150)) if not long else 150
        fid = f"seq_puml_{i:03d}_{skin}{'_long' if long else ''}"
        sources.append((fid, plantuml.source(d, skin, dpi)))
        records.append({"id": fid, "file": f"figs/{fid}.png", "kind": "diagram", "maker": "plantuml-sequence",
                        "style": f"plantuml sequence, {skin}, {dpi} dpi{', long' if long else ''}",
                        "text": plantuml._clean(d.text), "nodes": d.nodes, "edges": d.edges, "images": 0})
    plantuml.render(figs, sources)
    return records


def messages_only(d: mermaid.Diagram) -> mermaid.Diagram:
    """A copy of ``d`` with its truth's edges the messages alone (``d`` left as it is): the mermaid maker lists
    each lifeline as an edge (X, X) after them, which the real set's sequence entries do not (nor PlantUML's)."""
    k = len(re.findall(r"^\s+(?:participant|actor) P\d+ as ", d.source, flags=re.M))
    return replace(d, edges=d.edges[:-k] if k else list(d.edges))


def _mermaid(figs: Path, n: int, rng: random.Random) -> list[dict]:
    items = []
    for i in range(n):
        d = messages_only(mermaid.sequence(rng))
        theme = MERMAID_THEMES[i % len(MERMAID_THEMES)]
        items.append((f"seq_mm_{i:03d}_{theme}", d, theme, rng.choice((1, 2)), rng.choice(("14px", "16px"))))
    return mermaid.draw_sources(figs, items)


def draw(figs: Path, n: int = 24, seed: int = 0) -> list[dict]:
    """Draw ``n`` sequence diagrams under ``figs``: two thirds PlantUML, a third Mermaid; their truth records."""
    rng = random.Random(seed)
    n_mm = n // 3
    records = _puml(figs, n - n_mm, rng)
    if n_mm:
        try:
            records += _mermaid(figs, n_mm, rng)
        except mermaid.MermaidMissingError:
            pass  # no Mermaid or headless Chromium here: PlantUML's looks alone (a refused source still raises)
    return records
