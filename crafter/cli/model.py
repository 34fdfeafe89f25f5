"""CLI commands of the model area: ``crafter complete``, ``crafter train``, ``crafter bench decode``."""

from __future__ import annotations

import dataclasses
import json
import shutil
import sys
from pathlib import Path
from typing import Optional

import typer

from crafter.benchmarks.decode import format_table, run_decode_bench
from crafter.cli.app import app, bench
from crafter.errors import CrafterError
from crafter.llm import edits, get_backend, names, names_briefs
from crafter.llm.backends import WEIGHTS_DIR
from crafter.llm.corpus import make_corpus
from crafter.llm.model import SHA_FILE, CraftLMConfig
from crafter.llm.smol import ADAPTER_DIR
from crafter.llm.smol.train import SmolTrainConfig, resolve_data
from crafter.llm.smol.train import train as run_smol_training
from crafter.llm.train import TrainConfig
from crafter.llm.train import train as run_training


@app.command()
def complete(
    text: str = typer.Argument(..., help="The brief (plan), 'schema line\\nbrief' (chart) or figure DSL plus a line "
                                         "'ISSUE: …' (repair); '-' reads stdin, '@file' reads a file"),
    task: str = typer.Option("plan", "--task", help="plan | chart | repair"),
    speculative: str = typer.Option("diffusion", "--speculative", help="diffusion | ngram | none (greedy output is identical)"),
    backend: str = typer.Option("craftlm", "--backend", help="craftlm | server (CRAFTER_MODEL_URL) | hf:/path/to/model | openai:http://host:port/v1"),
    max_new_tokens: int = typer.Option(512, "--max-new-tokens", min=1),
    temperature: float = typer.Option(0.0, "--temperature", min=0.0),
    block_size: Optional[int] = typer.Option(None, "--block-size", min=1, max=32, help="Diffusion block (default: adaptive)"),
    stats: bool = typer.Option(False, "--stats", help="Also print one JSON line of decoding statistics"),
    constrain: bool = typer.Option(True, "--constrain/--no-constrain",
                                   help="craftlm: only valid DSL of the task, labels copied from the prompt"),
) -> None:
    """Ask a model for DSL: a figure from a brief, a chart statement, or repaired lines.

    Example: crafter complete --task plan "The encoder feeds the decoder, which writes to a cache." --stats
    """
    if text == "-":
        text = sys.stdin.read()
    elif text.startswith("@"):
        path = Path(text[1:])
        if not path.is_file():
            raise CrafterError(f"{path}: no such file")
        text = path.read_text(encoding="utf-8")
    if speculative not in ("diffusion", "ngram", "none"):
        raise CrafterError(f"unknown --speculative '{speculative}' (use diffusion, ngram or none)")
    kwargs: dict = {"speculative": speculative}
    if block_size is not None:
        kwargs["block_size"] = block_size
    if not constrain:
        kwargs["constrain"] = False
    out = get_backend(backend).complete(task, text, max_new_tokens=max_new_tokens, temperature=temperature, **kwargs)
    typer.echo(out.text.rstrip("\n"))
    if stats:
        typer.echo(json.dumps(out.stats))


