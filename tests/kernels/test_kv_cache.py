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
