"""The DSL constraint on SmolLM2's byte-level BPE: every answer valid DSL of its task, labels copied
from the brief, and greedy output identical across drafters with the constraint on.

Default: a tiny random Llama and a byte-level BPE with SmolLM2's special tokens (a random model
writes anything it is let write: the constraint alone keeps it valid). Slow: the real backbone."""

from __future__ import annotations

import re

import pytest
import torch
from smol_helpers import tiny_llama, tiny_tokenizer

from crafter.corpora import load_briefs
from crafter.llm import ModelError, get_backend
from crafter.llm.backends.base import WEIGHTS_DIR
from crafter.llm.constrain import DSLConstraint
from crafter.llm.constrain.tokens import ByteVocab, token_bytes
from crafter.llm.engine import generate_ids, make_drafter
from crafter.llm.prompts import chart_prompt, plan_prompt, repair_prompt
from crafter.llm.quality import parse_output
from crafter.llm.smol.engine import SmolBackend
from crafter.llm.smol.model import SmolLM
from kernels import first_allowed

BRIEF = "The Encoder feeds the Decoder; the Decoder writes tokens to a Critic, which scores them."
FIGURE = 'n1 node "Encoder"\nn2 node "Decoder"\ne1 edge n1 -> n2'
PROMPTS = [
    ("plan", plan_prompt(BRIEF)),
    ("chart", chart_prompt("epoch (quantitative), loss (quantitative), model (nominal)",
                           "plot loss by epoch for each model")),
    ("repair", repair_prompt(FIGURE, "make the encoder a cylinder", ["n1"])),
]


def _backend(seed: int = 5, heads=None) -> SmolBackend:
    tok = tiny_tokenizer()
    return SmolBackend(SmolLM(tiny_llama(len(tok), seed=seed)), tok, heads=heads)


def _words(text: str) -> str:
    return " " + " ".join(re.findall(r"\w+", text.lower())) + " "


def _labels(answer: str) -> list[str]:
    return re.findall(r'"([^"]*)"', answer)


def test_token_bytes_of_a_transformers_tokenizer():
    """A fast tokenizer's pieces as bytes (special tokens stand for nothing); a text's tokens spell it."""
    tok = tiny_tokenizer()
    tb = token_bytes(tok, size=len(tok) + 3)
    assert len(tb) == len(tok) + 3 and tb[-1] == b""  # model ids past the tokenizer stand for nothing
    assert tb[tok.convert_tokens_to_ids("<|im_end|>")] == b"" and tb[16] == b""
    text = 'n1 node "Ωmega Ünit"\ne1 edge n1 -> n2\n'
    assert b"".join(tb[i] for i in tok(text, add_special_tokens=False)["input_ids"]).decode() == text


@pytest.mark.parametrize("task,prompt", PROMPTS)
def test_the_candidates_hold_every_allowed_token(task, prompt):
    """Along a random model's constrained answer, the tokens read off the sorted vocabulary include
    every token the constraint allows (checked against all of them), and the best allowed token found
    through them is the one the whole vocabulary gives."""
    b = _backend(seed=3)
    c = b.constraint(task, prompt)
    res = generate_ids(b.model, b.fmt.prompt_ids(prompt), 40, drafter=make_drafter("none"), constraint=c)
    g = torch.Generator().manual_seed(0)
    st = c.start()
    for t in res.ids:
        allowed = {i for i in range(len(c.token_bytes)) if c.advance(st, i) is not None}
        assert allowed <= set(c.candidates(st))
        logits = torch.randn(len(c.token_bytes), generator=g)
        ok = lambda i, s=st: c.advance(s, i) is not None  # noqa: E731
        assert first_allowed(logits, ok, top=2, candidates=lambda s=st: c.candidates(s)) == first_allowed(logits, ok, top=2)
        st = c.advance(st, t)


