"""Training CraftLM: one set of weights, joint next-token and masked block-diffusion loss.

Each example is laid out as ``[prompt | x0 | xt]`` (see :mod:`kernels.masks`):

* ``x0`` is the clean response plus one ``<|eos|>``; the next-token (AR) loss is
  taken on it, so the AR path sees EOS exactly once (supervising padding EOS on the
  AR path damages it — GravityOCR);
* ``xt`` is a noised copy of the response, cut into blocks of a random size
  (``block_sizes``) at a random phase; each block is masked at a rate drawn from
  U(eps, 1), or entirely (``p_all_mask``: the decode-time case, a block of pure
  masks); the last block is padded with EOS (diffusion stream only). The diffusion
  loss is cross-entropy at the masked positions against the clean tokens.

Loss = ``ar_weight · L_ar + diff_weight · L_diff``. Examples are drawn fresh from the
corpus generator every step (no epochs, no overfitting to a fixed set). A checkpoint
(``ckpt.pt``) is written every ``ckpt_every`` steps and training resumes from it.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import torch
import torch.nn.functional as F
from safetensors.torch import load_file

from crafter.llm.corpus import Example, held_out_set, make_corpus, make_example
from crafter.llm.encoder import ENCODER_DIM, shared_encoder
from crafter.llm.model import CraftLM, CraftLMConfig
from crafter.llm.prompts import SPECIAL_TOKENS, UNK
from crafter.llm.tokenizer import CraftTokenizer, train_tokenizer
from kernels import training_attention_mask, training_block_ids

IGNORE = -100
UNK_ID = SPECIAL_TOKENS.index(UNK)  # special tokens have fixed ids (crafter.llm.prompts)


@dataclass
class TrainConfig:
    out_dir: str = ".craftlm-train/run"
    steps: int = 2000
    batch_size: int = 12
    lr: float = 3e-3
    min_lr_ratio: float = 0.1
    warmup: int = 100
    weight_decay: float = 0.05
    ar_weight: float = 1.0
    diff_weight: float = 1.0
    block_sizes: tuple[int, ...] = (4, 8, 8, 12, 16)  # drawn per example: decode adapts its block size
    p_all_mask: float = 0.5  # share of blocks that are entirely masked (as when drafting)
    mask_eps: float = 0.1  # mask rate of other blocks ~ U(eps, 1)
    vocab_size: int = 2048
    tokenizer_examples: int = 8000
    eval_every: int = 200
    ckpt_every: int = 100
    seed: int = 0
    threads: int = 1  # on a shared 2-core CPU one thread trains faster than two (measured: 16-22 s vs 31 s a step)
    time_budget_min: float | None = None  # stop (with a checkpoint) after this many minutes
    init_from: str | None = None  # warm start: a saved model dir (weights that match are loaded, its tokenizer used)
    encoder: bool = False  # read prompts with the pretrained brief encoder too (crafter.llm.encoder)
    # share of encoded prompt tokens the decoder reads as <|unk|> (their encoder states stay): a decoder that
    # already knows the training phrasings learns to read the encoder only where it must (word dropout)
    enc_word_dropout: float = 0.3
    model: CraftLMConfig = field(default_factory=CraftLMConfig)


Item = tuple[list[int], list[int], "torch.Tensor | None"]  # prompt ids, response ids + EOS, encoder states [P, E]


def encode_examples(tok: CraftTokenizer, examples: list[Example], encoder=None) -> list[Item]:
    """Tokenised examples; with a brief encoder, each prompt token's encoder states (one batched call)."""
    enc = [tok.encode_offsets(ex.prompt) for ex in examples]
    feats = encoder.features([ex.prompt for ex in examples], [o for _, o in enc]) if encoder else [None] * len(enc)
    return [(ids, tok.encode(ex.target) + [tok.eos_id], f) for (ids, _), ex, f in zip(enc, examples, feats)]


