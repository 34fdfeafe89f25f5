"""CraftLM: cached decoding matches a full forward; save/load; bad weights give clear errors."""

import pytest
import torch

from crafter.llm.backends import ModelError, get_backend
from crafter.llm.model import CraftLM
from kernels import draft_attention_mask


@pytest.mark.parametrize("copy_head", [False, True])
def test_cached_incremental_forward_matches_full_forward(make_model, copy_head):
    model = make_model(100, copy_head=copy_head)
    ids = torch.randint(4, 100, (1, 12))
    full = model(ids)
    cache = model.new_cache(64)
    a = model(ids[:, :5], cache=cache)
    b = model(ids[:, 5:9], cache=cache)
    c = model(ids[:, 9:], cache=cache)
    assert torch.allclose(torch.cat([a, b, c], 1), full, atol=1e-5)


@pytest.mark.parametrize("copy_head", [False, True])
def test_mask_block_does_not_change_causal_rows(make_model, copy_head):
    model = make_model(100, mask_token_id=3, copy_head=copy_head)
    ids = torch.randint(4, 100, (1, 8))
    cache = model.new_cache(64)
    model(ids[:, :5], cache=cache)
    with_masks = model(torch.cat([ids[:, 5:], torch.full((1, 4), 3)], 1), attn_mask=draft_attention_mask(5, 3, 4), cache=cache)
    assert torch.allclose(with_masks[:, :3], model(ids)[:, 5:], atol=1e-5)


@pytest.mark.parametrize("copy_head", [False, True])
def test_save_load_round_trip(tmp_path, make_model, copy_head):
    model = make_model(100, copy_head=copy_head)
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


def test_weights_whose_sha256_differs_are_refused(tmp_path, weights_dir):
    """A file that still reads as safetensors but is not the one shipped (one byte of a tensor changed):
    refused by the sha256 beside it, not loaded as a different model; the heads the same way."""
    assert (weights_dir / "model.safetensors.sha256").is_file()  # written by CraftLM.save
    for f in weights_dir.iterdir():
        (tmp_path / f.name).write_bytes(f.read_bytes())
    data = bytearray((weights_dir / "model.safetensors").read_bytes())
    data[-3] ^= 0x01
    (tmp_path / "model.safetensors").write_bytes(bytes(data))
    CraftLM.load(weights_dir)  # the saved file matches its sum
    with pytest.raises(ValueError, match="sha256"):
        CraftLM.load(tmp_path)
    from crafter.llm.backends import WEIGHTS_DIR
    from crafter.llm.edits import EditHead

    shipped = tmp_path / "shipped"
    shipped.mkdir()
    for f in WEIGHTS_DIR.iterdir():
        if f.is_file():
            (shipped / f.name).write_bytes(f.read_bytes())
    CraftLM.load(shipped)
    EditHead.load(shipped)
    head = bytearray((shipped / "edits.safetensors").read_bytes())
    head[-3] ^= 0x01
    (shipped / "edits.safetensors").write_bytes(bytes(head))
    with pytest.raises(ValueError, match="sha256"):
        EditHead.load(shipped)
    assert "sha256" in (shipped / "names.json").read_text()


def test_copy_head_copies_only_from_what_a_row_may_see(make_model):
    """A strong pointer (gate ≈ 1) puts its mass on tokens that follow visible clean positions."""
    model = make_model(50, mask_token_id=3, copy_head=True)
    with torch.no_grad():
        model.ptr_gate.bias.fill_(30.0)
    ids = torch.tensor([[10, 11, 12, 13, 14, 15]])
    probs = model(ids).exp()[0]
    assert torch.allclose(probs.sum(-1), torch.ones(6), atol=1e-4)
    # row t copies tokens at positions 1..t (the token after a seen key j < t): never a future token
    for t in range(1, 6):
        assert probs[t, ids[0, 1 : t + 1]].sum() > 0.99
        assert probs[t, ids[0, t + 1 :]].sum() < 1e-6
    # a mask block copies from the clean prefix, never a [MASK]
    out = model(torch.tensor([[10, 11, 12, 3, 3]]), attn_mask=draft_attention_mask(0, 3, 2)).exp()[0]
    assert out[3:, 3].max() < 1e-6 and out[3:, [11, 12]].sum(-1).min() > 0.99
