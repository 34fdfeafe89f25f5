"""Crafter in the browser: describe a figure, watch the agents, edit it, export it.

Run with ``make run`` (``streamlit run app.py``). A thin shell: every tab lays out
widgets and calls :mod:`crafter.ui.services`; the figure being edited, its undo history
and the settings live in ``st.session_state`` (see :mod:`crafter.ui.workspace`).
Errors become a message in the page; the brief and the figure survive them.
"""

from __future__ import annotations

import functools
import os
import re
import traceback
from typing import Any

import streamlit as st

from crafteditor import convert as crafteditor_convert
from crafteditor.pipeline import vectorize_for_pipeline
from crafter.errors import CrafterError
from crafter.spec import SHAPES, THEMES, print_dsl
from crafter.ui import services
from crafter.ui.examples import EXAMPLES, example
from crafter.ui.progress import ProgressLog, issue_line
from crafter.ui.sanitize import figure_html, md, raster_html
from crafter.ui.settings import BACKEND_LABELS, COLUMN_LABELS, MAX_ROUNDS, THEME_LABELS, Settings
from crafter.ui.table import COLUMN_TITLES, apply_table_edits, components_table
from crafter.ui.uploads import (
    FIGURE_SUFFIXES,
    MAX_FIGURE_BYTES,
    MAX_IMAGE_BYTES,
    MAX_TABLE_BYTES,
    TABLE_SUFFIXES,
    check_image,
    check_upload,
)
from crafter.ui.workspace import Workspace

# CraftEditor is handed to the services here: the library never imports it
services.use_vectorizers(crafteditor_convert, vectorize_for_pipeline)

st.set_page_config(page_title="Crafter — editable research figures", page_icon=":material/schema:",
                   layout="wide")

CSS = """
<style>
.block-container {padding-top: 3.2rem; max-width: 1280px;}
.crafter-header {display:flex; align-items:baseline; gap:.8rem; margin-bottom:.1rem;}
.crafter-header h1 {font-size:1.9rem; font-weight:700; margin:0; padding:0; letter-spacing:-.02em;}
.crafter-header span {color:#5b6472; font-size:1rem;}
.crafter-figure {background:#fff; border:1px solid #e2e6ec; border-radius:10px; padding:18px;
  box-shadow:0 1px 3px rgba(16,24,40,.06); text-align:center; margin:.25rem 0 .5rem 0;}
.crafter-figure img {max-width:100%; height:auto; object-fit:contain;}
.crafter-figure-caption {color:#5b6472; font-size:.85rem; margin-top:.5rem;}
.crafter-step {font-weight:600; font-size:1.02rem; margin:.2rem 0 .35rem 0;}
.crafter-step b {display:inline-block; width:1.45rem; height:1.45rem; border-radius:50%; background:#1f5fa8;
  color:#fff; text-align:center; font-size:.85rem; line-height:1.45rem; margin-right:.45rem;}
.crafter-empty {border:1px dashed #c9d0da; border-radius:10px; padding:28px; text-align:center; color:#5b6472;
  background:#fafbfc;}
</style>
"""

PREVIEW_ZOOM = 1.6
TABS = {
    "create": ":material/auto_awesome: Create", "edit": ":material/edit: Edit",
    "vectorize": ":material/image: Vectorize", "open": ":material/folder_open: Open",
    "runs": ":material/history: Runs", "export": ":material/download: Export",
    "settings": ":material/settings: Settings",
}  # the paper theme is drawn at print size (9 pt text): enlarge it on screen


# ======================================================================================
# Session state
# ======================================================================================


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
    # Streamlit forgets a widget's value after a run that does not draw the widget, and the Settings
    # tab's widgets are not drawn on every run; a lost value came back as the widget's first option
    # (built-in model, 0 repair rounds, single column). Writing each value back each run keeps it.
    for key in ("set_backend", "set_hf_path", "set_openai_url", "set_theme", "set_rounds", "set_column"):
        ss[key] = ss[key]


