"""Greedy acceptance and lossless speculative sampling."""

import torch

from kernels import greedy_accept, speculative_sample_accept


def _logits_for(tokens, vocab=5):
    out = torch.zeros(len(tokens), vocab)
    for i, t in enumerate(tokens):
        out[i, t] = 1.0
    return out


def test_greedy_all_accepted_gives_bonus():
    assert greedy_accept(torch.tensor([1, 2, 3]), _logits_for([1, 2, 3, 4])) == (3, 4)


def test_greedy_rejection_gives_correction():
    assert greedy_accept(torch.tensor([1, 2, 3]), _logits_for([1, 0, 3, 4])) == (1, 0)
    assert greedy_accept(torch.tensor([1, 2, 3]), _logits_for([4, 2, 3, 4])) == (0, 4)


def test_greedy_no_drafts_is_one_plain_step():
    assert greedy_accept(torch.tensor([], dtype=torch.long), _logits_for([2])) == (0, 2)


def test_sampling_accepts_sure_drafts_and_point_masses():
    p = torch.tensor([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]])
    assert speculative_sample_accept(torch.tensor([1, 2]), None, p) == (2, 0)
    assert speculative_sample_accept(torch.tensor([0, 2]), None, p) == (0, 1)  # residual is all on 1


def test_sampling_is_lossless():
    # one draft position: the first committed token must be distributed as p
    g = torch.Generator().manual_seed(0)
    p = torch.tensor([0.5, 0.3, 0.2])
    q = torch.tensor([0.1, 0.1, 0.8])
    counts = torch.zeros(3)
    n = 20000
    for _ in range(n):
        d = torch.multinomial(q, 1, generator=g)
        acc, tok = speculative_sample_accept(d, q.view(1, -1), torch.stack([p, p]), generator=g)
        counts[int(d) if acc == 1 else tok] += 1
    assert torch.allclose(counts / n, p, atol=0.015)
