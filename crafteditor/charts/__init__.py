"""Charts: axes calibrated from tick labels, marks turned back into data (see detect.py).

``detect_charts`` (detect.py) finds the plots on a page and hands each to its reader:
cartesian.py (an x–y chart between its axes), horizontal.py (horizontal bars, read turned
upright), heatmap.py (cells). Below them: axes.py (calibration), strokes.py (axis lines,
gridlines, ticks), panels.py (tinted panels, gridline frames), labels.py (tick labels, titles),
marks.py (one paint's marks to a series, with mark_paints.py, legend.py, bands.py, bars.py,
lines.py), layers.py (error bars, value labels), vegalite.py (the spec), style.py (the look),
component.py (the ``chart`` component).
"""

from crafteditor.charts.component import ChartResult
from crafteditor.charts.detect import detect_charts

__all__ = ["ChartResult", "detect_charts"]