def ws() -> Workspace:
    return st.session_state["ws"]


def settings() -> Settings:
    ss = st.session_state
    return Settings(backend=ss["set_backend"], hf_path=ss["set_hf_path"], openai_url=ss["set_openai_url"],
                    theme=ss["set_theme"], rounds=int(ss["set_rounds"]), column=ss["set_column"])


def backend_string() -> str:
    """The backend for the pipeline, from Settings (preset by CRAFTER_BACKEND)."""
    return settings().backend_string()


def go_to(tab: str) -> None:
    """Show another tab on the next run (only from callbacks: before the tabs are drawn)."""
    st.session_state["tab"] = TABS[tab]


def flash(kind: str, text: str) -> None:
    st.session_state["flash"].append((kind, text))


def show_error(e: BaseException, prefix: str = "") -> None:
    """A readable message in the page; details (for bug reports) only for unexpected errors."""
    msg = services.user_message(e)
    st.error(f"{prefix}{md(msg)}", icon=":material/error:")
    if not isinstance(e, CrafterError):
        with st.expander("Details (for a bug report)"):
            st.code("".join(traceback.format_exception(e)), language="text")


# ======================================================================================
# Shared pieces
# ======================================================================================


def step_title(n: int | str | None, text: str) -> None:
    badge = f"<b>{n}</b>" if n else ""
    st.html(f'<div class="crafter-step">{badge}{text}</div>')


def show_figure(svg: str, *, alt: str, caption: str | None = None, max_height: str = "68vh",
                zoom: float = PREVIEW_ZOOM) -> None:
    """The figure as a sanitised image on a white card (nothing in it can run)."""
    try:
        html = cached_figure_html(svg, alt, caption)
    except CrafterError as e:
        show_error(e, "The figure cannot be shown: ")
        return
    width = _svg_width(svg)
    style = f"max-height:{max_height};" + (f"width:{width * zoom:.0f}px;" if width else "")
    st.html(html.replace("<img ", f'<img style="{style}" ', 1))


@functools.lru_cache(maxsize=32)
def cached_figure_html(svg: str, alt: str, caption: str | None) -> str:
    """The same figure is shown in several tabs on every rerun: sanitise it once."""
    return figure_html(svg, alt=alt, caption=caption)


def _svg_width(svg: str) -> float | None:
    m = re.search(r'<svg[^>]*?\swidth="([0-9.]+)(px)?"', svg[:3000])
    return float(m.group(1)) if m else None


def _svg_aspect(svg: str) -> float:
    """height / width of the drawing (1.0 when the SVG does not say)."""
    w = _svg_width(svg)
    m = re.search(r'<svg[^>]*?\sheight="([0-9.]+)(px)?"', svg[:3000])
    return float(m.group(1)) / w if (w and m) else 1.0


def figure_caption() -> str:
    w = ws()
    fig = w.figure
    width = f"{fig.width_in:g} in wide" if fig.width_in else "natural size"
    return f"{w.title} · {len(fig.components)} components · {fig.theme} theme · {width}"


def empty_state(text: str) -> None:
    st.html(f'<div class="crafter-empty">{text}</div>')


def commit(fig: Any, note: str, *, relayout: bool = False) -> bool:
    """Render and make ``fig`` current; on failure show why and keep the old figure."""
    try:
        ws().commit(fig, note, render=services.render, relayout=relayout)
        return True
    except Exception as e:  # noqa: BLE001 - any failure is shown, the figure stays as it was
        show_error(e, "That change could not be drawn: ")
        return False


CHEAP_FORMATS = (".svg", ".json", ".dsl")  # text: made at once; the rest only when clicked


