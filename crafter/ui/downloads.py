"""Download buttons for the figure being edited, in any format the exporter registry offers."""

from __future__ import annotations

from typing import Any

import streamlit as st

from crafter.ui import services
from crafter.ui.messages import show_error
from crafter.ui.state import workspace

CHEAP_FORMATS = (".svg", ".json", ".dsl")  # text: made at once; the rest only when clicked


def export_data(suffix: str, dpi: int = 300) -> Any:
    """What a download button gets for the current figure: bytes, or a function that makes them.

    Text formats are cheap and cached per figure version; PDF, PNG and the registry's other
    formats are made only when the user clicks, so editing stays fast.
    """
    fig = workspace().figure
    if suffix not in CHEAP_FORMATS:
        return lambda: services.export_bytes(fig, suffix, dpi=dpi)
    cache: dict = st.session_state["export_cache"]
    key = (workspace().version, suffix, dpi)
    if key not in cache:
        if len(cache) > 24:
            cache.clear()
        cache[key] = services.export_bytes(fig, suffix, dpi=dpi)
    return cache[key]


def download_buttons(formats: list[str], *, key: str, dpi: int = 300) -> None:
    """One download button per format, side by side, named after the figure title."""
    stem = services.file_stem(workspace().figure.title)
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
