"""Pipeline progress events → the lines the app shows while the agents work.

The pipeline (:mod:`crafter.graph.pipeline`) streams :class:`~crafter.graph.pipeline.PipelineEvent`\\ s:
``start``/``done`` of a node (``plan``, ``layout``, ``render``, ``critique``,
``repair``…) with the repair round and, after a critique, the issues left; ``model``
with decoding speed; ``warning``; and a last ``finished`` or ``failed``. This module only
words them for people — it decides nothing. :class:`ProgressLog` keeps one line per step
(parallel repairs of one round share a line) and the label of the step under way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

STEP_WORDS: dict[str, str] = {
    "ingest": "Read the inputs",
    "route": "Chose what to build",
    "plan": "Planned the figure",
    "chart_plan": "Planned the chart",
    "vectorize": "Vectorised the reference image",
    "compose": "Composed the figure",
    "interpret": "Read the instruction",
    "layout": "Laid out",
    "render": "Rendered",
    "critique": "Checked the figure",
    "repair": "Repaired",
    "apply": "Applied the repairs",
}
DOING_WORDS: dict[str, str] = {
    "ingest": "Reading the inputs", "route": "Choosing what to build", "plan": "Planning the figure",
    "chart_plan": "Planning the chart", "vectorize": "Vectorising the reference image",
    "compose": "Composing the figure", "interpret": "Reading the instruction", "layout": "Laying out",
    "render": "Rendering", "critique": "Checking the figure", "repair": "Repairing", "apply": "Applying the repairs",
}
_SILENT = {"run", "resume"}  # bookkeeping nodes people need not see


def _get(event: Any, name: str, default: Any = None) -> Any:
    if isinstance(event, dict):
        return event.get(name, default)
    return getattr(event, name, default)


def _issues(n: int) -> str:
    return "no issues left" if n == 0 else f"{n} issue{'s' if n != 1 else ''} left"


@dataclass
class ProgressLog:
    """The running account of one pipeline run, fed event by event."""

    lines: list[str] = field(default_factory=list)
    label: str = "Starting…"  # what is happening now (the status box's title)
    warnings: list[str] = field(default_factory=list)
    finished: bool = False
    failed: bool = False
    _keys: list[tuple[str, int]] = field(default_factory=list)  # (node, round) of each line
    _repairs: dict[int, int] = field(default_factory=dict)  # round -> components repaired

    def feed(self, event: Any) -> None:
        kind = _get(event, "kind", "done")
        node = _get(event, "node") or ""
        rnd = _get(event, "round", 0) or 0
        if kind == "start":
            if node not in _SILENT:
                self.label = DOING_WORDS.get(node, node.replace("_", " ").capitalize()) + "…"
            return
        if kind == "warning":
            msg = _get(event, "message", "")
            if msg:
                self.warnings.append(msg)
                self.lines.append(f"⚠️ {msg}")
                self._keys.append(("warning", len(self.lines)))
            return
        if kind == "model":
            tps = _get(event, "tokens_per_s")
            tpf = _get(event, "tokens_per_forward")
            bits = [b for b in (_get(event, "message", ""),
                                f"{tps:.0f} tokens/s" if tps else "",
                                f"{tpf:.1f} tokens per forward" if tpf else "") if b]
            if bits:
                self.lines.append("↳ model: " + ", ".join(bits))
                self._keys.append(("model", len(self.lines)))
            return
        if kind in ("finished", "failed"):
            self.finished = True
            self.failed = kind == "failed"
            left = _get(event, "issues_left")
            if self.failed:
                self.label = "Stopped: " + (_get(event, "message", "") or "the run failed")
            else:
                self.label = "Done" + (f": {_issues(left)}" if isinstance(left, int) else "")
            return
        if kind != "done" or node in _SILENT:
            return
        self._done(node, rnd, _get(event, "issues_left"))

    def _done(self, node: str, rnd: int, issues_left: Any) -> None:
        key = (node, rnd)
        if node == "repair":
            self._repairs[rnd] = self._repairs.get(rnd, 0) + 1
            n = self._repairs[rnd]
            text = f"Repair round {rnd or 1}: {n} component{'s' if n != 1 else ''} repaired"
        else:
            text = STEP_WORDS.get(node, node.replace("_", " ").capitalize())
            if rnd and node in ("layout", "render", "critique", "apply"):
                text += f" (round {rnd})"
            if isinstance(issues_left, int) and node == "critique":
                text += f" — {_issues(issues_left)}"
        line = "✓ " + text
        if self._keys and self._keys[-1] == key:
            # the same step reported again (with more detail, or another parallel repair)
            if node == "repair" or isinstance(issues_left, int):
                self.lines[-1] = line
            return
        self.lines.append(line)
        self._keys.append(key)


def issue_line(issue: Any) -> str:
    """'warning · overlap · enc, dec: node 'enc' overlaps node 'dec'' for an issue dict."""
    if not isinstance(issue, dict):
        return str(issue)
    ids = ", ".join(issue.get("component_ids") or [])
    head = " · ".join(x for x in (issue.get("severity"), issue.get("code"), ids) if x)
    return f"{head}: {issue.get('message', '')}" if head else str(issue.get("message", issue))
