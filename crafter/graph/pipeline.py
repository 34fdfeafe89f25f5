"""The Crafter pipeline: a LangGraph ``StateGraph`` from a brief (and a table, an image) to a checked figure.

::

    ingest ─┬─ plan ───────┐
            ├─ chart_plan ─┼─ compose ─ layout ─ render ─ critique ──(no issues / round limit)──► END
            └─ vectorize ──┘                ▲                │ one Send per flagged component
    (edit:) interpret ──────────────────────┤             repair ×N (in parallel)
                 └── repair ×N ── apply ────┘◄───────────────┘

Library API (the CLI and the app are thin shells over it)::

    from crafter.graph.pipeline import generate, edit, resume, list_runs, iter_generate, iter_edit, iter_resume

    result = generate("An encoder feeds a latent code, which the decoder reads.",
                      data=None,            # a table file (CSV/TSV/JSON/XLSX): a chart, or a two-panel figure
                      image=None,           # a raster figure to vectorize (by `vectorizer`, default CraftEditor's)
                      backend="craftlm",    # "hf:/path", "openai:http://host:port/v1", "none", or a backend object
                      rounds=3,             # critique → repair rounds at most
                      run_id=None,          # default: a fresh id
                      db_path=None,         # the run store (default: CRAFTER_RUNS_DB or the user data dir)
                      on_event=print)       # called with each PipelineEvent (node, round, issues left, tokens/s)
    result.figure        # crafter.spec.Figure, laid out
    result.svg           # the SVG text
    result.issues_found, result.issues_fixed, result.issues_left   # lists of issue dicts
    result.rounds, result.seconds, result.tokens_per_forward, result.warnings, result.run_id
    result.save("fig.pdf")                 # any format crafter.formats.registry knows

    edit("fig.svg", "make the encoder blue and rename Decoder to Generator", backend="craftlm")
    resume("3f2a9c1b7e")                   # continue an interrupted run; same result as if never stopped
    list_runs(db_path=None, limit=50)      # RunInfo rows: run_id, kind, brief, shown_status, summary...

    for event in iter_generate("…"):      # the same run as an iterator of PipelineEvent;
        ...                                # the last has kind "finished" (or "failed") and .result

PipelineEvent fields: ``kind`` (start: a node begins · done: it finished · issues: the critic's
count · model: a model call's tokens/s and tokens per forward · warning · finished · failed),
``node``, ``round``, ``issues_left``, ``tokens_per_s``, ``tokens_per_forward``, ``message``,
``run_id``, ``result`` (on the last event). ``event.line()`` renders one for a log.

Runs: ``persist=False`` runs in memory only (benchmarks); a finished run keeps only its last
checkpoint in the store unless ``keep_history=True``; ``backend`` may be a spec string or any
object with ``complete(task, prompt, max_new_tokens=, temperature=)`` (e.g.
:class:`crafter.agents.testing.ScriptedBackend`). Model trouble never raises: the rules take
over and ``result.warnings`` says so. Input errors raise :class:`~crafter.errors.CrafterError`.

Design rules (see DESIGN.md §2): the state is plain JSON (the figure as a dict, issues as
dicts); the model, backend and file paths travel in the run context
(:class:`PipelineContext`), never in the state; agents are plain functions in
:mod:`crafter.agents`, and the nodes here only adapt them and report progress; the graph is
compiled once per checkpointer; a SQLite checkpointer makes every run durable.
"""

from __future__ import annotations

import operator
import time
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.metadata import entry_points
from pathlib import Path
from typing import Annotated, Any, Callable, Iterator, TypedDict

from langgraph.config import get_stream_writer
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from langgraph.types import Send

from crafter.agents import chart_plan as chart_plan_agent
from crafter.agents import compose as compose_agent
from crafter.agents import plan as plan_agent
from crafter.agents.backend import backend_for, summarise_calls
from crafter.agents.critique import critique as critique_figure
from crafter.agents.ingest import MAX_BRIEF_WORDS
from crafter.agents.ingest import ingest as ingest_request
from crafter.agents.instruct import interpret as interpret_instruction
from crafter.agents.issues import FIGURE, describe, issue_key
from crafter.agents.repair import MAX_ATTEMPTS, apply_repairs, repair_target
from crafter.agents.route import route as route_request
from crafter.errors import CrafterError, InputError
from crafter.formats import load_figure
from crafter.formats.registry import export_figure
from crafter.graph.runs import RunInfo, RunStore, new_run_id
from crafter.layout import layout_figure
from crafter.render import figure_to_svg
from crafter.spec import Figure