@app.command()
def train(
    out_dir: Path = typer.Option(
        Path(".craftlm-train/run"), "--out-dir", help="Checkpoints, logs and the model (resumes from it)"
    ),
    backbone: str = typer.Option("craftlm", "--backbone", help="craftlm (the small model, from scratch) | smol "
                                 "(fine-tune SmolLM2-135M: LoRA adapter, crafter.llm.smol.train)"),
    steps: int = typer.Option(4000, "--steps", min=1, help="Upper bound; the time budget usually ends the run"),
    batch_size: Optional[int] = typer.Option(None, "--batch-size", min=1, help="Default: 12 (craftlm), 2 (smol)"),
    lr: Optional[float] = typer.Option(None, "--lr", help="Default: 3e-3 (craftlm), 5e-4 (smol LoRA)"),
    data: list[str] = typer.Option(["briefs:train"], "--data", help="smol: JSONL files of brief/gold records or "
                                   "briefs:train (the written corpus; its test split is refused)"),
    synthetic: int = typer.Option(200, "--synthetic", min=0, help="smol: synthetic generator examples mixed in"),
    time_budget_min: Optional[float] = typer.Option(75.0, "--time-budget-min", help="Stop with a checkpoint after this long "
                                                    "(the LR schedule follows time too)"),
    d_model: int = typer.Option(160, "--d-model"),
    n_layers: int = typer.Option(4, "--n-layers"),
    n_heads: int = typer.Option(4, "--n-heads"),
    d_ff: int = typer.Option(432, "--d-ff"),
    threads: int = typer.Option(1, "--threads"),
    copy_head: bool = typer.Option(True, "--copy-head/--no-copy-head", help="Pointer head that copies context tokens"),
    encoder: bool = typer.Option(False, "--encoder/--no-encoder", help="Read prompts with the pretrained brief encoder "
                                 "(all-MiniLM-L6-v2, shipped by a dependency) too"),
    seed: int = typer.Option(0, "--seed"),
    init_from: Optional[Path] = typer.Option(None, "--init-from", help="Warm start from a saved model directory "
                                             "(matching weights and its tokenizer)"),
    install: bool = typer.Option(False, "--install", help="Copy the trained model into crafter/llm/weights"),
) -> None:
    """Train CraftLM on the synthetic corpus (joint AR + block-diffusion loss); resumable.

    Example: nice -n 10 crafter train --out-dir .craftlm-train/run --time-budget-min 60 --install
    With --backbone smol: LoRA on SmolLM2 over the written corpus's train split plus synthetic examples
    (nice -n 10 crafter train --backbone smol --out-dir .craftlm-train/smol --time-budget-min 65 --install).
    """
    if backbone == "smol":
        _train_smol(out_dir, steps, batch_size or 2, lr, time_budget_min, threads, seed, data, synthetic, install)
        return
    if backbone != "craftlm":
        raise CrafterError(f"unknown --backbone '{backbone}' (use craftlm or smol)")
    tcfg = TrainConfig(out_dir=str(out_dir), steps=steps, batch_size=batch_size or 12, lr=lr or 3e-3, threads=threads,
                       time_budget_min=time_budget_min, init_from=str(init_from) if init_from else None,
                       encoder=encoder, seed=seed,
                       model=CraftLMConfig(d_model=d_model, n_layers=n_layers, n_heads=n_heads, d_ff=d_ff,
                                           copy_head=copy_head))
    model_dir = run_training(tcfg, log=lambda s: typer.echo(s))
    if install:
        for name in ("config.json", "model.safetensors", SHA_FILE, "tokenizer.json"):
            shutil.copy(model_dir / name, WEIGHTS_DIR / name)
        typer.echo(f"installed {model_dir} into {WEIGHTS_DIR}")


def _train_smol(out_dir: Path, steps: int, batch_size: int, lr: float | None, time_budget_min: float | None,
                threads: int, seed: int, data: list[str], synthetic: int, install: bool) -> None:
    """``crafter train --backbone smol``: :func:`crafter.llm.smol.train.train` with the recipe's settings."""
    try:
        for name in data:  # before the backbone loads: a refused split is one line, at once
            resolve_data(name)
    except ValueError as exc:
        raise CrafterError(str(exc)) from None
    tcfg = SmolTrainConfig(out_dir=str(out_dir), data=tuple(data), eval_data=("briefs:dev",), synthetic=synthetic,
                           hold_out_every=0, steps=steps, batch_size=batch_size, lr=lr, threads=threads, seed=seed,
                           time_budget_min=time_budget_min, checkpointing=False, diff_fraction=0.5, eval_every=100,
                           eval_pairs=8, ckpt_every=10)
    try:
        summary = run_smol_training(tcfg, log=lambda s: typer.echo(s))
    except ValueError as exc:
        raise CrafterError(str(exc)) from None
    if install:
        if ADAPTER_DIR.exists():
            shutil.rmtree(ADAPTER_DIR)
        shutil.copytree(summary["saved"], ADAPTER_DIR)
        typer.echo(f"installed {summary['saved']} into {ADAPTER_DIR}")


@app.command("train-names")
def train_names_cmd(
    out_dir: Path = typer.Option(Path(".craftlm-train/names"), "--out-dir", help="Where names.safetensors goes"),
    briefs: Optional[int] = typer.Option(None, "--briefs", min=10,
                                         help="Synthetic plan briefs to train on (synthetic corpus: 10000)"),
    held_out: int = typer.Option(600, "--held-out", min=10, help="Held-out briefs it is scored on"),
    epochs: int = typer.Option(4, "--epochs", min=1),
    threads: int = typer.Option(2, "--threads"),
    seed: int = typer.Option(0, "--seed"),
    install: bool = typer.Option(False, "--install", help="Copy the trained head into crafter/llm/weights"),
    corpus: str = typer.Option("synthetic", "--corpus",
                               help="synthetic: --briefs plan briefs; written: the brief corpus's train split "
                                    "(plus --briefs synthetic ones where --briefs is given), scored on dev"),
) -> None:
    """Train CraftLM's name head (which brief words name components, which names an edge joins).

    Example: crafter train-names --corpus written --briefs 1500 --epochs 6 --install   (the shipped head)
    """
    import torch  # heavy: 2.5 s to import; only the commands that run the model need it

    torch.set_num_threads(threads)
    log = lambda s: typer.echo(s)  # noqa: E731
    if corpus == "written":
        m = names_briefs.train_names_briefs(out_dir, synthetic=briefs or 0, epochs=epochs, seed=seed, log=log)
    elif corpus == "synthetic":
        m = names.train_names(out_dir, n_train=briefs or 10000, n_held=held_out, epochs=epochs, seed=seed, log=log)
    else:
        raise CrafterError(f"--corpus: unknown corpus '{corpus}' (use synthetic or written)")
    _report_and_install(m, out_dir, (names.FILE, names.CONFIG), install)


