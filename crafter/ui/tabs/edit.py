"""The Edit tab: undo and redo, the title and components table, an instruction, the DSL editor.

The components table's cell edits are kept by ``st.data_editor`` under its key and applied
at the top of the next run (:func:`apply_pending_table_edits`, called by ``app.py`` before
the tabs are drawn), so every tab shows the new figure.
"""

from __future__ import annotations

import streamlit as st

from crafter.errors import CrafterError
from crafter.spec import SHAPES, parse_dsl, print_dsl
from crafter.ui import edits, services
from crafter.ui.header import empty_state, step_title
from crafter.ui.messages import flash, show_error
from crafter.ui.preview import figure_caption, show_figure, svg_aspect
from crafter.ui.run_status import with_progress
from crafter.ui.sanitize import md
from crafter.ui.state import backend_string, workspace
from crafter.ui.table import COLUMN_TITLES, apply_table_edits, components_table
from crafter.ui.workspace import Workspace


def render() -> None:
    w = workspace()
    if w.figure is None:
        empty_state("Nothing to edit yet. Generate a figure in <b>Create</b>, open a file in <b>Open</b>, "
                    "or convert a PNG in <b>Vectorize</b>.")
        return
    bar = st.columns([1, 1, 6])
    bar[0].button("Undo", key="undo", on_click=undo, disabled=not w.undo_stack, icon=":material/undo:",
                  width="stretch")
    bar[1].button("Redo", key="redo", on_click=redo, disabled=not w.redo_stack, icon=":material/redo:",
                  width="stretch")
    n = len(w.undo_stack)
    bar[2].caption(f"Last change: {md(w.current.note)} · {n} step{'s' if n != 1 else ''} to undo")
    if svg_aspect(w.svg) > 1.1:
        # a tall figure (top to bottom) beside the table stays readable; above it, it would shrink
        left, right = st.columns([2, 3], gap="large")
        with left:
            show_figure(w.svg, alt=f"Figure: {w.title}", caption=figure_caption(), max_height="80vh")
        with right:
            edit_table_section(w)
    else:
        show_figure(w.svg, alt=f"Figure: {w.title}", caption=figure_caption(), max_height="46vh")
        edit_table_section(w)

    left, right = st.columns(2, gap="large")
    with left:
        step_title("B", "Ask for a change")
        st.caption("Describe the change in words; only the components it names are touched.")
        st.text_input("Instruction", key="instruction", label_visibility="collapsed",
                      placeholder="e.g. make the encoder blue and rename Decoder to Generator")
        if st.button("Apply instruction", key="apply_instruction", icon=":material/auto_fix_high:"):
            run_instruction()
    with right:
        step_title("C", "Edit as text (DSL)")
        dsl_editor()


# -- callbacks (run before the page is drawn) ---------------------------------------------


def undo() -> None:
    if workspace().undo():
        flash("toast", f"Undone. Now showing: {md(workspace().current.note)}")


def redo() -> None:
    if workspace().redo():
        flash("toast", f"Redone: {md(workspace().current.note)}")


def set_title(key: str) -> None:
    w = workspace()
    title = (st.session_state.get(key) or "").strip() or None
    if w.figure is None or title == w.figure.title:
        return
    try:
        edits.set_title(w, title)
    except Exception as e:  # noqa: BLE001
        flash("error", f"The title could not be set: {md(services.user_message(e))}")


def apply_pending_table_edits() -> None:
    """Apply the components table's cell edits (kept by st.data_editor under its key)."""
    w = workspace()
    if w.figure is None:
        return
    delta = st.session_state.get(f"table_{w.version}")
    if not delta or not any(delta.get(k) for k in ("edited_rows", "added_rows", "deleted_rows")):
        st.session_state.pop("table_error", None)
        return
    try:
        edit = apply_table_edits(w.figure, delta)
    except CrafterError as e:
        st.session_state["table_error"] = services.user_message(e)
        return
    st.session_state.pop("table_error", None)
    if edit.figure is w.figure:
        return
    try:
        edits.apply_table_edit(w, edit)
    except Exception as e:  # noqa: BLE001
        st.session_state["table_error"] = services.user_message(e)


# -- pieces -------------------------------------------------------------------------------


