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


class KVPool:
    """Caches of several requests in one set of tensors: request ``i`` owns slot (row) ``i``.

    ``[slots, heads, capacity, head_dim]`` per layer, allocated once on the device. A request's
    own cache is :meth:`view` — a :class:`KVCache` whose tensors are views of its row, so its
    prefill, rollback (``crop``) and everything else work as for a lone request. A decode step
    over several requests reads and writes their rows through :meth:`batch` in one forward.
    """

    def __init__(self, n_layers: int, slots: int, n_heads: int, head_dim: int, capacity: int,
                 dtype: torch.dtype = torch.float32, device: torch.device | str = "cpu") -> None:
        shape = (slots, n_heads, capacity, head_dim)
        self.keys = [torch.zeros(shape, dtype=dtype, device=device) for _ in range(n_layers)]
        self.values = [torch.zeros(shape, dtype=dtype, device=device) for _ in range(n_layers)]
        self.ids = torch.zeros((slots, capacity), dtype=torch.long, device=device)
        self.slots, self.capacity = slots, capacity
        self.free = list(range(slots))

    def acquire(self) -> tuple[int, KVCache]:
        """The lowest free slot and its cache (empty); raises ``RuntimeError`` when all are taken."""
        if not self.free:
            raise RuntimeError(f"all {self.slots} KV slots are in use")
        slot = min(self.free)
        self.free.remove(slot)
        return slot, self.view(slot)

    def release(self, slot: int) -> None:
        if slot not in self.free:
            self.free.append(slot)

    def view(self, slot: int) -> KVCache:
        cache = KVCache.__new__(KVCache)
        cache.keys = [k[slot : slot + 1] for k in self.keys]
        cache.values = [v[slot : slot + 1] for v in self.values]
        cache.ids = self.ids[slot : slot + 1]
        cache.capacity, cache.length, cache._pending = self.capacity, 0, 0
        return cache

    def batch(self, slots: list[int], caches: list[KVCache]) -> "BatchKVCache":
        return BatchKVCache(self, slots, caches)


class BatchKVCache:
    """One forward over several requests' caches (rows of a :class:`KVPool`), each at its own length.

    Row ``i`` appends its ``width`` positions at ``caches[i].length`` (``starts``); every row is
    padded to the forward's width, the attention mask hides what a row must not see
    (:func:`kernels.masks.batched_draft_attention_mask`). ``commit`` moves each request's own
    length; the caller crops each to what it accepted, as for a lone request.
    """

    def __init__(self, pool: KVPool, slots: list[int], caches: list[KVCache]) -> None:
        self.pool, self.slots, self.caches = pool, list(slots), caches
        self.starts_list = [c.length for c in caches]
        device = pool.ids.device
        self.starts = torch.tensor(self.starts_list, dtype=torch.long, device=device)
        first = self.slots[0]
        self._rows = (slice(first, first + len(slots)) if self.slots == list(range(first, first + len(slots)))
                      else torch.tensor(self.slots, dtype=torch.long, device=device))
        self._pending = 0

    @property
    def length(self) -> int:  # the keys every row's forward reads: the longest row, before this forward
        return max(self.starts_list)

    def begin(self, width: int) -> None:
        if self.length + width > self.pool.capacity:
            raise ValueError(f"KV cache full: {self.length} + {width} > capacity {self.pool.capacity}")
        self._pending = width

    def update(self, layer: int, k: torch.Tensor, v: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        assert k.shape[2] == self._pending, f"expected width {self._pending}, got {k.shape[2]}"
        w, end = self._pending, self.length + self._pending
        for i, (slot, p) in enumerate(zip(self.slots, self.starts_list)):
            self.pool.keys[layer][slot, :, p : p + w] = k[i]
            self.pool.values[layer][slot, :, p : p + w] = v[i]
        return self.pool.keys[layer][self._rows, :, :end], self.pool.values[layer][self._rows, :, :end]

    def update_ids(self, ids: torch.Tensor) -> torch.Tensor:
        w, end = self._pending, self.length + self._pending
        for i, (slot, p) in enumerate(zip(self.slots, self.starts_list)):
            self.pool.ids[slot, p : p + w] = ids[i]
        return self.pool.ids[self._rows, :end]

    def commit(self) -> None:
        for c in self.caches:
            c.length += self._pending
        self._pending = 0
