"""Fine-tuning CraftLM on SmolLM2: one set of weights, joint next-token and block-diffusion loss.

Data: (prompt, response) pairs — JSONL records (``prompt``/``response``, or the brief
corpus's ``brief``/``gold``; ``task`` defaults to plan, whose prompt is the brief and whose
response the gold DSL) plus examples of the synthetic generator (:mod:`crafter.llm.corpus`).
A JSONL record whose ``id`` ends in a number divisible by ``hold_out_every`` (5) is held
out — never trained on — and returned as the (pretend) dev set. Prompts are the backbone's
chat turn (:class:`crafter.llm.smol.engine.SmolFormat`); answers end with ``<|im_end|>``.

Layout and objective are CraftLM's (:func:`crafter.llm.train.build_batch`, the masks of
:mod:`kernels.masks`): ``[prompt | x0 | xt]``, prompt and clean response causal, a masked
block of the noised copy bidirectional inside itself and seeing the clean blocks before it;
the clean stream never sees the noised one. Loss = ``ar_weight · L_ar`` (next token on x0)
+ ``diff_weight · L_diff`` (masked positions of xt). Logits are computed only where a loss
is taken (the 49k-row LM head is a fifth of a token's compute).

Methods: ``lora`` (PEFT; adapters on every projection and the mask token's embedding row
— what ships, ≈ 20 MB at r=16) or ``full`` (every weight; for measurement and export:
its delta is the size of the model). ``python -m crafter.llm.smol.train --help``.

Measured on the 2-core CPU (fp32, one thread, 4 pairs = 2,267 positions a step; positions
per CPU-second, which the other jobs on this shared machine disturb much less than wall time):

=====================  ===========  ==============  ===========
method                 trainable    positions/CPU-s  peak memory
=====================  ===========  ==============  ===========
LoRA r16               4.89 M       84               9.6 GB
LoRA r16, checkpoints  4.89 M       64               4.7 GB
full, checkpoints      134.5 M      60               4.5 GB
=====================  ===========  ==============  ===========

LoRA costs about what full fine-tuning costs per position on a CPU (the backward pass through
the frozen weights remains) and ships 20 MB instead of 538 MB. Two threads pay only on an
idle machine (full: 119 positions/s wall at load 2.6; LoRA: 26 at load 4.3, threads stalling).
"""

from __future__ import annotations

import argparse
import glob
import json
import math
import os
import random
import re
import resource
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import torch
import torch.nn.functional as F

from crafter.corpora.briefs import split_file
from crafter.errors import SpecError
from crafter.llm.corpus import make_corpus
from crafter.llm.prompts import build_prompt
from crafter.llm.smol.backbone import BASE_SHA256, load_backbone, write_checkpoint, write_manifest
from crafter.llm.smol.engine import SmolFormat
from crafter.llm.smol.model import MASK_TOKEN_ID, SmolLM
from crafter.llm.train import IGNORE, build_batch
from crafter.spec import parse_dsl

LORA_TARGETS = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")
MAX_ADAPTER_BYTES = 40 * 1024 * 1024  # what the package may ship


