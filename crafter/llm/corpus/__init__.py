"""The synthetic corpus CraftLM is trained on: (task, prompt, target DSL) triples.

Three tasks (prompt formats in :mod:`crafter.llm.prompts`):

* **plan** — a researcher's brief (prose, bullets, numbered steps, arrows, passive
  voice, captions) -> the whole figure's DSL;
* **chart** — a table schema plus a one-line brief -> one chart statement;
* **repair** — a figure's DSL plus one instruction or critic issue -> the
  replacement lines of the named components.

Targets are built as :class:`crafter.spec.Figure` objects and printed with
``print_dsl`` (never hand-formatted), so they always parse.

Conventions the model learns (and the held-out split checks):

* node ids ``n1, n2…`` in order of first mention in the brief; edges ``e1…`` in
  the order they are stated; groups ``g1…`` last;
* labels are spans copied verbatim from the brief (case kept);
* storage nouns (database, store, buffer…) give ``shape=cylinder``, a label ending
  in ``?`` gives ``shape=diamond``; "dashed"/"optional" links give ``style=dashed``.

**Held-out split.** Words of the label vocabulary are split by a hash (1 in 5 is
held out), and every phrasing family (connective verbs, sentence frames, bullet and
step styles, group and caption wordings) has a training and a held-out half. The
held-out split uses only held-out words and held-out phrasings, so it measures
phrasing and vocabulary never seen in training.

Where things live: :mod:`~crafter.llm.corpus.vocabulary` (label words and their split),
:mod:`~crafter.llm.corpus.phrasings` (every listed phrasing, training and held-out halves),
:mod:`~crafter.llm.corpus.invented` (phrasings invented for training, never a held-out word),
:mod:`~crafter.llm.corpus.plan`, :mod:`~crafter.llm.corpus.chart`, :mod:`~crafter.llm.corpus.repair`
(one task's examples each); this module mixes them into model prompts.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

from crafter.llm.corpus.chart import chart_example
from crafter.llm.corpus.plan import plan_example
from crafter.llm.corpus.repair import repair_example
from crafter.llm.prompts import chart_prompt, plan_prompt, repair_prompt

TASK_MIX = (("plan", 0.6), ("chart", 0.15), ("repair", 0.25))


@dataclass
class Example:
    task: str
    prompt: str  # the full model prompt (see crafter.llm.prompts)
    target: str  # DSL the model must write
    source: str  # the user-facing input (brief / instruction), for reports


def make_example(rng: random.Random, split: str, task: str | None = None) -> Example:
    if task is None:
        r, acc = rng.random(), 0.0
        for task, w in TASK_MIX:
            acc += w
            if r < acc:
                break
    if task == "plan":
        brief, target = plan_example(rng, split)
        return Example("plan", plan_prompt(brief), target, brief)
    if task == "chart":
        schema, brief, target = chart_example(rng, split)
        return Example("chart", chart_prompt(schema, brief), target, brief)
    dsl, instruction, ids, target = repair_example(rng, split)
    return Example("repair", repair_prompt(dsl, instruction, ids), target, instruction)


def make_corpus(n: int, split: str, seed: int, task: str | None = None) -> list[Example]:
    rng = random.Random(f"{split}:{seed}")
    return [make_example(rng, split, task) for _ in range(n)]


def held_out_set(per_task: int = 40, seed: int = 0) -> list[Example]:
    """The fixed held-out prompts the benchmark and the identity tests use."""
    out: list[Example] = []
    for task in ("plan", "chart", "repair"):
        out += make_corpus(per_task, "heldout", seed, task)
    return out


def dump_jsonl(examples: list[Example], path: str) -> None:
    with open(path, "w") as f:
        for e in examples:
            f.write(json.dumps(e.__dict__) + "\n")
