"""Charts: axes calibrated from tick labels, marks turned back into data (see detect.py)."""

from crafteditor.charts.detect import ChartResult, detect_charts

__all__ = ["ChartResult", "detect_charts"]
