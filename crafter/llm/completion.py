"""What every backend shares: the answer type, the error a user can act on, and how a task prompt is formed.

Kept apart from :mod:`crafter.llm.backends` so that backends living in their own package
(:mod:`crafter.llm.smol`) use them without importing the factory that imports them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from crafter.errors import CrafterError
from crafter.llm.prompts import TASKS, build_prompt


class ModelError(CrafterError):
    """A model backend cannot be used: unknown spec, missing or corrupt weights, server down or garbled."""


@dataclass
class Completion:
    text: str  # DSL written by the model
    stats: dict = field(default_factory=dict)  # forward_passes, tokens, tokens_per_forward, ..., tokens_per_second


def as_prompt(task: str, prompt: str) -> str:
    """The full task prompt: ``prompt`` itself when it is one already, else plain user text wrapped for ``task``."""
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
