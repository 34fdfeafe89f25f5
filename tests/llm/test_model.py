"""CraftLM: cached decoding matches a full forward; save/load; bad weights give clear errors."""

import pytest
import torch

from crafter.llm.backends import ModelError, get_backend
from crafter.llm.model import CraftLM
from kernels import draft_attention_mask



def test_cached_incremental_forward_matches_full_forward(make_model):
    model = make_model(100)
    ids = torch.randint(4, 100, (1, 12))
    full = model(ids)
    cache = model.new_cache(64)
    a = model(ids[:, :5], cache=cache)
    b = model(ids[:, 5:9], cache=cache)
    c = model(ids[:, 9:], cache=cache)
    assert torch.allclose(torch.cat([a, b, c], 1), full, atol=1e-5)


def test_mask_block_does_not_change_causal_rows(make_model):
    model = make_model(100, mask_token_id=3)
    ids = torch.randint(4, 100, (1, 8))
    cache = model.new_cache(64)
    model(ids[:, :5], cache=cache)
    with_masks = model(torch.cat([ids[:, 5:], torch.full((1, 4), 3)], 1), attn_mask=draft_attention_mask(5, 3, 4), cache=cache)
    assert torch.allclose(with_masks[:, :3], model(ids)[:, 5:], atol=1e-5)


def test_save_load_round_trip(tmp_path, make_model):
    model = make_model(100)
    model.save(tmp_path, dtype=torch.float32)
    again = CraftLM.load(tmp_path)
    ids = torch.randint(0, 100, (1, 6))
    assert torch.equal(model(ids), again(ids))


def test_missing_and_corrupt_weights(tmp_path, weights_dir):
    with pytest.raises(ModelError, match="missing"):
        get_backend(f"craftlm:{tmp_path}")
    bad = tmp_path / "bad"
    bad.mkdir()
    for f in weights_dir.iterdir():
        (bad / f.name).write_bytes(f.read_bytes())
    (bad / "model.safetensors").write_bytes(b"\x00garbage" * 10)
    with pytest.raises(ModelError, match="corrupt"):
        get_backend(f"craftlm:{bad}")
    (bad / "model.safetensors").write_bytes((weights_dir / "model.safetensors").read_bytes())
    (bad / "config.json").write_text("{not json")
    with pytest.raises(ModelError, match="config"):
        get_backend(f"craftlm:{bad}")
