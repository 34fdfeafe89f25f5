"""The shipped CraftLM loads through transformers' AutoModelForCausalLM (registered model type)."""

import pytest
import torch

from crafter.llm.backends import WEIGHTS_DIR

pytestmark = pytest.mark.skipif(not (WEIGHTS_DIR / "model.safetensors").is_file(), reason="no shipped weights")


def test_auto_model_loads_the_shipped_weights_and_decodes_like_the_engine():
    from transformers import AutoConfig, AutoModelForCausalLM

    import crafter.llm.hf  # noqa: F401  (registers the craftlm model type)
    from crafter.llm.backends import CraftLMBackend
    from crafter.llm.engine import generate_ids
    from crafter.llm.model import CraftLM

    assert AutoConfig.from_pretrained(str(WEIGHTS_DIR)).model_type == "craftlm"
    hf = AutoModelForCausalLM.from_pretrained(str(WEIGHTS_DIR), dtype=torch.float32).eval()
    ref = CraftLM.load(WEIGHTS_DIR)
    assert sum(p.numel() for p in hf.parameters()) == sum(p.numel() for p in ref.parameters())
    tok = CraftLMBackend().tokenizer
    ids = tok.encode("<|plan|>The Encoder feeds the Decoder.<|out|>")
    x = torch.tensor([ids])
    with torch.no_grad():
        assert torch.allclose(hf(x).logits, ref(x), atol=1e-5)
        out = hf.generate(x, max_new_tokens=12, do_sample=False, copy_len=len(ids),
                          eos_token_id=tok.eos_id, pad_token_id=tok.pad_id)
    engine = generate_ids(ref, ids, 12).ids
    assert out[0, len(ids):].tolist()[: len(engine)] == engine
    if ref.cfg.encoder_dim:  # the brief encoder's states go in through generate's kwargs as well
        from crafter.llm.encoder import shared_encoder

        prompt = "<|plan|>The Encoder hands off to the Decoder.<|out|>"
        ids, offsets = tok.encode_offsets(prompt)
        feats = shared_encoder().features([prompt], [offsets])[0]
        x = torch.tensor([ids])
        with torch.no_grad():
            assert torch.allclose(hf(x, enc=feats[None]).logits, ref(x, enc=feats[None]), atol=1e-5)
            out = hf.generate(x, max_new_tokens=12, do_sample=False, copy_len=len(ids), enc=feats[None],
                              eos_token_id=tok.eos_id, pad_token_id=tok.pad_id)
        engine = generate_ids(ref, ids, 12, prompt_enc=feats).ids
        assert out[0, len(ids):].tolist()[: len(engine)] == engine
    labels = x.clone()
    assert float(hf(x, labels=labels).loss.detach()) > 0  # trainable with the transformers Trainer's loss convention
