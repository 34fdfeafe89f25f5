"""Decoding compute for self-speculative decoding, independent of figures.

What lives here (a PyTorch reference for every op; faster versions may sit beside
them behind the same functions and are tested against the references):

* :mod:`kernels.masks` — attention masks for the *draft* layout (a causal run of
  verified/draft tokens followed by a block of mask tokens that sees itself
  bidirectionally) and the *training* layout (clean response plus a noised copy).
* :mod:`kernels.kv_cache` — a preallocated key/value cache that can be rolled back
  to any length (rejected drafts are dropped by moving a pointer); a pool of such caches,
  one row per request, that one forward over several requests reads and writes.
* :mod:`kernels.accept` — greedy acceptance (longest prefix agreeing with the
  verifier's argmax, then the correction or bonus token) and lossless speculative
  sampling (accept with min(1, p/q), resample from the residual (p - q)+).
"""

from kernels.accept import (
                            constrained_greedy_accept,
                            constrained_sample,
                            first_allowed,
                            greedy_accept,
                            speculative_sample_accept,
)
from kernels.kv_cache import BatchKVCache, KVCache, KVPool
from kernels.masks import batched_draft_attention_mask, draft_attention_mask, training_attention_mask, training_block_ids

__all__ = [
    "BatchKVCache",
    "KVCache",
    "KVPool",
    "batched_draft_attention_mask",
    "constrained_greedy_accept",
    "constrained_sample",
    "draft_attention_mask",
    "first_allowed",
    "greedy_accept",
    "speculative_sample_accept",
    "training_attention_mask",
    "training_block_ids",
]
