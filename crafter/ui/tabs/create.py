"""The Create tab: a brief, an optional table or reference image, Generate, the figure inline."""

from __future__ import annotations

from typing import Any

import streamlit as st

from crafter.errors import CrafterError
from crafter.ui import edits, services
from crafter.ui.downloads import download_buttons
from crafter.ui.examples import EXAMPLES, example
from crafter.ui.header import empty_state, step_title
from crafter.ui.messages import show_error
from crafter.ui.preview import figure_caption, show_figure
from crafter.ui.progress import issue_line
from crafter.ui.run_status import step_lines, with_progress
from crafter.ui.sanitize import md
from crafter.ui.settings import COLUMN_LABELS
from crafter.ui.state import backend_string, settings, workspace
from crafter.ui.uploads import MAX_TABLE_BYTES, TABLE_SUFFIXES, check_image, check_upload


def render() -> None:
    left, right = st.columns([3, 2], gap="large")
    with left:
        step_title(1, "Describe the figure")
        st.text_area(
            "Brief", key="brief", height=170, label_visibility="collapsed",
            placeholder="What should the figure show? Name the parts and how they connect, e.g. "
                        "“An encoder–decoder: Input → Encoder → Latent z → Decoder → Output, "
                        "with a skip connection from Encoder to Decoder.”",
        )
        st.caption("Try an example:")
        cols = st.columns(len(EXAMPLES))
        for col, ex in zip(cols, EXAMPLES):
            col.button(ex.button, key=f"example_{ex.key}", on_click=load_example, args=(ex.key,),
                       width="stretch", icon=":material/lightbulb:")
    with right:
        step_title(2, "Add data or a reference (optional)")
        table = table_input()
        image = image_input()

    g1, g2 = st.columns([1, 5], vertical_alignment="center")
    generate_clicked = g1.button("Generate", type="primary", key="generate", width="stretch")
    g2.caption(f"Model: {settings().describe_backend()} · {settings().rounds} repair rounds · "
               f"{COLUMN_LABELS[settings().column].lower()} — change these in **Settings**.")
    if generate_clicked:
        run_generate(table, image)
    elif st.session_state["run_log"]:
        with st.expander("Agent steps of the last run"):
            st.markdown(step_lines(st.session_state["run_log"]))

    w = workspace()
    if w.figure is None:
        empty_state("Your figure will appear here. Write a brief (or press an example) and press "
                    "<b>Generate</b>. Every box, label and arrow stays editable.")
        return
    st.divider()
    step_title(3, "Your figure")
    show_figure(w.svg, alt=f"Figure: {w.title}", caption=figure_caption())
    show_notes(w.notes)
    show_issues(w.issues)
    download_buttons([".pdf", ".svg", ".png"], key="create_dl")
    others = [f.label for f in services.export_formats() if f.suffix not in (".pdf", ".svg", ".png")]
    st.caption("Change labels, colours or shapes in **Edit**. **Export** has PNG at any resolution"
               + (f" and {', '.join(others)}" if others else "") + ", named after the title.")


# -- callbacks (run before the page is drawn) ---------------------------------------------


def load_example(key: str) -> None:
    ex = example(key)
    st.session_state["brief"] = ex.brief
    st.session_state["example_table"] = (ex.table_name, ex.table_csv.encode()) if ex.table_csv else None


def clear_example_table() -> None:
    st.session_state["example_table"] = None


# -- pieces -------------------------------------------------------------------------------


def table_input() -> tuple[str, bytes] | None:
    """The optional data table: an upload or an example's; preview, or a message. Returns the Table.

    The uploaders take any file and the app checks the type itself: Streamlit's own
    ``type=`` check raises an exception instead of telling the user what to upload.
    """
    up = st.file_uploader("Data table (CSV, TSV, JSON, XLSX)", key="table_upload",
                          help="Results to chart: one row per measurement, one column per variable.")
    name, data = (up.name, up.getvalue()) if up is not None else (st.session_state["example_table"] or (None, None))
    if name is None:
        return None
    if up is None:
        c1, c2 = st.columns([3, 1])
        c1.caption(f"Using the example table **{name}**.")
        c2.button("Remove", key="remove_example_table", on_click=clear_example_table)
    try:
        check_upload(name, len(data), kinds=TABLE_SUFFIXES, max_bytes=MAX_TABLE_BYTES, what="a data table")
        table = services.read_table(data, name)
    except Exception as e:  # noqa: BLE001
        show_error(e, "This table cannot be used: ")
        return None
    with st.expander(f"Preview: {services.table_summary(table)}", expanded=False):
        st.dataframe(services.table_preview(table), hide_index=True, width="stretch", height=220)
    return name, data


def image_input() -> tuple[str, bytes] | None:
    up = st.file_uploader("Reference image (PNG, JPG)", key="image_upload",
                          help="A sketch or an old figure to start from; it is vectorised into components.")
    if up is None:
        return None
    data = up.getvalue()
    try:
        w, h = check_image(up.name, data)
    except CrafterError as e:
        show_error(e, "This image cannot be used: ")
        return None
    st.image(data, caption=f"{up.name} · {w} × {h} px", width=220)
    return up.name, data


def run_generate(table: tuple[str, bytes] | None, image: tuple[str, bytes] | None) -> None:
    brief = st.session_state["brief"].strip()
    if not brief and table is None and image is None:
        st.warning("Write a brief first (or add a table or a reference image), then press Generate.",
                   icon=":material/edit_note:")
        return
    s = settings()
    try:
        backend = backend_string()
    except CrafterError as e:
        show_error(e)
        return
    result = with_progress("Generating the figure…", lambda on_event: services.generate(
        brief, table_file=table, image_file=image, backend=backend, rounds=s.rounds, theme=s.theme,
        width_in=s.width_in, on_event=on_event, style=s.style or None))
    if result is None:
        st.caption("Your brief is kept. Check the model in **Settings**, simplify the brief, or try again.")
        return
    edits.take_result(workspace(), result, "generated")


def show_notes(notes: list[str]) -> None:
    """What the pipeline said about how it made the figure (e.g. rules stood in for the model)."""
    for note in notes:
        st.info(md(note), icon=":material/info:")


def show_issues(issues: list[Any]) -> None:
    if not issues:
        return
    with st.expander(f"{len(issues)} issue{'s' if len(issues) != 1 else ''} the checks could not fix",
                     icon=":material/warning:"):
        for issue in issues:
            st.markdown(f"- {md(issue_line(issue))}")
        st.caption("Fix them in **Edit**: change the component in the table, or describe the fix.")
