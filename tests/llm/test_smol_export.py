"""The merged model (base + LoRA delta) saves as a standard Llama checkpoint that transformers'
``AutoModelForCausalLM`` loads and decodes greedily to the same tokens as Crafter's engine."""

from __future__ import annotations

import torch
from smol_helpers import tiny_llama, tiny_tokenizer

from crafter.llm.engine import generate_ids, make_drafter
from crafter.llm.smol.backbone import verify_manifest
from crafter.llm.smol.export import export_merged
from crafter.llm.smol.model import SmolLM
from crafter.llm.smol.train import SmolTrainConfig, trainable_model


def test_export_round_trip_gives_the_same_greedy_output(tmp_path):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tok = tiny_tokenizer()
    lora = trainable_model(tiny_llama(len(tok), seed=7), SmolTrainConfig(lora_r=4, lora_alpha=8))
    with torch.no_grad():  # a non-zero delta (LoRA's B starts at zero) and a trained mask row
        for name, p in lora.named_parameters():
            if p.requires_grad:
                p.normal_(0, 0.3)
    lora.lm.save_pretrained(str(tmp_path / "adapter"))
    from crafter.llm.smol.backbone import write_manifest

    write_manifest(tmp_path / "adapter")
    out = export_merged(tmp_path / "merged", tmp_path / "adapter", lm=tiny_llama(len(tok), seed=7), tokenizer=tok)
    assert verify_manifest(out) is None

    hf = AutoModelForCausalLM.from_pretrained(str(out), dtype=torch.float32).eval()
    hf_tok = AutoTokenizer.from_pretrained(str(out))
    assert type(hf).__name__ == "LlamaForCausalLM" and hf.config.vocab_size == len(tok)
    assert hf_tok.chat_template == tok.chat_template
    unmerged = SmolLM(lora.lm).eval()
    merged = SmolLM(hf).eval()
    g = torch.Generator().manual_seed(0)
    for _ in range(5):
        prompt = torch.randint(17, len(tok), (int(torch.randint(3, 30, (1,), generator=g)),), generator=g).tolist()
        with torch.no_grad():
            ref = hf.generate(torch.tensor([prompt]), attention_mask=torch.ones(1, len(prompt), dtype=torch.long),
                              max_new_tokens=24, do_sample=False, eos_token_id=2, pad_token_id=2)[0, len(prompt):]
        ref = ref.tolist()
        ref = ref[: ref.index(2)] if 2 in ref else ref
        for model in (merged, unmerged):  # the export, and the adapter on the base before merging
            for mode in ("none", "diffusion"):
                assert generate_ids(model, prompt, 24, drafter=make_drafter(mode)).ids == ref, mode
