"""A scripted model backend for tests, benchmarks and demos: canned replies, no weights.

It speaks the same small interface as the real backends of :mod:`crafter.llm`::

    backend.complete(task, prompt, max_new_tokens=..., temperature=0.0) -> Completion(text, stats)

Replies come from *rules* (the first whose task matches and whose ``match`` text occurs
in the prompt) or else from a per-task queue consumed in order. A reply is a string
or a dict that can also fail or stall, which is how tests reach the edge cases::

    ScriptedBackend(
        replies={"plan": ['a node "A"', {"error": "server died"}]},
        rules=[{"task": "repair", "match": "Classifier", "text": 'cls node "Classifier"',
                "delay": 2.0, "touch": "/tmp/in-repair"}],
    )

``error`` raises :class:`ScriptedFailure`; ``delay`` sleeps first (a slow model);
``stopped`` sets the stop reason in the statistics (``"guard"``: cut at a bad line);
``touch`` creates a file when the call starts (so a test knows where the run is, e.g.
to kill it). A rule-matched reply is deterministic whatever the call order, which the
kill-and-resume test needs; queued replies depend on the order of calls.

The spec string ``scripted:/path/to/script.json`` (a JSON object with the keys
``replies``, ``rules``, ``default``) selects it from the CLI (see
:func:`crafter.agents.backend.resolve_backend`).
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from crafter.errors import CrafterError


@dataclass
class Completion:
    """What a backend returns: the generated text and decoding statistics."""

    text: str
    stats: dict[str, Any] = field(default_factory=dict)


@runtime_checkable
class Backend(Protocol):
    """The interface the pipeline needs from a model (crafter.llm's backends satisfy it)."""

    def complete(self, task: str, prompt: str, *, max_new_tokens: int = 512, temperature: float = 0.0) -> Any: ...


class ScriptedFailure(CrafterError):
    """A scripted reply that fails on purpose (a dead server, an exhausted script)."""


class ScriptedBackend:
    """Canned replies by rule or in order; thread-safe (repairs call it in parallel)."""

    name = "scripted"

    def __init__(
        self,
        replies: dict[str, list[Any]] | None = None,
        *,
        rules: list[dict[str, Any]] | None = None,
        default: Any = None,
    ) -> None:
        self.queues: dict[str, list[Any]] = {task: list(items) for task, items in (replies or {}).items()}
        self.rules = [dict(r) for r in (rules or [])]
        for r in self.rules:
            if "task" not in r:
                raise ValueError(f"scripted rule without a 'task': {r}")
        self.default = default
        self.calls: list[tuple[str, str]] = []
        self._lock = threading.Lock()

    @classmethod
    def from_file(cls, path: str | Path) -> "ScriptedBackend":
        p = Path(path)
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as e:
            raise CrafterError(f"cannot read the backend script: {e}", file=str(p)) from None
        if not isinstance(data, dict):
            raise CrafterError("a backend script is a JSON object with 'replies', 'rules' or 'default'", file=str(p))
        return cls(data.get("replies"), rules=data.get("rules"), default=data.get("default"))

    def _pick(self, task: str, prompt: str) -> Any:
        with self._lock:
            self.calls.append((task, prompt))
            for rule in self.rules:
                if rule["task"] == task and str(rule.get("match", "")) in prompt:
                    return rule
            queue = self.queues.get(task)
            if queue:
                return queue.pop(0)
            return self.default

    def complete(self, task: str, prompt: str, *, max_new_tokens: int = 512, temperature: float = 0.0) -> Completion:
        reply = self._pick(task, prompt)
        if reply is None:
            raise ScriptedFailure(f"the script has no reply left for a {task} request")
        if isinstance(reply, str):
            reply = {"text": reply}
        if reply.get("touch"):
            Path(reply["touch"]).touch()
        if reply.get("delay"):
            time.sleep(float(reply["delay"]))
        if reply.get("error"):
            raise ScriptedFailure(str(reply["error"]))
        text = str(reply.get("text", ""))
        n = max(1, len(text) // 4)  # rough token count, so progress shows plausible numbers
        stats = {"new_tokens": n, "forwards": n, "tokens_per_forward": 1.0, "seconds": float(reply.get("delay", 0.0))}
        if reply.get("stopped"):  # e.g. "guard": the backend gave up on a line that was not DSL
            stats["stopped"] = str(reply["stopped"])
        return Completion(text, stats)

    @property
    def tasks_called(self) -> list[str]:
        return [t for t, _ in self.calls]
