"""Pipeline progress events → the short lines the app shows while the agents work.

The pipeline streams one event per step (a dict, or an object with attributes): which
node ran (``plan``, ``layout``, ``render``, ``critique``, ``repair``…), the repair
round, how many issues are left, and decoding speed when a model ran. This module only
words them for people; it never decides anything.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

STEP_WORDS: dict[str, str] = {
    "ingest": "Reading the inputs",
    "route": "Choosing what to build",
    "plan": "Planning the figure",
    "chart_plan": "Planning the chart",
    "chart": "Planning the chart",
    "vectorize": "Vectorising the reference image",
    "layout": "Laying out",
    "render": "Rendering",
    "critique": "Checking the figure",
    "repair": "Repairing",
    "edit": "Applying the instruction",
    "done": "Done",
    "finish": "Done",
}


@dataclass
class Step:
    node: str
    text: str
    round: int | None = None
    issues_left: int | None = None
    done: bool = False


def _get(event: Any, *names: str) -> Any:
    for n in names:
        if isinstance(event, dict) and n in event:
            return event[n]
        if not isinstance(event, dict) and hasattr(event, n):
            return getattr(event, n)
    return None


def describe(event: Any) -> Step:
    """A :class:`Step` (with its line of text) for one progress event."""
    if isinstance(event, str):
        return Step(node=event, text=STEP_WORDS.get(event, event.replace("_", " ").capitalize()))
    node = str(_get(event, "node", "step", "stage", "event", "type") or "step")
    rnd = _get(event, "round", "repair_round")
    issues = _get(event, "issues_left", "n_issues", "issues")
    if isinstance(issues, list):
        issues = len(issues)
    text = STEP_WORDS.get(node, node.replace("_", " ").capitalize())
    if node == "repair" and rnd:
        text = f"Repair round {rnd}"
    extra = []
    if node in ("critique", "repair", "done", "finish") and isinstance(issues, int):
        extra.append("no issues left" if issues == 0 else f"{issues} issue{'s' if issues != 1 else ''} left")
    tps = _get(event, "tokens_per_s", "tokens_per_second")
    if isinstance(tps, (int, float)) and tps > 0:
        extra.append(f"{tps:.0f} tokens/s")
    message = _get(event, "message", "detail")
    if message and isinstance(message, str):
        extra.append(message)
    if extra:
        text += " — " + ", ".join(extra)
    return Step(node=node, text=text, round=rnd if isinstance(rnd, int) else None,
                issues_left=issues if isinstance(issues, int) else None,
                done=node in ("done", "finish"))


def issue_line(issue: Any) -> str:
    """'warning · overlap · enc, dec: node 'enc' overlaps node 'dec'' for an issue dict."""
    if not isinstance(issue, dict):
        return str(issue)
    ids = ", ".join(issue.get("component_ids") or [])
    head = " · ".join(x for x in (issue.get("severity"), issue.get("code"), ids) if x)
    return f"{head}: {issue.get('message', '')}" if head else str(issue.get("message", issue))
