"""The rollback-able KV cache."""

import pytest
import torch

from kernels import KVCache


def _write(cache, width, value):
    cache.begin(width)
    b, h, _, d = cache.keys[0].shape
    k = torch.full((b, h, width, d), float(value))
    keys, values = cache.update(0, k, k)
    cache.commit()
    return keys


def test_append_crop_and_overwrite():
    cache = KVCache(n_layers=1, batch=1, n_heads=2, head_dim=4, capacity=10)
    _write(cache, 3, 1.0)
    keys = _write(cache, 4, 2.0)
    assert cache.length == 7 and keys.shape[2] == 7
    cache.crop(4)  # drop three rejected drafts
    keys = _write(cache, 2, 3.0)
    assert cache.length == 6
    assert keys[0, 0, :, 0].tolist() == [1, 1, 1, 2, 3, 3]


def test_bad_crop_and_overflow_are_errors():
    cache = KVCache(1, 1, 1, 2, capacity=3)
    _write(cache, 2, 1.0)
    with pytest.raises(ValueError, match="crop"):
        cache.crop(5)
    with pytest.raises(ValueError, match="full"):
        cache.begin(2)


def test_a_pool_gives_each_request_its_own_row_and_a_batch_writes_each_at_its_length():
    from kernels import KVPool

    pool = KVPool(n_layers=1, slots=3, n_heads=1, head_dim=2, capacity=16)
    (s0, a), (s1, b) = pool.acquire(), pool.acquire()
    assert (s0, s1) == (0, 1) and pool.free == [2]
    a.begin(3)
    a.update(0, torch.ones(1, 1, 3, 2), torch.ones(1, 1, 3, 2))
    a.commit()
    b.begin(1)
    b.update(0, 2 * torch.ones(1, 1, 1, 2), 2 * torch.ones(1, 1, 1, 2))
    b.commit()
    batch = pool.batch([s0, s1], [a, b])
    assert batch.starts.tolist() == [3, 1] and batch.length == 3
    batch.begin(2)
    k, _ = batch.update(0, torch.full((2, 1, 2, 2), 7.0), torch.full((2, 1, 2, 2), 7.0))
    batch.commit()
    assert k.shape == (2, 1, 5, 2)  # the longest row's prefix plus the forward's width
    assert k[0, 0, :, 0].tolist() == [1, 1, 1, 7, 7] and k[1, 0, :3, 0].tolist() == [2, 7, 7]
    assert (a.length, b.length) == (5, 3)
    pool.release(s0)
    assert pool.acquire()[0] == 0
    with pytest.raises(RuntimeError, match="in use"):
        pool.acquire(), pool.acquire()
