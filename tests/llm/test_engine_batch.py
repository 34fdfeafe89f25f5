"""Decoding several requests in one forward (the model server's running batch): each commits exactly
what it commits decoding alone, whatever joins or leaves the batch, on the CPU and (``gpu``) on CUDA."""

import pytest
import torch

from crafter.llm.engine import decode_round, generate_ids, make_drafter, start_decoding
from kernels import KVPool


def _prompts(n, vocab, seed=0):
    g = torch.Generator().manual_seed(seed)
    out = []
    for _ in range(n):
        p = torch.randint(10, vocab, (int(torch.randint(2, 40, (1,), generator=g)),), generator=g).tolist()
        out.append(p + p[: len(p) // 2])
    return out


def _pool(model, slots):
    c = model.cfg
    w = model.embed.weight
    return KVPool(c.n_layers + int(c.copy_head), slots, c.n_heads, c.head_dim, c.max_len + 64, dtype=w.dtype,
                  device=w.device)


def _batched(model, jobs, slots, stagger=2):
    """Decode ``jobs`` (prompt, max tokens, mode) in a running batch of ``slots`` rows; a new job joins every
    ``stagger`` rounds while a row is free, finished ones leave at once. Returns the ids of each, in order."""
    pool, waiting, running, out, rounds = _pool(model, slots), list(enumerate(jobs)), [], {}, 0
    while waiting or running:
        if waiting and pool.free and (rounds % stagger == 0 or not running):
            i, (prompt, n, mode) = waiting.pop(0)
            slot, cache = pool.acquire()
            running.append((i, slot, start_decoding(model, prompt, n, drafter=make_drafter(mode), cache=cache)))
        decode_round([r for _, _, r in running], pool, [s for _, s, _ in running])
        rounds += 1
        for job in list(running):
            if job[2].stopped:
                out[job[0]] = (job[2].result.ids, job[2].result.stopped)
                pool.release(job[1])
                running.remove(job)
    return [out[i] for i in range(len(jobs))]


@pytest.mark.parametrize("seed,copy_head", [(0, False), (1, True), (2, True)])
def test_a_running_batch_decodes_each_request_as_alone(seed, copy_head, make_model):
    model = make_model(120, seed=seed, eos_token_id=2, mask_token_id=3, copy_head=copy_head)
    modes = ("diffusion", "ngram", "none")
    jobs = [(p, 20 + 7 * (i % 4), modes[i % 3]) for i, p in enumerate(_prompts(9, 120, seed))]
    alone = [(r.ids, r.stopped) for r in (generate_ids(model, p, n, drafter=make_drafter(m)) for p, n, m in jobs)]
    for slots, stagger in ((4, 1), (3, 3), (9, 1)):
        assert _batched(model, jobs, slots, stagger) == alone, (slots, stagger)


def test_a_cache_too_small_for_the_request_is_refused(make_model):
    model = make_model(120, eos_token_id=2)
    small = _pool(model, 1).view(0)
    small.capacity = 10
    with pytest.raises(ValueError, match="needs"):
        start_decoding(model, [5, 6, 7], 40, cache=small)


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_on_cuda_bf16_the_batch_matches_decoding_alone_and_the_cache_stays_on_the_gpu(make_model):
    model = make_model(120, seed=1, eos_token_id=2, mask_token_id=3, copy_head=True).to("cuda", torch.bfloat16)
    jobs = [(p, 32, "diffusion") for p in _prompts(8, 120, 4)]
    alone = [(r.ids, r.stopped) for r in (generate_ids(model, p, n, drafter=make_drafter(m)) for p, n, m in jobs)]
    assert _batched(model, jobs, 4) == alone
    run = start_decoding(model, jobs[0][0], 8, drafter=make_drafter("diffusion"))
    assert run.cache.keys[0].device.type == "cuda" and run.cache.keys[0].dtype == torch.bfloat16
