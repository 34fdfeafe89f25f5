"""A spec's Vega-Lite ``config`` (type sizes, gridlines, frame, strokes), axis ``values`` and a legend
pinned with ``legendX``/``legendY``: what CraftEditor writes to make a recovered chart look like its
original, and what a user can set by hand."""

from __future__ import annotations

import json

import pytest
from charts_testlib import local, parse

from crafter.charts import chart_svg, make_chart, read_back
from crafter.charts.errors import ChartSpecError
from crafter.spec import Chart

ROWS = [{"x": 1.0, "y": 3.0, "s": "a"}, {"x": 2.0, "y": 5.0, "s": "a"}, {"x": 3.0, "y": 4.0, "s": "b"}]


def _chart(**extra) -> Chart:
    spec = {"data": {"values": ROWS}, "mark": "point",
            "encoding": {"x": {"field": "x", "type": "quantitative"}, "y": {"field": "y", "type": "quantitative"},
                         "color": {"field": "s", "type": "nominal"}}, "title": "Look"}
    for k, v in extra.items():
        if k in ("x", "y", "color"):
            spec["encoding"][k].update(v)
        else:
            spec[k] = v
    return Chart(kind="chart", id="c", spec=spec)


def _by_id(svg: str):
    return {el.get("id"): el for el in parse(svg).iter() if el.get("id")}


def test_config_sets_type_sizes_weight_grid_and_frame():
    plain = _by_id(chart_svg(_chart()))
    assert "c-grid-y" in plain and "c-plot-frame" not in plain
    cfg = {"axis": {"labelFontSize": 13, "grid": False, "domainColor": "#000000"},
           "title": {"fontSize": 16, "fontWeight": "normal"}, "view": {"stroke": "#000000", "strokeWidth": 1.2}}
    els = _by_id(chart_svg(_chart(config=cfg)))
    assert "c-grid-y" not in els and "c-grid-x" not in els
    frame = els["c-frame"]
    assert local(frame.tag) == "rect" and frame.get("stroke") == "#000000" and frame.get("fill") == "none"
    assert els["c-axis-y-labels"].get("font-size") == "13"
    assert els["c-title"].get("font-size") == "16" and els["c-title"].get("font-weight") == "normal"
    assert els["c-axis-x-domain"].get("stroke") == "#000000"


def test_axis_values_are_the_ticks_drawn_and_still_read_back():
    chart = _chart(y={"axis": {"values": [3, 3.5, 4, 4.5, 5]}, "scale": {"domain": [3, 5], "nice": False}})
    svg = chart_svg(chart)
    ticks = _by_id(svg)["c-axis-y-ticks"]
    assert json.loads(ticks.get("data-crafter-values")) == [3.0, 3.5, 4.0, 4.5, 5.0]
    assert read_back(svg, "c").max_error < 0.005


def test_legend_pinned_inside_the_plot():
    chart = _chart(color={"legend": {"orient": "none", "legendX": 20, "legendY": 10}})
    els = _by_id(chart_svg(chart))
    plot_x, plot_y = (float(v) for v in els["c-plot"].get("data-crafter-plot").split()[:2])
    legend_texts = [el for el in els["c-legend"].iter() if local(el.tag) == "text"]
    assert legend_texts
    first_x = min(float(t.get("x")) for t in legend_texts)
    assert first_x == pytest.approx(plot_x + 20, abs=0.01)  # the legend's title starts at legendX
    assert plot_y + 10 < min(float(t.get("y")) for t in legend_texts) < plot_y + 30
    # orient "none" without a position still means no legend
    assert "c-legend" not in _by_id(chart_svg(_chart(color={"legend": {"orient": "none"}})))


@pytest.mark.parametrize("config, path", [({"axis": {"labelFontSize": "big"}}, "config.axis.labelFontSize"),
                                          ({"axis": {"grid": "no"}}, "config.axis.grid"),
                                          ("dark", "config")])
def test_a_bad_config_value_names_its_path(config, path):
    with pytest.raises(ChartSpecError, match=path.replace(".", r"\.")):
        chart_svg(_chart(config=config))


def test_bad_axis_values_name_their_path():
    with pytest.raises(ChartSpecError, match=r"encoding\.y\.axis\.values"):
        chart_svg(_chart(y={"axis": {"values": ["a", "b"]}}))


