"""Messages to the user: flash messages kept for the next run, and errors shown in the page.

A callback runs before the page is drawn, so what it has to say is kept in
``st.session_state["flash"]`` and shown once, above the tabs, by :func:`show_flashes`.
"""

from __future__ import annotations

import traceback

import streamlit as st

from crafter.errors import CrafterError
from crafter.ui import services
from crafter.ui.sanitize import md


def flash(kind: str, text: str) -> None:
    """Keep a message for the top of the next run: 'toast', 'info', 'error' or 'success'."""
    st.session_state["flash"].append((kind, text))


def show_flashes() -> None:
    """The messages kept by :func:`flash`, once each."""
    for kind, text in st.session_state["flash"]:
        if kind == "toast":
            st.toast(text)
        elif kind == "info":
            st.info(text, icon=":material/info:")
        elif kind == "error":
            st.error(text, icon=":material/error:")
        else:
            st.success(text, icon=":material/check_circle:")
    st.session_state["flash"] = []


def show_error(e: BaseException, prefix: str = "") -> None:
    """A readable message in the page; details (for bug reports) only for unexpected errors."""
    msg = services.user_message(e)
    st.error(f"{prefix}{md(msg)}", icon=":material/error:")
    if not isinstance(e, CrafterError):
        with st.expander("Details (for a bug report)"):
            st.code("".join(traceback.format_exception(e)), language="text")