def build_batch(items: list[Item], tcfg: TrainConfig, mask_id: int, eos_id: int,
                pad_id: int, rng: random.Random) -> dict[str, torch.Tensor]:
    """Lay out a batch as ``[prompt | x0 | xt]`` rows with their masks, positions and targets
    (and the prompt tokens' encoder states, when the items carry them)."""
    rows, max_len = [], 0
    for prompt, resp, *_ in items:
        bs = rng.choice(tcfg.block_sizes)
        phase = rng.randrange(bs)
        block_ids = training_block_ids(len(resp) + bs, bs, phase)
        n_blocks_needed = int(block_ids[len(resp) - 1]) + 1
        noised_len = int((block_ids < n_blocks_needed).sum())  # pad the last block to its end with EOS
        block_ids = block_ids[:noised_len]
        clean_noised = resp + [eos_id] * (noised_len - len(resp))
        noised, diff_target = [], []
        for b in range(n_blocks_needed):
            idx = (block_ids == b).nonzero().flatten().tolist()
            rate = 1.0 if rng.random() < tcfg.p_all_mask else rng.uniform(tcfg.mask_eps, 1.0)
            chosen = [i for i in idx if rng.random() < rate] or [rng.choice(idx)]
            chosen_set = set(chosen)
            for i in idx:
                if i in chosen_set:
                    noised.append(mask_id)
                    diff_target.append(clean_noised[i])
                else:
                    noised.append(clean_noised[i])
                    diff_target.append(IGNORE)
        p, r = len(prompt), len(resp)
        ids = prompt + resp + noised
        positions = list(range(p + r)) + list(range(p, p + noised_len))
        targets = [IGNORE] * (p - 1) + resp + [IGNORE] + diff_target  # AR: logits at t predict t+1
        mask = training_attention_mask(p, block_ids, clean_len=r)
        rows.append((ids, positions, targets, mask))
        max_len = max(max_len, len(ids))
    b = len(rows)
    input_ids = torch.full((b, max_len), pad_id, dtype=torch.long)
    positions = torch.zeros((b, max_len), dtype=torch.long)
    targets = torch.full((b, max_len), IGNORE, dtype=torch.long)
    attn = torch.eye(max_len, dtype=torch.bool).repeat(b, 1, 1)  # padded rows see themselves (no NaN)
    is_diff = torch.zeros((b, max_len), dtype=torch.bool)
    feats = [it[2] if len(it) > 2 else None for it in items]
    enc = None
    if any(f is not None for f in feats):
        enc = torch.zeros((b, max_len, next(f for f in feats if f is not None).shape[-1]))
        for k, f in enumerate(feats):
            if f is not None:
                enc[k, : f.shape[0]] = f
    for k, (ids, pos, tgt, mask) in enumerate(rows):
        n = len(ids)
        input_ids[k, :n] = torch.tensor(ids)
        positions[k, :n] = torch.tensor(pos)
        targets[k, :n] = torch.tensor(tgt)
        attn[k, :n, :n] = mask
        clean_end = len(items[k][0]) + len(items[k][1])
        is_diff[k, clean_end:n] = True
    batch = {"input_ids": input_ids, "positions": positions, "targets": targets,
             "attn_mask": attn[:, None], "is_diff": is_diff,
             "prompt_len": torch.tensor([len(it[0]) for it in items])}
    if enc is not None:
        batch["enc"] = enc
        if tcfg.enc_word_dropout > 0:
            present = (enc != 0).any(-1)
            drop = present & (torch.rand(present.shape, generator=torch.Generator().manual_seed(rng.getrandbits(63)))
                              < tcfg.enc_word_dropout)
            batch["embed_ids"] = torch.where(drop, UNK_ID, input_ids)
    return batch


def losses(model: CraftLM, batch: dict[str, torch.Tensor]) -> tuple[torch.Tensor, torch.Tensor, dict[str, float]]:
    device = model.embed.weight.device
    batch = {k: v.to(device) for k, v in batch.items()}
    logits = model(batch["input_ids"], batch["positions"], batch["attn_mask"], clean=~batch["is_diff"],
                   copy_len=batch["prompt_len"], enc=batch.get("enc"), embed_ids=batch.get("embed_ids"))
    tgt, is_diff = batch["targets"], batch["is_diff"]
    ar_t = torch.where(is_diff, IGNORE, tgt)
    diff_t = torch.where(is_diff, tgt, IGNORE)
    flat = logits.view(-1, logits.shape[-1])
    l_ar = F.cross_entropy(flat, ar_t.view(-1), ignore_index=IGNORE)
    l_diff = F.cross_entropy(flat, diff_t.view(-1), ignore_index=IGNORE)
    pred = logits.argmax(-1)
    acc_ar = ((pred == ar_t) & (ar_t != IGNORE)).sum() / (ar_t != IGNORE).sum().clamp_min(1)
    acc_diff = ((pred == diff_t) & (diff_t != IGNORE)).sum() / (diff_t != IGNORE).sum().clamp_min(1)
    return l_ar, l_diff, {"acc_ar": float(acc_ar), "acc_diff": float(acc_diff)}