def test_make_chart_output_is_unchanged_without_config(accuracy):
    chart = make_chart(accuracy, x="model", y="top1_accuracy", id="acc")
    assert "crafter-chart-frame" not in chart_svg(chart)


def _plot_box(els) -> tuple[float, float, float, float]:
    return tuple(float(v) for v in els["c-plot"].get("data-crafter-plot").split())


def test_title_offset_sets_the_gap_between_title_and_plot():
    from crafter.base.text import DESCENT

    for offset in (2.0, 12.0):
        els = _by_id(chart_svg(_chart(config={"title": {"fontSize": 16, "offset": offset}})))
        title = [el for el in els["c-title"].iter() if local(el.tag) == "text"][0]
        bottom = float(title.get("y")) + 16 * DESCENT  # the title's em box bottom
        assert _plot_box(els)[1] - bottom == pytest.approx(offset, abs=0.05)


def test_axis_title_padding_is_per_axis():
    near = _by_id(chart_svg(_chart(x={"axis": {"titlePadding": 1}}, y={"axis": {"titlePadding": 1}})))
    far = _by_id(chart_svg(_chart(x={"axis": {"titlePadding": 11}}, y={"axis": {"titlePadding": 21}})))
    def below(els):  # x title baseline under the plot; y title baseline left of the plot
        x, y, w, h = _plot_box(els)
        return float(els["c-axis-x-title"].get("y")) - (y + h), x - float(els["c-axis-y-title"].get("x"))

    (nx, ny), (fx, fy) = below(near), below(far)
    assert fx - nx == pytest.approx(10, abs=0.05) and fy - ny == pytest.approx(20, abs=0.05)


def test_config_view_fill_and_axes_without_lines_or_ticks():
    """ggplot's and seaborn's look: a grey plot panel behind white gridlines, no axis lines, no
    tick marks; the chart still reads back to its data."""
    cfg = {"view": {"fill": "#EAEAF2"}, "axis": {"domain": False, "ticks": False, "gridColor": "#FFFFFF"}}
    svg = chart_svg(_chart(config=cfg))
    els = _by_id(svg)
    view = els["c-view"]
    assert local(view.tag) == "rect" and view.get("fill") == "#EAEAF2"
    ids = list(els)
    assert ids.index("c-view") < ids.index("c-grid-y")  # the panel lies under the grid and marks
    assert els["c-grid-y"].get("stroke") == "#FFFFFF"
    for gone in ("c-axis-x-domain", "c-axis-y-domain", "c-axis-x-ticks", "c-axis-y-ticks"):
        assert gone not in els
    assert "c-axis-y-labels" in els and "c-axis-x-labels" in els
    assert read_back(svg, "c").max_error < 0.01  # read off the gridlines, the ticks being gone


def test_config_axis_domain_must_be_a_boolean():
    with pytest.raises(ChartSpecError, match="config.axis.domain"):
        chart_svg(_chart(config={"axis": {"domain": "no"}}))


def test_a_category_axis_draws_gridlines_at_its_categories_when_asked():
    """ggplot and seaborn draw a gridline at every category of a bar chart; a band axis has
    none unless its channel asks (axis.grid true), so charts drawn before keep their look."""
    rows = [{"k": "a", "v": 1}, {"k": "b", "v": 3}, {"k": "c", "v": 2}]
    spec = {"data": {"values": rows}, "mark": "bar",
            "encoding": {"x": {"field": "k", "type": "nominal"}, "y": {"field": "v", "type": "quantitative"}}}
    assert "c-grid-x" not in _by_id(chart_svg(Chart(kind="chart", id="c", spec=spec)))
    spec["encoding"]["x"]["axis"] = {"grid": True}
    els = _by_id(chart_svg(Chart(kind="chart", id="c", spec=spec)))
    grid, ticks = els["c-grid-x"], els["c-axis-x-ticks"]
    starts = [float(part.split(",")[0]) for part in grid.get("d").split("M")[1:]]
    tick_starts = [float(part.split(",")[0]) for part in ticks.get("d").split("M")[1:]]
    assert len(starts) == 3 and starts == tick_starts


