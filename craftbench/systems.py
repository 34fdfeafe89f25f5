"""System adapters: one small interface, many figure systems.

A system takes a :class:`~craftbench.cases.Case` (and the folder holding its input
files) and returns a :class:`SystemOutput`: a FigureSpec where it has one, an SVG, and
statistics. A system that does not handle a condition says so (``supports``), and
its cell in the report reads "n/a" instead of a zero.

Systems:

* ``crafter`` — the full agent pipeline (plan → layout → render → critique → repair);
* ``crafter-norepair`` — the same with zero repair rounds (the ablation);
* ``crafter-rules`` — the full pipeline with the rule-based planner instead of the model
  (the ablation that isolates what CraftLM adds);
* ``oneshot`` — the model alone: one completion, parsed, laid out, rendered;
* ``crafteditor`` — raster → FigureSpec (vectorize and sketch);
* ``vtracer`` — colour tracing baseline (vectorize and sketch): paths only;
* ``reference`` — returns the ground truth (a sanity check: it must score perfectly);
* ``empty`` — returns an empty figure (a sanity check: it must score zero);
* ``openai:URL`` — any served model asked for FigureSpec DSL directly.
"""

from __future__ import annotations

import signal
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import vtracer

from craftbench.cases import Case
from crafteditor.config import Config
from crafteditor.convert import convert
from crafter import graph
from crafter.layout import layout_figure
from crafter.llm import get_backend, prompts
from crafter.render import figure_to_svg
from crafter.spec import Figure, parse_component, parse_dsl, print_dsl


@dataclass
class SystemOutput:
    figure: Figure | None = None
    svg: str | None = None
    seconds: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)
    error: str | None = None


class System:
    name: str = "system"
    conditions: tuple[str, ...] = ("text", "compose", "complete", "sketch", "vectorize", "repair", "prose")

    def supports(self, case: Case) -> bool:
        return case.condition in self.conditions

    def run(self, case: Case, case_dir: Path) -> SystemOutput:  # pragma: no cover - interface
        raise NotImplementedError


def _render(fig: Figure) -> tuple[Figure, str]:
    laid = layout_figure(fig)
    return laid, figure_to_svg(laid)


class ReferenceSystem(System):
    name = "reference"

    def run(self, case: Case, case_dir: Path) -> SystemOutput:
        laid, svg = _render(case.truth_figure())
        return SystemOutput(figure=laid, svg=svg)


class EmptySystem(System):
    name = "empty"

    def run(self, case: Case, case_dir: Path) -> SystemOutput:
        return SystemOutput(figure=Figure(), svg='<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>')


class CrafterSystem(System):
    """The pipeline. ``rounds=0`` is the no-repair ablation."""

    def __init__(self, rounds: int = 3, backend: str = "craftlm", name: str = "crafter") -> None:
        self.rounds = rounds
        self.backend = backend
        self.name = name

    def run(self, case: Case, case_dir: Path) -> SystemOutput:
        data = case_dir / case.inputs["data"] if case.inputs.get("data") else None
        if case.condition == "vectorize":
            return CraftEditorSystem().run(case, case_dir)
        if case.condition in ("complete", "repair"):
            start = Figure.from_dict(case.inputs["partial" if case.condition == "complete" else "faulty"])
            result = graph.edit(start, case.brief, backend=self.backend, rounds=self.rounds, persist=False)
        elif case.condition == "sketch":
            result = graph.generate(case.brief, image=case_dir / case.inputs["image"], backend=self.backend,
                                    rounds=self.rounds, persist=False)
        else:
            result = graph.generate(case.brief, data=data, backend=self.backend, rounds=self.rounds, persist=False)
        stats = {"rounds": result.rounds, "issues_found": len(result.issues_found),
                 "issues_fixed": len(result.issues_fixed)}
        if result.tokens_per_forward:
            stats["tokens_per_forward"] = result.tokens_per_forward
        err = None if result.figure is not None else (result.message or result.status)
        return SystemOutput(figure=result.figure, svg=result.svg, stats=stats, error=err)