def lr_at(step: int, tcfg: TrainConfig, time_progress: float = 0.0) -> float:
    """Warmup, then cosine to ``min_lr_ratio``; with a time budget, progress is steps or time, whichever is further."""
    if step < tcfg.warmup:
        return tcfg.lr * (step + 1) / tcfg.warmup
    progress = min(1.0, max(time_progress, (step - tcfg.warmup) / max(1, tcfg.steps - tcfg.warmup)))
    return tcfg.lr * (tcfg.min_lr_ratio + (1 - tcfg.min_lr_ratio) * 0.5 * (1 + math.cos(math.pi * progress)))


@torch.no_grad()
def evaluate(model: CraftLM, tok: CraftTokenizer, tcfg: TrainConfig, examples: list[Example],
             encoder=None) -> dict[str, float]:
    """Teacher-forced held-out accuracy: AR next-token and diffusion draft (all-mask blocks)."""
    model.eval()
    rng = random.Random(1234)
    ecfg = TrainConfig(**{**asdict(tcfg), "model": tcfg.model, "p_all_mask": 1.0, "block_sizes": (8,),
                          "enc_word_dropout": 0.0})
    items = encode_examples(tok, examples, encoder)
    totals = {"loss_ar": 0.0, "loss_diff": 0.0, "acc_ar": 0.0, "acc_diff": 0.0}
    chunks = [items[i : i + 16] for i in range(0, len(items), 16)]
    for chunk in chunks:
        batch = build_batch(chunk, ecfg, tok.mask_id, tok.eos_id, tok.pad_id, rng)
        l_ar, l_diff, acc = losses(model, batch)
        totals["loss_ar"] += float(l_ar) / len(chunks)
        totals["loss_diff"] += float(l_diff) / len(chunks)
        totals["acc_ar"] += acc["acc_ar"] / len(chunks)
        totals["acc_diff"] += acc["acc_diff"] / len(chunks)
    model.train()
    return totals


def _run_tokenizer(tcfg: TrainConfig, out: Path) -> CraftTokenizer:
    """The run's tokenizer: the one saved in ``out`` (a resumed run), else the warm start's, else one
    trained on fresh corpus text; saved in ``out``."""
    if (out / "tokenizer.json").is_file():
        return CraftTokenizer.load(out)
    if tcfg.init_from:
        tok = CraftTokenizer.load(tcfg.init_from)
    else:
        corpus = make_corpus(tcfg.tokenizer_examples, "train", seed=10_000 + tcfg.seed)
        tok = train_tokenizer((e.prompt + e.target for e in corpus), tcfg.vocab_size)
    tok.save(out)
    return tok


