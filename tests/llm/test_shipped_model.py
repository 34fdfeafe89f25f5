"""The shipped CraftLM: loads by default, and speculative greedy output is identical to plain
decoding on held-out prompts (a few by default; every held-out prompt in the slow test)."""

import pytest

from crafter.llm.backends import WEIGHTS_DIR, get_backend
from crafter.llm.corpus import held_out_set
from crafter.llm.quality import score

pytestmark = pytest.mark.skipif(not (WEIGHTS_DIR / "model.safetensors").is_file(), reason="no shipped weights")


def _check_identity(examples):
    b = get_backend()
    for e in examples:
        plain = b.complete(e.task, e.prompt, max_new_tokens=400, speculative="none")
        for mode in ("diffusion", "ngram"):
            spec = b.complete(e.task, e.prompt, max_new_tokens=400, speculative=mode)
            assert spec.text == plain.text, (mode, e.prompt)


def test_shipped_weights_are_small_and_load_by_default():
    size = sum(f.stat().st_size for f in WEIGHTS_DIR.iterdir() if f.is_file())
    assert size <= 20 * 1024 * 1024
    out = get_backend().complete("plan", "The encoder feeds the decoder.", max_new_tokens=64)
    assert out.stats["tokens"] > 0


def test_identity_on_some_held_out_prompts():
    _check_identity(held_out_set(per_task=2, seed=0))


@pytest.mark.slow
def test_identity_on_every_held_out_prompt():
    _check_identity(held_out_set(per_task=40, seed=0))


@pytest.mark.slow
def test_plan_quality_on_held_out_prompts_is_reported():
    b = get_backend()
    plans = [e for e in held_out_set(per_task=20, seed=0) if e.task == "plan"]
    scores = [score("plan", b.complete("plan", e.prompt, max_new_tokens=400).text, e.target) for e in plans]
    parse_rate = sum(s["parses"] for s in scores) / len(scores)
    mean_f1 = sum(s["f1"] for s in scores) / len(scores)
    print(f"held-out plan: parse rate {parse_rate:.2f}, component F1 {mean_f1:.3f}")
    assert 0.0 <= mean_f1 <= 1.0  # quality is reported (model card, bench decode), not asserted