@dataclass
class SmolTrainConfig:
    out_dir: str = ".craftlm-train/smol"
    method: str = "lora"  # lora | full
    data: tuple[str, ...] = ()  # JSONL files of (prompt, response) records
    synthetic: int = 300  # examples of the synthetic generator mixed in (train split)
    hold_out_every: int = 5  # JSONL records whose id number is divisible by it are dev: never trained on
    eval_data: tuple[str, ...] = ()  # JSONL files read as held-out pairs only (e.g. briefs:dev)
    diff_fraction: float = 1.0  # share of batches that carry the noised copy (the others: next-token loss only)
    steps: int = 200
    batch_size: int = 4
    lr: float | None = None  # default: 5e-4 for lora, 3e-5 for full
    min_lr_ratio: float = 0.1
    warmup: int = 10
    weight_decay: float = 0.0
    lora_r: int = 16
    lora_alpha: int = 32
    ar_weight: float = 1.0
    diff_weight: float = 1.0
    # drawn per example: a decode round's mask block has B + 1 slots (the first sits where the exact
    # bonus token goes) and B adapts within 4-16 per request
    block_sizes: tuple[int, ...] = (5, 9, 9, 13, 17)
    p_all_mask: float = 0.5  # share of blocks entirely masked (the decode-time case)
    mask_eps: float = 0.1  # mask rate of the other blocks ~ U(eps, 1)
    enc_word_dropout: float = 0.0  # (read by build_batch for encoder states; SmolLM has none)
    max_tokens: int = 1024  # skip pairs whose prompt + response is longer
    threads: int = 2
    device: str | None = None  # None: a GPU where torch sees one (cuda), else the CPU
    seed: int = 0
    eval_every: int = 50
    eval_pairs: int = 16  # held-out pairs the teacher-forced checks read (a forward over each: keep it small on a CPU)
    ckpt_every: int = 25
    time_budget_min: float | None = None
    log_every: int = 5
    checkpointing: bool = True  # recompute each layer in backward: a fraction of the memory for ~1/3 more compute
    extra: dict = field(default_factory=dict)

    def learning_rate(self) -> float:
        return self.lr if self.lr is not None else (5e-4 if self.method == "lora" else 3e-5)


@dataclass
class Pair:
    task: str
    prompt: str  # a CraftLM task prompt (crafter.llm.prompts)
    response: str  # the DSL to write
    id: str = ""


# ---------------------------------------------------------------------------------
# Data
# ---------------------------------------------------------------------------------


def id_number(rec_id) -> int | None:
    m = re.search(r"(\d+)\s*$", str(rec_id or ""))
    return int(m.group(1)) if m else None


def resolve_data(name) -> str:
    """A data argument as a file: ``briefs:train`` / ``briefs:dev`` name a split of the written corpus
    (:mod:`crafter.corpora.briefs`); the test split is refused (nothing trains or tunes on it)."""
    name = str(name)
    if not name.startswith("briefs:"):
        return name
    split = name.split(":", 1)[1]
    if split == "test":
        raise ValueError("the test split of the written corpus is frozen: never train or tune on it (use train, dev)")
    return str(split_file(split))


def read_pairs(paths, hold_out_every: int = 5, log=print) -> tuple[list[Pair], list[Pair]]:
    """``(train, dev)`` pairs from JSONL files (a file still being written: its torn last line is skipped).
    ``hold_out_every`` 0: every record is a training pair."""
    train, dev, bad = [], [], 0
    for path in map(resolve_data, paths):
        for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
                task = rec.get("task", "plan")
                text = rec.get("prompt") or rec["brief"]
                response = rec.get("response") or rec["gold"]
                prompt = text if text.startswith("<|") else build_prompt(task, text)
                if task == "plan":
                    parse_dsl(response)  # a gold that does not parse teaches nothing
            except (json.JSONDecodeError, KeyError, TypeError, ValueError, SpecError) as exc:
                bad += 1
                log(f"{path}:{n}: skipped ({type(exc).__name__}: {str(exc)[:80]})")
                continue
            num = id_number(rec.get("id"))
            pair = Pair(task, prompt, response.strip(), str(rec.get("id", f"{Path(path).stem}:{n}")))
            (dev if num is not None and hold_out_every and num % hold_out_every == 0 else train).append(pair)
    return train, dev


def synthetic_pairs(n: int, seed: int) -> list[Pair]:
    return [Pair(e.task, e.prompt, e.target, f"synthetic:{seed}:{i}")
            for i, e in enumerate(make_corpus(n, "train", seed=seed))]


Item = tuple[list[int], list[int]]  # prompt ids, response ids + EOS


def encode_pairs(fmt, pairs: list[Pair], max_tokens: int) -> list[Item]:
    items = []
    for p in pairs:
        prompt, resp = fmt.prompt_ids(p.prompt), fmt.response_ids(p.response)
        if len(prompt) + len(resp) <= max_tokens:
            items.append((prompt, resp))
    return items


# ---------------------------------------------------------------------------------
# The model to train
# ---------------------------------------------------------------------------------


