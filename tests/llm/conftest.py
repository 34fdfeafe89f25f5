"""Shared fixtures: a tokenizer trained on a small corpus and tiny random CraftLM models."""

from __future__ import annotations

import pytest
import torch

from crafter.llm.corpus import make_corpus
from crafter.llm.model import CraftLM, CraftLMConfig
from crafter.llm.tokenizer import train_tokenizer


@pytest.fixture(scope="session")
def tokenizer():
    corpus = make_corpus(300, "train", seed=7)
    return train_tokenizer([e.prompt + e.target for e in corpus], vocab_size=600)


def tiny_model(vocab_size: int, seed: int = 0, **kw) -> CraftLM:
    torch.manual_seed(seed)
    cfg = CraftLMConfig(vocab_size=vocab_size, d_model=32, n_layers=2, n_heads=2, d_ff=64, max_len=kw.pop("max_len", 512), **kw)
    model = CraftLM(cfg).eval()
    with torch.no_grad():  # sharper logits than the 0.02 init: fewer near-ties, more varied text
        model.embed.weight.mul_(20)
    return model


@pytest.fixture(scope="session")
def weights_dir(tmp_path_factory, tokenizer):
    """A saved tiny CraftLM (random weights) with the test tokenizer, in fp32."""
    d = tmp_path_factory.mktemp("craftlm")
    model = tiny_model(tokenizer.vocab_size, mask_token_id=tokenizer.mask_id, eos_token_id=tokenizer.eos_id)
    model.save(d, dtype=torch.float32)
    tokenizer.save(d)
    return d


@pytest.fixture
def make_model():
    """Factory for tiny random CraftLM models: ``make_model(vocab_size, seed=0, **config)``."""
    return tiny_model


@pytest.fixture(scope="session")
def tb(tokenizer):
    """The test tokenizer's token bytes (what :class:`DSLConstraint` reads)."""
    from crafter.llm.constrain.tokens import token_bytes

    return token_bytes(tokenizer)


@pytest.fixture
def accepts():
    """``accepts(constraint, tokenizer, text)``: the constraint takes ``text`` and then the end."""

    def run(c, tok, text):
        st = c.start()
        for t in tok.encode(text) + [tok.eos_id]:
            st = c.advance(st, t)
            if st is None:
                return False
        return True

    return run
