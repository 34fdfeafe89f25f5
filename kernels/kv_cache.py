"""A key/value cache that can be rolled back to any length.

Storage is preallocated per layer (``[batch, heads, capacity, head_dim]``) and a
single ``length`` pointer says how much is valid, so dropping rejected drafts or a
mask block is ``crop(n)``: no copy, no allocation (as ``DynamicCache.crop`` in
transformers, without the reallocation).
"""

from __future__ import annotations

import torch


class KVCache:
    """Per-layer keys and values for incremental decoding with rollback."""

    def __init__(self, n_layers: int, batch: int, n_heads: int, head_dim: int, capacity: int,
                 dtype: torch.dtype = torch.float32, device: torch.device | str = "cpu") -> None:
        shape = (batch, n_heads, capacity, head_dim)
        self.keys = [torch.zeros(shape, dtype=dtype, device=device) for _ in range(n_layers)]
        self.values = [torch.zeros(shape, dtype=dtype, device=device) for _ in range(n_layers)]
        self.ids = torch.zeros((batch, capacity), dtype=torch.long, device=device)  # token at each position
        self.capacity = capacity
        self.length = 0  # valid positions, shared by all layers
        self._pending = 0  # width of the forward in progress (set by begin)

    def begin(self, width: int) -> None:
        """Start a forward that appends ``width`` positions (every layer then calls ``update``)."""
        if self.length + width > self.capacity:
            raise ValueError(f"KV cache full: {self.length} + {width} > capacity {self.capacity}")
        self._pending = width

    def update(self, layer: int, k: torch.Tensor, v: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Write this forward's ``k, v`` (``[batch, heads, width, head_dim]``); return all valid keys/values."""
        assert k.shape[2] == self._pending, f"expected width {self._pending}, got {k.shape[2]}"
        end = self.length + self._pending
        self.keys[layer][:, :, self.length : end] = k
        self.values[layer][:, :, self.length : end] = v
        return self.keys[layer][:, :, :end], self.values[layer][:, :, :end]

    def update_ids(self, ids: torch.Tensor) -> torch.Tensor:
        """Write this forward's token ids (``[batch, width]``); return the ids of all valid positions.

        A model whose output copies from its context (a pointer head) needs the token at
        every cached position; they roll back with ``crop`` like the keys and values.
        """
        assert ids.shape[1] == self._pending, f"expected width {self._pending}, got {ids.shape[1]}"
        end = self.length + self._pending
        self.ids[:, self.length : end] = ids
        return self.ids[:, :end]

    def commit(self) -> None:
        """Make the forward's positions part of the cache (call once after all layers)."""
        self.length += self._pending
        self._pending = 0

    def crop(self, length: int) -> None:
        """Roll back to the first ``length`` positions (drops rejected drafts and mask slots)."""
        if not 0 <= length <= self.length:
            raise ValueError(f"cannot crop a cache of length {self.length} to {length}")
        self.length = length
