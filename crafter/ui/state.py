"""The app's session state: what one browser tab keeps between Streamlit's reruns.

``st.session_state`` holds the figure being edited (a :class:`~crafter.ui.workspace.Workspace`),
the brief, the Settings tab's choices (under ``set_*`` keys, the widgets' own keys), the
messages waiting for the next run and the last results of the Vectorize tab and of a
pipeline run. Everything else reads them through the functions here.
"""

from __future__ import annotations

import os

import streamlit as st

from crafter.ui.settings import Settings
from crafter.ui.workspace import Workspace

TABS = {
    "create": ":material/auto_awesome: Create", "edit": ":material/edit: Edit",
    "vectorize": ":material/image: Vectorize", "open": ":material/folder_open: Open",
    "runs": ":material/history: Runs", "export": ":material/download: Export",
    "settings": ":material/settings: Settings",
}


def init_state() -> None:
    ss = st.session_state
    ss.setdefault("ws", Workspace())
    ss.setdefault("brief", "")
    ss.setdefault("example_table", None)  # (file name, bytes) of an example's table
    ss.setdefault("flash", [])  # (kind, text) shown once at the top of the next run
    ss.setdefault("run_log", [])  # the step lines of the last pipeline run
    ss.setdefault("vectorized", [])  # [(name, original bytes, services.Vectorized)]
    ss.setdefault("export_cache", {})
    defaults = Settings.with_backend(os.environ.get("CRAFTER_BACKEND"))
    ss.setdefault("set_backend", defaults.backend)
    ss.setdefault("set_hf_path", defaults.hf_path)
    ss.setdefault("set_openai_url", defaults.openai_url)
    ss.setdefault("set_theme", defaults.theme)
    ss.setdefault("set_rounds", defaults.rounds)
    ss.setdefault("set_column", defaults.column)
    ss.setdefault("set_style", defaults.style)
    ss.setdefault("learned_style", None)  # the style learned from dropped figures, not yet kept
    # Streamlit forgets a widget's value after a run that does not draw the widget, and the Settings
    # tab's widgets are not drawn on every run; a lost value came back as the widget's first option
    # (built-in model, 0 repair rounds, single column). Writing each value back each run keeps it.
    for key in ("set_backend", "set_hf_path", "set_openai_url", "set_theme", "set_rounds", "set_column", "set_style"):
        ss[key] = ss[key]


def workspace() -> Workspace:
    """The figure being edited, its SVG and its undo history."""
    return st.session_state["ws"]


def settings() -> Settings:
    ss = st.session_state
    return Settings(backend=ss["set_backend"], hf_path=ss["set_hf_path"], openai_url=ss["set_openai_url"],
                    theme=ss["set_theme"], rounds=int(ss["set_rounds"]), column=ss["set_column"],
                    style=ss["set_style"])


def backend_string() -> str:
    """The backend for the pipeline, from Settings (preset by CRAFTER_BACKEND)."""
    return settings().backend_string()


def go_to(tab: str) -> None:
    """Show another tab on the next run (only from callbacks: before the tabs are drawn)."""
    st.session_state["tab"] = TABS[tab]
