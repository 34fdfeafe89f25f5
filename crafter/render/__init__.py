"""Rendering: a laid-out FigureSpec drawn as SVG (one named ``<g>`` per component, IR in ``<metadata>``).

>>> from crafter.render import figure_to_svg      # doctest: +SKIP

:func:`ensure_layout` is the one public function that lays out (when needed) and
:func:`draw_svg` draws; files of every format are written by :mod:`crafter.formats`.
"""

from crafter.render.svg import EMPTY_FIGURE, draw_svg, ensure_layout, figure_to_svg

__all__ = ["EMPTY_FIGURE", "draw_svg", "ensure_layout", "figure_to_svg"]
