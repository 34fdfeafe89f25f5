"""The pipeline's state (plain JSON data, checkpointed after every step), its run settings and its
progress events.

State is what a run knows; :class:`PipelineContext` is what it is given and never
checkpointed (the model backend, input files, the vectoriser); :class:`PipelineEvent` is what
it reports while it works.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from pathlib import Path
from typing import Annotated, Any, Callable, TypedDict

from langgraph.config import get_stream_writer

from crafter.agents.backend import summarise_calls
from crafter.agents.ingest import MAX_BRIEF_WORDS
from crafter.agents.issues import describe
from crafter.agents.repair import MAX_ATTEMPTS
from crafter.errors import CrafterError
from crafter.formats.registry import export_figure
from crafter.spec import Figure

DEFAULT_ROUNDS = 3


ACTIONABLE = ("error", "warning")  # severities the repair loop works on ("info" is only reported)


def _reset_or_add(current: list | None, update: list | None) -> list:
    """Reducer for one round's repair results: fan-in appends, ``None`` clears (the apply step)."""
    if update is None:
        return []
    return (current or []) + update


class PipelineState(TypedDict, total=False):
    """Everything a run knows, as plain JSON data (it is checkpointed after every step)."""

    brief: str  # the (normalised, maybe truncated) brief
    instruction: str | None  # edit runs: the user's instruction
    table: dict | None  # ingest: the table's columns, types and values
    image: str | None  # ingest: the checked image path
    route: str  # plan | chart | two_panel | vectorize | edit
    parts: Annotated[list[dict], operator.add]  # the planners' outputs, composed into the figure
    figure: dict | None  # the current FigureSpec (Figure.to_dict())
    svg: str | None  # the latest rendering
    issues: list[dict]  # the latest critique's issues
    pending: list[dict]  # this round's repair tasks: [{"target", "issues"}]
    repairs: Annotated[list[dict], _reset_or_add]  # this round's repair results (fan-in)
    round: int  # repair rounds done after the first critique
    stage: str  # "instruction" while an edit's instruction is applied, then "critique"
    scope: list[str] | None  # edit runs: ids the run may change (None: all)
    found: dict  # issue key -> issue, every issue the run saw
    failed: list[str]  # issue keys whose repair failed (not retried)
    history: Annotated[list[dict], operator.add]  # one entry per critique and per repair round
    calls: Annotated[list[dict], operator.add]  # model call records (task, tokens, seconds, tokens/forward)
    warnings: Annotated[list[str], operator.add]
    applied: Annotated[list[str], operator.add]  # edit runs: what the instruction changed


Vectorizer = Callable[[str], Figure]  # a raster figure's path -> the figure read from it


@dataclass
class PipelineContext:
    """Run settings that are not data: the model and the input files (never checkpointed)."""

    backend: Any = None  # an object with .complete(task, prompt, ...), or None for rules only
    data_path: str | None = None
    image_path: str | None = None
    rounds: int = DEFAULT_ROUNDS
    max_attempts: int = MAX_ATTEMPTS  # model repair attempts per target and round
    max_brief_words: int = MAX_BRIEF_WORDS
    theme: str | None = None  # override the planned figure's theme
    width_in: float | None = None  # print width (inches): enables the 6 pt check
    direction: str | None = None
    style: dict | None = None  # a house style's layer (crafter.style.style_layer as JSON) for the planned figure
    vectorizer: Vectorizer | None = None  # a raster figure's path -> Figure (CraftEditor's, handed in)


VECTORIZER_ENTRY_POINTS = "crafter.vectorizers"  # where an installed package offers a vectoriser (CraftEditor does)


def installed_vectorizer() -> Vectorizer | None:
    """The vectoriser an installed package offers under the ``crafter.vectorizers`` entry point, or None.

    The pipeline never imports CraftEditor; the app hands its vectoriser in, and the CLI and
    a resumed run find it here, the way pytest finds its plugins.
    """
    for ep in sorted(entry_points(group=VECTORIZER_ENTRY_POINTS), key=lambda e: e.name):
        return ep.load()
    return None


