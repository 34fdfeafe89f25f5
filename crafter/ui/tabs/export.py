"""The Export tab: the figure in every registered format, named after its title."""

from __future__ import annotations

import streamlit as st

from crafter.ui import services
from crafter.ui.downloads import export_data
from crafter.ui.header import empty_state
from crafter.ui.messages import show_error
from crafter.ui.preview import figure_caption
from crafter.ui.sanitize import md
from crafter.ui.state import workspace


def render() -> None:
    w = workspace()
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