def train(tcfg: TrainConfig, log=print) -> Path:
    """Train (or resume) into ``tcfg.out_dir``; returns the directory holding the final model."""
    torch.set_num_threads(tcfg.threads)
    out = Path(tcfg.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tok = _run_tokenizer(tcfg, out)
    mcfg = CraftLMConfig(**{**asdict(tcfg.model), "vocab_size": tok.vocab_size, "mask_token_id": tok.mask_id,
                            "eos_token_id": tok.eos_id, "pad_token_id": tok.pad_id})
    encoder = None
    if tcfg.encoder:
        mcfg.encoder_dim = ENCODER_DIM
    tcfg.model = mcfg
    torch.manual_seed(tcfg.seed)
    device = "cuda" if torch.cuda.is_available() else "cpu"  # a GPU when present
    model = CraftLM(mcfg).to(device)
    if tcfg.encoder:
        encoder = shared_encoder().to(device)
    if tcfg.init_from and not (out / "ckpt.pt").is_file():
        src = {k: v.float() for k, v in load_file(str(Path(tcfg.init_from) / "model.safetensors")).items()}
        missing, unexpected = model.load_state_dict(src, strict=False)
        log(f"warm start from {tcfg.init_from}: new {sorted(missing)}, dropped {sorted(unexpected)}")
    decay = [p for n, p in model.named_parameters() if p.dim() >= 2]
    no_decay = [p for n, p in model.named_parameters() if p.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": tcfg.weight_decay},
                             {"params": no_decay, "weight_decay": 0.0}], lr=tcfg.lr, betas=(0.9, 0.95))
    step, rng, elapsed_before = 0, random.Random(tcfg.seed), 0.0
    ckpt = out / "ckpt.pt"
    if ckpt.is_file():
        state = torch.load(ckpt, weights_only=False, map_location=device)
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["opt"])
        step = state["step"]
        rng.setstate(state["rng"])
        elapsed_before = state.get("elapsed", 0.0)
        log(f"resumed from {ckpt} at step {step}")
    log(f"CraftLM {model.num_params() / 1e6:.2f}M params on {device}, vocab {tok.vocab_size}, "
        f"config {json.dumps(asdict(mcfg))}")
    held = held_out_set(per_task=24, seed=1)
    model.train()
    t0, tokens, started = time.time(), 0, time.time()

    def elapsed() -> float:
        return elapsed_before + time.time() - started

    def time_progress() -> float:
        return elapsed() / (tcfg.time_budget_min * 60) if tcfg.time_budget_min else 0.0

    def save_ckpt() -> None:
        tmp = out / "ckpt.pt.tmp"
        torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "step": step, "rng": rng.getstate(),
                    "elapsed": elapsed(), "train_config": asdict(tcfg)}, tmp)
        tmp.replace(ckpt)

    pool: list[list[tuple[list[int], list[int]]]] = []
    while step < tcfg.steps:
        if not pool:  # bucket by length: padding wastes ~40% of a batch of random lengths
            fresh = encode_examples(tok, [make_example(rng, "train") for _ in range(8 * tcfg.batch_size)], encoder)
            fresh.sort(key=lambda it: len(it[0]) + 2 * len(it[1]))
            pool = [fresh[i : i + tcfg.batch_size] for i in range(0, len(fresh), tcfg.batch_size)]
            rng.shuffle(pool)
        items = pool.pop()
        batch = build_batch(items, tcfg, tok.mask_id, tok.eos_id, tok.pad_id, rng)
        for g in opt.param_groups:
            g["lr"] = lr_at(step, tcfg, time_progress())
        l_ar, l_diff, acc = losses(model, batch)
        loss = tcfg.ar_weight * l_ar + tcfg.diff_weight * l_diff
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        step += 1
        tokens += int((batch["input_ids"] != tok.pad_id).sum())
        if step % 20 == 0:
            dt = time.time() - t0
            log(f"step {step} loss_ar {l_ar.item():.3f} loss_diff {l_diff.item():.3f} acc_ar {acc['acc_ar']:.3f} "
                f"acc_diff {acc['acc_diff']:.3f} lr {lr_at(step, tcfg, time_progress()):.2e} tok/s {tokens / dt:.0f}")
            t0, tokens = time.time(), 0
        if step % tcfg.ckpt_every == 0:
            save_ckpt()
        if step % tcfg.eval_every == 0 or step == tcfg.steps:
            ev = evaluate(model, tok, tcfg, held, encoder)
            log("eval " + json.dumps({"step": step, **{k: round(v, 4) for k, v in ev.items()}}))
            model.save(out / "model")
            tok.save(out / "model")
        if tcfg.time_budget_min is not None and elapsed() > tcfg.time_budget_min * 60:
            log(f"time budget of {tcfg.time_budget_min} min reached at step {step}")
            break
    save_ckpt()
    model.save(out / "model")
    tok.save(out / "model")
    return out / "model"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="Train CraftLM (resumes from OUT_DIR/ckpt.pt)")
    ap.add_argument("--out-dir", default=TrainConfig.out_dir)
    for name in ("steps", "batch_size", "eval_every", "ckpt_every", "seed", "threads", "vocab_size"):
        ap.add_argument("--" + name.replace("_", "-"), type=int, default=getattr(TrainConfig, name))
    ap.add_argument("--lr", type=float, default=TrainConfig.lr)
    ap.add_argument("--time-budget-min", type=float, default=None)
    ap.add_argument("--init-from", default=None, help="warm start from a saved model directory")
    ap.add_argument("--copy-head", action=argparse.BooleanOptionalAction, default=True,
                    help="pointer head that copies context tokens (default on)")
    ap.add_argument("--encoder", action=argparse.BooleanOptionalAction, default=False,
                    help="read prompts with the pretrained brief encoder (all-MiniLM-L6-v2) too")
    for name in ("d_model", "n_layers", "n_heads", "d_ff"):
        ap.add_argument("--" + name.replace("_", "-"), type=int, default=getattr(CraftLMConfig, name))
    a = ap.parse_args(argv)
    mcfg = CraftLMConfig(d_model=a.d_model, n_layers=a.n_layers, n_heads=a.n_heads, d_ff=a.d_ff, copy_head=a.copy_head)
    tcfg = TrainConfig(out_dir=a.out_dir, steps=a.steps, batch_size=a.batch_size, eval_every=a.eval_every,
                       ckpt_every=a.ckpt_every, seed=a.seed, threads=a.threads, vocab_size=a.vocab_size, lr=a.lr,
                       time_budget_min=a.time_budget_min, init_from=a.init_from, encoder=a.encoder, model=mcfg)
    train(tcfg, log=lambda s: print(s, flush=True))


if __name__ == "__main__":
    main()
