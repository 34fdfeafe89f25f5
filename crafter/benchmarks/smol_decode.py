"""The decode benchmark for CraftLM on SmolLM2: plain cached greedy vs n-gram vs diffusion drafts.

Prints, per task and mode: decode tokens/s, the speed-up over plain cached greedy decoding,
tokens per forward, the share of outputs identical to plain decoding, DSL parse rate,
component F1 against the gold, and the acceptance histogram (drafts accepted per round).
The table is :func:`crafter.benchmarks.decode.format_table`'s; numbers are printed, never asserted.

    python -m crafter.benchmarks.smol_decode --adapter crafter/llm/weights/smol -n 8 --max-new-tokens 256

Prompts: the first ``n`` briefs of the written corpus's dev split (:mod:`crafter.corpora`;
never trained on), or with ``--synthetic`` the synthetic corpus's held-out split.
"""

from __future__ import annotations

import argparse
import os
import sys

import torch

from crafter.benchmarks.decode import MODES, format_table, run_decode_bench
from crafter.corpora import load_briefs
from crafter.llm.corpus import Example, held_out_set
from crafter.llm.prompts import plan_prompt
from crafter.llm.smol import SmolBackend, shipped_adapter


def bench_examples(n: int = 8, tasks: tuple[str, ...] = ("plan",), synthetic: bool = False) -> list[Example]:
    if not synthetic:
        return [Example("plan", plan_prompt(b.text), b.gold_dsl, b.id) for b in load_briefs("dev")[:n]]
    return [e for e in held_out_set(per_task=n, seed=0) if e.task in tasks]


def run(adapter: str | None = None, n: int = 8, tasks: tuple[str, ...] = ("plan",), modes: tuple[str, ...] = MODES,
        max_new_tokens: int = 256, threads: int = 1, synthetic: bool = False, progress=None) -> str:
    """Load the backend, decode every example in every mode, return the printed table."""
    torch.set_num_threads(threads)
    backend = SmolBackend.load(adapter, threads=threads)
    examples = bench_examples(n, tasks, synthetic)
    rows = run_decode_bench(backend, examples=examples, modes=modes, max_new_tokens=max_new_tokens, progress=progress)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return (f"{len(examples)} examples, {threads} thread(s), adapter {adapter or 'none (bare base)'}, load average "
            f"after the run {load} (other jobs on the machine slow every mode)\n" + format_table(rows))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="Decode benchmark of CraftLM on SmolLM2 (plain vs speculative). Example: "
                                 "python -m crafter.benchmarks.smol_decode -n 8")
    ap.add_argument("--adapter", default=None, help="LoRA adapter folder (default: the shipped one, else the bare base); "
                    "'base' for the bare base")
    ap.add_argument("-n", type=int, default=8, help="examples (dev briefs, or per task with --synthetic)")
    ap.add_argument("--synthetic", action="store_true", help="the synthetic corpus's held-out prompts instead")
    ap.add_argument("--tasks", default="plan", help="with --synthetic: plan,chart,repair")
    ap.add_argument("--modes", default=",".join((*MODES, "diff-only")),
                    help="none, ngram, diffusion, diff-only (the mask block without the lookup fallback)")
    ap.add_argument("--max-new-tokens", type=int, default=256)
    ap.add_argument("--threads", type=int, default=1,
                    help="1 on a shared 2-core CPU (two threads stall when a core is busy)")
    a = ap.parse_args(argv)
    adapter = None if a.adapter == "base" else a.adapter or shipped_adapter()
    print(run(adapter, a.n, tuple(a.tasks.split(",")), tuple(a.modes.split(",")), a.max_new_tokens, a.threads,
              a.synthetic, progress=lambda i, n: print(f"  {i}/{n}", file=sys.stderr, flush=True)))


if __name__ == "__main__":
    main()
