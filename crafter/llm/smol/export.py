"""Export CraftLM-on-SmolLM2 as one standard Llama checkpoint: the base with the fine-tuned delta merged.

The folder (``config.json``, ``model.safetensors``, tokenizer files with the chat template,
and a sha256 manifest) is what ``AutoModelForCausalLM.from_pretrained`` reads, what vLLM
and SGLang serve, and what llama.cpp's ``convert_hf_to_gguf.py`` converts; the ``hf:``
backend answers Crafter's prompts with it (the prompt format is the same chat turn).
The shapes are the base's: the mask token reuses a special token of the vocabulary.

    python -m crafter.llm.smol.export --adapter .craftlm-train/smol/adapter --out exported/craftlm-smol
"""

from __future__ import annotations

import argparse
from pathlib import Path

from crafter.llm.smol.backbone import write_checkpoint
from crafter.llm.smol.engine import load_model, merge_adapter


def export_merged(out_dir: str | Path, adapter: str | Path | None = None, lm=None, tokenizer=None) -> Path:
    """Write the merged model to ``out_dir``. ``adapter``: a LoRA adapter folder (checked by sha256) merged
    into ``lm`` (default: the cached backbone); without one, ``lm`` is written as it is."""
    if lm is None:
        lm, tokenizer = load_model(adapter)
    elif adapter is not None:
        lm = merge_adapter(lm, adapter)
    return write_checkpoint(lm, tokenizer, out_dir, {"merged_adapter": str(adapter) if adapter else None})


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="Merge a fine-tuned adapter into SmolLM2 and save a standard Llama "
                                 "checkpoint (example: --adapter .craftlm-train/smol/adapter --out exported/craftlm)")
    ap.add_argument("--adapter", default=None, help="LoRA adapter folder written by crafter.llm.smol.train")
    ap.add_argument("--out", required=True, help="folder to write")
    a = ap.parse_args(argv)
    print(export_merged(a.out, a.adapter))


if __name__ == "__main__":
    main()
