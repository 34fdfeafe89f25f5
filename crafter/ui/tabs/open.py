"""The Open tab: keep editing a figure from a file (SVG, PowerPoint, draw.io, DSL, JSON) or an example."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from crafter.ui import edits, services
from crafter.ui.examples import example_files
from crafter.ui.header import step_title
from crafter.ui.messages import flash
from crafter.ui.preview import show_figure
from crafter.ui.sanitize import md
from crafter.ui.state import go_to, workspace
from crafter.ui.uploads import FIGURE_SUFFIXES, MAX_FIGURE_BYTES, check_upload


def render() -> None:
    left, right = st.columns([3, 2], gap="large")
    with left:
        step_title(None, "Open a figure to keep editing it")
        st.caption("An SVG or PowerPoint file that Crafter wrote — also after editing it in Inkscape, "
                   "Illustrator or PowerPoint: your changes are kept — any other SVG or PowerPoint slide "
                   "(imported as shapes and text), a draw.io file, or a FigureSpec in DSL or JSON.")
        st.file_uploader("SVG, PowerPoint, draw.io, DSL or JSON", key="open_upload",
                         on_change=open_uploaded_figure)
        if st.session_state.get("open_error"):
            st.error(f"Could not open it: {md(st.session_state['open_error'])}", icon=":material/error:")
    with right:
        examples = example_files()
        if examples:
            step_title(None, "…or start from an example")
            choice = st.selectbox("Example figure", list(examples), key="open_example",
                                  format_func=lambda p: examples[p])
            st.button("Open example", key="open_example_btn", on_click=open_example_figure, args=(choice,),
                      icon=":material/folder_open:")
    w = workspace()
    if w.figure is not None:
        st.divider()
        st.caption(f"Being edited now: **{md(w.title)}** ({md(w.current.note)})")
        show_figure(w.svg, alt=f"Figure: {w.title}", max_height="46vh")


# -- callbacks (run before the page is drawn) ---------------------------------------------


def open_uploaded_figure() -> None:
    up = st.session_state.get("open_upload")
    st.session_state.pop("open_error", None)
    if up is None:
        return
    try:
        check_upload(up.name, up.size, kinds=FIGURE_SUFFIXES, max_bytes=MAX_FIGURE_BYTES, what="a figure")
        opened = services.open_figure_bytes(up.getvalue(), up.name)
        laid = edits.take_opened(workspace(), opened, f"opened {up.name}")
        flash("success", f"Opened **{md(up.name)}** ({len(laid.components)} components): change anything "
                         "in it here, download it from **Export**.")
        for note in opened.notes:
            flash("info", md(note))
        go_to("edit")
    except Exception as e:  # noqa: BLE001
        st.session_state["open_error"] = services.user_message(e)


def open_example_figure(path: str) -> None:
    try:
        opened = services.open_figure_bytes(Path(path).read_bytes(), Path(path).name)
        edits.take_opened(workspace(), opened, f"example {Path(path).stem}")
        flash("success", f"Opened the example **{md(Path(path).stem)}**: change anything in it here.")
        go_to("edit")
    except Exception as e:  # noqa: BLE001
        st.session_state["open_error"] = services.user_message(e)
