"""Which model backend a spec string names, and statistics of the calls made to it.

Spec strings (the ``--backend`` option):

* ``craftlm`` (default), ``hf:/path/to/model``, ``openai:http://host:port/v1`` — the
  backends of :mod:`crafter.llm`;
* ``none`` — no model: the pipeline plans with the rule-based brief reader, charts
  with the deterministic recommender, and repairs by rule only;
* ``scripted:/path/script.json`` — canned replies (:mod:`crafter.agents.testing`).
"""

from __future__ import annotations

import re
import threading
import time
from dataclasses import asdict, is_dataclass
from typing import Any

from crafter.agents.testing import ScriptedBackend
from crafter.errors import CrafterError, SpecError
from crafter.llm import get_backend
from crafter.spec import parse_component
from crafter.spec.model import Component

DEFAULT_BACKEND = "craftlm"


class ModelUnavailable(CrafterError):
    """The named backend cannot be loaded (missing weights, unknown spec...)."""


def resolve_backend(spec: str | None) -> Any | None:
    """The backend object for a spec string; ``None`` for ``none`` (rules only)."""
    spec = (spec or DEFAULT_BACKEND).strip()
    if spec in ("none", "rules"):
        return None
    if spec.startswith("scripted:"):
        return ScriptedBackend.from_file(spec.split(":", 1)[1])
    try:
        return get_backend(spec)
    except CrafterError:
        raise
    except Exception as e:  # a backend that cannot start is a user-facing condition, not a crash
        raise ModelUnavailable(f"model backend '{spec}' could not be loaded: {e}") from None


def stats_dict(stats: Any) -> dict[str, Any]:
    """A backend's statistics object as plain JSON data."""
    if stats is None:
        return {}
    if isinstance(stats, dict):
        data = dict(stats)
    elif is_dataclass(stats):
        data = asdict(stats)
    elif hasattr(stats, "model_dump"):
        data = stats.model_dump()
    elif hasattr(stats, "__dict__"):
        data = dict(vars(stats))
    else:
        return {}
    return {k: v for k, v in data.items() if isinstance(v, (int, float, str, bool)) or v is None}


def call_model(backend: Any, task: str, prompt: str, *, max_new_tokens: int = 768,
               temperature: float = 0.0) -> tuple[str, dict[str, Any]]:
    """One model call: (text, call record). Exceptions propagate (callers decide the fallback)."""
    t0 = time.perf_counter()
    completion = backend.complete(task, prompt, max_new_tokens=max_new_tokens, temperature=temperature)
    seconds = time.perf_counter() - t0
    text = getattr(completion, "text", completion if isinstance(completion, str) else "")
    stats = stats_dict(getattr(completion, "stats", None))
    new_tokens = _first_number(stats, "new_tokens", "tokens", "generated_tokens", "completion_tokens")
    forwards = _first_number(stats, "forwards", "forward_passes", "n_forwards")
    record: dict[str, Any] = {"task": task, "seconds": round(seconds, 4)}
    if stats.get("stopped") == "length" or (new_tokens is not None and new_tokens >= max_new_tokens):
        record["hit_length_limit"] = True  # usually a model looping on nonsense: retrying rarely helps
    if stats.get("stopped") in ("guard", "constraint"):
        # the backend gave up on output that was no longer DSL (guard), or nothing valid could follow
        # (constrained decoding): what came back is cut short
        record["stopped_at_invalid_line"] = True
    if new_tokens is not None:
        record["new_tokens"] = int(new_tokens)
        record["tokens_per_s"] = round(new_tokens / seconds, 1) if seconds > 0 else None
    if forwards:
        record["forwards"] = int(forwards)
        if new_tokens is not None:
            record["tokens_per_forward"] = round(new_tokens / forwards, 3)
    elif "tokens_per_forward" in stats:
        record["tokens_per_forward"] = stats["tokens_per_forward"]
    return text or "", record