DEFAULT_ROUNDS = 3
ACTIONABLE = ("error", "warning")  # severities the repair loop works on ("info" is only reported)


# ---------------------------------------------------------------------------------
# State and context
# ---------------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------------
# Progress events
# ---------------------------------------------------------------------------------


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
    result: "RunResult | None" = None

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


def _emit(**event: Any) -> None:
    try:
        get_stream_writer()(event)
    except RuntimeError:  # called outside a graph run (unit tests of a node): nobody listens
        pass


def _model_event(node: str, calls: list[dict], round_: int) -> None:
    if calls:
        s = summarise_calls(calls)
        _emit(kind="model", node=node, round=round_, tokens_per_s=s["tokens_per_s"],
              tokens_per_forward=s["tokens_per_forward"],
              message=f"{s['calls']} call(s), {s['new_tokens']} tokens")


# ---------------------------------------------------------------------------------
# Nodes: thin adapters over the agents
# ---------------------------------------------------------------------------------


def node_ingest(state: PipelineState, runtime: Runtime[PipelineContext]) -> dict:
    ctx = runtime.context
    _emit(kind="start", node="ingest")
    if state.get("instruction") is not None:
        if not (state.get("instruction") or "").strip():
            raise InputError("the instruction is empty: say what to change, e.g. \"make the encoder blue\"")
        Figure.from_dict(state.get("figure"))  # a figure that does not validate fails here, by name
        return {"route": "edit", "round": 0, "found": {}, "failed": [], "stage": "instruction", "scope": []}
    req = ingest_request(state.get("brief"), data_path=ctx.data_path, image_path=ctx.image_path,
                         max_brief_words=ctx.max_brief_words)
    for w in req["warnings"]:
        _emit(kind="warning", node="ingest", message=w)
    update = {"brief": req["brief"], "table": req["table"], "image": req["image"], "warnings": req["warnings"],
              "round": 0, "found": {}, "failed": [], "stage": "critique", "scope": None}
    update["route"] = route_request({**state, **update})
    return update


ROUTE_NODES = {
    "plan": ["plan"],
    "chart": ["chart_plan"],
    "two_panel": ["plan", "chart_plan"],
    "vectorize": ["vectorize"],
    "edit": ["interpret"],
}


def after_ingest(state: PipelineState) -> list[str]:
    """Router: the planner node(s) for the request (two in parallel for a two-panel figure)."""
    return ROUTE_NODES[state["route"]]


def node_plan(state: PipelineState, runtime: Runtime[PipelineContext]) -> dict:
    _emit(kind="start", node="plan")
    out = plan_agent.plan(state.get("brief") or "", runtime.context.backend)
    _model_event("plan", out["calls"], 0)
    for w in out["warnings"]:
        _emit(kind="warning", node="plan", message=w)
    found = {issue_key(i): i for i in out["issues"]}
    return {"parts": [{"role": "diagram", "figure": out["figure"], "source": out["source"]}],
            "warnings": out["warnings"], "calls": out["calls"],
            "history": [{"round": 0, "stage": "plan", "source": out["source"], "fixed": sorted(found)}]
            if found else [], "found": {**(state.get("found") or {}), **found}}


def node_chart_plan(state: PipelineState, runtime: Runtime[PipelineContext]) -> dict:
    _emit(kind="start", node="chart_plan")
    brief = state.get("brief") or ""
    # in a two-panel figure the brief describes the diagram too; the chart task sees it all the same
    out = chart_plan_agent.chart_plan(state["table"], brief, runtime.context.backend)
    _model_event("chart_plan", out["calls"], 0)
    for w in out["warnings"]:
        _emit(kind="warning", node="chart_plan", message=w)
    return {"parts": [{"role": "chart", "component": out["component"], "source": out["source"]}],
            "warnings": out["warnings"], "calls": out["calls"]}


def node_vectorize(state: PipelineState, runtime: Runtime[PipelineContext]) -> dict:
    _emit(kind="start", node="vectorize")
    vectorizer = runtime.context.vectorizer or installed_vectorizer()
    if vectorizer is None:
        raise InputError("reading a raster figure needs a vectoriser, and none is installed: install the project "
                         "(`pip install -e .` installs CraftEditor), or give a brief or a table instead",
                         file=state["image"])
    fig = vectorizer(state["image"])
    return {"parts": [{"role": "diagram", "figure": fig.to_dict(), "source": "crafteditor"}]}


