"""Crafter in the browser: describe a figure, watch the agents, edit it, export it.

Run with ``make run`` (``streamlit run app.py``). The Streamlit entry point and nothing
more: the page's set-up and look, the tabs wired in order, and CraftEditor handed to the
services. Each tab is a module of :mod:`crafter.ui.tabs` that lays out widgets and calls
:mod:`crafter.ui.services` and :mod:`crafter.ui.edits` (every change to the figure); the
figure being edited, its undo history and the settings live in ``st.session_state`` (see
:mod:`crafter.ui.state`). Errors become a message in the page; the brief and the figure
survive them.
"""

from __future__ import annotations

import streamlit as st

from crafteditor import convert as crafteditor_convert
from crafteditor.pipeline import vectorize_for_pipeline
from crafter.ui import services
from crafter.ui.header import show_header
from crafter.ui.messages import show_error, show_flashes
from crafter.ui.state import TABS, init_state
from crafter.ui.tabs import create, edit, export, runs, settings, vectorize
from crafter.ui.tabs import open as open_tab  # not to hide the built-in open

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

# in the order of TABS
TAB_RENDERERS = (create.render, edit.render, vectorize.render, open_tab.render, runs.render, export.render,
                 settings.render)


def main() -> None:
    init_state()
    edit.apply_pending_table_edits()
    st.html(CSS)
    show_header()
    show_flashes()

    # Keyed and tracked, so the open tab survives reruns (a message above the tabs would
    # otherwise remount them on the first one) and actions can move the user on (go_to).
    tabs = st.tabs(list(TABS.values()), key="tab", on_change="rerun")
    for tab, draw in zip(tabs, TAB_RENDERERS):
        with tab:
            try:
                draw()
            except Exception as e:  # noqa: BLE001 - one broken tab must not take the others down
                show_error(e)


main()