def export_data(suffix: str, dpi: int = 300) -> Any:
    """What a download button gets for the current figure: bytes, or a function that makes them.

    Text formats are cheap and cached per figure version; PDF, PNG and the registry's other
    formats are made only when the user clicks, so editing stays fast.
    """
    fig = ws().figure
    if suffix not in CHEAP_FORMATS:
        return lambda: services.export_bytes(fig, suffix, dpi=dpi)
    cache: dict = st.session_state["export_cache"]
    key = (ws().version, suffix, dpi)
    if key not in cache:
        if len(cache) > 24:
            cache.clear()
        cache[key] = services.export_bytes(fig, suffix, dpi=dpi)
    return cache[key]


def download_buttons(formats: list[str], *, key: str, dpi: int = 300) -> None:
    """One download button per format, side by side, named after the figure title."""
    stem = services.file_stem(ws().figure.title)
    available = {f.suffix: f for f in services.export_formats()}
    cols = st.columns([1] * len(formats) + [2])
    for col, suffix in zip(cols, formats):
        fmt = available.get(suffix)
        if fmt is None:
            continue
        with col:
            try:
                data = export_data(suffix, dpi)
            except Exception as e:  # noqa: BLE001
                show_error(e, f"{fmt.label}: ")
                continue
            st.download_button(f"Download {suffix.lstrip('.').upper()}", data=data, file_name=stem + suffix,
                               mime=fmt.mime, key=f"{key}_{suffix}", on_click="ignore",
                               icon=":material/download:", width="stretch",
                               type="primary" if suffix == ".pdf" else "secondary")


# ======================================================================================
# Actions (callbacks run before the page is drawn, so every tab shows the new state)
# ======================================================================================


def load_example(key: str) -> None:
    ex = example(key)
    st.session_state["brief"] = ex.brief
    st.session_state["example_table"] = (ex.table_name, ex.table_csv.encode()) if ex.table_csv else None


def clear_example_table() -> None:
    st.session_state["example_table"] = None


def undo() -> None:
    if ws().undo():
        flash("toast", f"Undone. Now showing: {md(ws().current.note)}")


def redo() -> None:
    if ws().redo():
        flash("toast", f"Redone: {md(ws().current.note)}")


def apply_pending_table_edits() -> None:
    """Apply the components table's cell edits (kept by st.data_editor under its key)."""
    w = ws()
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
        w.commit(edit.figure, "table: " + edit.summary, render=services.render, relayout=edit.needs_layout)
    except Exception as e:  # noqa: BLE001
        st.session_state["table_error"] = services.user_message(e)


def set_title(key: str) -> None:
    w = ws()
    title = (st.session_state.get(key) or "").strip() or None
    if w.figure is None or title == w.figure.title:
        return
    from crafter.spec import Figure

    data = w.figure.to_dict()
    data["title"] = title
    if title is None:
        data.pop("title", None)
    try:
        # the title is drawn above the figure, so the layout makes room for it
        w.commit(Figure.from_dict(data), f"title: {title or '(none)'}", render=services.render, relayout=True)
    except Exception as e:  # noqa: BLE001
        flash("error", f"The title could not be set: {md(services.user_message(e))}")


def look_differs() -> bool:
    """Whether the figure being edited has another theme or print width than Settings."""
    fig, s = ws().figure, settings()
    return fig is not None and (fig.theme != s.theme or fig.width_in != s.width_in)


def apply_look_to_figure() -> None:
    """Settings' theme and width applied to the figure being edited, as one undoable step.

    A button rather than the widgets' on_change: a change of figure should follow a click
    the user meant, never a widget that merely (re)appeared.
    """
    w, s = ws(), settings()
    if w.figure is None:
        return
    from crafter.spec import Figure

    data = w.figure.to_dict()
    data["theme"], data["width_in"] = s.theme, s.width_in
    try:
        # both change sizes (fonts, panel arrangement), so the layout runs again
        w.commit(Figure.from_dict(data), f"settings: {s.theme} theme, {s.column} column",
                 render=services.render, relayout=True)
        flash("toast", f"Applied the {s.theme} theme and {COLUMN_LABELS[s.column].lower()} width")
    except Exception as e:  # noqa: BLE001
        flash("error", f"The theme and width could not be applied: {md(services.user_message(e))}")