def node_compose(state: PipelineState, runtime: Runtime[PipelineContext]) -> dict:
    ctx = runtime.context
    _emit(kind="start", node="compose")
    fig = compose_agent.compose(state.get("parts") or [])
    header = {k: v for k, v in (("theme", ctx.theme), ("width_in", ctx.width_in), ("direction", ctx.direction))
              if v is not None}
    if header:
        fig = Figure.from_dict({**fig.to_dict(), **header})
    return {"figure": fig.to_dict()}


def node_interpret(state: PipelineState, runtime: Runtime[PipelineContext]) -> dict:
    _emit(kind="start", node="interpret")
    fig = Figure.from_dict(state["figure"])
    out = interpret_instruction(fig, state["instruction"] or "")
    warnings = [f"could not carry out {u}" for u in out.unresolved]
    model_issues = out.model_issues
    if model_issues and runtime.context.backend is None:
        warnings += [f"no model to carry out '{i['instruction']}' (backend none)" for i in model_issues]
        model_issues = []
    for w in warnings:
        _emit(kind="warning", node="interpret", message=w)
    scope = sorted(out.changed | {i["target"] for i in model_issues} | {x for i in model_issues for x in i["component_ids"]})
    if out.tidy:  # "tidy the layout": geometry anywhere may be repaired
        scope = None
    return {"figure": out.figure.to_dict(), "applied": out.applied, "warnings": warnings, "scope": scope,
            "issues": model_issues, "pending": _group_by_target(model_issues), "stage": "instruction",
            "history": [{"round": 0, "stage": "instruction", "applied": out.applied, "to_model": len(model_issues)}]}


def after_interpret(state: PipelineState) -> list[Send] | str:
    return _sends(state) or "layout"


def node_layout(state: PipelineState, runtime: Runtime[PipelineContext]) -> dict:
    _emit(kind="start", node="layout", round=state.get("round", 0))
    fig = layout_figure(Figure.from_dict(state["figure"]))
    return {"figure": fig.to_dict()}


def node_render(state: PipelineState, runtime: Runtime[PipelineContext]) -> dict:
    _emit(kind="start", node="render", round=state.get("round", 0))
    return {"svg": figure_to_svg(Figure.from_dict(state["figure"]))}


def node_critique(state: PipelineState, runtime: Runtime[PipelineContext]) -> dict:
    ctx = runtime.context
    round_ = state.get("round", 0)
    _emit(kind="start", node="critique", round=round_)
    fig = Figure.from_dict(state["figure"])
    brief = state.get("brief") if state.get("route") != "edit" else None
    issues = critique_figure(fig, svg=state.get("svg"), brief=brief)
    scope = state.get("scope")
    if scope is not None:  # an edit changes only what the instruction named, so only that is repaired
        allowed = set(scope)
        issues = [i for i in issues if i["target"] in allowed or set(i["component_ids"]) & allowed]
    found = dict(state.get("found") or {})
    for i in issues:
        found.setdefault(issue_key(i), i)
    failed = set(state.get("failed") or [])
    todo = [i for i in issues if i["severity"] in ACTIONABLE and issue_key(i) not in failed
            and (i["fix"] == "rule" or ctx.backend is not None)]
    pending = _group_by_target(todo) if round_ < ctx.rounds else []
    _emit(kind="issues", node="critique", round=round_, issues_left=len(issues),
          message="; ".join(describe(i) for i in issues[:3]) + (" …" if len(issues) > 3 else ""))
    return {"issues": issues, "found": found, "pending": pending, "stage": "critique",
            "history": [{"round": round_, "stage": "critique", "issues": [issue_key(i) for i in issues]}]}


def after_critique(state: PipelineState) -> list[Send] | str:
    return _sends(state) or END


def _group_by_target(issues: list[dict]) -> list[dict]:
    by_target: dict[str, list[dict]] = {}
    for i in issues:
        by_target.setdefault(i["target"], []).append(i)
    return [{"target": t, "issues": iss} for t, iss in sorted(by_target.items())]


