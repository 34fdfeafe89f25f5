"""The Settings tab: the model, the repair rounds, the theme, print width and house style of new figures.

House style: drop a lab's figures, see the style learned from them as swatches and a sample
figure, keep it (in the config folder ``crafter style list`` reads) and pick it for new figures.
"""

from __future__ import annotations

import streamlit as st

from crafter.errors import CrafterError
from crafter.spec import THEMES
from crafter.style import MIN_CONFIDENCE
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
        st.selectbox("House style", ["", *services.house_styles()], key="set_style",
                     format_func=lambda n: n or "None: the theme alone",
                     help="A style learned from your lab's figures, laid over the theme (crafter style learn).")
        st.caption("New figures get this theme, width and house style.")
        st.button("Apply to the figure being edited", key="apply_look", on_click=apply_look_to_figure,
                  disabled=not edits.look_differs(workspace().figure, settings()), icon=":material/format_paint:")
    st.divider()
    house_style_section()
    st.divider()
    try:
        db = services.run_store_path()
    except services.FeatureUnavailable:
        db = "(the run store is not installed)"
    st.caption(f"Runs are stored in `{db}` (set CRAFTER_RUNS_DB to move them). Upload limits: tables "
               f"{MAX_TABLE_BYTES // 2**20} MB, images {MAX_IMAGE_BYTES // 2**20} MB, figures "
               f"{MAX_FIGURE_BYTES // 2**20} MB.")


def house_style_section() -> None:
    """Learn a style from dropped figures; show the learned or picked style as swatches and a sample."""
    step_title(None, "House style")
    left, right = st.columns(2, gap="large")
    with left:
        files = st.file_uploader("Your lab's figures (PNG, JPG, SVG, PDF)", type=["png", "jpg", "jpeg", "svg", "pdf"],
                                 accept_multiple_files=True, key="style_files")
        st.text_input("Style name", key="style_name", value="mylab")
        if st.button("Learn the style", key="learn_style", disabled=not files, icon=":material/palette:"):
            try:
                with st.spinner("Reading the figures…"):
                    st.session_state["learned_style"] = services.learn_house_style(
                        [(f.name, f.getvalue()) for f in files or []], st.session_state["style_name"])
            except CrafterError as e:
                st.error(md(str(e)), icon=":material/error:")
        learned = st.session_state.get("learned_style")
        if learned is not None:
            st.button(f"Keep '{learned['name']}' and use it", key="keep_style", on_click=keep_learned_style,
                      icon=":material/bookmark_add:")
    with right:
        learned = st.session_state.get("learned_style")
        style = learned
        if style is None and st.session_state.get("set_style"):
            try:
                style = services.house_style_named(st.session_state["set_style"])
            except CrafterError as e:
                st.warning(md(str(e)), icon=":material/warning:")
        if style is not None:
            show_style(style)


def show_style(style: dict) -> None:
    swatches, sample = services.style_previews(style)
    st.caption(f"**{md(style['name'])}**, from {len(style.get('learned_from', []))} figure(s)")
    if swatches is not None:
        st.image(swatches, caption="Colours by role")
    st.image(sample, caption="A figure drawn in this style")
    unsure = [f"{section}.{key}" for section, fields in style.items() if isinstance(fields, dict)
              for key, entry in fields.items() if isinstance(entry, dict) and entry.get("confidence", 1) < MIN_CONFIDENCE]
    if unsure:
        st.caption(md("Not applied (under half the observations agree): " + ", ".join(unsure)))
    for m in style.get("mixed", []):
        others = "; ".join(f"{o['value']} in {', '.join(o['files'])}" for o in m["others"])
        st.caption(md(f"Mixed: {m['field']}: took {m['majority']} (most figures); also {others}"))
    for u in style.get("unreadable", []):
        st.caption(md(f"Skipped {u['file']}: {u['reason']}"))


# -- callbacks (run before the page is drawn) ---------------------------------------------


def keep_learned_style() -> None:
    style = st.session_state.get("learned_style")
    if style is None:
        return
    try:
        path = services.keep_house_style(style)
        st.session_state["set_style"] = style["name"]
        st.session_state["learned_style"] = None
        flash("toast", f"Kept the '{style['name']}' style ({path}); new figures use it")
    except Exception as e:  # noqa: BLE001
        flash("error", f"The style could not be kept: {md(services.user_message(e))}")


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