def open_uploaded_figure() -> None:
    up = st.session_state.get("open_upload")
    st.session_state.pop("open_error", None)
    if up is None:
        return
    try:
        check_upload(up.name, up.size, kinds=FIGURE_SUFFIXES, max_bytes=MAX_FIGURE_BYTES, what="a figure")
        opened = services.open_figure_bytes(up.getvalue(), up.name)
        laid, svg = services.render(opened.figure)
        ws().replace(laid, svg, f"opened {up.name}", notes=opened.notes)
        flash("success", f"Opened **{md(up.name)}** ({len(laid.components)} components): change anything "
                         "in it here, download it from **Export**.")
        for note in opened.notes:
            flash("info", md(note))
        go_to("edit")
    except Exception as e:  # noqa: BLE001
        st.session_state["open_error"] = services.user_message(e)


def open_example_figure(path: str) -> None:
    from pathlib import Path

    try:
        opened = services.open_figure_bytes(Path(path).read_bytes(), Path(path).name)
        laid, svg = services.render(opened.figure)
        ws().replace(laid, svg, f"example {Path(path).stem}")
        flash("success", f"Opened the example **{md(Path(path).stem)}**: change anything in it here.")
        go_to("edit")
    except Exception as e:  # noqa: BLE001
        st.session_state["open_error"] = services.user_message(e)


def reopen_run(run_id: str, resumable: bool) -> None:
    try:
        res = services.reopen_run(run_id)
    except Exception as e:  # noqa: BLE001
        hint = " Press Resume to finish it." if resumable else ""
        st.session_state["runs_error"] = f"Run {run_id} could not be reopened: {services.user_message(e)}.{hint}"
        return
    ws().replace(res.figure, res.svg, f"run {run_id}", issues=res.issues, report=res.report, run_id=run_id,
                 notes=res.warnings)
    flash("success", f"Reopened run **{run_id}**: change anything in it here, download it from **Export**.")
    go_to("edit")


def edit_vectorized(i: int) -> None:
    name, _, res = st.session_state["vectorized"][i]
    ws().replace(res.figure, res.svg, f"vectorised {name}", report=res.scores)
    flash("success", f"**{md(name)}** is now the figure being edited.")
    go_to("edit")


# ======================================================================================
# Tabs
# ======================================================================================


def tab_create() -> None:
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

    w = ws()
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
        width_in=s.width_in, on_event=on_event))
    if result is None:
        st.caption("Your brief is kept. Check the model in **Settings**, simplify the brief, or try again.")
        return
    ws().replace(result.figure, result.svg, "generated", issues=result.issues, report=result.report,
                 run_id=result.run_id, notes=result.warnings)


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


def tab_edit() -> None:
    w = ws()
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
    if _svg_aspect(w.svg) > 1.1:
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
    fig = ws().figure
    result = with_progress("Applying the instruction…", lambda on_event: services.edit(
        fig, instruction, backend=backend, on_event=on_event))
    if result is None:
        return
    if not result.applied and result.figure == fig:
        st.warning("Nothing was changed. " + md(" ".join(result.warnings or [
            "Name the component as it is labelled, e.g. “make Encoder blue”."])), icon=":material/help:")
        return
    ws().replace(result.figure, result.svg, f"instruction: {instruction}", issues=result.issues,
                 report=result.report, run_id=result.run_id, notes=result.warnings)
    flash("success", "Changed: " + md("; ".join(result.applied) if result.applied else instruction))
    st.rerun()