def _sends(state: PipelineState) -> list[Send]:
    """One Send per flagged target: the repairs run in parallel on the same figure snapshot."""
    return [Send("repair", {"figure": state["figure"], "target": p["target"], "issues": p["issues"],
                            "brief": state.get("brief") or "", "round": state.get("round", 0)})
            for p in state.get("pending") or []]


class RepairTask(TypedDict):
    figure: dict
    target: str
    issues: list[dict]
    brief: str
    round: int


def node_repair(task: RepairTask, runtime: Runtime[PipelineContext]) -> dict:
    ctx = runtime.context
    _emit(kind="start", node="repair", round=task["round"] + 1, message=f"target {task['target']}")
    result = repair_target(Figure.from_dict(task["figure"]), task["target"], task["issues"], backend=ctx.backend,
                           brief=task["brief"], max_attempts=ctx.max_attempts)
    _model_event("repair", result["calls"], task["round"] + 1)
    return {"repairs": [result], "calls": result["calls"]}


def node_apply(state: PipelineState, runtime: Runtime[PipelineContext]) -> dict:
    instruction_round = state.get("stage") == "instruction"
    round_ = state.get("round", 0) + (0 if instruction_round else 1)
    _emit(kind="start", node="apply", round=round_)
    results = state.get("repairs") or []
    issues = [i for p in state.get("pending") or [] for i in p["issues"]]
    fig, applied, rejected = apply_repairs(Figure.from_dict(state["figure"]), results, issues)
    failed = list(state.get("failed") or [])
    for r in rejected:
        for i in issues:
            if i["target"] == r["target"] and issue_key(i) not in failed:
                failed.append(issue_key(i))
    warnings = [f"repair of '{r['target']}' failed: {r['error']}" for r in rejected]
    for w in warnings:
        _emit(kind="warning", node="apply", round=round_, message=w)
    update: dict[str, Any] = {
        "figure": fig.to_dict(), "repairs": None, "pending": [], "failed": failed, "round": round_,
        "history": [{"round": round_, "stage": "repair", "applied": [r["target"] for r in applied],
                     "by": {r["target"]: r["by"] for r in applied},
                     "rejected": [{"target": r["target"], "error": r["error"]} for r in rejected]}],
        "warnings": warnings if not instruction_round else [
            f"could not carry out '{i['instruction']}': {r['error']}" for r in rejected for i in issues
            if i["target"] == r["target"]],
    }
    if instruction_round:
        update["applied"] = [f"{', '.join(i['instruction'] for i in issues if i['target'] == r['target'])} "
                             f"(by the model: {', '.join(c['id'] for c in r['components'])})" for r in applied]
    if state.get("scope") is not None:
        update["scope"] = sorted(set(state["scope"]) | {c["id"] for r in applied for c in r["components"]})
    return update


@lru_cache(maxsize=1)
def build_graph() -> StateGraph:
    """The pipeline's StateGraph (uncompiled; see :func:`compiled_graph`)."""
    g = StateGraph(PipelineState, context_schema=PipelineContext)
    g.add_node("ingest", node_ingest)
    g.add_node("plan", node_plan)
    g.add_node("chart_plan", node_chart_plan)
    g.add_node("vectorize", node_vectorize)
    g.add_node("compose", node_compose)
    g.add_node("interpret", node_interpret)
    g.add_node("layout", node_layout)
    g.add_node("render", node_render)
    g.add_node("critique", node_critique)
    g.add_node("repair", node_repair)
    g.add_node("apply", node_apply)
    g.add_edge(START, "ingest")
    g.add_conditional_edges("ingest", after_ingest, ["plan", "chart_plan", "vectorize", "interpret"])
    for planner in ("plan", "chart_plan", "vectorize"):
        g.add_edge(planner, "compose")
    g.add_edge("compose", "layout")
    g.add_conditional_edges("interpret", after_interpret, ["repair", "layout"])
    g.add_edge("layout", "render")
    g.add_edge("render", "critique")
    g.add_conditional_edges("critique", after_critique, ["repair", END])
    g.add_edge("repair", "apply")
    g.add_edge("apply", "layout")
    return g


_COMPILED: dict[int, Any] = {}


def compiled_graph(checkpointer: Any = None) -> Any:
    """The compiled pipeline for a checkpointer (compiled once per checkpointer)."""
    key = id(checkpointer)
    if key not in _COMPILED:
        _COMPILED[key] = build_graph().compile(checkpointer=checkpointer)
    return _COMPILED[key]


