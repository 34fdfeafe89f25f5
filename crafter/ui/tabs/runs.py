"""The Runs tab: past generations and instructions from the run store; reopen or resume one."""

from __future__ import annotations

import streamlit as st

from crafter.ui import edits, services
from crafter.ui.header import empty_state
from crafter.ui.messages import flash, show_error
from crafter.ui.run_status import with_progress
from crafter.ui.sanitize import md
from crafter.ui.state import go_to, workspace


def render() -> None:
    st.caption("Every generation and instruction is stored on this machine; reopen a run to keep editing "
               "its figure, or resume one that was interrupted.")
    try:
        runs = services.list_runs()
    except services.FeatureUnavailable as e:
        st.info(md(str(e)), icon=":material/info:")
        return
    except Exception as e:  # noqa: BLE001
        show_error(e, "Past runs cannot be listed: ")
        return
    if not runs:
        empty_state("No runs yet: figures you generate are listed here.")
        return
    import pandas as pd  # heavy: 1.4 s to import (measured with -X importtime); only this table needs it

    st.dataframe(pd.DataFrame([{"run": r.run_id, "started": r.started, "kind": r.kind, "status": r.status,
                                "brief / instruction": r.brief[:140], "result": r.summary} for r in runs]),
                 hide_index=True, width="stretch", height=min(38 + 35 * len(runs), 360))
    by_id = {r.run_id: r for r in runs}
    c1, c2, c3 = st.columns([4, 1, 1], vertical_alignment="bottom")
    # keyed by the newest run, so a new run starts the choice at the top again
    run_id = c1.selectbox("Run", list(by_id), key=f"run_choice_{runs[0].run_id}",
                          format_func=lambda i: f"{i} · {by_id[i].status} · {by_id[i].brief[:70]}")
    row = by_id[run_id]
    c2.button("Reopen", key="reopen_run", icon=":material/open_in_new:", width="stretch", on_click=reopen_run,
              args=(run_id, row.resumable))
    if st.session_state.get("runs_error"):
        st.error(md(st.session_state.pop("runs_error")), icon=":material/error:")
    if c3.button("Resume", key="resume_run", icon=":material/play_arrow:", width="stretch",
                 disabled=not row.resumable, help="Continue an interrupted or failed run where it stopped."):
        res = with_progress(f"Resuming run {run_id}…",
                            lambda on_event: services.resume_run(run_id, on_event=on_event))
        if res is not None:
            edits.take_result(workspace(), res, f"run {run_id} (resumed)", run_id=run_id)
            flash("success", f"Run **{run_id}** finished: its figure is now the one being edited (**Edit**).")
            st.rerun()


# -- callbacks (run before the page is drawn) ---------------------------------------------


def reopen_run(run_id: str, resumable: bool) -> None:
    try:
        res = services.reopen_run(run_id)
    except Exception as e:  # noqa: BLE001
        hint = " Press Resume to finish it." if resumable else ""
        st.session_state["runs_error"] = f"Run {run_id} could not be reopened: {services.user_message(e)}.{hint}"
        return
    edits.take_result(workspace(), res, f"run {run_id}", run_id=run_id)
    flash("success", f"Reopened run **{run_id}**: change anything in it here, download it from **Export**.")
    go_to("edit")
