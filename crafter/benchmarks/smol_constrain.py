"""What the DSL constraint costs on SmolLM2's 49,152-token vocabulary (no model forward: the tokenizer only).

Walks gold answers token by token under :class:`crafter.llm.constrain.DSLConstraint` (dev briefs'
gold plans, the synthetic held-out charts and repairs) and prints, per task, milliseconds per token for

* ``advance`` of the gold token (what decoding pays when the model's best token is allowed: the usual case),
* ``candidates`` of a fresh state (the exhaustive search's superset, read off the vocabulary sorted by
  bytes: what decoding pays where none of the 16 best tokens is allowed), its size, and
* the same exhaustive search by asking every token (what ``candidates`` replaces), on a few states.

    python -m crafter.benchmarks.smol_constrain -n 6

Numbers are printed, never asserted; the machine's load average is printed with them.
"""

from __future__ import annotations

import argparse
import os
import time

from crafter.corpora import load_briefs
from crafter.llm.constrain import DSLConstraint
from crafter.llm.constrain.tokens import token_bytes
from crafter.llm.corpus import Example, held_out_set
from crafter.llm.prompts import plan_prompt
from crafter.llm.smol.backbone import load_backbone
from crafter.llm.smol.engine import SmolFormat


def examples(n: int) -> list[Example]:
    """Held-out synthetic plans, charts and repairs, and dev briefs with their gold plans (task ``plan-dev``:
    walked under the corpus' conventions, as SmolBackend decodes them; refused where a gold label is
    not a span of the brief)."""
    held = held_out_set(per_task=n, seed=0)
    dev = [Example("plan-dev", plan_prompt(b.text), b.gold_dsl, b.id) for b in load_briefs("dev")[:n]]
    return [e for t in ("plan", "chart", "repair") for e in held if e.task == t] + dev


def run(n: int = 6, brute_states: int = 3) -> str:
    bb = load_backbone()
    fmt = SmolFormat(bb.tokenizer)
    t0 = time.perf_counter()
    tb = token_bytes(bb.tokenizer, size=bb.model.config.vocab_size)
    setup = time.perf_counter() - t0
    rows: dict[str, dict[str, float]] = {}
    brute: list[float] = []
    first = True
    for e in examples(n):
        task = e.task.removesuffix("-dev")
        def constraint() -> DSLConstraint:
            return DSLConstraint(task, fmt.clean(e.prompt), tb, fmt.eos_id, encode=fmt.text_ids,
                                 force_tokenization=False, conventions="corpus")

        c = constraint()
        if first:  # the sorted vocabulary is built on the first search: counted apart
            t0 = time.perf_counter()
            c.candidates(c.start())
            setup += time.perf_counter() - t0
            first = False
            c = constraint()
        r = rows.setdefault(e.task, {"tokens": 0, "advance": 0.0, "candidates": 0.0, "size": 0, "refused": 0})
        st = c.start()
        for t in fmt.response_ids(e.target):
            t0 = time.perf_counter()
            cands = c.candidates(st)
            t1 = time.perf_counter()
            nxt = c.advance(st, t)
            t2 = time.perf_counter()
            r["tokens"] += 1
            r["candidates"] += t1 - t0
            r["advance"] += t2 - t1
            r["size"] += len(cands)
            if len(brute) < brute_states and task == "plan" and st.line:
                t0 = time.perf_counter()
                fresh = DSLConstraint(task, fmt.clean(e.prompt), tb, fmt.eos_id)
                [fresh._advance(st, i) for i in range(len(tb))]
                brute.append(time.perf_counter() - t0)
            if nxt is None:  # a gold answer the constraint refuses (its conventions differ, a label not the brief's)
                r["refused"] += 1
                break
            st = nxt
    lines = [f"SmolLM2 vocabulary {len(tb)} tokens; token bytes + sorted vocabulary built once in {setup:.2f} s",
             "task     gold-refused tokens  advance ms/token  candidates ms/state  candidates/state"]
    for task, r in rows.items():
        k = max(1, r["tokens"])
        lines.append(f"{task:8s} {r['refused']:12d} {r['tokens']:6d}  {1000 * r['advance'] / k:15.3f}  "
                     f"{1000 * r['candidates'] / k:19.2f}  {r['size'] / k:16.0f}")
    if brute:
        lines.append(f"asking every token instead of the candidates: {1000 * sum(brute) / len(brute):.0f} ms a state "
                     f"({len(brute)} states)")
    lines.append("load average " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="What the DSL constraint costs on SmolLM2's vocabulary. Example: "
                                 "python -m crafter.benchmarks.smol_constrain -n 6")
    ap.add_argument("-n", type=int, default=6, help="dev briefs (and synthetic charts and repairs)")
    a = ap.parse_args(argv)
    print(run(a.n))


if __name__ == "__main__":
    main()