# ---------------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------------


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


def _result_from_state(run_id: str, values: dict, *, status: str, seconds: float,
                       message: str | None = None) -> RunResult:
    fig = None
    if values.get("figure"):
        try:
            fig = Figure.from_dict(values["figure"])
        except CrafterError:
            fig = None
    found = values.get("found") or {}
    left = values.get("issues") or []
    if values.get("route") == "edit" and values.get("stage") == "instruction":
        left = []  # the instruction's own requests are not figure issues
    left_keys = {issue_key(i) for i in left}
    fixed = [i for k, i in found.items() if k not in left_keys]
    return RunResult(
        run_id=run_id, status=status, figure=fig, svg=values.get("svg"), issues_found=list(found.values()),
        issues_fixed=fixed, issues_left=left, rounds=values.get("round", 0), seconds=seconds,
        warnings=list(values.get("warnings") or []), applied=list(values.get("applied") or []),
        model=summarise_calls(values.get("calls") or []), route=values.get("route"), message=message,
        history=list(values.get("history") or []),
    )


# ---------------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------------


def _config(run_id: str, rounds: int) -> dict:
    # each repair round is five steps (repair, apply, layout, render, critique)
    return {"configurable": {"thread_id": run_id}, "recursion_limit": 40 + 6 * max(rounds, 0)}


def _drive(graph: Any, graph_input: dict | None, run_id: str, ctx: PipelineContext, store: RunStore | None,
           rounds: int, keep_history: bool = False) -> Iterator[PipelineEvent]:
    """Stream one run, translating LangGraph's stream into PipelineEvents; record the outcome."""
    config = _config(run_id, rounds)
    t0 = time.perf_counter()
    prior = 0.0
    if store is not None:
        prior = float(store.get(run_id).summary.get("seconds", 0.0) or 0.0)
    status, message = "done", None
    try:
        for mode, chunk in graph.stream(graph_input, config, context=ctx, stream_mode=["updates", "custom"],
                                        durability="sync"):
            if mode == "custom":
                yield PipelineEvent(run_id=run_id, **chunk)
            else:
                for node, update in chunk.items():
                    if node.startswith("__"):
                        continue
                    upd = update if isinstance(update, dict) else {}
                    yield PipelineEvent("done", node=node, round=upd.get("round", 0) if isinstance(upd.get("round"), int) else 0,
                                        run_id=run_id)
    except CrafterError as e:
        status, message = "failed", str(e)
    except KeyboardInterrupt:
        status, message = "interrupted", "interrupted by the user"
        _record(graph, run_id, store, status, message, prior + time.perf_counter() - t0)
        raise
    except Exception as e:  # a bug or a crash below: the run is kept, the user gets one line
        status, message = "failed", f"{type(e).__name__}: {e}"
    result = _record(graph, run_id, store, status, message, prior + time.perf_counter() - t0)
    if store is not None and status == "done" and not keep_history:
        store.compact(run_id)
    yield PipelineEvent("finished" if status == "done" else "failed", run_id=run_id, result=result,
                        issues_left=len(result.issues_left), round=result.rounds, message=message or "")


def _record(graph: Any, run_id: str, store: RunStore | None, status: str, message: str | None,
            seconds: float) -> RunResult:
    values = graph.get_state(_config(run_id, 0)).values if graph.checkpointer is not None else {}
    result = _result_from_state(run_id, values or {}, status=status, seconds=seconds, message=message)
    if store is not None:
        store.update(run_id, status=status, message=message or "; ".join(result.warnings[:3]) or None,
                     summary=result.summary())
    return result


def _run(graph_input: dict, *, kind: str, label: str, settings: dict, ctx: PipelineContext, run_id: str | None,
         db_path: str | Path | None, persist: bool = True, keep_history: bool = False) -> Iterator[PipelineEvent]:
    from langgraph.checkpoint.memory import InMemorySaver

    run_id = run_id or new_run_id()
    store = RunStore.shared(db_path) if persist else None
    if store is not None:
        store.create(run_id, kind, label, settings)
        graph = compiled_graph(_saver_for(store))
    else:
        graph = compiled_graph(_memory_saver(InMemorySaver))
    yield PipelineEvent("start", node="run", run_id=run_id, message=f"{kind} run {run_id}")
    try:
        yield from _drive(graph, graph_input, run_id, ctx, store, ctx.rounds, keep_history)
    finally:
        if store is None:  # an in-memory run is gone once it has answered (a benchmark makes thousands)
            graph.checkpointer.delete_thread(run_id)


