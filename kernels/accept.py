"""Acceptance rules for speculative decoding.

* Greedy: keep the longest prefix of the drafts that equals the verifier's argmax,
  then append the verifier's own token at the first disagreement (the correction)
  or after the last draft (the bonus). The committed tokens are exactly what plain
  greedy decoding would produce.
* Sampling (lossless, Leviathan et al. / Chen et al.; as ``_rejection_sample`` in
  z-lab/dflash): accept draft ``d_i`` with probability ``min(1, p_i(d_i) / q_i(d_i))``;
  on the first rejection sample from the residual ``norm((p_i - q_i)+)``; if all are
  accepted sample the bonus from ``p_{n+1}``. The committed tokens are distributed
  exactly as samples from ``p``.
"""

from __future__ import annotations

import torch


def greedy_accept(draft_ids: torch.Tensor, verify_logits: torch.Tensor) -> tuple[int, int]:
    """Greedy verification.

    draft_ids: ``[n]`` proposed tokens. verify_logits: ``[n + 1, V]``, row ``i`` is the
    verifier's next-token logits *before* draft ``i`` (row ``n`` follows the last draft).
    Returns ``(accepted, next_token)``: how many drafts are kept and the correction
    (or bonus) token that follows them.
    """
    n = int(draft_ids.numel())
    assert verify_logits.shape[0] == n + 1, "need one verifier row per draft plus one"
    target = verify_logits.argmax(dim=-1)
    accepted = int((draft_ids == target[:n]).to(torch.int64).cumprod(0).sum()) if n else 0
    return accepted, int(target[accepted])


def speculative_sample_accept(draft_ids: torch.Tensor, draft_probs: torch.Tensor | None,
                              target_probs: torch.Tensor, generator: torch.Generator | None = None) -> tuple[int, int]:
    """Lossless speculative sampling.

    draft_ids: ``[n]``. draft_probs: ``[n, V]`` the proposal each draft was sampled from,
    or ``None`` for deterministic drafts (a point mass on ``d_i``, e.g. n-gram lookup).
    target_probs: ``[n + 1, V]`` the verifier's distributions. Returns ``(accepted, next_token)``.
    """
    n = int(draft_ids.numel())
    assert target_probs.shape[0] == n + 1, "need one verifier row per draft plus one"
    for i in range(n):
        d = int(draft_ids[i])
        p = target_probs[i]
        q_d = 1.0 if draft_probs is None else float(draft_probs[i, d])
        u = float(torch.rand((), generator=generator))
        if q_d > 0 and u * q_d <= float(p[d]):  # u < p/q without dividing by zero
            continue
        if draft_probs is None:
            residual = p.clone()
            residual[d] = 0.0
        else:
            residual = (p - draft_probs[i]).clamp_min(0.0)
        total = float(residual.sum())
        if total <= 0.0:  # p == q: any rejection is measure-zero; fall back to p itself
            residual, total = p, float(p.sum())
        token = int(torch.multinomial(residual / total, 1, generator=generator))
        return i, token
    return n, int(torch.multinomial(target_probs[n], 1, generator=generator))


def first_allowed(logits: torch.Tensor, allowed, top: int = 16, exhaustive: bool = True,
                  candidates=None) -> int | None:
    """The highest-scoring token id that ``allowed(token)`` admits (ties: lower id first,
    as ``argmax``), or None if it admits none. Tries the ``top`` best first, then (``exhaustive``)
    the rest; a drafter, which may simply propose nothing, looks at the ``top`` only.
    ``candidates`` (a callable -> token ids): a superset of the allowed tokens, so the exhaustive
    pass tries only those (a constraint over a large vocabulary knows them far cheaper than
    asking ``allowed`` of every token); the answer is the same."""
    k = min(top, int(logits.shape[-1]))
    vals, idx = torch.topk(logits, k)
    # topk does not promise an order among equal scores: sort (-score, id) so ties go to the lower id
    for t in sorted(zip((-vals).tolist(), idx.tolist())):
        if allowed(t[1]):
            return t[1]
    if not exhaustive:
        return None
    tried = set(idx.tolist())
    if candidates is not None:
        ids = [t for t in candidates() if t not in tried and 0 <= t < int(logits.shape[-1])]
        scores = logits[torch.tensor(ids, dtype=torch.long)].tolist() if ids else []
        for _, t in sorted(zip((-s for s in scores), ids)):
            if allowed(t):
                return t
        return None
    for t in torch.argsort(logits, descending=True, stable=True).tolist():
        if t not in tried and allowed(t):
            return t
    return None


def constrained_greedy_accept(draft_ids: list[int], verify_logits: torch.Tensor, states: list,
                              advance, candidates=None) -> tuple[int, int | None, object]:
    """Greedy verification under a constraint (grammar-constrained decoding).

    ``states[i]`` is the constraint's state before draft ``i`` (``len(states) == n + 1``;
    the drafts are already known to be allowed), ``advance(state, token)`` the next state or
    None. Row ``i``'s choice is its best *allowed* token; the drafts are kept while they
    equal it. Returns ``(accepted, next_token, state after next_token)``; ``next_token`` is
    None when nothing is allowed after the accepted drafts (the answer cannot go on).
    Plain decoding under the same constraint makes exactly the same choices.
    ``candidates(state)``: a superset of the tokens allowed after ``state`` (see :func:`first_allowed`).
    """
    n = len(draft_ids)
    assert verify_logits.shape[0] == n + 1 and len(states) == n + 1
    for i in range(n + 1):
        nxt: dict[int, object] = {}

        def ok(t: int, st=states[i]) -> bool:
            s = advance(st, t)
            if s is not None:
                nxt[t] = s
            return s is not None

        cands = None if candidates is None else (lambda st=states[i]: candidates(st))
        choice = first_allowed(verify_logits[i], ok, candidates=cands)
        if i < n and choice == draft_ids[i]:
            continue
        return i, choice, nxt.get(choice) if choice is not None else None
    raise AssertionError("unreachable")


def constrained_sample(probs: torch.Tensor, state, advance, generator: torch.Generator | None = None,
                       tries: int = 64) -> tuple[int | None, object]:
    """Sample from ``probs`` restricted to the allowed tokens (renormalised), by rejection:
    a refused token's mass is removed and the draw repeated, which is exactly sampling
    from the renormalised distribution. Returns ``(token, next state)`` or ``(None, None)``."""
    p = probs.clone().float()
    for _ in range(tries):
        total = float(p.sum())
        if total <= 0.0:
            break
        t = int(torch.multinomial(p / total, 1, generator=generator))
        s = advance(state, t)
        if s is not None:
            return t, s
        p[t] = 0.0
    # a long run of refusals: test every remaining token once, then draw from the allowed ones
    states = {t: advance(state, t) for t in torch.nonzero(p > 0).flatten().tolist()}
    allowed = [t for t, s in states.items() if s is not None]
    if not allowed:
        return None, None
    w = p[allowed]
    t = allowed[int(torch.multinomial(w / w.sum(), 1, generator=generator))]
    return t, states[t]
