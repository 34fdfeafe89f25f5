"""CPU seconds spent in a few costly parts of a reading, whichever stage calls them (the OCR
engine's detector and recogniser run in the text stage, and again for badges, charts' tick
labels and lone glyphs): :func:`charged` marks a function as such a part, :func:`cpu_parts`
reads the running totals. ``convert`` reports a figure's share (``report['cpu_parts']``), and the
bench sums them over figures next to the stages (``cpu_stages``), so a stage's cost can be split.

A part called inside itself (the recogniser reads the reader's refusals again) is counted once.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

_totals: dict[str, float] = {}
_running: set[str] = set()  # parts being timed now (a call inside one is not timed again)


def charged(part: str) -> Callable[[F], F]:
    """Decorator: the function's CPU seconds (all threads) add to ``part``'s total."""
    def wrap(fn: F) -> F:
        @functools.wraps(fn)
        def inner(*args: Any, **kwargs: Any) -> Any:
            if part in _running:
                return fn(*args, **kwargs)
            _running.add(part)
            c0 = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                _totals[part] = _totals.get(part, 0.0) + time.process_time() - c0
                _running.discard(part)
        return inner  # type: ignore[return-value]
    return wrap


def cpu_parts() -> dict[str, float]:
    """The running totals, CPU seconds per part, since the process began."""
    return dict(_totals)


def parts_since(before: dict[str, float]) -> dict[str, float]:
    """What each part spent since ``before`` (a :func:`cpu_parts` reading), rounded, parts that spent nothing left out."""
    now = cpu_parts()
    return {k: round(v - before.get(k, 0.0), 4) for k, v in sorted(now.items()) if v - before.get(k, 0.0) > 0}
