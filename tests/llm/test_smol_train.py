"""Fine-tuning on (prompt, response) pairs with the joint objective: data, a learning step, the adapter."""

from __future__ import annotations

import json
import random

import pytest
import torch
from smol_helpers import tiny_llama, tiny_tokenizer

from crafter.llm.smol.engine import SmolBackend, SmolFormat, merge_adapter
from crafter.llm.smol.model import MASK_TOKEN_ID, SmolLM
from crafter.llm.smol.train import (
    SmolTrainConfig,
    encode_pairs,
    joint_losses,
    next_token_batch,
    read_pairs,
    resolve_data,
    synthetic_pairs,
    train,
    trainable_model,
)
from crafter.llm.train import build_batch

GOLD = 'figure "T" direction=LR\nenc node "Encoder"\ndec node "Decoder"\ne1 edge enc -> dec'


def test_written_records_split_into_train_and_a_dev_set_never_trained_on(tmp_path):
    f = tmp_path / "h1.jsonl"
    lines = [json.dumps({"id": f"ml-{i:03d}", "brief": f"The encoder {i} feeds the decoder.", "gold": GOLD})
             for i in range(1, 12)]
    lines.append(json.dumps({"id": "ml-012", "brief": "bad gold", "gold": "this is not DSL ->"}))
    lines.append('{"id": "ml-013", "brief": "torn li')  # a file still being written
    f.write_text("\n".join(lines))
    skipped = []
    tr, dev = read_pairs([f], hold_out_every=5, log=skipped.append)
    assert [p.id for p in dev] == ["ml-005", "ml-010"]
    assert len(tr) == 9 and all(p.task == "plan" and p.prompt.startswith("<|plan|>") for p in tr)
    assert len(skipped) == 2


def test_the_written_corpus_trains_by_split_name_and_its_test_split_is_refused():
    train_pairs, dev = read_pairs(["briefs:train"], hold_out_every=0, log=lambda s: None)
    assert len(train_pairs) == 823 and not dev and all(p.prompt.startswith("<|plan|>") for p in train_pairs)
    with pytest.raises(ValueError, match="frozen"):
        resolve_data("briefs:test")


def test_a_next_token_batch_is_the_plain_language_model_loss():
    tok = tiny_tokenizer()
    lm = tiny_llama(len(tok), seed=3, max_len=2048)
    items = encode_pairs(SmolFormat(tok), synthetic_pairs(2, seed=2), max_tokens=2048)
    model = SmolLM(lm).eval()
    with torch.no_grad():
        l_ar, l_diff, _ = joint_losses(model, next_token_batch(items[:1], model.cfg.pad_token_id))
        prompt, resp = items[0]
        ids = torch.tensor([prompt + resp])
        ref = lm(ids, labels=torch.tensor([[-100] * len(prompt) + resp])).loss
    assert float(l_diff) == 0.0 and torch.allclose(l_ar, ref, atol=1e-5)


def _tiny_setup(method, seed=0):
    tok = tiny_tokenizer()
    # LoRA cannot rescale the frozen tied head: give it logits with room to learn (embeddings of std 0.2)
    lm = tiny_llama(len(tok), seed=seed, embed_std=0.2 if method == "lora" else 0.02, max_len=2048)
    tcfg = SmolTrainConfig(method=method, lr=1e-2 if method == "lora" else 3e-3, lora_r=8, lora_alpha=16,
                           block_sizes=(4,), warmup=1, checkpointing=method == "full")
    items = sorted(encode_pairs(SmolFormat(tok), synthetic_pairs(6, seed=1), max_tokens=2048),
                   key=lambda it: len(it[0]) + len(it[1]))[:3]
    return tok, lm, tcfg, items


@pytest.mark.parametrize("method", ["lora", "full"])
def test_training_steps_reduce_the_joint_loss_on_a_tiny_set(method):
    _, lm, tcfg, items = _tiny_setup(method)
    model = trainable_model(lm, tcfg)
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=tcfg.learning_rate())

    def loss_now():
        batch = build_batch(items, tcfg, MASK_TOKEN_ID, 2, 2, random.Random(0))  # the same noise each time
        l_ar, l_diff, _ = joint_losses(model, batch)
        return l_ar, l_diff

    with torch.no_grad():
        ar0, diff0 = loss_now()
    for step in range(10):
        l_ar, l_diff = loss_now()
        opt.zero_grad()
        (l_ar + l_diff).backward()
        opt.step()
    with torch.no_grad():
        ar1, diff1 = loss_now()
    assert ar1 < 0.8 * ar0 and diff1 < 0.8 * diff0, (float(ar0), float(ar1), float(diff0), float(diff1))


def test_lora_trains_the_mask_row_and_the_saved_adapter_is_small_verified_and_merges(tmp_path):
    tok, lm, _, _ = _tiny_setup("lora")
    before = lm.model.embed_tokens.weight.detach().clone()
    tcfg = SmolTrainConfig(out_dir=str(tmp_path / "run"), method="lora", synthetic=4, steps=3, batch_size=2,
                           lr=3e-3, lora_r=4, lora_alpha=8, block_sizes=(4,), warmup=1, eval_every=0,
                           ckpt_every=2, threads=1, log_every=1)
    summary = train(tcfg, lm=lm, tokenizer=tok, log=lambda s: None)
    adapter = tmp_path / "run" / "adapter"
    assert summary["steps"] == 3 and summary["saved"] == str(adapter)
    assert summary["tokens_per_second"] > 0 and summary["peak_rss_mb"] > 0
    files = json.loads((adapter / "crafter-cache.json").read_text())["files"]
    assert {"adapter_model.safetensors", "adapter_config.json"} <= set(files)
    merged = merge_adapter(tiny_llama(len(tok), seed=0, embed_std=0.2, max_len=2048), adapter)
    after = merged.model.embed_tokens.weight.detach()
    changed = (after != before).any(-1).nonzero().flatten().tolist()
    assert changed == [MASK_TOKEN_ID]  # only the mask token's embedding row is trained
    assert SmolBackend(SmolLM(merged), tok).complete("plan", "A feeds B.", max_new_tokens=5).stats["tokens"] <= 5
    # a tampered adapter is refused before anything is read
    data = bytearray((adapter / "adapter_model.safetensors").read_bytes())
    data[-1] ^= 0xFF
    (adapter / "adapter_model.safetensors").write_bytes(bytes(data))
    with pytest.raises(Exception, match="sha256"):
        merge_adapter(tiny_llama(len(tok), seed=0, embed_std=0.2, max_len=2048), adapter)


def test_training_resumes_from_its_checkpoint(tmp_path):
    tok = tiny_tokenizer()
    common = {"out_dir": str(tmp_path / "run"), "method": "lora", "synthetic": 4, "batch_size": 2, "lr": 3e-3,
              "lora_r": 4, "lora_alpha": 8, "block_sizes": (4,), "warmup": 1, "eval_every": 0, "ckpt_every": 2,
              "threads": 1}
    train(SmolTrainConfig(steps=2, **common), lm=tiny_llama(len(tok), max_len=2048), tokenizer=tok, log=lambda s: None)
    lines = []
    summary = train(SmolTrainConfig(steps=3, **common), lm=tiny_llama(len(tok), max_len=2048), tokenizer=tok,
                    log=lines.append)
    assert any("resumed" in line and "step 2" in line for line in lines)
    assert summary["steps"] == 3