def test_config_grid_dash_draws_dashed_gridlines():
    """bmh's dashed grid: config.axis.gridDash is the gridlines' dash array; [] is solid."""
    els = _by_id(chart_svg(_chart(config={"axis": {"gridDash": [4, 2]}})))
    assert els["c-grid-y"].get("stroke-dasharray") == "4,2" and els["c-grid-x"].get("stroke-dasharray") == "4,2"
    assert _by_id(chart_svg(_chart(config={"axis": {"gridDash": []}})))["c-grid-y"].get("stroke-dasharray") is None
    with pytest.raises(ChartSpecError, match=r"config\.axis\.gridDash"):
        chart_svg(_chart(config={"axis": {"gridDash": "4 2"}}))


INJECTION = '"/><script>alert(1)</script><g a="'


@pytest.mark.parametrize("where, path", [
    ({"config": {"axis": {"gridColor": INJECTION}}}, "config.axis.gridColor"),
    ({"config": {"axis": {"domainColor": INJECTION}}}, "config.axis.domainColor"),
    ({"config": {"view": {"fill": INJECTION}}}, "config.view.fill"),
    ({"config": {"axis": {"labelColor": INJECTION}}}, "config.axis.labelColor"),
    ({"mark": {"type": "point", "color": INJECTION}}, "mark.color"),
    ({"mark": {"type": "point", "stroke": INJECTION}}, "mark.stroke"),
    ({"color": {"scale": {"range": ["#000000", INJECTION]}}}, r"encoding.color.scale.range\[1\]"),
])
def test_a_colour_that_is_not_a_colour_is_refused_not_written_into_the_svg(where, path):
    """Colours are written into SVG attributes: markup in one had gone into the SVG as it was
    (a script element in a chart's gridlines). Anything but a CSS colour is an error naming the
    field."""
    with pytest.raises(ChartSpecError, match=path.replace(".", r"\.")):
        chart_svg(_chart(**where))


def test_css_colours_in_every_form_are_accepted():
    for c in ("#1F77B4", "#abc", "steelblue", "rgb(31, 119, 180)", "rgba(0,0,0,0.5)", "transparent"):
        svg = chart_svg(_chart(mark={"type": "point", "color": c}, config={"view": {"fill": c}}))
        assert "<script" not in svg


def test_config_label_and_title_colours():
    """ggplot's grey tick labels and axis titles: config.axis.labelColor and titleColor."""
    els = _by_id(chart_svg(_chart(config={"axis": {"labelColor": "#555555", "titleColor": "#666666"}})))
    assert els["c-axis-y-labels"].get("fill") == "#555555" and els["c-axis-x-labels"].get("fill") == "#555555"
    assert els["c-axis-x-title"].get("fill") == "#666666"
    plain = _by_id(chart_svg(_chart()))
    assert plain["c-axis-y-labels"].get("fill") == plain["c-title"].get("fill")  # the theme's text colour


def test_a_bar_marks_stroke_is_its_edge_not_its_fill():
    """mark.stroke on bars draws their edge (matplotlib's edgecolor); the fill stays the bars' own."""
    rows = [{"k": "a", "v": 1}, {"k": "b", "v": 3}]
    spec = {"data": {"values": rows}, "mark": {"type": "bar", "color": "#4C72B0", "stroke": "#000000",
                                               "strokeWidth": 1.5},
            "encoding": {"x": {"field": "k", "type": "nominal"}, "y": {"field": "v", "type": "quantitative"}}}
    bars = [el for el in parse(chart_svg(Chart(kind="chart", id="c", spec=spec))).iter()
            if local(el.tag) == "rect" and "bar" in (el.get("id") or "")]
    assert len(bars) == 2
    assert all(b.get("fill") == "#4C72B0" and b.get("stroke") == "#000000" and b.get("stroke-width") == "1.5"
               for b in bars)
    spec["mark"] = {"type": "bar", "stroke": "#000000"}  # no colour: the palette's first, not black
    bar = next(el for el in parse(chart_svg(Chart(kind="chart", id="c", spec=spec))).iter()
               if local(el.tag) == "rect" and "bar" in (el.get("id") or ""))
    assert bar.get("fill") != "#000000" and bar.get("stroke") == "#000000"


