"""Rendering: a FigureSpec to SVG (one named ``<g>`` per component, IR in ``<metadata>``), PNG and PDF.

>>> from crafter.render import figure_to_svg, export_figure, load_svg   # doctest: +SKIP
"""

from crafter.render.export import export_figure, figure_to_pdf_bytes, figure_to_png_bytes, register_exporter
from crafter.render.svg import draw_svg, ensure_layout, figure_to_svg
from crafter.render.svg_io import load_svg, read_embedded_figure

__all__ = [
    "draw_svg", "ensure_layout", "export_figure", "figure_to_pdf_bytes", "figure_to_png_bytes", "figure_to_svg",
    "load_svg", "read_embedded_figure", "register_exporter",
]
