"""Layout: boxes for every component, routes for every edge, and the canvas.

>>> from crafter.layout import layout_figure            # doctest: +SKIP
>>> laid_out = layout_figure(fig)                       # ELK when Node is here, else Python
>>> laid_out = layout_figure(fig, engine="python")

See :mod:`crafter.layout.figure` for the steps, :mod:`crafter.layout.elk` and
:mod:`crafter.layout.layered` for the two engines, :mod:`crafter.layout.check` for the
guarantees (no overlaps, labels fit, members inside groups) as a function.
"""

from crafter.layout.check import layout_problems, route_crossings
from crafter.layout.figure import ENGINES, LayoutError, layout_figure
from crafter.layout.shapes import label_fits, node_label_lines, node_size

__all__ = [
    "ENGINES", "LayoutError", "label_fits", "layout_figure", "layout_problems", "node_label_lines",
    "node_size", "route_crossings",
]

