"""What every backend shares: the completion, the error, the interface, prompt wrapping, the device."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from crafter.errors import CrafterError
from crafter.llm.prompts import TASKS, build_prompt

WEIGHTS_DIR = Path(__file__).parent.parent / "weights"
DEVICES = ("auto", "cpu", "cuda")


class ModelError(CrafterError):
    """A model backend cannot be used: unknown spec, missing or corrupt weights, server down or garbled."""


@dataclass
class Completion:
    text: str  # DSL written by the model
    stats: dict = field(default_factory=dict)  # forward_passes, tokens, tokens_per_forward, ..., tokens_per_second


class Backend(Protocol):
    name: str

    def complete(self, task: str, prompt: str, *, max_new_tokens: int = 512, temperature: float = 0.0,
                 speculative: str | None = None) -> Completion:
        """Answer a task prompt (built with :mod:`crafter.llm.prompts`; plain user text is wrapped for ``task``)."""


def as_prompt(task: str, prompt: str) -> str:
    """The model prompt for ``task``: a prompt built with :mod:`crafter.llm.prompts` as it is, user text wrapped."""
    if task not in TASKS:
        raise ModelError(f"unknown task '{task}' (use one of: {', '.join(TASKS)})")
    if not prompt or not prompt.strip():
        raise ModelError(f"empty {task} prompt")
    if prompt.startswith("<|"):
        return prompt
    try:
        return build_prompt(task, prompt)
    except ValueError as exc:
        raise ModelError(str(exc)) from exc


_FENCE = re.compile(r"^```[a-zA-Z]*\n|\n?```\s*$")


def strip_fences(text: str) -> str:
    return _FENCE.sub("", text.strip()).strip() + "\n"


def resolve_device(device: str | None = None) -> str:
    """``auto`` (a CUDA GPU when present, else the CPU), ``cpu`` or ``cuda``; ``None`` reads
    ``CRAFTER_DEVICE`` (default ``cpu`` in-process: the CPU's float32 results are the reference)."""
    import torch  # heavy: seconds to import; only a loaded model needs it

    device = (device or os.environ.get("CRAFTER_DEVICE") or "cpu").strip().lower()
    if device not in DEVICES:
        raise ModelError(f"unknown device '{device}' (use one of: {', '.join(DEVICES)})")
    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if device == "cuda" and not torch.cuda.is_available():
        raise ModelError("device 'cuda' asked for, but torch sees no CUDA GPU (use --device auto or cpu)")
    return device
