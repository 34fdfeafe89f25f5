"""Training: the batch layout is right and a few steps lower both losses."""

import random

import torch

from crafter.llm.model import CraftLM, CraftLMConfig
from crafter.llm.train import IGNORE, TrainConfig, build_batch, losses


def test_batch_layout_targets_and_eos_padding():
    tcfg = TrainConfig(block_sizes=(4,), p_all_mask=1.0)
    prompt, resp = [5, 6, 7], [10, 11, 12, 13, 14, 2]  # response ends in EOS (id 2)
    b = build_batch([(prompt, resp)], tcfg, mask_id=3, eos_id=2, pad_id=0, rng=random.Random(0))
    ids, tgt, diff = b["input_ids"][0], b["targets"][0], b["is_diff"][0]
    n_noised = int(diff.sum())
    assert n_noised % 4 == 0 or n_noised > len(resp) - 4  # last block padded (phase may shorten the first)
    assert ids[: 3 + 6].tolist() == prompt + resp
    assert tgt[2 : 2 + 6].tolist() == resp  # AR: each position predicts the next token
    assert (ids[diff] == 3).all()  # p_all_mask=1: every noised position is a mask
    assert tgt[diff][:6].tolist() == resp and (tgt[diff][6:] == 2).all()  # padding targets are EOS
    assert (tgt[9:][~diff[9:]] == IGNORE).all()


def test_a_few_steps_lower_the_losses(tokenizer):
    from crafter.llm.corpus import make_example
    from crafter.llm.train import encode_examples

    torch.manual_seed(0)
    cfg = CraftLMConfig(vocab_size=tokenizer.vocab_size, d_model=48, n_layers=2, n_heads=2, d_ff=96)
    model = CraftLM(cfg)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    rng = random.Random(0)
    items = encode_examples(tokenizer, [make_example(rng, "train") for _ in range(4)])
    batch = build_batch(items, TrainConfig(), tokenizer.mask_id, tokenizer.eos_id, tokenizer.pad_id, rng)
    first = None
    for _ in range(15):
        l_ar, l_diff, _ = losses(model, batch)
        first = first or (l_ar.item(), l_diff.item())
        opt.zero_grad()
        (l_ar + l_diff).backward()
        opt.step()
    assert float(l_ar) < first[0] and float(l_diff) < first[1]
