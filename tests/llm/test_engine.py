"""The verify/accept loop: greedy speculative output is identical to plain decoding."""

import pytest
import torch
from oracle import OracleDrafter

from crafter.llm.engine import DiffusionDrafter, NgramDrafter, generate_ids, make_drafter


def _prompts(n, vocab, seed=0):
    g = torch.Generator().manual_seed(seed)
    out = []
    for _ in range(n):
        p = torch.randint(10, vocab, (int(torch.randint(2, 40, (1,), generator=g)),), generator=g).tolist()
        out.append(p + p[: len(p) // 2])  # repeats give the n-gram drafter something to find
    return out


@pytest.mark.parametrize("seed,copy_head", [(0, False), (1, False), (2, False), (0, True), (1, True)])
def test_speculative_greedy_is_identical_to_plain(seed, copy_head, make_model):
    model = make_model(120, seed=seed, eos_token_id=2, mask_token_id=3, copy_head=copy_head)
    for prompt in _prompts(8, 120, seed):
        plain = generate_ids(model, prompt, 48, drafter=make_drafter("none"))
        for mode, bs in [("ngram", None), ("diffusion", None), ("diffusion", 4), ("diffusion", 16)]:
            spec = generate_ids(model, prompt, 48, drafter=make_drafter(mode, block_size=bs))
            assert spec.ids == plain.ids, (mode, bs)
            assert spec.stopped == plain.stopped


def test_an_oracle_drafter_commits_many_tokens_per_forward(make_model):
    model = make_model(120, eos_token_id=2)
    prompt = _prompts(1, 120)[0]
    plain = generate_ids(model, prompt, 40)

    res = generate_ids(model, prompt, 40, drafter=OracleDrafter(plain.ids, len(prompt)))
    assert res.ids == plain.ids
    assert res.forward_passes <= 40 // 8 + 1
    assert set(res.stats()["acceptance_histogram"]) <= {"7", str(len(plain.ids) % 8 - 1)} | {str(i) for i in range(8)}


def test_ngram_lookup_proposes_what_followed():
    d = NgramDrafter(max_ngram=3, min_ngram=2, max_draft=4)
    assert d.lookup([5, 6, 7, 8, 9, 1, 5, 6], 10) == [7, 8, 9, 1]
    assert d.lookup([1, 2, 3], 10) == []


def test_a_primed_lookup_drafts_the_prime_then_resumes_it_after_an_edit():
    """Repair: the old line first; once the answer has edited it, the rest of the old line."""
    d = NgramDrafter(max_ngram=3, min_ngram=2, max_draft=4, prime=[40, 41, 42, 43, 44])
    prompt = [1, 2, 3, 40, 41, 42, 43, 44, 9]
    assert d.lookup(prompt, 10) == [40, 41, 42, 43, 44]
    # the answer so far: 40 41, then 77 instead of 42, then 43: the prime goes on after 43
    assert d.lookup(prompt + [40, 41, 77, 43], 10) == [44]
    # nothing of the prime matches: the whole context, as unprimed
    assert d.lookup(prompt + [2, 3], 10) == [40, 41, 42, 43]


def test_sampling_terminates_and_respects_budget(make_model):
    model = make_model(120, eos_token_id=2)
    g = torch.Generator().manual_seed(0)
    for mode in ("none", "ngram", "diffusion"):
        res = generate_ids(model, [10, 11, 12, 10, 11], 30, temperature=1.0, drafter=make_drafter(mode), generator=g)
        assert len(res.ids) <= 30 and res.stopped in ("eos", "length")


def test_generation_stops_at_eos_and_at_max_len(make_model):
    model = make_model(50, eos_token_id=2, max_len=40)
    prompt = list(range(10, 30))
    res = generate_ids(model, prompt, 1000, drafter=make_drafter("diffusion"))
    if res.stopped == "length":
        assert len(res.ids) == 40 - 20  # clipped to the context
    stop = res.ids[3]
    model.cfg.eos_token_id = stop  # pretend that token is EOS: output ends just before it
    for mode in ("none", "diffusion", "ngram"):
        res2 = generate_ids(model, prompt, 1000, drafter=make_drafter(mode))
        assert res2.stopped == "eos" and res2.ids == res.ids[: res.ids.index(stop)]


def test_bad_requests(make_model):
    model = make_model(50, max_len=30)
    with pytest.raises(ValueError, match="empty"):
        generate_ids(model, [], 10)
    with pytest.raises(ValueError, match="context"):
        generate_ids(model, list(range(40)), 10)
    with pytest.raises(ValueError, match="unknown speculative"):
        make_drafter("medusa")


def test_diffusion_block_size_adapts():
    d = DiffusionDrafter(block_size=8)
    for _ in range(6):
        d.observe(8, 0, None, 0.0)
    assert d.block_size == d.min_block
    for _ in range(10):
        d.observe(8, 8, None, 0.0)
    assert d.block_size >= 14


@pytest.mark.parametrize("copy_head", [False, True])
def test_a_guard_cuts_output_where_plain_decoding_would(copy_head, make_model):
    """A guard that gives up at a token value stops every drafter at the same place."""
    model = make_model(120, seed=3, eos_token_id=2, mask_token_id=3, copy_head=copy_head)
    for prompt in _prompts(6, 120, 3):
        plain_full = generate_ids(model, prompt, 48, drafter=make_drafter("none"))
        if len(plain_full.ids) < 6:
            continue
        bad = plain_full.ids[len(plain_full.ids) // 2]

        def guard(out, bad=bad):
            return out.index(bad) + 1 if bad in out else None

        plain = generate_ids(model, prompt, 48, drafter=make_drafter("none"), guard=guard)
        assert plain.stopped == "guard" and plain.ids == plain_full.ids[: plain_full.ids.index(bad) + 1]
        for mode in ("ngram", "diffusion"):
            spec = generate_ids(model, prompt, 48, drafter=make_drafter(mode), guard=guard)
            assert spec.ids == plain.ids and spec.stopped == "guard", mode
