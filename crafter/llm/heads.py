"""Saving and loading CraftLM's small heads (:mod:`crafter.llm.names`, :mod:`crafter.llm.edits`):
weights as safetensors beside the decoder's, their configuration as JSON, and a corrupt or foreign
file named in the error. A head's JSON carries the sha256 of its weights (heads saved since the
written-corpus name head), checked at load: a damaged or swapped file is refused, not read."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Callable

from safetensors.torch import load_file, save_file
from torch import nn


def save_head(head: nn.Module, directory: Path, file: str, config_file: str, config: dict) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    save_file({k: v.contiguous() for k, v in head.state_dict().items()}, str(directory / file))
    config = {**config, "sha256": hashlib.sha256((directory / file).read_bytes()).hexdigest()}
    (directory / config_file).write_text(json.dumps(config, indent=2) + "\n")


def load_head(directory: Path, file: str, config_file: str, build: Callable[[dict], nn.Module], what: str) -> nn.Module:
    """``build(config)`` -> the head (it raises ValueError for a config of another version); a missing
    file raises FileNotFoundError, anything else wrong a ValueError naming the weights file."""
    try:
        raw = json.loads((directory / config_file).read_text())
        want = raw.pop("sha256", None)
        if want and hashlib.sha256((directory / file).read_bytes()).hexdigest() != want:
            raise ValueError(f"its sha256 is not the {want[:12]}… {config_file} names")
        head = build(raw)
        head.load_state_dict(load_file(str(directory / file)))
    except FileNotFoundError:
        raise
    except Exception as exc:  # a corrupt or foreign file: name it
        raise ValueError(f"{directory / file}: not a CraftLM {what} ({exc})") from exc
    return head.eval()