def edit_table_section(w: Workspace) -> None:
    """The figure's title and its components table (cell edits are applied at the top of the run)."""
    st.text_input("Figure title", value=w.figure.title or "", key=f"title_{w.version}", on_change=set_title,
                  args=(f"title_{w.version}",), placeholder="e.g. Method overview — also names the exported files")

    step_title("A", "Components")
    st.caption("Click a cell to change a label, shape or colour (#rrggbb or a name like *steelblue*); the "
               "figure redraws at once. Add a row at the bottom for a new box; select rows and press "
               "Delete to remove them. `\\n` in a label starts a new line.")
    if st.session_state.get("table_error"):
        st.error(f"Not applied: {md(st.session_state['table_error'])}", icon=":material/error:")
    st.data_editor(
        components_table(w.figure), key=f"table_{w.version}", num_rows="dynamic", hide_index=True,
        width="stretch", disabled=["id", "kind"],
        column_config={
            "id": st.column_config.TextColumn(COLUMN_TITLES["id"], width="small"),
            "kind": st.column_config.TextColumn(COLUMN_TITLES["kind"], width="small"),
            "label": st.column_config.TextColumn(COLUMN_TITLES["label"], width="large"),
            "shape": st.column_config.SelectboxColumn(COLUMN_TITLES["shape"], options=["", *SHAPES]),
            "fill": st.column_config.TextColumn(COLUMN_TITLES["fill"]),
            "stroke": st.column_config.TextColumn(COLUMN_TITLES["stroke"]),
            "text_color": st.column_config.TextColumn(COLUMN_TITLES["text_color"]),
        },
    )


def run_instruction() -> None:
    instruction = st.session_state.get("instruction", "").strip()
    if not instruction:
        st.warning("Write what to change first, e.g. “make the encoder blue”.")
        return
    try:
        backend = backend_string()
    except CrafterError as e:
        show_error(e)
        return
    fig = workspace().figure
    result = with_progress("Applying the instruction…", lambda on_event: services.edit(
        fig, instruction, backend=backend, on_event=on_event))
    if result is None:
        return
    if not edits.take_instruction_result(workspace(), instruction, result):
        st.warning("Nothing was changed. " + md(" ".join(result.warnings or [
            "Name the component as it is labelled, e.g. “make Encoder blue”."])), icon=":material/help:")
        return
    flash("success", "Changed: " + md("; ".join(result.applied) if result.applied else instruction))
    st.rerun()


def dsl_editor() -> None:
    w = workspace()
    show_geometry = st.toggle("Show layout coordinates", key="dsl_geometry",
                              help="Off: the figure as you would write it; applying lays it out again. "
                                   "On: boxes and routes too, kept as written.")
    key = f"dsl_{w.version}_{int(show_geometry)}"
    if key not in st.session_state:  # the widget keeps its text; print the figure only when it changed
        fig = w.figure if show_geometry else edits.figure_without_geometry(w.figure)
        st.session_state[key] = print_dsl(fig)
    st.text_area("DSL", key=key, height=300, label_visibility="collapsed")
    if st.button("Apply DSL", key="apply_dsl", icon=":material/check:"):
        text = st.session_state[key]
        try:
            new = parse_dsl(text)
        except CrafterError as e:
            show_dsl_error(text, e)
            return
        try:
            edits.apply_dsl(w, new, keep_geometry=show_geometry)
        except Exception as e:  # noqa: BLE001 - any failure is shown, the figure stays as it was
            show_error(e, "That change could not be drawn: ")
            return
        flash("toast", "DSL applied")
        st.rerun()


def show_dsl_error(text: str, e: CrafterError) -> None:
    """The parse error with the offending line and a caret under the column."""
    line = getattr(e, "line", None)
    col = getattr(e, "column", None)
    msg = getattr(e, "message", str(e))
    where = f"Line {line}" + (f", column {col}" if col else "") if line else ""
    who = f"component '{e.component}'" if getattr(e, "component", None) else ""
    head = ", ".join(x for x in (where, who) if x)
    st.error(md(f"{head}: {msg}" if head else msg), icon=":material/error:")
    lines = text.splitlines()
    if line and 1 <= line <= len(lines):
        lo = max(1, line - 1)
        shown = []
        for n in range(lo, min(len(lines), line + 1) + 1):
            shown.append(f"{n:>4} | {lines[n - 1]}")
            if n == line and col:
                shown.append("     | " + " " * (col - 1) + "^")
        st.code("\n".join(shown), language="text")
