"""Layout: boxes for every component, routes for every edge, and the canvas.

>>> from crafter.layout import layout_figure            # doctest: +SKIP
>>> laid_out = layout_figure(fig)                       # ELK when Node is here, else Python
>>> laid_out = layout_figure(fig, engine="python")

See :mod:`crafter.layout.figure` for the steps, :mod:`crafter.layout.elk` and
:mod:`crafter.layout.layered` for the two engines, :mod:`crafter.layout.check` for the
guarantees (no overlaps, labels fit, members inside groups) as a function.
"""

from crafter.layout.figure import ENGINES, LayoutError, layout_figure

__all__ = ["ENGINES", "LayoutError", "layout_figure"]
