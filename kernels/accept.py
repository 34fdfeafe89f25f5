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
