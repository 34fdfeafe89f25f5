"""Compiling a chart's Vega-Lite spec into marks in data space (no pixels yet).

This is the part of Vega-Lite's semantics Crafter implements itself: resolving layered
and faceted specs, field access, binning, aggregation, error-bar / error-band / box-plot
statistics, stacking, series and sort orders. The output, a
:class:`~crafter.charts.compile.plan.ChartPlan`, is what the renderer turns into geometry
and what the fidelity check compares the geometry with.

The modules, in the order a spec passes through them: ``chart`` (``compile_chart``:
data, filters, facets, layers) → ``marks`` (plain marks: bins, aggregates, one item per
mark) or ``composite`` (error bars, error bands, box plots) → ``stacking``; underneath,
``encoding`` (the channels) and ``plan`` (the result and its discrete domains' orders).

Supported (anything else is a :class:`~crafter.charts.errors.ChartSpecError` naming the
chart and the field):

* views: a single ``mark``+``encoding``; ``layer`` (with shared top-level ``encoding``);
  ``facet``+``spec`` (``field``, or ``row``/``column``; ``columns`` wraps); ``row``/
  ``column``/``facet`` encoding channels.
* marks: bar, line, point, circle, square, area, rect, rule, text, tick, errorbar,
  errorband, boxplot.
* channels: x, y, x2, y2, xOffset, yOffset, color, size, shape, strokeDash, detail,
  text, xError, xError2, yError, yError2, opacity (value only), order (ignored), tooltip
  (ignored); ``field``/``value``/``datum``, ``type``, ``aggregate``, ``bin``, ``sort``,
  ``stack``, ``scale``, ``axis``, ``legend``, ``title``, ``format``.
* ``transform``: ``filter`` with ``{"field", "equal"|"oneOf"|"range"}`` predicates.
"""