def trainable_model(lm, tcfg: SmolTrainConfig) -> SmolLM:
    """``lm`` ready to train: LoRA adapters (plus the mask token's embedding row) or every weight."""
    if tcfg.method == "lora":
        from peft import LoraConfig, get_peft_model  # heavy: seconds to import; only LoRA training needs it

        cfg = LoraConfig(r=tcfg.lora_r, lora_alpha=tcfg.lora_alpha, lora_dropout=0.0,
                         target_modules=list(LORA_TARGETS),
                         trainable_token_indices={"embed_tokens": [MASK_TOKEN_ID]})
        lm = get_peft_model(lm, cfg)
    elif tcfg.method == "full":
        for p in lm.parameters():
            p.requires_grad_(True)
    else:
        raise ValueError(f"unknown method '{tcfg.method}' (use lora or full)")
    model = SmolLM(lm)
    model.checkpointing = tcfg.checkpointing
    return model.train()


def next_token_batch(items: list[Item], pad_id: int) -> dict[str, torch.Tensor]:
    """``[prompt | response]`` rows, causal (SDPA's own path: no mask tensor), next-token targets only:
    the cheaper batch when ``diff_fraction`` < 1 (no noised copy, a third fewer positions)."""
    n = max(len(a) + len(b) for a, b in items)
    input_ids = torch.full((len(items), n), pad_id, dtype=torch.long)
    targets = torch.full((len(items), n), IGNORE, dtype=torch.long)
    for k, (prompt, resp) in enumerate(items):
        ids = prompt + resp
        input_ids[k, :len(ids)] = torch.tensor(ids)
        targets[k, len(prompt) - 1:len(ids) - 1] = torch.tensor(resp)
    positions = torch.arange(n).expand(len(items), n)
    return {"input_ids": input_ids, "positions": positions, "targets": targets, "attn_mask": None,
            "is_diff": torch.zeros_like(input_ids, dtype=torch.bool)}


def joint_losses(model: SmolLM, batch: dict[str, torch.Tensor]) -> tuple[torch.Tensor, torch.Tensor, dict[str, float]]:
    """Next-token loss on the clean response and masked-diffusion loss on the noised copy
    (the logits of supervised positions only). The batch is moved to the model's device."""
    dev = model.core.get_input_embeddings().weight.device
    batch = {k: v.to(dev) if isinstance(v, torch.Tensor) else v for k, v in batch.items()}
    h = model.hidden(batch["input_ids"], batch["positions"], batch["attn_mask"])
    tgt = batch["targets"]
    sel = tgt != IGNORE
    logits = model.logits(h[sel]).float()  # [N, V]
    t, is_diff = tgt[sel], batch["is_diff"][sel]
    zero = logits.sum() * 0.0
    l_ar = F.cross_entropy(logits[~is_diff], t[~is_diff]) if (~is_diff).any() else zero
    l_diff = F.cross_entropy(logits[is_diff], t[is_diff]) if is_diff.any() else zero
    hit = logits.argmax(-1) == t
    acc_ar = float(hit[~is_diff].float().mean()) if (~is_diff).any() else 0.0
    acc_diff = float(hit[is_diff].float().mean()) if is_diff.any() else 0.0
    return l_ar, l_diff, {"acc_ar": acc_ar, "acc_diff": acc_diff}


def lr_at(step: int, tcfg: SmolTrainConfig, time_progress: float = 0.0) -> float:
    lr = tcfg.learning_rate()
    if step < tcfg.warmup:
        return lr * (step + 1) / tcfg.warmup
    progress = min(1.0, max(time_progress, (step - tcfg.warmup) / max(1, tcfg.steps - tcfg.warmup)))
    return lr * (tcfg.min_lr_ratio + (1 - tcfg.min_lr_ratio) * 0.5 * (1 + math.cos(math.pi * progress)))