def test_axis_zindex_draws_the_grid_over_the_marks_and_grid_opacity_thins_it():
    """matplotlib draws a grid over bars (axisbelow 'line'), often half transparent: axis.zindex 1
    puts the gridlines after the marks, axis.gridOpacity sets their opacity."""
    rows = [{"k": "a", "v": 1}, {"k": "b", "v": 3}]
    spec = {"data": {"values": rows}, "mark": "bar",
            "encoding": {"x": {"field": "k", "type": "nominal"}, "y": {"field": "v", "type": "quantitative"}}}

    def order(config):
        ids = [el.get("id") for el in parse(chart_svg(Chart(kind="chart", id="c", spec={**spec, "config": config})))
               .iter() if el.get("id")]
        bar = next(i for i, v in enumerate(ids) if "bar" in v)
        return ids.index("c-grid-y") < bar

    assert order({}) is True  # below the bars, as Vega-Lite draws it
    assert order({"axis": {"zindex": 1}}) is False
    els = _by_id(chart_svg(Chart(kind="chart", id="c", spec={**spec, "config": {"axis": {"gridOpacity": 0.4}}})))
    assert els["c-grid-y"].get("stroke-opacity") == "0.4"


def _legend_items(svg: str) -> list:
    return [el for el in parse(svg).iter() if el.get("class") == "crafter-legend-item"]


def _bars_with_legend(**legend) -> Chart:
    rows = [{"k": "a", "s": "x", "v": 1}, {"k": "a", "s": "y", "v": 2}, {"k": "b", "s": "x", "v": 3}]
    return Chart(kind="chart", id="c", spec={
        "data": {"values": rows}, "mark": "bar", "config": {"legend": legend},
        "encoding": {"x": {"field": "k", "type": "nominal"}, "xOffset": {"field": "s"},
                     "y": {"field": "v", "type": "quantitative"}, "color": {"field": "s", "type": "nominal"}}})


def test_legend_symbol_type_and_size_draw_matplotlib_style_swatches():
    """config.legend.symbolType as path data in the square −1…1 (matplotlib's 2 × 0.7 em bar
    handle), symbolSize its area and labelOffset the gap to the label, as Vega draws them."""
    svg = chart_svg(_bars_with_legend(symbolType="M-1,-0.35H1V0.35H-1Z", symbolSize=400, labelOffset=8))
    items = _legend_items(svg)
    assert len(items) == 2
    swatch = next(el for el in items[0] if local(el.tag) == "path")
    assert swatch.get("d") == "M-1,-0.35H1V0.35H-1Z" and "scale(10)" in swatch.get("transform")  # 20 px wide
    cx = float(swatch.get("transform").split("(")[1].split(",")[0])
    label = next(el for el in items[0] if local(el.tag) == "text")
    assert float(label.get("x")) == pytest.approx(cx + 10 + 8, abs=0.01)
    # rows are as tall as the text, not as the 20 px swatch is wide
    ys = [float(next(el for el in it if local(el.tag) == "text").get("y")) for it in items]
    assert ys[1] - ys[0] < 18
    named = chart_svg(_bars_with_legend(symbolType="circle"))
    assert all(local(el.tag) == "path" for it in _legend_items(named) for el in it if local(el.tag) != "text")


@pytest.mark.parametrize("bad", ['M0,0"/><script>alert(1)</script>', "M0 0 C1 1 2 2 3 3", "blob", 3])
def test_a_legend_symbol_type_that_is_no_shape_is_refused_by_path(bad):
    with pytest.raises(ChartSpecError, match=r"config\.legend\.symbolType"):
        chart_svg(_bars_with_legend(symbolType=bad))


def test_a_line_swatch_is_drawn_as_its_lines_are():
    """A line chart's legend strokes have the lines' width and markers their size; with
    symbolSize the stroke is that long (matplotlib's 2 em handles)."""
    rows = [{"x": i, "y": i * k, "s": str(k)} for i in range(3) for k in (1, 2)]
    spec = {"data": {"values": rows}, "mark": {"type": "line", "point": {"size": 60}, "strokeWidth": 3},
            "encoding": {"x": {"field": "x", "type": "quantitative"}, "y": {"field": "y", "type": "quantitative"},
                         "color": {"field": "s", "type": "nominal"}}, "config": {"legend": {"symbolSize": 900}}}
    items = _legend_items(chart_svg(Chart(kind="chart", id="c", spec=spec)))
    line = next(el for el in items[0] if local(el.tag) == "line")
    assert line.get("stroke-width") == "3"
    assert float(line.get("x2")) - float(line.get("x1")) == pytest.approx(30, abs=0.01)
