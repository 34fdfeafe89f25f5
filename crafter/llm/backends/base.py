"""What every backend shares: the interface and the device (the completion, the error and prompt wrapping
live in :mod:`crafter.llm.completion`, which backends in packages of their own import too)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Protocol

from crafter.llm.completion import Completion, ModelError, as_prompt

__all__ = ["DEVICES", "WEIGHTS_DIR", "Backend", "Completion", "ModelError", "as_prompt", "default_threads", "resolve_device",
           "strip_fences"]

WEIGHTS_DIR = Path(__file__).parent.parent / "weights"
DEVICES = ("auto", "cpu", "cuda")


class Backend(Protocol):
    name: str

    def complete(self, task: str, prompt: str, *, max_new_tokens: int = 512, temperature: float = 0.0,
                 speculative: str | None = None) -> Completion:
        """Answer a task prompt (built with :mod:`crafter.llm.prompts`; plain user text is wrapped for ``task``)."""


_FENCE = re.compile(r"^```[a-zA-Z]*\n|\n?```\s*$")


def strip_fences(text: str) -> str:
    return _FENCE.sub("", text.strip()).strip() + "\n"


def default_threads(device: str = "cpu") -> int:
    """torch's thread count for a model loaded in this process: ``CRAFTER_TORCH_THREADS``, else one on
    the CPU (small matrices: two threads that wait on each other ran a brief 4x slower on a shared
    2-core machine), else 0 (leave torch's own choice). Applied once, when the backend loads (torch's
    setting is global to the process), never per request."""
    return int(os.environ.get("CRAFTER_TORCH_THREADS") or 0) or (1 if device == "cpu" else 0)


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
