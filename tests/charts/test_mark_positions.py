"""Where a mark sits along each axis (MarkPainter._along, for x and y alike): a point on a category
axis at its band's middle, on a number axis at its value; rows of one category line up."""

from __future__ import annotations

import pandas as pd
from charts_testlib import local, parse

from crafter.charts import chart_svg, make_chart


def test_a_strip_plots_points_sit_on_their_bands_middle_at_their_values():
    df = pd.DataFrame({"model": ["A", "A", "B", "C"], "score": [1.0, 3.0, 2.0, 4.0]})
    root = parse(chart_svg(make_chart(df, x="model", y="score", mark="point")))
    pts = [(float(el.get("cx")), float(el.get("cy"))) for el in root.iter() if local(el.tag) == "circle"]
    assert len(pts) == 4
    (ax, ay1), (ax2, ay3), (bx, by), (cx, cy) = pts
    assert ax == ax2 and ax < bx < cx and abs((bx - ax) - (cx - bx)) < 0.02  # evenly spaced band middles
    # y is linear in the value: 1 -> 3 spans twice the distance of 1 -> 2 (the SVG keeps 2 decimals)
    assert ay1 > by > ay3 > cy and abs((ay1 - ay3) - 2 * (ay1 - by)) < 0.02
