"""The figure preview: the figure as a sanitised image on a white card (nothing in it can run)."""

from __future__ import annotations

import functools

import streamlit as st

from crafter.errors import CrafterError
from crafter.ui import services
from crafter.ui.messages import show_error
from crafter.ui.sanitize import figure_html
from crafter.ui.state import workspace

PREVIEW_ZOOM = 1.6  # the paper theme is drawn at print size (9 pt text): enlarge it on screen


def show_figure(svg: str, *, alt: str, caption: str | None = None, max_height: str = "68vh",
                zoom: float = PREVIEW_ZOOM) -> None:
    """The figure as a sanitised image on a white card (nothing in it can run)."""
    try:
        html = cached_figure_html(svg, alt, caption)
    except CrafterError as e:
        show_error(e, "The figure cannot be shown: ")
        return
    width, _ = services.svg_size(svg)
    style = f"max-height:{max_height};" + (f"width:{width * zoom:.0f}px;" if width else "")
    st.html(html.replace("<img ", f'<img style="{style}" ', 1))


@functools.lru_cache(maxsize=32)
def cached_figure_html(svg: str, alt: str, caption: str | None) -> str:
    """The same figure is shown in several tabs on every rerun: sanitise it once."""
    return figure_html(svg, alt=alt, caption=caption)


def svg_aspect(svg: str) -> float:
    """height / width of the drawing (1.0 when the SVG does not say)."""
    w, h = services.svg_size(svg)
    return h / w if (w and h is not None) else 1.0


def figure_caption() -> str:
    """What the card says under the figure being edited: title, size, theme, print width."""
    w = workspace()
    fig = w.figure
    width = f"{fig.width_in:g} in wide" if fig.width_in else "natural size"
    return f"{w.title} · {len(fig.components)} components · {fig.theme} theme · {width}"