def _report_and_install(metrics: dict, out_dir: Path, files: tuple[str, ...], install: bool) -> None:
    """A trained head's metrics as one JSON line; with ``install``, its files copied beside the shipped weights."""
    typer.echo(json.dumps(metrics))
    if install:
        for name in files:
            shutil.copy(out_dir / name, WEIGHTS_DIR / name)
        typer.echo(f"installed {out_dir} into {WEIGHTS_DIR}")


@app.command("train-edits")
def train_edits_cmd(
    out_dir: Path = typer.Option(Path(".craftlm-train/edits"), "--out-dir", help="Where edits.safetensors goes"),
    instructions: int = typer.Option(4000, "--instructions", min=10, help="Repair instructions to train on"),
    held_out: int = typer.Option(600, "--held-out", min=10, help="Held-out instructions it is scored on"),
    threads: int = typer.Option(2, "--threads"),
    seed: int = typer.Option(0, "--seed"),
    install: bool = typer.Option(False, "--install", help="Copy the trained head into crafter/llm/weights"),
) -> None:
    """Train CraftLM's edit head (which edit a repair instruction asks for).

    Example: crafter train-edits --install   (about a minute on 2 cores)
    """
    import torch  # heavy: 2.5 s to import; only the commands that run the model need it


    torch.set_num_threads(threads)
    m = edits.train_edits(out_dir, n_train=instructions, n_held=held_out, seed=seed, log=lambda s: typer.echo(s))
    _report_and_install(m, out_dir, (edits.FILE, edits.CONFIG), install)


@bench.command("decode")
def bench_decode(
    per_task: int = typer.Option(20, "--per-task", min=1, help="Held-out prompts per task"),
    tasks: str = typer.Option("plan,chart,repair", "--tasks"),
    backend: str = typer.Option("craftlm", "--backend", help="craftlm or craftlm:/path/to/weights"),
    threads: int = typer.Option(1, "--threads", help="torch threads (batch 1; one thread is steadier on a shared CPU)"),
    json_out: Optional[Path] = typer.Option(None, "--json", help="Also write the rows as JSON"),
    split: str = typer.Option("heldout", "--split", help="heldout (unseen words and phrasings) or train "
                              "(fresh prompts from the training distribution)"),
    constrain: bool = typer.Option(True, "--constrain/--no-constrain",
                                   help="decode under the DSL constraint (the default everywhere) or without it"),
) -> None:
    """Plain vs speculative decoding on held-out prompts: tokens/s, speed-up, tokens per forward,
    acceptance, identity with plain decoding and task quality, side by side.

    Example: crafter bench decode --per-task 20
    """
    import torch  # heavy: 2.5 s to import; only the commands that run the model need it

    torch.set_num_threads(threads)
    chosen = tuple(t.strip() for t in tasks.split(",") if t.strip())
    unknown = set(chosen) - {"plan", "chart", "repair"}
    if unknown:
        raise CrafterError(f"unknown task(s): {', '.join(sorted(unknown))}")
    b = get_backend(backend)
    if not backend.startswith("craftlm"):
        raise CrafterError("bench decode measures CraftLM's decoding (use craftlm or craftlm:/path)")
    if split not in ("heldout", "train"):
        raise CrafterError(f"unknown split '{split}' (use heldout or train)")
    examples = None
    if split == "train":
        examples = [e for t in chosen for e in make_corpus(per_task, "train", seed=4242, task=t)]
    rows = run_decode_bench(b, per_task=per_task, tasks=chosen, examples=examples, constrain=constrain,
                            progress=lambda i, n: typer.echo(f"\r{i}/{n} prompts", nl=False, err=True))
    typer.echo("", err=True)
    what = "held-out prompts" if split == "heldout" else "training-distribution prompts (fresh samples)"
    how = "constrained to valid DSL" if constrain else "unconstrained"
    typer.echo(f"CraftLM decode benchmark: batch 1, greedy, fp32, {threads} thread(s), {how}, {what}")
    typer.echo(format_table(rows))
    if json_out:
        json_out.write_text(json.dumps([dataclasses.asdict(r) for r in rows], indent=2) + "\n")
        typer.echo(f"wrote {json_out}")
