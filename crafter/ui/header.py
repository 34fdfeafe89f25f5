"""The page's headings: the app's header, the numbered step titles, the empty-state card.

Their look is the app's CSS (``app.py``): the classes ``crafter-header``, ``crafter-step``
and ``crafter-empty``.
"""

from __future__ import annotations

import streamlit as st


def show_header() -> None:
    st.html('<div class="crafter-header"><h1>Crafter</h1><span>Describe a figure, add your data, get an '
            'editable SVG: every box, label and arrow a separate object. Runs on your machine.</span></div>')


def step_title(n: int | str | None, text: str) -> None:
    badge = f"<b>{n}</b>" if n else ""
    st.html(f'<div class="crafter-step">{badge}{text}</div>')


def empty_state(text: str) -> None:
    st.html(f'<div class="crafter-empty">{text}</div>')
