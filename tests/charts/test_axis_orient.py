"""Axes where the spec puts them (Vega-Lite's ``axis.orient``): a y axis on the right, an x axis
on top, the labels and the colour bar beside them, nothing outside the chart."""

from __future__ import annotations

from charts_testlib import local, parse, spec_chart

from crafter.charts import chart_svg


def _heatmap(y_axis=None, x_axis=None):
    rows = [{"x": x, "y": y, "v": i * 3 + j} for i, x in enumerate("ABC") for j, y in enumerate(["row one", "row two"])]
    y = {"field": "y", "type": "nominal"}
    x = {"field": "x", "type": "nominal"}
    if y_axis is not None:
        y["axis"] = y_axis
    if x_axis is not None:
        x["axis"] = x_axis
    return spec_chart({"data": {"values": rows}, "mark": "rect",
                       "encoding": {"x": x, "y": y, "color": {"field": "v", "type": "quantitative"}}})


def _groups(root):
    return {el.get("id"): el for el in root.iter() if local(el.tag) == "g" and el.get("id")}


def _plot(root):
    cell = next(el for el in root.iter() if el.get("data-crafter-plot"))
    x, y, w, h = (float(v) for v in cell.get("data-crafter-plot").split())
    return x, y, w, h


def _texts(group):
    return [el for el in group.iter() if local(el.tag) == "text"]


def test_right_y_axis_labels_stand_right_of_the_plot_and_the_colour_bar_beyond_them():
    root = parse(chart_svg(_heatmap(y_axis={"orient": "right"})))
    g = _groups(root)
    x, y, w, h = _plot(root)
    labels = _texts(g["c-axis-y-labels"])
    assert [t.text for t in labels] == ["row one", "row two"]
    for t in labels:  # written left to right from just right of the plot
        assert float(t.get("x")) > x + w
        assert t.get("text-anchor", "start") == "start"
    assert g["c-axis-y"].get("data-crafter-orient") == "right"
    legend = g["c-legend"]
    rects = [el for el in legend.iter() if local(el.tag) == "rect"]
    assert min(float(r.get("x")) for r in rects) > float(labels[0].get("x")) + 20  # beyond the row labels
    assert float(root.get("width")) > max(float(r.get("x")) + float(r.get("width")) for r in rects)


def test_left_is_still_the_default():
    root = parse(chart_svg(_heatmap()))
    x, y, w, h = _plot(root)
    for t in _texts(_groups(root)["c-axis-y-labels"]):
        assert float(t.get("x")) < x
        assert t.get("text-anchor") == "end"


def test_top_x_axis_labels_stand_above_the_plot_and_honour_the_label_angle():
    root = parse(chart_svg(_heatmap(x_axis={"orient": "top", "labelAngle": -45})))
    x, y, w, h = _plot(root)
    labels = _texts(_groups(root)["c-axis-x-labels"])
    assert [t.text for t in labels] == ["A", "B", "C"]
    for t in labels:
        assert 0 < float(t.get("y")) < y  # above the plot, inside the chart
        assert t.get("transform", "").startswith("rotate(-45")