@dataclass
class RunResult:
    """What a finished (or stopped) run produced."""

    run_id: str
    status: str  # done | failed | interrupted
    figure: Figure | None = None
    svg: str | None = None
    issues_found: list[dict] = field(default_factory=list)
    issues_fixed: list[dict] = field(default_factory=list)
    issues_left: list[dict] = field(default_factory=list)
    rounds: int = 0
    seconds: float = 0.0
    warnings: list[str] = field(default_factory=list)
    applied: list[str] = field(default_factory=list)  # edit runs: the changes made
    model: dict = field(default_factory=dict)  # calls, tokens, tokens/s, tokens per forward
    route: str | None = None
    message: str | None = None  # why a failed run stopped
    history: list[dict] = field(default_factory=list)

    @property
    def tokens_per_forward(self) -> float | None:
        return self.model.get("tokens_per_forward")

    @property
    def components(self) -> int:
        return len(self.figure.components) if self.figure else 0

    def save(self, path: str | Path, *, dpi: int = 300) -> None:
        """Write the figure in the format the suffix names (.svg .png .pdf .dsl .json …)."""
        if self.figure is None:
            raise CrafterError(f"run {self.run_id} has no figure to save ({self.message or self.status})")
        export_figure(self.figure, path, dpi=dpi)

    def summary(self) -> dict[str, Any]:
        """JSON data for the run store and ``--json`` reports."""
        counts: dict[str, int] = {}
        for c in self.figure.components if self.figure else []:
            counts[c.kind] = counts.get(c.kind, 0) + 1
        return {"status": self.status, "components": counts, "issues_found": len(self.issues_found),
                "issues_fixed": len(self.issues_fixed), "issues_left": len(self.issues_left),
                "rounds": self.rounds, "seconds": round(self.seconds, 3), "route": self.route,
                "model": self.model, "warnings": len(self.warnings)}

    def report_lines(self) -> list[str]:
        s = self.summary()
        comps = ", ".join(f"{n} {k}{'s' if n != 1 else ''}" for k, n in s["components"].items()) or "none"
        tpf = f"{self.tokens_per_forward:.2f}" if self.tokens_per_forward else "–"
        lines = [
            f"run {self.run_id}: {self.status} in {self.seconds:.2f} s ({self.route or '?'})",
            f"components: {comps}",
            f"issues: {s['issues_found']} found, {s['issues_fixed']} fixed, {s['issues_left']} left "
            f"after {self.rounds} repair round(s)",
            f"model: {self.model.get('calls', 0)} call(s), {self.model.get('new_tokens', 0)} tokens, "
            f"{tpf} tokens per forward",
        ]
        lines += [f"changed: {a}" for a in self.applied]
        lines += [f"left: {describe(i)}" for i in self.issues_left]
        lines += [f"warning: {w}" for w in self.warnings]
        if self.message:
            lines.append(f"stopped: {self.message}")
        return lines


@dataclass
class PipelineEvent:
    """One progress report. ``kind``: start | done | issues | model | warning | finished | failed."""

    kind: str
    node: str | None = None
    round: int = 0
    issues_left: int | None = None
    tokens_per_s: float | None = None
    tokens_per_forward: float | None = None
    message: str = ""
    run_id: str | None = None
    result: RunResult | None = None

    def line(self) -> str:
        """A one-line rendering for logs and non-interactive terminals."""
        bits = [self.kind]
        if self.node:
            bits.append(self.node)
        if self.round:
            bits.append(f"round {self.round}")
        if self.issues_left is not None:
            bits.append(f"{self.issues_left} issue(s) left")
        if self.tokens_per_s:
            bits.append(f"{self.tokens_per_s:.0f} tok/s")
        if self.tokens_per_forward:
            bits.append(f"{self.tokens_per_forward:.2f} tok/fwd")
        if self.message:
            bits.append(self.message)
        return " · ".join(bits)


def emit(**event: Any) -> None:
    try:
        get_stream_writer()(event)
    except RuntimeError:  # called outside a graph run (unit tests of a node): nobody listens
        pass


def model_event(node: str, calls: list[dict], round_: int) -> None:
    if calls:
        s = summarise_calls(calls)
        emit(kind="model", node=node, round=round_, tokens_per_s=s["tokens_per_s"],
              tokens_per_forward=s["tokens_per_forward"],
              message=f"{s['calls']} call(s), {s['new_tokens']} tokens")