def dsl_editor() -> None:
    w = ws()
    show_geometry = st.toggle("Show layout coordinates", key="dsl_geometry",
                              help="Off: the figure as you would write it; applying lays it out again. "
                                   "On: boxes and routes too, kept as written.")
    key = f"dsl_{w.version}_{int(show_geometry)}"
    if key not in st.session_state:  # the widget keeps its text; print the figure only when it changed
        fig = w.figure if show_geometry else services.figure_without_geometry(w.figure)
        st.session_state[key] = print_dsl(fig)
    st.text_area("DSL", key=key, height=300, label_visibility="collapsed")
    if st.button("Apply DSL", key="apply_dsl", icon=":material/check:"):
        from crafter.spec import parse_dsl

        text = st.session_state[key]
        try:
            new = parse_dsl(text)
        except CrafterError as e:
            show_dsl_error(text, e)
            return
        if commit(new, "DSL edit", relayout=not show_geometry and not services.has_geometry(new)):
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


def tab_vectorize() -> None:
    st.caption("Turn PNG or JPG figures into editable SVG: text stays text, boxes and arrows become "
               "components you can edit like any generated figure.")
    ups = st.file_uploader("PNG or JPG figures", accept_multiple_files=True,
                           key="vectorize_upload")
    if st.button("Convert to SVG", key="vectorize", type="primary", disabled=not ups):
        run_vectorize(ups)
    results = st.session_state["vectorized"]
    if not results:
        if not ups:
            empty_state("Drop one or many figures above, then press <b>Convert to SVG</b>.")
        return
    done = [(name, res) for name, _, res in results if res.svg]
    if len(done) > 1 or (done and len(results) > 1):
        st.download_button(f"Download all {len(done)} SVGs (zip)", data=services.svgs_zip(
            [(n, r.svg) for n, r in done]), file_name="crafter-svgs.zip", mime="application/zip",
            on_click="ignore", key="vectorize_zip", icon=":material/folder_zip:")
    for i, (name, original, res) in enumerate(results):
        st.markdown(f"#### {md(name)}")
        if res.error:
            st.error(f"Not converted: {md(res.error)}", icon=":material/error:")
            continue
        c1, c2 = st.columns(2, gap="medium")
        with c1:
            st.html(raster_html(original, alt=f"Original {name}", caption="Original").replace(
                "<img ", '<img style="max-height:420px" ', 1))
        with c2:
            show_figure(res.svg, alt=f"Vectorised {name}", caption="Editable SVG", max_height="420px", zoom=1.0)
        show_scores(res.scores)
        b1, b2, _ = st.columns([1, 1, 3])
        b1.button("Edit this figure", key=f"vec_edit_{i}", on_click=edit_vectorized, args=(i,),
                  icon=":material/edit:", width="stretch")
        b2.download_button("Download SVG", data=res.svg, file_name=services.file_stem(name.rsplit(".", 1)[0]) + ".svg",
                           mime="image/svg+xml", on_click="ignore", key=f"vec_dl_{i}",
                           icon=":material/download:", width="stretch")


def show_scores(scores: dict[str, Any]) -> None:
    lines = services.score_lines(scores)
    metrics = [(k, v) for k, v in lines if k != "Components"]
    if metrics:
        for col, (label, value) in zip(st.columns(len(metrics)), metrics):
            col.metric(label, value)
    comps = dict(lines).get("Components")
    if comps:
        st.caption(f"Recovered: {comps}")


def run_vectorize(ups: list[Any]) -> None:
    results = []
    bar = st.progress(0.0, text="Starting CraftEditor…")
    for i, up in enumerate(ups):
        bar.progress(i / len(ups), text=f"Converting {up.name} ({i + 1} of {len(ups)})…")
        data = up.getvalue()
        try:
            check_image(up.name, data)
            res = services.vectorize(data, up.name)
        except services.FeatureUnavailable as e:
            bar.empty()
            show_error(e)
            return
        except Exception as e:  # noqa: BLE001 - one bad file does not stop the batch
            res = services.Vectorized(name=up.name, error=services.user_message(e))
        results.append((up.name, data, res))
    n_ok = sum(1 for _, _, r in results if r.svg)
    bar.progress(1.0, text=f"Converted {n_ok} of {len(ups)} figure{'s' if len(ups) != 1 else ''}.")
    st.session_state["vectorized"] = results