@torch.no_grad()
def evaluate(model: SmolLM, items: list[Item], tcfg: SmolTrainConfig, batch_size: int = 4) -> dict[str, float]:
    """Teacher-forced accuracy on ``items``: next token, and drafts from all-mask blocks of 8."""
    was = model.training
    model.eval()
    ecfg = SmolTrainConfig(**{**asdict(tcfg), "p_all_mask": 1.0, "block_sizes": (8,)})
    rng = random.Random(1234)
    tot = {"loss_ar": 0.0, "loss_diff": 0.0, "acc_ar": 0.0, "acc_diff": 0.0}
    chunks = [items[i:i + batch_size] for i in range(0, len(items), batch_size)]
    for chunk in chunks:
        batch = build_batch(chunk, ecfg, model.cfg.mask_token_id, model.cfg.eos_token_id, model.cfg.pad_token_id, rng)
        l_ar, l_diff, acc = joint_losses(model, batch)
        for k, v in (("loss_ar", float(l_ar)), ("loss_diff", float(l_diff)), ("acc_ar", acc["acc_ar"]),
                     ("acc_diff", acc["acc_diff"])):
            tot[k] += v / len(chunks)
    model.train(was)
    return {k: round(v, 4) for k, v in tot.items()}


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# ---------------------------------------------------------------------------------
# Training
# ---------------------------------------------------------------------------------