_SAVERS: dict[str, Any] = {}


def _saver_for(store: RunStore) -> Any:
    """One SqliteSaver per store file, so the graph for it is compiled once per process."""
    key = str(store.path.resolve())
    if key not in _SAVERS:
        _SAVERS[key] = store.checkpointer()
    return _SAVERS[key]


@lru_cache(maxsize=1)
def _memory_saver(cls: Any) -> Any:
    return cls()


def _settings(backend: Any, **kw: Any) -> dict:
    spec = backend if isinstance(backend, str) or backend is None else f"object:{type(backend).__name__}"
    return {"backend": spec or "none", **{k: v for k, v in kw.items()}}


def iter_generate(brief: str, *, data: str | Path | None = None, image: str | Path | None = None,
                  backend: Any = "craftlm", rounds: int = DEFAULT_ROUNDS, run_id: str | None = None,
                  db_path: str | Path | None = None, theme: str | None = None, width_in: float | None = None,
                  direction: str | None = None, persist: bool = True, keep_history: bool = False,
                  vectorizer: Vectorizer | None = None) -> Iterator[PipelineEvent]:
    """:func:`generate` as an iterator of events; the last is ``finished``/``failed`` with ``.result``."""
    data_s = str(Path(data).resolve()) if data else None
    image_s = str(Path(image).resolve()) if image else None
    ctx = PipelineContext(backend=backend_for(backend), data_path=data_s, image_path=image_s, rounds=rounds,
                          theme=theme, width_in=width_in, direction=direction, vectorizer=vectorizer)
    settings = _settings(backend, data=data_s, image=image_s, rounds=rounds, theme=theme, width_in=width_in,
                         direction=direction)
    yield from _run({"brief": brief or ""}, kind="generate", label=brief or "", settings=settings, ctx=ctx,
                    run_id=run_id, db_path=db_path, persist=persist, keep_history=keep_history)


def _consume(events: Iterator[PipelineEvent], on_event: Callable[[PipelineEvent], None] | None) -> RunResult:
    result = None
    for ev in events:
        if on_event is not None:
            on_event(ev)
        if ev.result is not None:
            result = ev.result
    assert result is not None, "a pipeline run always ends with a finished or failed event"
    return result


def generate(brief: str, *, data: str | Path | None = None, image: str | Path | None = None,
             backend: Any = "craftlm", rounds: int = DEFAULT_ROUNDS, run_id: str | None = None,
             db_path: str | Path | None = None, on_event: Callable[[PipelineEvent], None] | None = None,
             theme: str | None = None, width_in: float | None = None, direction: str | None = None,
             persist: bool = True, keep_history: bool = False, vectorizer: Vectorizer | None = None) -> RunResult:
    """Brief (+ table, + image) → checked figure. See the module docstring.

    Input errors (empty brief, unreadable table or image) raise :class:`CrafterError` after
    the run is recorded as failed; model trouble never raises (rules take over, with a
    warning in ``result.warnings``). ``persist=False`` keeps the run in memory only (and
    forgets it after answering); a finished run keeps only its last checkpoint unless
    ``keep_history=True``.
    """
    result = _consume(iter_generate(brief, data=data, image=image, backend=backend, rounds=rounds, run_id=run_id,
                                    db_path=db_path, theme=theme, width_in=width_in, direction=direction,
                                    persist=persist, keep_history=keep_history, vectorizer=vectorizer), on_event)
    _raise_input_errors(result)
    return result


def _raise_input_errors(result: RunResult) -> None:
    """A run that failed before it was routed (or had a figure) failed on its input: say so as an error."""
    if result.status == "failed" and (result.figure is None or result.route is None):
        raise CrafterError(result.message or "the run failed")


def iter_edit(figure: str | Path | Figure, instruction: str, *, backend: Any = "craftlm", rounds: int = 1,
              run_id: str | None = None, db_path: str | Path | None = None,
              persist: bool = True) -> Iterator[PipelineEvent]:
    """:func:`edit` as an iterator of events."""
    source = None
    if not isinstance(figure, Figure):
        source = str(Path(figure).resolve())
        figure = load_figure(figure)
    ctx = PipelineContext(backend=backend_for(backend), rounds=rounds)
    settings = _settings(backend, figure=source, rounds=rounds)
    yield from _run({"figure": figure.to_dict(), "instruction": instruction or "", "brief": ""}, kind="edit",
                    label=instruction or "", settings=settings, ctx=ctx, run_id=run_id, db_path=db_path,
                    persist=persist)


