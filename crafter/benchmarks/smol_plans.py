"""SmolLM2's plans of dev briefs as written, and the name head's reading alone, scored against the gold.

What the constrained ``#trusted`` pipeline starts from, without layout or repair rounds: each brief's
plan from a ``smol`` backend (any spec: ``smol:DIR``, ``#own``, ``#spans``…), parsed and scored by
:mod:`crafter.corpora.scoring`, micro-averaged over the first ``--limit`` dev briefs; ``--head``
scores the name head's reading instead (every name it read a node, every link an edge, every group of
two or more of its names a group: what a plan that covers the reading draws), no decoder needed. ``--show`` prints each plan.

    python -m crafter.benchmarks.smol_plans --backend smol:/path/to/run --limit 12 [--show]
    python -m crafter.benchmarks.smol_plans --head --limit 0 [--names DIR]   # all dev briefs

Numbers are printed, never asserted. Dev split only: the test split is frozen.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from crafter.corpora import Brief, FigureScore, load_briefs, score_figure, total
from crafter.errors import SpecError
from crafter.llm import get_backend
from crafter.llm.backends.base import WEIGHTS_DIR
from crafter.llm.encoder import shared_encoder
from crafter.llm.names import NameReader
from crafter.llm.names_briefs import reading_dsl
from crafter.llm.prompts import plan_prompt
from crafter.spec import Figure, parse_dsl


def plans(briefs: list[Brief], backend: str | None, show: bool = False, max_new_tokens: int = 512,
          names_dir: Path = WEIGHTS_DIR) -> tuple[FigureScore, float]:
    """The micro-averaged score of the briefs' plans (``backend`` None: the reading of the name head in
    ``names_dir``) and s per brief."""
    if backend is None:
        reader = NameReader(names_dir, shared_encoder())
        write = lambda b: reading_dsl(reader.names(plan_prompt(b.text)))  # noqa: E731
    else:
        model = get_backend(backend)
        write = lambda b: model.complete("plan", plan_prompt(b.text), max_new_tokens=max_new_tokens).text  # noqa: E731
    scores, seconds = [], 0.0
    for b in briefs:
        t0 = time.perf_counter()
        text = write(b)
        seconds += time.perf_counter() - t0
        try:
            fig = parse_dsl(text)
        except SpecError:
            fig = Figure(components=[])
        s = score_figure(b.gold, fig, b.aliases)
        scores.append(s)
        print(f"{b.id:28s} nodes {s.nodes.f1:.2f} edges {s.edges.f1:.2f} groups {s.groups.f1:.2f}", flush=True)
        if show:
            print(text + "\n")
    return total(scores), seconds / max(len(briefs), 1)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--backend", default="smol", help="a smol backend spec (default: smol)")
    ap.add_argument("--head", action="store_true", help="score the name head's reading instead of a decoder's plans")
    ap.add_argument("--names", type=Path, default=WEIGHTS_DIR, help="with --head: the folder of names.safetensors")
    ap.add_argument("--limit", type=int, default=12, help="the first N dev briefs (0: all 156)")
    ap.add_argument("--show", action="store_true", help="print each plan")
    ap.add_argument("--max-new-tokens", type=int, default=512, help="per plan (the pipeline allows 640)")
    a = ap.parse_args(argv)
    briefs = list(load_briefs("dev"))[: a.limit or None]
    s, per = plans(briefs, None if a.head else a.backend, a.show, a.max_new_tokens, a.names)
    print(f"{'name head reading' if a.head else a.backend}: {len(briefs)} dev briefs, plans as written; "
          f"load average {os.getloadavg()[0]:.1f}")
    for k in ("nodes", "edges", "groups"):
        p = getattr(s, k)
        print(f"  {k:7s} P/R/F1 {p.precision:.2f}/{p.recall:.2f}/{p.f1:.2f}")
    print(f"  {per:.1f} s per brief")


if __name__ == "__main__":
    main()
