"""The SmolLM2 adapter and the DSL constraint speak the same conventions: the written corpus'.

The adapter is trained on the brief corpus' gold figures (ids like ``reads``/``fastp``, ``figure
"…" direction=LR``, shapes the writer chose, panels, groups in groups); under the constraint those
plans must never be refused partway. Checked token by token over every dev brief's gold, with a
name head that read the gold's own names (what is tested is the grammar, not the head), on a
byte-level BPE of SmolLM2's kind (no model needed)."""

from __future__ import annotations

import pytest
from smol_helpers import tiny_tokenizer

from crafter.corpora import load_briefs
from crafter.llm.constrain import DSLConstraint
from crafter.llm.constrain.tokens import token_bytes
from crafter.llm.prompts import plan_prompt
from crafter.llm.smol.engine import SmolFormat
from crafter.spec import Figure, parse_dsl

BRIEF = "Reads go through fastp trimming, then Kraken2; the report sums Kraken2 and fastp trimming."


@pytest.fixture(scope="module")
def fmt() -> SmolFormat:
    return SmolFormat(tiny_tokenizer())


def gold_names(fig: Figure) -> dict:
    """What a perfect name head would read: the figure's own names and links."""
    names: dict = {"node": [], "group": [], "label": [], "title": [fig.title] if fig.title else [], "links": []}
    label = {}
    for c in fig.components:
        if c.kind == "node":
            names["node"].append(c.label)
            label[c.id] = c.label.lower()
        elif c.kind in ("group", "panel"):
            names["group"].append(c.title if c.kind == "panel" else c.label)
        elif c.kind == "edge":
            names["label"] += [c.label] if c.label else []
            names["links"].append((label[c.source], label[c.target]))
    return names


def refusal(fmt: SmolFormat, brief: str, answer: str, names=None, conventions: str = "corpus",
            cover: bool = False) -> str | None:
    """Where the constraint refuses ``answer`` (the line so far and the token), None if it takes it whole."""
    c = DSLConstraint("plan", fmt.clean(plan_prompt(brief)), token_bytes(fmt.tok), fmt.eos_id, names,
                      encode=fmt.text_ids, force_tokenization=False, conventions=conventions, cover=cover)
    st, ids = c.start(), fmt.response_ids(answer)
    for k, t in enumerate(ids):
        nxt = c.advance(st, t)
        if nxt is None:
            done = fmt.tok.decode(ids[:k])
            return f"{done[done.rfind(chr(10)) + 1:]!r} + {fmt.tok.decode([t])!r}"
        st = nxt
    return None


def test_every_dev_gold_passes_the_constraint_token_by_token(fmt):
    """SmolBackend's constraint (labels the head's names), and with ``cover`` (every name and link of
    the head drawn, each name once): there only a part drawn twice is refused, at its second node."""
    refused, covered = {}, {}
    for b in load_briefs("dev"):
        names = gold_names(b.gold)
        if where := refusal(fmt, b.text, b.gold_dsl, names):
            refused[b.id] = where
        where = refusal(fmt, b.text, b.gold_dsl, names, cover=True)
        twice = len(set(map(str.lower, names["node"]))) < len(names["node"])
        if bool(where) != twice or (where and "node" not in where):  # refused at a node line
            covered[b.id] = where
    assert not refused, refused
    assert not covered, covered


def test_craftlm_conventions_are_unchanged_and_a_subset(fmt):
    """CraftLM's plans (n1 n2 …, the implied shape) pass both conventions; a corpus-style id only the corpus'."""
    numbered = 'n1 node "Reads"\nn2 node "fastp trimming"\ne1 edge n1 -> n2'
    mnemonic = 'figure direction=LR\nreads node "Reads" shape=parallelogram\nfp node "fastp trimming"\ne1 edge reads -> fp'
    assert refusal(fmt, BRIEF, numbered, conventions="craftlm") is None
    assert refusal(fmt, BRIEF, numbered) is None
    assert refusal(fmt, BRIEF, mnemonic) is None
    assert refusal(fmt, BRIEF, mnemonic, conventions="craftlm") is not None
    with pytest.raises(ValueError, match="conventions"):
        DSLConstraint("plan", BRIEF, token_bytes(fmt.tok), fmt.eos_id, conventions="mermaid")


def test_an_edge_may_end_at_an_id_that_starts_another(fmt):
    """``-> enc`` where ``enc2`` exists (and ``-> n1`` where ``n10`` does) is a finished edge."""
    plan = 'enc node "Kraken2"\nenc2 node "Reads"\ne1 edge enc2 -> enc'
    assert refusal(fmt, BRIEF, plan) is None
    words = "alpha bravo charlie delta echo foxtrot golf hotel india juliet".split()
    ten = "\n".join(f'n{i} node "{w}"' for i, w in enumerate(words, 1))
    assert refusal(fmt, "Steps: " + ", ".join(words) + ".", ten + "\ne1 edge n10 -> n1", conventions="craftlm") is None


def test_what_the_corpus_conventions_still_refuse(fmt):
    head = 'a node "Kraken2"\nb node "Reads"\n'
    assert refusal(fmt, BRIEF, head + 'c node "Kraken2"') is None  # a part drawn twice (two panels)
    assert refusal(fmt, BRIEF, 'figure "fastp trimming" direction=TB\n' + head) is None  # a title: a span of the brief
    assert refusal(fmt, BRIEF, head + 'c node "Kraken2"\nd node "Kraken2"') is not None  # never three times
    assert refusal(fmt, BRIEF, head + 'a node "fastp trimming"') is not None  # an id defined twice
    assert refusal(fmt, BRIEF, head + 'e1 edge a -> zz') is not None  # an edge to a node not defined
    assert refusal(fmt, BRIEF, head + 'g1 group "Reads" [a]\ng2 group "fastp trimming" [g1]') is not None
    assert refusal(fmt, BRIEF, head + 'g1 group "Reads" [a]\ng2 group "fastp trimming" [g1, b]') is None
    assert refusal(fmt, BRIEF, head + 'p panel "(b)" [a]') is not None  # panels are lettered in order
    assert refusal(fmt, BRIEF, head + 'p panel "(a)" [a] title="Kraken2"\nq panel "(b)" [b]') is None
    assert refusal(fmt, BRIEF, head + 'x node "Reads" shape=blob') is not None  # a shape the spec lacks
    assert parse_dsl(head + 'p panel "(a)" [a] title="Kraken2"').components[-1].title == "Kraken2"