class OneShotSystem(System):
    """The model alone: one plan (or repair) completion, no critique, no repair."""

    name = "oneshot"
    conditions = ("text", "compose", "complete", "repair", "prose")

    def __init__(self, backend: str = "craftlm") -> None:
        self.backend = backend

    def run(self, case: Case, case_dir: Path) -> SystemOutput:
        backend = get_backend(self.backend)
        if case.condition in ("complete", "repair"):
            start = Figure.from_dict(case.inputs["partial" if case.condition == "complete" else "faulty"])
            prompt = prompts.repair_prompt(print_dsl(start), case.brief, [])
            out = backend.complete("repair", prompt)

            replaced = {}
            for line in out.text.splitlines():
                if line.strip():
                    try:
                        c = parse_component(line)
                    except Exception:
                        continue  # the model alone gets no retry: a bad line is simply lost
                    replaced[c.id] = c
            known = {c.id for c in start.components}
            merged = [replaced.get(c.id, c) for c in start.components]
            merged += [c for i, c in replaced.items() if i not in known]
            fig = Figure.from_dict(start.model_copy(update={"components": merged}).to_dict())
        else:
            out = backend.complete("plan", prompts.plan_prompt(case.brief))
            fig = parse_dsl(out.text)
        laid, svg = _render(fig)
        return SystemOutput(figure=laid, svg=svg, stats=dict(out.stats))


class CraftEditorSystem(System):
    name = "crafteditor"
    conditions = ("sketch", "vectorize")

    def run(self, case: Case, case_dir: Path) -> SystemOutput:
        image = case_dir / case.inputs["image"]
        preset = "sketch" if case.condition == "sketch" else ("chart" if case.figure_type == "chart" else "diagram")
        conv = convert(image, Config.preset(preset))
        return SystemOutput(figure=conv.figure, svg=conv.svg, stats={"self_ssim": conv.report.get("ssim")})


class VTracerSystem(System):
    name = "vtracer"
    conditions = ("sketch", "vectorize")

    def run(self, case: Case, case_dir: Path) -> SystemOutput:
        image = case_dir / case.inputs["image"]
        svg = vtracer.convert_raw_image_to_svg(image.read_bytes(), img_format="png")
        return SystemOutput(figure=None, svg=svg)


class OpenAISystem(System):
    """Any OpenAI-compatible server, asked for FigureSpec DSL directly."""

    conditions = ("text", "compose", "complete", "repair", "prose")

    def __init__(self, url: str) -> None:
        self.url = url
        self.name = f"openai:{url}"

    def run(self, case: Case, case_dir: Path) -> SystemOutput:
        backend = get_backend(f"openai:{self.url}")
        out = backend.complete("plan", prompts.plan_prompt(case.brief))
        fig = parse_dsl(out.text)
        laid, svg = _render(fig)
        return SystemOutput(figure=laid, svg=svg, stats=dict(out.stats))


_FACTORIES: dict[str, Callable[[], System]] = {
    "crafter": lambda: CrafterSystem(rounds=3, name="crafter"),
    "crafter-norepair": lambda: CrafterSystem(rounds=0, name="crafter-norepair"),
    "crafter-rules": lambda: CrafterSystem(rounds=3, backend="none", name="crafter-rules"),
    "oneshot": OneShotSystem,
    "crafteditor": CraftEditorSystem,
    "vtracer": VTracerSystem,
    "reference": ReferenceSystem,
    "empty": EmptySystem,
}
SYSTEM_NAMES = tuple(_FACTORIES) + ("openai:URL",)


def get_system(name: str) -> System:
    if name.startswith("openai:"):
        return OpenAISystem(name[len("openai:"):])
    try:
        return _FACTORIES[name]()
    except KeyError:
        raise KeyError(f"unknown system '{name}'; expected one of {', '.join(SYSTEM_NAMES)}") from None


class CaseTimeout(BaseException):
    """A case ran past its time limit (a BaseException, so a system's own ``except Exception``
    cannot swallow it)."""


def run_system(system: System, case: Case, case_dir: Path, timeout: float | None = None) -> SystemOutput:
    """Run one case, timing it and turning any failure into a recorded error (never raising).

    timeout: seconds; a case still running then is stopped and recorded as timed out (a
    data point like any failure). Enforced with SIGALRM where this runs on a process's
    main thread (the local pool, in-process runs); elsewhere the case runs to its end.
    Work a system hands to threads of its own (the pipeline's LangGraph nodes run in a
    thread pool) finishes its current step before the limit takes effect.
    """
    armed = bool(timeout) and hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if armed:
        def on_alarm(signum, frame):
            raise CaseTimeout()

        previous = signal.signal(signal.SIGALRM, on_alarm)
        signal.setitimer(signal.ITIMER_REAL, float(timeout))
    t0 = time.perf_counter()
    try:
        out = system.run(case, case_dir)
    except CaseTimeout:
        out = SystemOutput(error=f"timed out after {timeout:g} s")
    except Exception as e:  # a failing system is a data point, not a crash of the benchmark
        out = SystemOutput(error=f"{type(e).__name__}: {e}")
    finally:
        if armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    out.seconds = time.perf_counter() - t0
    return out