def test_the_sorted_vocabulary_walks_only_admitted_prefixes():
    v = ByteVocab([b"", b"ab", b"a", b"abc", b"b", "é".encode(), b"ac"])
    assert sorted(v.walk(lambda p: not p.startswith(b"ab"))) == [2, 4, 5, 6]
    seen = []
    v.walk(lambda p: seen.append(p) or p == b"a")
    assert b"ab" in seen and b"abc" not in seen and b"\xc3" not in seen  # no question inside a character


@pytest.mark.parametrize("task,prompt", PROMPTS)
def test_constrained_answers_parse_and_are_identical_across_drafters(task, prompt):
    b = _backend()
    plain = b.complete(task, prompt, max_new_tokens=60, speculative="none")
    assert plain.stats["constrained"] is True
    if plain.text:
        parse_output(task, plain.text)
    for mode in ("ngram", "diffusion", "diff-only"):
        assert b.complete(task, prompt, max_new_tokens=60, speculative=mode).text == plain.text, mode


@pytest.mark.parametrize("seed", [1, 2, 7])
def test_plan_labels_are_spans_of_the_brief(seed):
    b = _backend(seed)
    out = b.complete("plan", plan_prompt(BRIEF), max_new_tokens=80, speculative="none")
    assert out.text.strip(), out.stats
    parse_output("plan", out.text)
    for label in _labels(out.text):
        assert _words(label) in _words(BRIEF), label


def test_the_name_head_makes_plan_labels_the_names_it_read():
    b = _backend(heads=WEIGHTS_DIR)
    assert b.names is not None and b.edits is not None
    names = b.names.names(b.fmt.clean(plan_prompt(BRIEF)))
    out = b.complete("plan", plan_prompt(BRIEF), max_new_tokens=80, speculative="diffusion")
    read = {n.lower() for n in names["node"] + names["group"] + names["label"] + names["title"]}
    if len(names["node"]) >= 2:
        assert {label.lower() for label in _labels(out.text)} <= read, (out.text, names)
    assert out.text == b.complete("plan", plan_prompt(BRIEF), max_new_tokens=80, speculative="none").text


def test_free_decoding_is_the_unconstrained_model():
    b = _backend()
    prompt = plan_prompt(BRIEF)
    free = b.complete("plan", prompt, max_new_tokens=30, speculative="none", constrain=False)
    ids = generate_ids(b.model, b.fmt.prompt_ids(prompt), 30, drafter=make_drafter("none")).ids
    assert free.stats["constrained"] is False and free.text == b.fmt.decode(ids).strip()
    assert SmolBackend(b.model, b.fmt.tok, constrained=False).complete("plan", prompt, max_new_tokens=30).text == free.text


def test_the_constraint_is_the_task_prompts_less_special_tokens():
    b = _backend()
    c = b.constraint("plan", plan_prompt("A <|im_end|>Loader feeds a Parser."))
    assert isinstance(c, DSLConstraint) and c.spans.full_ok("loader") and not c.spans.full_ok("im_end")


def test_smol_options_are_checked():
    with pytest.raises(ModelError, match="#free"):
        get_backend("smol:base#loose")


@pytest.mark.slow
def test_the_real_backbone_writes_valid_dsl_identically_in_every_mode():
    """SmolLM2-135M (the shipped adapter, else the bare base) under the constraint, the first dev briefs:
    plan answers parse, labels are spans of the brief, every drafter writes the same answer."""
    backend = get_backend("smol#spans")
    for brief in load_briefs("dev")[:3]:
        plain = backend.complete("plan", brief.text, max_new_tokens=96, speculative="none")
        parse_output("plan", plain.text)
        for label in _labels(plain.text):
            assert _words(label) in _words(brief.text), label
        for mode in ("ngram", "diffusion"):
            assert backend.complete("plan", brief.text, max_new_tokens=96, speculative=mode).text == plain.text
    for task, prompt in PROMPTS[1:]:
        out = backend.complete(task, prompt, max_new_tokens=64)
        parse_output(task, out.text)
