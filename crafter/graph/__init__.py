"""The Crafter pipeline: a LangGraph ``StateGraph`` (:mod:`crafter.graph.pipeline`) and its run store.

>>> from crafter.graph import generate                     # doctest: +SKIP
>>> result = generate("An encoder feeds a latent code, which the decoder reads.")

:mod:`crafter.graph.runs` keeps LangGraph's checkpoints and a table of runs in one SQLite
file, so every run can be listed, reopened and resumed.
"""

from crafter.graph.pipeline import (
    PipelineContext,
    PipelineEvent,
    PipelineState,
    RunResult,
    build_graph,
    compiled_graph,
    consume,
    edit,
    generate,
    iter_edit,
    iter_generate,
    iter_resume,
    list_runs,
    resume,
    run_result,
)
from crafter.graph.runs import RunInfo, RunStore, default_db_path, resolve_db_path

__all__ = [
    "PipelineContext", "PipelineEvent", "PipelineState", "RunInfo", "RunResult", "RunStore", "build_graph",
    "compiled_graph", "consume", "default_db_path", "edit", "generate", "iter_edit", "iter_generate", "iter_resume",
    "list_runs", "resolve_db_path", "resume", "run_result",
]
