"""The Crafter pipeline: a LangGraph ``StateGraph`` from a brief (and a table, an image) to a checked figure.

This module runs the graph (:mod:`crafter.graph.nodes`) over its state
(:mod:`crafter.graph.state`) with a SQLite checkpointer (:mod:`crafter.graph.runs`):

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

import time
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterator

from langgraph.checkpoint.memory import InMemorySaver

from crafter.agents.backend import backend_for, summarise_calls
from crafter.agents.issues import FIGURE, issue_key
from crafter.errors import CrafterError
from crafter.formats import load_figure
from crafter.graph.nodes import build_graph, compiled_graph
from crafter.graph.runs import RunInfo, RunStore, new_run_id
from crafter.graph.state import (
    DEFAULT_ROUNDS,
    PipelineContext,
    PipelineEvent,
    PipelineState,
    RunResult,
    Vectorizer,
)
from crafter.spec import Figure

# ---------------------------------------------------------------------------------
# State and context
# ---------------------------------------------------------------------------------


# ---------------------------------------------------------------------------------
# Progress events
# ---------------------------------------------------------------------------------


# ---------------------------------------------------------------------------------
# Nodes: thin adapters over the agents
# ---------------------------------------------------------------------------------


# ---------------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------------




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
                    round_ = upd.get("round", 0) if isinstance(upd.get("round"), int) else 0
                    yield PipelineEvent("done", node=node, round=round_, run_id=run_id)
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
                  vectorizer: Vectorizer | None = None, style: dict | None = None) -> Iterator[PipelineEvent]:
    """:func:`generate` as an iterator of events; the last is ``finished``/``failed`` with ``.result``."""
    data_s = str(Path(data).resolve()) if data else None
    image_s = str(Path(image).resolve()) if image else None
    ctx = PipelineContext(backend=backend_for(backend), data_path=data_s, image_path=image_s, rounds=rounds,
                          theme=theme, width_in=width_in, direction=direction, vectorizer=vectorizer, style=style)
    settings = _settings(backend, data=data_s, image=image_s, rounds=rounds, theme=theme, width_in=width_in,
                         direction=direction, style=style)
    yield from _run({"brief": brief or ""}, kind="generate", label=brief or "", settings=settings, ctx=ctx,
                    run_id=run_id, db_path=db_path, persist=persist, keep_history=keep_history)


def consume(events: Iterator[PipelineEvent], on_event: Callable[[PipelineEvent], None] | None) -> RunResult:
    """Pass each event of a run on to ``on_event`` (in the caller's thread) and return the run's result."""
    result = None
    for ev in events:
        if on_event is not None:
            on_event(ev)
        if ev.result is not None:
            result = ev.result
    if result is None:  # a run ends with a finished or failed event, which carries it
        raise CrafterError("the pipeline stopped without a result")
    return result


def generate(brief: str, *, data: str | Path | None = None, image: str | Path | None = None,
             backend: Any = "craftlm", rounds: int = DEFAULT_ROUNDS, run_id: str | None = None,
             db_path: str | Path | None = None, on_event: Callable[[PipelineEvent], None] | None = None,
             theme: str | None = None, width_in: float | None = None, direction: str | None = None,
             persist: bool = True, keep_history: bool = False, vectorizer: Vectorizer | None = None,
             style: dict | None = None) -> RunResult:
    """Brief (+ table, + image) → checked figure. See the module docstring.

    Input errors (empty brief, unreadable table or image) raise :class:`CrafterError` after
    the run is recorded as failed; model trouble never raises (rules take over, with a
    warning in ``result.warnings``). ``persist=False`` keeps the run in memory only (and
    forgets it after answering); a finished run keeps only its last checkpoint unless
    ``keep_history=True``.
    """
    result = consume(iter_generate(brief, data=data, image=image, backend=backend, rounds=rounds, run_id=run_id,
                                    db_path=db_path, theme=theme, width_in=width_in, direction=direction,
                                    persist=persist, keep_history=keep_history, vectorizer=vectorizer, style=style),
                      on_event)
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
    result = consume(iter_edit(figure, instruction, backend=backend, rounds=rounds, run_id=run_id,
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
                          style=s.get("style"), vectorizer=vectorizer)
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
    return consume(iter_resume(run_id, db_path=db_path, backend=backend, vectorizer=vectorizer), on_event)


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
