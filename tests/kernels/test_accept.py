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


# ---- under a constraint ------------------------------------------------------------

from kernels import constrained_greedy_accept, constrained_sample, first_allowed  # noqa: E402


def _rows(*argmaxes, v=6):
    """Logit rows whose preference order is the listed tokens, then the rest by id."""
    out = torch.zeros(len(argmaxes), v)
    for i, pref in enumerate(argmaxes):
        for rank, t in enumerate(pref):
            out[i, t] = 10.0 - rank
    return out


def test_first_allowed_takes_the_best_allowed_and_breaks_ties_by_id():
    assert first_allowed(torch.tensor([0.0, 5.0, 5.0, 9.0]), lambda t: t != 3) == 1
    assert first_allowed(torch.tensor([1.0, 2.0, 3.0]), lambda t: False) is None
    big = torch.arange(100.0)
    assert first_allowed(big, lambda t: t < 5, top=4) == 4  # found past the first top-k


def test_constrained_greedy_accept():
    # constraint: token 5 is never allowed; a state is just the tokens so far
    def advance(st, t):
        return None if t == 5 else st + (t,)

    rows = _rows([5, 1], [2], [5, 3], [4])  # row 0's argmax 5 is refused: its choice is 1
    states = [(), (1,), (1, 2)]
    acc, nxt, st = constrained_greedy_accept([1, 2], rows[:3], states, advance)
    assert (acc, nxt, st) == (2, 3, (1, 2, 3))  # both drafts kept, row 2 chooses 3 over the refused 5
    acc, nxt, st = constrained_greedy_accept([0, 2], rows[:3], [(), (0,), (0, 2)], advance)
    assert (acc, nxt, st) == (0, 1, (1,))  # the correction is the best *allowed* token
    acc, nxt, st = constrained_greedy_accept([], _rows([5]), [()], lambda s, t: None)
    assert (acc, nxt, st) == (0, None, None)  # nothing allowed at all


def test_constrained_sample_is_the_renormalised_distribution():
    p = torch.tensor([0.5, 0.3, 0.15, 0.05])
    g = torch.Generator().manual_seed(0)
    counts = torch.zeros(4)
    for _ in range(4000):
        t, st = constrained_sample(p, "s", lambda s, t: None if t == 0 else s + str(t), g)
        counts[t] += 1
        assert st == "s" + str(t)
    freq = counts / counts.sum()
    assert freq[0] == 0
    assert torch.allclose(freq[1:], torch.tensor([0.6, 0.3, 0.1]), atol=0.03)
    assert constrained_sample(p, "s", lambda s, t: None, g) == (None, None)
