"""CLI command ``crafter export-model``: CraftLM as a standard Hugging Face transformers checkpoint."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from crafter.cli.app import app
from crafter.errors import CrafterError
from crafter.llm.hf import export_hf


@app.command("export-model")
def export_model(
    out_dir: Path = typer.Argument(..., help="Directory to write (created; files in it are replaced)"),
    fmt: str = typer.Option("hf", "--format", help="hf: transformers (config.json, model.safetensors, tokenizer)"),
    weights: Optional[Path] = typer.Option(None, "--weights", help="A CraftLM directory (default: the shipped model)"),
) -> None:
    """Export CraftLM as a transformers checkpoint (AutoModelForCausalLM after `import crafter.llm.hf`).

    Example: crafter export-model exported/craftlm-hf --format hf
    """
    if fmt != "hf":
        raise CrafterError(f"unknown --format '{fmt}' (use hf)")
    if out_dir.exists() and not out_dir.is_dir():
        raise CrafterError(f"{out_dir}: exists and is not a directory")
    out = export_hf(out_dir, weights)
    files = ", ".join(sorted(p.name for p in out.iterdir()))
    typer.echo(f"wrote {out}: {files}")
    typer.echo(f"limits and how to load it: {out / 'README.md'}")
