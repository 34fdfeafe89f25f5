"""The pipeline's graph: its nodes (thin adapters over the agents) and how they are wired.

Each node is a plain function over :class:`~crafter.graph.state.PipelineState` that returns a
partial update; routers return labels mapped explicitly to nodes; repair fans out with one
``Send`` per flagged component and fans in through a reducer.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from langgraph.types import Send

from crafter.agents import chart_plan as chart_plan_agent
from crafter.agents import compose as compose_agent
from crafter.agents import plan as plan_agent
from crafter.agents.critique import critique as critique_figure
from crafter.agents.ingest import ingest as ingest_request
from crafter.agents.instruct import interpret as interpret_instruction
from crafter.agents.issues import describe, issue_key
from crafter.agents.repair import apply_repairs, repair_target
from crafter.agents.route import route as route_request
from crafter.errors import InputError
from crafter.graph.state import (
    ACTIONABLE,
    PipelineContext,
    PipelineState,
    emit,
    installed_vectorizer,
    model_event,
)
from crafter.layout import layout_figure
from crafter.render import figure_to_svg
from crafter.spec import Figure


def node_ingest(state: PipelineState, runtime: Runtime[PipelineContext]) -> dict:
    ctx = runtime.context
    emit(kind="start", node="ingest")
    if state.get("instruction") is not None:
        if not (state.get("instruction") or "").strip():
            raise InputError("the instruction is empty: say what to change, e.g. \"make the encoder blue\"")
        Figure.from_dict(state.get("figure"))  # a figure that does not validate fails here, by name
        return {"route": "edit", "round": 0, "found": {}, "failed": [], "stage": "instruction", "scope": []}
    req = ingest_request(state.get("brief"), data_path=ctx.data_path, image_path=ctx.image_path,
                         max_brief_words=ctx.max_brief_words)
    for w in req["warnings"]:
        emit(kind="warning", node="ingest", message=w)
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
    emit(kind="start", node="plan")
    out = plan_agent.plan(state.get("brief") or "", runtime.context.backend)
    model_event("plan", out["calls"], 0)
    for w in out["warnings"]:
        emit(kind="warning", node="plan", message=w)
    found = {issue_key(i): i for i in out["issues"]}
    return {"parts": [{"role": "diagram", "figure": out["figure"], "source": out["source"]}],
            "warnings": out["warnings"], "calls": out["calls"],
            "history": [{"round": 0, "stage": "plan", "source": out["source"], "fixed": sorted(found)}]
            if found else [], "found": {**(state.get("found") or {}), **found}}


def node_chart_plan(state: PipelineState, runtime: Runtime[PipelineContext]) -> dict:
    emit(kind="start", node="chart_plan")
    brief = state.get("brief") or ""
    # in a two-panel figure the brief describes the diagram too; the chart task sees it all the same
    out = chart_plan_agent.chart_plan(state["table"], brief, runtime.context.backend)
    model_event("chart_plan", out["calls"], 0)
    for w in out["warnings"]:
        emit(kind="warning", node="chart_plan", message=w)
    return {"parts": [{"role": "chart", "component": out["component"], "source": out["source"]}],
            "warnings": out["warnings"], "calls": out["calls"]}


def node_vectorize(state: PipelineState, runtime: Runtime[PipelineContext]) -> dict:
    emit(kind="start", node="vectorize")
    vectorizer = runtime.context.vectorizer or installed_vectorizer()
    if vectorizer is None:
        raise InputError("reading a raster figure needs a vectoriser, and none is installed: install the project "
                         "(`pip install -e .` installs CraftEditor), or give a brief or a table instead",
                         file=state["image"])
    fig = vectorizer(state["image"])
    return {"parts": [{"role": "diagram", "figure": fig.to_dict(), "source": "crafteditor"}]}


def node_compose(state: PipelineState, runtime: Runtime[PipelineContext]) -> dict:
    ctx = runtime.context
    emit(kind="start", node="compose")
    fig = compose_agent.compose(state.get("parts") or [])
    header = {k: v for k, v in (("theme", ctx.theme), ("width_in", ctx.width_in), ("direction", ctx.direction),
                                ("style", ctx.style)) if v is not None}
    if header:
        fig = Figure.from_dict({**fig.to_dict(), **header})
    return {"figure": fig.to_dict()}


def node_interpret(state: PipelineState, runtime: Runtime[PipelineContext]) -> dict:
    emit(kind="start", node="interpret")
    fig = Figure.from_dict(state["figure"])
    out = interpret_instruction(fig, state["instruction"] or "")
    warnings = [f"could not carry out {u}" for u in out.unresolved]
    model_issues = out.model_issues
    if model_issues and runtime.context.backend is None:
        warnings += [f"no model to carry out '{i['instruction']}' (backend none)" for i in model_issues]
        model_issues = []
    for w in warnings:
        emit(kind="warning", node="interpret", message=w)
    scope = sorted(out.changed | {i["target"] for i in model_issues}
                   | {x for i in model_issues for x in i["component_ids"]})
    if out.tidy:  # "tidy the layout": geometry anywhere may be repaired
        scope = None
    return {"figure": out.figure.to_dict(), "applied": out.applied, "warnings": warnings, "scope": scope,
            "issues": model_issues, "pending": _group_by_target(model_issues), "stage": "instruction",
            "history": [{"round": 0, "stage": "instruction", "applied": out.applied, "to_model": len(model_issues)}]}


def after_interpret(state: PipelineState) -> list[Send] | str:
    return _sends(state) or "layout"


def node_layout(state: PipelineState, runtime: Runtime[PipelineContext]) -> dict:
    emit(kind="start", node="layout", round=state.get("round", 0))
    fig = layout_figure(Figure.from_dict(state["figure"]))
    return {"figure": fig.to_dict()}


def node_render(state: PipelineState, runtime: Runtime[PipelineContext]) -> dict:
    emit(kind="start", node="render", round=state.get("round", 0))
    return {"svg": figure_to_svg(Figure.from_dict(state["figure"]))}


def node_critique(state: PipelineState, runtime: Runtime[PipelineContext]) -> dict:
    ctx = runtime.context
    round_ = state.get("round", 0)
    emit(kind="start", node="critique", round=round_)
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
    emit(kind="issues", node="critique", round=round_, issues_left=len(issues),
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
    emit(kind="start", node="repair", round=task["round"] + 1, message=f"target {task['target']}")
    result = repair_target(Figure.from_dict(task["figure"]), task["target"], task["issues"], backend=ctx.backend,
                           brief=task["brief"], max_attempts=ctx.max_attempts)
    model_event("repair", result["calls"], task["round"] + 1)
    return {"repairs": [result], "calls": result["calls"]}


def node_apply(state: PipelineState, runtime: Runtime[PipelineContext]) -> dict:
    instruction_round = state.get("stage") == "instruction"
    round_ = state.get("round", 0) + (0 if instruction_round else 1)
    emit(kind="start", node="apply", round=round_)
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
        emit(kind="warning", node="apply", round=round_, message=w)
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
