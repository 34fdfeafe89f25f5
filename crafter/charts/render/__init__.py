"""Rendering a chart component into the figure's SVG: semantic groups, one element per mark.

Why our own renderer rather than vl-convert-python (measured on this machine with
``crafter bench chart``; numbers in the report of issue 3):

* speed (``crafter bench chart``: the same bar/line/scatter charts, one process, first call
  timed apart): per chart, this renderer 5–10 ms, vl-convert 155–195 ms, matplotlib's SVG
  backend 260–515 ms, on the shared 2-core machine under load ≈10 (quiet, earlier: ours
  ≈2.5 ms and vl-convert ≈24 ms for the bar chart; vl-convert's first call ≈0.47 s, ours
  ≈0.1–0.5 s for importing matplotlib.ticker);
* structure: vl-convert's SVG nests ``translate`` groups, draws bars as ``<path>``
  and carries no data; mapping its role classes to our groups would still leave
  every mark anonymous. Here each bar is a ``<rect>`` carrying its datum
  (``data-crafter-datum``), so the editor can name it and the fidelity check can read it;
* type: vl-convert measures text with its own fonts; we measure with the DejaVu Sans
  metrics the figure layout uses (crafter/base/text.py), so labels never clip.

What we do not hand-write: tick placement and number formatting (matplotlib.ticker and
matplotlib.dates, see scales.py / format.py), colour schemes (matplotlib colormaps,
the Okabe–Ito palette of the figure theme), statistics (numpy/scipy, stats.py).

Coordinates are absolute figure coordinates (no ``transform`` on groups), so a mark's
geometry reads back directly. Every id is prefixed with the chart id.

The modules: ``plan_scales`` (the scales a compiled plan needs) and ``legends`` (their
contents and sizes) feed ``chart_layout`` (axes, legend places, the chart's size);
``painter`` draws the laid-out chart (cells, grid, axes, legends, title) and
``mark_painter`` its marks, both through the small SVG writer in ``svg_writer``;
``text_measure`` is the chart's cached text measure.
"""
