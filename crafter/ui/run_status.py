"""A pipeline run in the page: a status box that lists the agents' steps as they happen."""

from __future__ import annotations

from typing import Any

import streamlit as st

from crafter.ui.messages import show_error
from crafter.ui.progress import ProgressLog
from crafter.ui.sanitize import md


def with_progress(title: str, work: Any) -> Any:
    """Run ``work(on_event)`` inside a status box that lists the agents' steps as they happen.

    Returns the result, or None after showing why it failed. The steps are kept in
    ``run_log`` so they can be read again after the page redraws.
    """
    log = ProgressLog()
    with st.status(title, expanded=True) as status:
        steps = st.empty()
        steps.caption("Starting the pipeline (the first run after start-up also loads the model)…")

        def on_event(event: Any) -> None:
            log.feed(event)
            # expanded each time: an update without it lets the box fold while the run goes on
            status.update(label=log.label, expanded=True)
            steps.markdown(step_lines(log.lines))

        try:
            result = work(on_event)
        except Exception as e:  # noqa: BLE001 - a failed run keeps the brief and the old figure
            status.update(label=f"{title.rstrip('…')} failed", state="error", expanded=True)
            st.session_state["run_log"] = log.lines
            show_error(e, f"{title.rstrip('…')} failed: ")
            return None
        n = len(result.issues)
        status.update(label=f"Done: {len(result.figure.components)} components, "
                            + ("no issues left" if n == 0 else f"{n} issue{'s' if n != 1 else ''} left"),
                      state="complete", expanded=False)
    st.session_state["run_log"] = log.lines
    return result


def step_lines(lines: list[str]) -> str:
    """The step log as markdown: one line each (hard line breaks), text kept literal."""
    return "  \n".join(md(line) for line in lines)
