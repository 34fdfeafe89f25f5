"""The Settings tab: the model, the repair rounds, the theme and print width of new figures."""

from __future__ import annotations

import streamlit as st

from crafter.errors import CrafterError
from crafter.spec import THEMES
from crafter.ui import edits, services
from crafter.ui.header import step_title
from crafter.ui.messages import flash
from crafter.ui.sanitize import md
from crafter.ui.settings import BACKEND_LABELS, COLUMN_LABELS, MAX_ROUNDS, THEME_LABELS
from crafter.ui.state import settings, workspace
from crafter.ui.uploads import MAX_FIGURE_BYTES, MAX_IMAGE_BYTES, MAX_TABLE_BYTES


def render() -> None:
    left, right = st.columns(2, gap="large")
    with left:
        step_title(None, "Model")
        st.radio("Backend", list(BACKEND_LABELS), key="set_backend", format_func=BACKEND_LABELS.get,
                 help="Which model writes the figure. The built-in one needs nothing else.")
        backend = st.session_state["set_backend"]
        if backend == "hf":
            st.text_input("Model folder", key="set_hf_path", placeholder="/path/to/a/transformers/model")
        elif backend == "openai":
            st.text_input("Server URL", key="set_openai_url", help="The /v1 base URL of the server.")
        try:
            settings().backend_string()
        except CrafterError as e:
            st.warning(md(str(e)), icon=":material/warning:")
        st.slider("Repair rounds", 0, MAX_ROUNDS, key="set_rounds",
                  help="How many times the checks may send the figure back for repair.")
    with right:
        step_title(None, "Look")
        st.selectbox("Theme", list(THEMES), key="set_theme", format_func=lambda t: THEME_LABELS.get(t, t))
        st.radio("Figure width", list(COLUMN_LABELS), key="set_column", format_func=COLUMN_LABELS.get,
                 horizontal=True, help="The print width the figure is made for.")
        st.caption("New figures get this theme and width.")
        st.button("Apply to the figure being edited", key="apply_look", on_click=apply_look_to_figure,
                  disabled=not edits.look_differs(workspace().figure, settings()), icon=":material/format_paint:")
    st.divider()
    try:
        db = services.run_store_path()
    except services.FeatureUnavailable:
        db = "(the run store is not installed)"
    st.caption(f"Runs are stored in `{db}` (set CRAFTER_RUNS_DB to move them). Upload limits: tables "
               f"{MAX_TABLE_BYTES // 2**20} MB, images {MAX_IMAGE_BYTES // 2**20} MB, figures "
               f"{MAX_FIGURE_BYTES // 2**20} MB.")


# -- callbacks (run before the page is drawn) ---------------------------------------------


def apply_look_to_figure() -> None:
    """Settings' theme and width applied to the figure being edited, as one undoable step.

    A button rather than the widgets' on_change: a change of figure should follow a click
    the user meant, never a widget that merely (re)appeared.
    """
    w, s = workspace(), settings()
    if w.figure is None:
        return
    try:
        edits.apply_look(w, s)
        flash("toast", f"Applied the {s.theme} theme and {COLUMN_LABELS[s.column].lower()} width")
    except Exception as e:  # noqa: BLE001
        flash("error", f"The theme and width could not be applied: {md(services.user_message(e))}")
