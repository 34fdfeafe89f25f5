"""Attention masks for block-diffusion drafting and training (boolean, True = may attend).

Two layouts, one rule each:

* **Draft layout** (decode time). The query rows are ``[a0, d1..dn | M1..Mm]`` on top
  of a cached prefix of length ``P``: ``a0`` is the last committed token, ``d`` the
  drafts being verified, ``M`` a block of mask tokens that drafts the tokens after
  them. The causal run sees the prefix and itself causally; the mask block sees the
  prefix, the whole causal run (as if every draft were accepted) and itself
  bidirectionally. Nothing in the causal run sees the mask block, so its logits are
  exactly those of plain decoding.
* **Training layout**. The sequence is ``[prompt | x0 (clean response) | xt (noised
  copy of the response)]``. Prompt and x0 are causal and never see xt. A position of
  xt in block ``b`` sees the prompt, the clean x0 positions *before* block ``b`` and
  all of block ``b`` in xt (bidirectional). Blocks are cut on a grid with a phase
  (the first block may be short) because decode rounds start off any grid.
"""

from __future__ import annotations

import torch


def draft_attention_mask(prefix_len: int, n_causal: int, n_mask: int,
                         device: torch.device | str = "cpu") -> torch.Tensor:
    """Mask for one decode forward: ``[n_causal + n_mask, prefix_len + n_causal + n_mask]``.

    prefix_len: cached tokens every row sees. n_causal: ``a0`` plus drafts (causal rows).
    n_mask: mask tokens (bidirectional block after the causal rows).
    """
    assert n_causal >= 1 or n_mask >= 1, "a forward needs at least one query row"
    w = n_causal + n_mask
    mask = torch.ones(w, prefix_len + w, dtype=torch.bool, device=device)
    if n_causal:
        causal = torch.ones(n_causal, n_causal, dtype=torch.bool, device=device).tril()
        mask[:n_causal, prefix_len : prefix_len + n_causal] = causal
        mask[:n_causal, prefix_len + n_causal :] = False  # the causal run never sees the masks
    return mask


def training_block_ids(response_len: int, block_size: int, phase: int) -> torch.Tensor:
    """Block index of each response position; the first block holds ``phase`` tokens (0 = full).

    ``[response_len]`` long tensor, blocks numbered from 0.
    """
    assert block_size >= 1 and 0 <= phase < block_size, "phase must be in [0, block_size)"
    shifted = torch.arange(response_len) + (block_size - phase) % block_size
    ids = shifted // block_size
    return ids - ids[0] if response_len else ids


def training_attention_mask(prompt_len: int, block_ids: torch.Tensor, clean_len: int | None = None) -> torch.Tensor:
    """Mask for ``[prompt | x0 | xt]``: ``[L, L]`` with ``L = prompt_len + clean_len + len(block_ids)``.

    block_ids: non-decreasing block index of each position of the noised copy xt (see
    :func:`training_block_ids`). clean_len: length of x0 (default: same as xt); xt may
    be longer, when its last block is padded with EOS, and x0 position ``i`` belongs to
    block ``block_ids[i]``.
    """
    r = int(block_ids.numel())
    c = r if clean_len is None else clean_len
    assert c <= r, "the noised copy covers the whole clean response"
    t = prompt_len + c
    n = t + r
    mask = torch.zeros(n, n, dtype=torch.bool)
    mask[:t, :t] = torch.ones(t, t, dtype=torch.bool).tril()  # prompt + clean response: causal
    mask[t:, :prompt_len] = True  # noised copy sees the whole prompt
    b = block_ids.view(-1, 1)
    mask[t:, prompt_len:t] = block_ids[:c].view(1, -1) < b  # ... clean blocks strictly before its own
    mask[t:, t:] = block_ids.view(1, -1) == b  # ... and its own block, bidirectionally
    return mask


def batched_draft_attention_mask(prefix_lens: list[int], n_causal: list[int], n_mask: list[int],
                                 device: torch.device | str = "cpu") -> torch.Tensor:
    """Masks of one decode forward over several requests: ``[B, 1, W, max(prefix_lens) + W]``.

    Row ``i`` is :func:`draft_attention_mask` of request ``i`` (its cached prefix, its causal run,
    its mask block) placed at the top left; ``W`` is the widest request's width. Padding query
    rows see only position 0 (their outputs are thrown away; no row is all-False, which would
    give NaN), and no real row sees a padding key.
    """
    widths = [c + m for c, m in zip(n_causal, n_mask)]
    w_max = max(widths)
    s = max(prefix_lens) + w_max
    mask = torch.zeros(len(widths), 1, w_max, s, dtype=torch.bool, device=device)
    for i, (p, c, m) in enumerate(zip(prefix_lens, n_causal, n_mask)):
        w = c + m
        mask[i, 0, :w, : p + w] = draft_attention_mask(p, c, m, device=device)
        mask[i, 0, w:, 0] = True
    return mask