def tab_open() -> None:
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
    if ws().figure is not None:
        st.divider()
        st.caption(f"Being edited now: **{md(ws().title)}** ({md(ws().current.note)})")
        show_figure(ws().svg, alt=f"Figure: {ws().title}", max_height="46vh")


def example_files() -> dict[str, str]:
    """The repository's examples/*.dsl, path → readable name (empty when not in a checkout)."""
    from pathlib import Path

    folder = Path(__file__).resolve().parent / "examples"
    return {str(p): p.stem.replace("_", " ").capitalize() for p in sorted(folder.glob("*.dsl"))}


def tab_runs() -> None:
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
    import pandas as pd

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
            ws().replace(res.figure, res.svg, f"run {run_id} (resumed)", issues=res.issues, report=res.report,
                         run_id=run_id, notes=res.warnings)
            flash("success", f"Run **{run_id}** finished: its figure is now the one being edited (**Edit**).")
            st.rerun()


def tab_export() -> None:
    w = ws()
    if w.figure is None:
        empty_state("Nothing to export yet: make or open a figure first.")
        return
    try:
        formats = services.export_formats()
    except Exception as e:  # noqa: BLE001
        show_error(e)
        return
    stem = services.file_stem(w.figure.title)
    c1, c2 = st.columns([2, 1])
    name = c1.text_input("File name", value=stem, key=f"export_name_{stem}",
                         help="Taken from the figure's title; change it here.") or stem
    dpi = c2.select_slider("PNG resolution (dpi)", options=[150, 300, 600], value=300, key="export_dpi")
    name = services.file_stem(name, default=stem)
    st.caption(md(figure_caption()))
    for fmt in formats:
        c1, c2 = st.columns([1, 3])
        with c1:
            try:
                data = export_data(fmt.suffix, dpi if fmt.raster else 300)
            except Exception as e:  # noqa: BLE001 - one broken exporter does not hide the others
                st.button(fmt.label, disabled=True, key=f"export_err_{fmt.suffix}", width="stretch")
                c2.error(services.user_message(e))
                continue
            st.download_button(fmt.label, data=data, file_name=name + fmt.suffix, mime=fmt.mime,
                               key=f"export_{fmt.suffix}", on_click="ignore", icon=":material/download:",
                               width="stretch")
        c2.caption(f"`{name}{fmt.suffix}` — {fmt.description}" + (f" at {dpi} dpi" if fmt.raster else ""))


def tab_settings() -> None:
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
                  disabled=not look_differs(), icon=":material/format_paint:")
    st.divider()
    try:
        db = services.run_store_path()
    except services.FeatureUnavailable:
        db = "(the run store is not installed)"
    st.caption(f"Runs are stored in `{db}` (set CRAFTER_RUNS_DB to move them). Upload limits: tables "
               f"{MAX_TABLE_BYTES // 2**20} MB, images {MAX_IMAGE_BYTES // 2**20} MB, figures "
               f"{MAX_FIGURE_BYTES // 2**20} MB.")


# ======================================================================================
# The page
# ======================================================================================


def main() -> None:
    init_state()
    apply_pending_table_edits()
    st.html(CSS)
    st.html('<div class="crafter-header"><h1>Crafter</h1><span>Describe a figure, add your data, get an '
            'editable SVG: every box, label and arrow a separate object. Runs on your machine.</span></div>')
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

    # Keyed and tracked, so the open tab survives reruns (a message above the tabs would
    # otherwise remount them on the first one) and actions can move the user on (go_to).
    tabs = st.tabs(list(TABS.values()), key="tab", on_change="rerun")
    for tab, draw in zip(tabs, (tab_create, tab_edit, tab_vectorize, tab_open, tab_runs, tab_export,
                                tab_settings)):
        with tab:
            try:
                draw()
            except Exception as e:  # noqa: BLE001 - one broken tab must not take the others down
                show_error(e)


main()
