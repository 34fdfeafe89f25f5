"""Charts: tables → Vega-Lite chart components → editable, numerically checked SVG.

A chart is a FigureSpec :class:`~crafter.spec.Chart` component whose ``spec`` is
Vega-Lite with inline data (``spec["data"]["values"]``). This package builds such specs,
draws them into the figure's SVG and reads the numbers back from the drawing (the Vega
editor's standalone spec is written by :mod:`crafter.formats.vegalite`).

Stable interfaces (other parts of Crafter call these):

``make_chart(data, *, x=None, y=None, color=None, mark=None, column=None, size=None,
shape=None, error=None, xscale=None, yscale=None, stack=None, horizontal=None,
legend=None, id="chart", title=None, width=None, height=None, theme="paper") -> Chart``
    ``data``: a :class:`crafter.data.Table`, records or a file path. Fields left ``None``
    are chosen by :func:`recommend` (deterministic; ``ChartChoice.reason`` says why).

``recommend(table, *, x=None, y=None, color=None, mark=None) -> ChartChoice``
    The chart a table calls for, from column types and cardinalities alone.

``chart_size(chart, theme) -> (w, h)``
    Natural outer size in px (plot + axes + legend + title); the layout engine sizes the
    chart's box with it. ``chart.width``/``height`` are the *plot* size when set.

``chart_svg_fragment(chart, box, theme) -> str`` (:mod:`crafter.charts.render.painter`)
    SVG elements (no outer ``<svg>``, absolute figure coordinates) filling ``box``. The
    figure renderer wraps them in ``<g id=chart.id data-crafter-kind="chart">``. Inside,
    ids are prefixed by the chart id: ``{id}-title``; per plot cell ``{id}-plot`` (or
    ``{id}-{facet}``) holding ``…-grid-x|y`` (one path per direction), ``…-zero-line``,
    ``…-marks`` (one group per layer and series, e.g. ``{id}-bar-cifar-10``, each mark an
    element with ``data-crafter-datum`` JSON and ``data-crafter-index``), ``…-axis-x|y``
    (with ``-domain``, ``-ticks`` (one path, a subpath per tick, majors then minors;
    ``data-crafter-values`` / ``data-crafter-minor-values`` list their values as JSON in
    path order), ``-labels``, ``-title``);
    ``{id}-legend`` with ``{id}-legend-title`` and one ``{id}-legend-<value>`` per entry.
    All text is ``<text>``. ``theme`` is a figure Theme, its name, or a ChartTheme.

``chart_svg(chart, theme) -> str`` (:mod:`crafter.charts.render.painter`)
    A standalone SVG document of one chart (CLI, tests, benchmarks).

``fidelity.read_back(svg, chart_id=None) -> ReadBackReport``
    Each mark's values read from the SVG geometry and the axis tick labels alone,
    compared with the datum it carries; ``report.max_error`` is the largest error as a
    fraction of the axis range.

``fidelity.check_chart(svg, chart) -> list[FidelityProblem]``
    The critic's check: geometry vs the chart's own data (compiled afresh); empty when
    every mark is within 0.5% of its axis range and none is missing. Each problem has
    ``component`` (the chart id), ``element`` (the mark's id), ``message``, ``error``.

``schema.validate_vegalite(spec, chart=None)``
    Raises :class:`VegaLiteSchemaError` (a SpecError naming the field path) if invalid.

``data_refs.resolve_data_urls(figure_or_spec, base_dir)``
    Replaces ``spec.data.url`` (a relative path to a table file next to the figure) by
    the table's rows; absolute paths, ``..`` and URLs are refused.

The Vega-Lite subset drawn is listed in :mod:`crafter.charts.compile`.
"""

from crafter.charts.build import as_table, make_chart
from crafter.charts.compile.chart import compile_chart
from crafter.charts.data_refs import resolve_data_urls
from crafter.charts.errors import ChartSpecError
from crafter.charts.fidelity import FidelityProblem, ReadBackReport, check_chart, read_back
from crafter.charts.recommend import ChartChoice, recommend
from crafter.charts.render.chart_layout import chart_size
from crafter.charts.render.painter import chart_svg, chart_svg_fragment
from crafter.charts.schema import VegaLiteSchemaError, validate_vegalite
from crafter.charts.theme import ChartTheme, chart_theme

__all__ = [
    "ChartChoice", "ChartSpecError", "ChartTheme", "FidelityProblem", "ReadBackReport", "VegaLiteSchemaError",
    "as_table", "chart_size", "chart_svg", "chart_svg_fragment", "chart_theme", "check_chart", "compile_chart",
    "make_chart", "read_back", "recommend", "resolve_data_urls", "validate_vegalite",
]