def train(tcfg: SmolTrainConfig, lm=None, tokenizer=None, log=print) -> dict:
    """Fine-tune (resuming from ``out_dir/ckpt.pt``); save the adapter (lora) or the merged model (full).

    ``lm``/``tokenizer``: the model to start from (default: the cached SmolLM2 backbone).
    Returns a summary: steps, tokens/s, peak memory, losses, where the result is.
    """
    # long: one loop with its resume, schedule, logging, checks and checkpoints; split, its state would travel
    torch.set_num_threads(tcfg.threads)
    torch.manual_seed(tcfg.seed)
    out = Path(tcfg.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    if lm is None:
        bb = load_backbone()
        lm, tokenizer = bb.model, bb.tokenizer
    fmt = SmolFormat(tokenizer)
    train_pairs, dev_pairs = read_pairs(tcfg.data, tcfg.hold_out_every, log)
    if tcfg.eval_data:
        dev_pairs += [p for pair_list in read_pairs(tcfg.eval_data, 0, log) for p in pair_list]
    train_pairs += synthetic_pairs(tcfg.synthetic, tcfg.seed) if tcfg.synthetic else []
    items = encode_pairs(fmt, train_pairs, tcfg.max_tokens)
    dev_items = encode_pairs(fmt, dev_pairs, tcfg.max_tokens)
    assert items, "no training pairs (give --data files or --synthetic N)"
    log(f"{len(items)} training pairs ({len(train_pairs) - tcfg.synthetic} written, {tcfg.synthetic} synthetic), "
        f"{len(dev_items)} held out; mean length {sum(len(a) + len(b) for a, b in items) / len(items):.0f} tokens")
    device = tcfg.device or ("cuda" if torch.cuda.is_available() else "cpu")
    model = trainable_model(lm, tcfg).to(device)
    fits = [it for it in items if len(it[0]) + 2 * len(it[1]) + max(tcfg.block_sizes) <= model.cfg.max_len]
    if len(fits) < len(items):
        log(f"{len(items) - len(fits)} pairs longer than the model's context of {model.cfg.max_len} left out")
        items = fits
    params = [p for p in model.parameters() if p.requires_grad]
    n_train = sum(p.numel() for p in params)
    log(f"{tcfg.method}: {n_train / 1e6:.2f}M trainable of {model.num_params() / 1e6:.1f}M parameters on {device}")
    opt = torch.optim.AdamW(params, lr=tcfg.learning_rate(), betas=(0.9, 0.95), weight_decay=tcfg.weight_decay)
    step, rng, elapsed_before = 0, random.Random(tcfg.seed), 0.0
    ckpt = out / "ckpt.pt"
    if ckpt.is_file():
        state = torch.load(ckpt, weights_only=False, map_location=device)
        for p, v in zip(params, state["params"]):
            p.data.copy_(v)
        opt.load_state_dict(state["opt"])
        step, elapsed_before = state["step"], state["elapsed"]
        rng.setstate(state["rng"])
        log(f"resumed from {ckpt} at step {step}")
    started, cpu_started = time.time(), time.process_time()

    def elapsed() -> float:
        return elapsed_before + time.time() - started

    history, tokens_total, t_log, tok_log = [], 0, time.time(), 0
    mem0 = peak_rss_mb()
    order: list[list[Item]] = []
    while step < tcfg.steps:
        if not order:  # an epoch, in batches of similar lengths (padding is wasted compute)
            shuffled = items[:]
            rng.shuffle(shuffled)
            shuffled.sort(key=lambda it: len(it[0]) + 2 * len(it[1]))
            order = [shuffled[i:i + tcfg.batch_size] for i in range(0, len(shuffled), tcfg.batch_size)]
            rng.shuffle(order)
        chunk = order.pop()
        if rng.random() < tcfg.diff_fraction:
            batch = build_batch(chunk, tcfg, model.cfg.mask_token_id, model.cfg.eos_token_id, model.cfg.pad_token_id,
                                rng)
        else:
            batch = next_token_batch(chunk, model.cfg.pad_token_id)
        progress = elapsed() / (60 * tcfg.time_budget_min) if tcfg.time_budget_min else 0.0
        for g in opt.param_groups:
            g["lr"] = lr_at(step, tcfg, progress)
        l_ar, l_diff, acc = joint_losses(model, batch)
        loss = tcfg.ar_weight * l_ar + tcfg.diff_weight * l_diff
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        opt.step()
        step += 1
        copies = 1 + int(batch["is_diff"].any())
        n_tok = int(sum(len(a) + copies * len(b) for a, b in chunk))  # real (unpadded) positions of [prompt | x0 | xt]
        tokens_total += n_tok
        tok_log += n_tok
        history.append({"step": step, "loss_ar": round(l_ar.item(), 4), "loss_diff": round(l_diff.item(), 4), **acc})
        if step % tcfg.log_every == 0 or step == 1:
            dt = time.time() - t_log
            log(f"step {step} loss_ar {l_ar.item():.3f} loss_diff {l_diff.item():.3f} acc_ar {acc['acc_ar']:.3f} "
                f"acc_diff {acc['acc_diff']:.3f} lr {lr_at(step, tcfg, progress):.2e} tok/s {tok_log / dt:.0f} "
                f"rss {peak_rss_mb():.0f} MB")
            t_log, tok_log = time.time(), 0
        if tcfg.ckpt_every and step % tcfg.ckpt_every == 0 and tcfg.method == "lora":
            tmp = out / "ckpt.pt.tmp"
            torch.save({"params": [p.detach() for p in params], "opt": opt.state_dict(), "step": step,
                        "elapsed": elapsed(), "rng": rng.getstate(), "config": asdict(tcfg)}, tmp)
            tmp.replace(ckpt)
        if dev_items and tcfg.eval_every and step % tcfg.eval_every == 0:
            log("eval " + json.dumps({"step": step, **evaluate(model, dev_items[:tcfg.eval_pairs], tcfg)}))
        if tcfg.time_budget_min and elapsed() > 60 * tcfg.time_budget_min:
            log(f"time budget of {tcfg.time_budget_min} min reached at step {step}")
            break
    seconds, cpu_seconds = time.time() - started, time.process_time() - cpu_started
    # positions of [prompt | x0 | xt] per second of wall time, and per CPU-second of this process (on a
    # machine shared with other jobs the wall figure depends on them; the CPU figure much less)
    summary = {"method": tcfg.method, "steps": step, "trainable_params": n_train, "train_pairs": len(items),
               "dev_pairs": len(dev_items), "seconds": round(seconds, 1), "cpu_seconds": round(cpu_seconds, 1),
               "tokens_per_second": round(tokens_total / max(seconds, 1e-9), 1),
               "tokens_per_cpu_second": round(tokens_total / max(cpu_seconds, 1e-9), 1),
               "load_average": [round(x, 2) for x in os.getloadavg()],
               "peak_rss_mb": round(peak_rss_mb()), "rss_before_training_mb": round(mem0),
               "first": history[0] if history else None, "last": history[-1] if history else None,
               "config": asdict(tcfg)}
    if dev_items:
        summary["dev_teacher_forced"] = evaluate(model, dev_items[:tcfg.eval_pairs], tcfg)
    summary["saved"] = str(save_result(model, tokenizer, out, tcfg, summary))
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    log("summary " + json.dumps({k: v for k, v in summary.items() if k != "config"}))
    return summary


def save_result(model: SmolLM, tokenizer, out: Path, tcfg: SmolTrainConfig, facts: dict) -> Path:
    """lora: ``out/adapter`` (PEFT's files, ≤ 40 MB, with a sha256 manifest); full: ``out/merged``."""
    facts = {k: v for k, v in facts.items() if k in ("method", "steps", "train_pairs", "tokens_per_second")}
    if tcfg.method == "full":
        return write_checkpoint(model.core, tokenizer, out / "merged", {"trained": facts})
    d = out / "adapter"
    model.lm.save_pretrained(str(d))
    (d / "README.md").unlink(missing_ok=True)  # PEFT's empty model card
    size = (d / "adapter_model.safetensors").stat().st_size
    assert size <= MAX_ADAPTER_BYTES, f"adapter of {size / 2**20:.1f} MB exceeds the 40 MB the package may ship"
    return write_manifest(d, {"trained": facts, "base_sha256": BASE_SHA256})


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="Fine-tune CraftLM on SmolLM2 with the joint next-token + block-diffusion "
                                 "objective (resumes from OUT_DIR/ckpt.pt). Example: python -m crafter.llm.smol.train "
                                 "--data '/path/briefs/*.jsonl' --synthetic 300 --steps 200 --time-budget-min 45")
    ap.add_argument("--out-dir", default=SmolTrainConfig.out_dir)
    ap.add_argument("--method", choices=("lora", "full"), default="lora")
    ap.add_argument("--data", action="append", default=[], help="JSONL file or glob (repeatable)")
    for name in ("synthetic", "steps", "batch_size", "lora_r", "lora_alpha", "threads", "seed", "eval_every",
                 "eval_pairs", "ckpt_every", "max_tokens", "hold_out_every", "warmup", "log_every"):
        ap.add_argument("--" + name.replace("_", "-"), type=int, default=getattr(SmolTrainConfig, name))
    for name in ("lr", "time_budget_min"):
        ap.add_argument("--" + name.replace("_", "-"), type=float, default=None)
    ap.add_argument("--diff-weight", type=float, default=SmolTrainConfig.diff_weight)
    ap.add_argument("--diff-fraction", type=float, default=SmolTrainConfig.diff_fraction,
                    help="share of batches with the noised copy (block-diffusion loss); the rest next-token only")
    ap.add_argument("--device", default=None, help="cuda, cpu… (default: a GPU where torch sees one)")
    ap.add_argument("--eval-data", action="append", default=[], help="held-out JSONL (or briefs:dev), repeatable")
    ap.add_argument("--checkpointing", action=argparse.BooleanOptionalAction, default=SmolTrainConfig.checkpointing,
                    help="recompute activations in backward (less memory, ~1/3 more compute)")
    a = ap.parse_args(argv)
    files = tuple(sorted({f for pattern in a.data for f in (glob.glob(pattern) or [pattern])}))
    tcfg = SmolTrainConfig(out_dir=a.out_dir, method=a.method, data=files, synthetic=a.synthetic, steps=a.steps,
                           batch_size=a.batch_size, lr=a.lr, lora_r=a.lora_r, lora_alpha=a.lora_alpha,
                           threads=a.threads, seed=a.seed, eval_every=a.eval_every, eval_pairs=a.eval_pairs,
                           ckpt_every=a.ckpt_every,
                           max_tokens=a.max_tokens, hold_out_every=a.hold_out_every, warmup=a.warmup,
                           time_budget_min=a.time_budget_min, log_every=a.log_every, diff_weight=a.diff_weight,
                           diff_fraction=a.diff_fraction, eval_data=tuple(a.eval_data),
                           checkpointing=a.checkpointing, device=a.device)
    train(tcfg, log=lambda s: print(s, flush=True))


if __name__ == "__main__":
    main()