def _first_number(stats: dict[str, Any], *names: str) -> float | None:
    for n in names:
        v = stats.get(n)
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            return float(v)
    return None


def summarise_calls(calls: list[dict[str, Any]]) -> dict[str, Any]:
    """Totals over a run's model calls: count, tokens, seconds, tokens/s, tokens per forward."""
    tokens = sum(c.get("new_tokens", 0) for c in calls)
    forwards = sum(c.get("forwards", 0) for c in calls)
    seconds = sum(c.get("seconds", 0.0) for c in calls)
    return {
        "calls": len(calls),
        "new_tokens": tokens,
        "model_seconds": round(seconds, 3),
        "tokens_per_s": round(tokens / seconds, 1) if seconds > 0 and tokens else None,
        "tokens_per_forward": round(tokens / forwards, 2) if forwards else None,
    }


class LazyBackend:
    """A backend loaded on first use, so a run that never calls the model never loads it.

    A backend that fails to load raises :class:`ModelUnavailable` from ``complete``, which
    the agents treat like any model failure (rules take over, with a warning).
    """

    def __init__(self, spec: str) -> None:
        self.spec = spec
        self._backend: Any = None
        self._error: CrafterError | None = None
        self._lock = threading.Lock()

    def load(self) -> Any:
        with self._lock:
            if self._backend is None and self._error is None:
                try:
                    self._backend = resolve_backend(self.spec)
                except CrafterError as e:
                    self._error = e
            if self._error is not None:
                raise self._error
            return self._backend

    def complete(self, task: str, prompt: str, *, max_new_tokens: int = 512, temperature: float = 0.0) -> Any:
        return self.load().complete(task, prompt, max_new_tokens=max_new_tokens, temperature=temperature)

    def read_names(self, prompt: str) -> dict | None:
        """The loaded backend's name head reading of a plan prompt, where it has one (else None)."""
        reader = getattr(self.load(), "read_names", None)
        return reader(prompt) if reader is not None else None

    @property
    def trusted_plan(self) -> bool:
        """The loaded backend's ``trusted_plan`` (see :func:`trusts_plan`); False before it is loaded."""
        return trusts_plan(self._backend)


def trusts_plan(backend: Any) -> bool:
    """Whether the pipeline takes this backend's plan as it is (a model measured to read briefs better than
    the rules) instead of checking it against the rule-based reading (:func:`crafter.agents.plan.worse_than_rules`)."""
    return bool(getattr(backend, "trusted_plan", False))


def head_reading(backend: Any, prompt: str) -> dict | None:
    """A backend's name head reading of a plan prompt (:meth:`crafter.llm.names.NameReader.names`), or None
    where it has no head or reading fails (the rules read alone then)."""
    reader = getattr(backend, "read_names", None)
    if reader is None:
        return None
    try:
        return reader(prompt)
    except Exception:  # a head that fails is no reason to fail the plan: the rules read alone
        return None


def backend_for(backend: Any) -> Any | None:
    """What the pipeline's context holds: None for ``none``, a lazy loader for a spec string, else the object."""
    if backend is None or (isinstance(backend, str) and backend.strip() in ("none", "rules")):
        return None
    if isinstance(backend, str):
        return LazyBackend(backend.strip())
    return backend


_FENCE = re.compile(r"^\s*```")


def parse_component_lines(text: str) -> list[Component]:
    """Component statements from model output (code fences, comments and 'figure' lines skipped)."""
    comps = []
    for n, line in enumerate(text.splitlines(), start=1):
        s = line.strip()
        if not s or s.startswith("#") or _FENCE.match(s) or re.match(r"^figure(\s|$)", s):
            continue
        try:
            comps.append(parse_component(s))
        except SpecError as e:
            raise SpecError(f"model output line {n}: {e.message}", component=e.component, field=e.field) from None
    if not comps:
        raise SpecError("the model output holds no component statement")
    return comps