def edit(figure: str | Path | Figure, instruction: str, *, backend: Any = "craftlm", rounds: int = 1,
         run_id: str | None = None, db_path: str | Path | None = None,
         on_event: Callable[[PipelineEvent], None] | None = None, persist: bool = True) -> RunResult:
    """Change a figure by instruction; only what the instruction names changes (``result.applied`` says what)."""
    result = _consume(iter_edit(figure, instruction, backend=backend, rounds=rounds, run_id=run_id,
                                db_path=db_path, persist=persist), on_event)
    _raise_input_errors(result)
    return result


def iter_resume(run_id: str, *, db_path: str | Path | None = None, backend: Any = None,
                vectorizer: Vectorizer | None = None) -> Iterator[PipelineEvent]:
    """:func:`resume` as an iterator of events."""
    store = RunStore.shared(db_path)
    info = store.get(run_id)
    if info.shown_status == "running":
        raise CrafterError(f"run {info.run_id} is still running (process {info.pid}); wait for it or stop it first")
    graph = compiled_graph(_saver_for(store))
    s = info.settings
    spec = backend if backend is not None else s.get("backend", "none")
    if isinstance(spec, str) and spec.startswith("object:"):
        raise CrafterError(f"run {info.run_id} used a backend object ({spec[7:]}); pass backend= to resume it")
    rounds = int(s.get("rounds", DEFAULT_ROUNDS))
    ctx = PipelineContext(backend=backend_for(spec), data_path=s.get("data"), image_path=s.get("image"),
                          rounds=rounds, theme=s.get("theme"), width_in=s.get("width_in"), direction=s.get("direction"),
                          vectorizer=vectorizer)
    snapshot = graph.get_state(_config(info.run_id, rounds))
    yield PipelineEvent("start", node="resume", run_id=info.run_id,
                        message=f"resuming {info.kind} run {info.run_id} at {', '.join(snapshot.next) or 'its end'}")
    store.update(info.run_id, status="running", claim=True)
    # no checkpoint yet (killed before the first step): start over from the recorded request
    graph_input = None
    if not snapshot.values and not snapshot.next:
        graph_input = _request_input(info)
    yield from _drive(graph, graph_input, info.run_id, ctx, store, rounds)


def _request_input(info: RunInfo) -> dict:
    if info.kind == "edit":
        if not info.settings.get("figure"):
            raise CrafterError(f"run {info.run_id} stopped before its first step and its figure was not a file; "
                               "start the edit again")
        return {"figure": load_figure(info.settings["figure"]).to_dict(), "instruction": info.brief, "brief": ""}
    return {"brief": info.brief}


def resume(run_id: str, *, db_path: str | Path | None = None, backend: Any = None,
           on_event: Callable[[PipelineEvent], None] | None = None, vectorizer: Vectorizer | None = None) -> RunResult:
    """Continue an interrupted (or failed) run from its last checkpoint; a finished run returns its result."""
    return _consume(iter_resume(run_id, db_path=db_path, backend=backend, vectorizer=vectorizer), on_event)


def list_runs(db_path: str | Path | None = None, limit: int = 50) -> list[RunInfo]:
    """Past runs, newest first (``info.shown_status`` tells interrupted runs from running ones)."""
    return RunStore.shared(db_path).list(limit)


def run_result(run_id: str, *, db_path: str | Path | None = None) -> RunResult:
    """The result a run has so far (its last checkpoint), without running anything."""
    store = RunStore.shared(db_path)
    info = store.get(run_id)
    graph = compiled_graph(_saver_for(store))
    values = graph.get_state(_config(info.run_id, 0)).values or {}
    return _result_from_state(info.run_id, values, status=info.shown_status,
                              seconds=float(info.summary.get("seconds", 0.0) or 0.0), message=info.message)


__all__ = [
    "PipelineContext", "PipelineEvent", "PipelineState", "RunResult", "build_graph", "compiled_graph", "edit",
    "generate", "iter_edit", "iter_generate", "iter_resume", "list_runs", "resume", "run_result", "FIGURE",
]
