"""Category labels turned 90° under a band axis (Vega-Lite's and Altair's default on nominal x,
ggplot's ``angle = 90``), short enough that OCR's detector finds none of them: the axis title
below them had been read as the one category (every bar at x = 'category'), or the marks numbered
1, 2, 3; each label hanging under its cluster of marks is read on its own, turned upright."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest
from PIL import Image

from crafteditor import convert
from crafteditor.charts.cartesian import _clusters
from crafteditor.charts.series import Series
from crafteditor.realset import score_values
from crafter.spec import Chart

vlc = pytest.importorskip("vl_convert")

_ROWS = [("A", "x", 0.1), ("A", "y", 0.6), ("A", "z", 0.9), ("B", "x", 0.7), ("B", "y", 0.2), ("B", "z", 1.1),
         ("C", "x", 0.6), ("C", "y", 0.1), ("C", "z", 0.2)]


def _png(spec: dict, scale: int) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(vlc.vegalite_to_png(json.dumps(spec), scale=scale))).convert("RGB"))


def _charts(img: np.ndarray) -> tuple[list[Chart], object]:
    conv = convert(img)
    return [c for c in conv.figure.components if isinstance(c, Chart)], conv.figure


def test_grouped_bars_under_single_letter_labels_turned_90_read_their_categories():
    """At 2x the detector finds the letters but reads the turned 'B' as 'ω': each is read again on its own."""
    values = [{"category": c, "group": g, "value": v} for c, g, v in _ROWS]
    spec = {"width": 180, "height": 150, "data": {"values": values}, "mark": "bar",
            "encoding": {"x": {"field": "category", "type": "nominal"}, "xOffset": {"field": "group"},
                         "y": {"field": "value", "type": "quantitative"}, "color": {"field": "group"}}}
    charts, fig = _charts(_png(spec, 2))
    assert len(charts) == 1
    xs = {r.get("x") for r in charts[0].spec["data"]["values"]}
    assert xs == {"A", "B", "C"}  # not {'category'}: that is the x title
    truth = {"values": [[g, c, v] for c, g, v in _ROWS], "value_axis": [0, 1.1]}
    assert score_values(fig, truth) >= 0.85


def test_points_over_single_letter_labels_turned_90_keep_their_categories():
    """At 1x the detector finds none of the letters: the axis title had been the one category."""
    rows = [("C", 2), ("C", 7), ("D", 1), ("D", 6), ("E", 4), ("E", 3)]
    spec = {"height": 150, "data": {"values": [{"a": a, "b": b} for a, b in rows]}, "mark": "point",
            "encoding": {"x": {"field": "a", "type": "nominal"}, "y": {"field": "b", "type": "quantitative"}}}
    charts, fig = _charts(_png(spec, 1))
    assert len(charts) == 1
    assert {r.get("x") for r in charts[0].spec["data"]["values"]} <= {"C", "D", "E"}
    assert score_values(fig, {"values": [["", a, b] for a, b in rows], "value_axis": [0, 8]}) >= 0.8


def test_evenly_spaced_single_marks_are_one_cluster_each_and_groups_stay_together():
    one = [Series(color=(0, 0, 0), kind="bar", points=[(x, 1.0) for x in (40.0, 60.0, 80.5, 100.0)])]
    assert len(_clusters(one)) == 4  # (the median rule had made them one cluster, all '1')
    grouped = [Series(color=(0, 0, 0), kind="bar", points=[(x + d, 1.0) for x in (40.0, 110.0, 180.0)])
               for d in (0.0, 18.0, 36.0)]
    assert [len(g) for g in _clusters(grouped)] == [3, 3, 3]


def test_bars_whose_turned_labels_were_found_only_in_part_read_them_all():
    """At 1x the detector finds two of nine single letters ('E', and the axis title's 'a'): the bars
    between them had taken the nearest one's name; more clusters of bars than labels read again."""
    vals = [28, 55, 43, 91, 81, 53, 19, 87, 52]
    spec = {"height": 200, "data": {"values": [{"a": chr(65 + i), "b": v} for i, v in enumerate(vals)]},
            "mark": "bar", "encoding": {"x": {"field": "a", "type": "nominal"}, "y": {"field": "b", "type": "quantitative"}}}
    charts, fig = _charts(_png(spec, 1))
    assert len(charts) == 1
    assert "I" in {r.get("x") for r in charts[0].spec["data"]["values"]}  # a lone stroke: the I, not '1'
    truth = {"values": [["", chr(65 + i), v] for i, v in enumerate(vals)], "value_axis": [0, 100]}
    assert score_values(fig, truth) >= 0.85


def test_marks_of_one_series_are_never_one_cluster():
    """A bar missing (zero high) among evenly spaced ones leaves the spacing uneven: its neighbours had
    been merged into two clusters, and one column under them then held three labels' ink."""
    one = [Series(color=(0, 0, 0), kind="bar", points=[(x, 1.0) for x in (10.0, 30.0, 50.0, 90.0, 110.0)])]
    assert _clusters(one) == [[10.0], [30.0], [50.0], [90.0], [110.0]]
    # points of one category stand within a pixel of each other: still one cluster
    dots = [Series(color=(0, 0, 0), kind="point", points=[(x, 1.0) for x in (43.0, 63.0, 82.5, 83.0)])]
    assert _clusters(dots) == [[43.0], [63.0], [82.5, 83.0]]


def test_bars_with_a_zero_bar_under_turned_labels_read_each_bar_its_own_label():
    """At 1x, 'D' has no bar: the labels are read under each of the eight bars, not three to a column."""
    vals = [28, 55, 43, 0, 81, 53, 19, 87, 52]
    spec = {"height": 200, "data": {"values": [{"a": chr(65 + i), "b": v} for i, v in enumerate(vals)]},
            "mark": "bar", "encoding": {"x": {"field": "a", "type": "nominal"}, "y": {"field": "b", "type": "quantitative"}}}
    charts, fig = _charts(_png(spec, 1))
    assert len(charts) == 1
    xs = [r.get("x") for r in charts[0].spec["data"]["values"]]
    assert xs[:7] == ["A", "B", "C", "E", "F", "G", "H"]
    truth = {"values": [["", chr(65 + i), v] for i, v in enumerate(vals)], "value_axis": [0, 100]}
    assert score_values(fig, truth) >= 0.75


@pytest.mark.parametrize("labels", [["N", "n", "Z", "u", "S"], ["N", "Nn", "Z", "un", "S", "u"]])
def test_upright_short_labels_stay_upright(labels):
    """Upright letters that read as others turned ('Z' as 'N', 'u' as 'n'): the turn is decided for
    the axis, where most labels read better turned, not label by label."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(4, 3), dpi=100)
    ax.bar(labels, [3, 5, 2, 6, 4, 7][:len(labels)], color="#4477aa")
    ax.tick_params(labelsize=8)
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    charts, _ = _charts(np.asarray(Image.open(buf).convert("RGB")))
    assert len(charts) == 1
    assert [r.get("x") for r in charts[0].spec["data"]["values"]] == labels


@pytest.mark.parametrize("theme", [None, "vox", "excel"])
def test_grouped_bars_at_1x_read_their_turned_letters_above_a_close_axis_title(theme):
    """At 1x the letters hang closer above the axis title than a type size: the title had been cut
    out with each label, none read, and the groups numbered 1, 2, 3 (values 0 % under these themes)."""
    values = [{"category": c, "group": g, "value": v} for c, g, v in _ROWS]
    spec = {"data": {"values": values}, "mark": "bar",
            "encoding": {"x": {"field": "category", "type": "nominal"}, "xOffset": {"field": "group"},
                         "y": {"field": "value", "type": "quantitative"}, "color": {"field": "group"}}}
    img = np.asarray(Image.open(io.BytesIO(vlc.vegalite_to_png(json.dumps(spec), scale=1, theme=theme))).convert("RGB"))
    charts, fig = _charts(img)
    assert len(charts) == 1
    assert {r.get("x") for r in charts[0].spec["data"]["values"]} == {"A", "B", "C"}
    truth = {"values": [[g, c, v] for c, g, v in _ROWS], "value_axis": [0, 1.1]}
    assert score_values(fig, truth) >= 0.85


def test_a_gridline_under_the_bars_is_no_line_series():
    """The excel theme draws its grid in mid grey under the bars: the pieces between the bars had
    been read as a grey line series; a short flat stroke (a line's piece alone) stays."""
    from crafteditor.charts.strokes import drop_rules_under_marks

    ink = np.zeros((60, 100), bool)
    ink[10:50, 20:35] = ink[10:50, 60:75] = True  # two bars
    grid = np.zeros_like(ink)
    grid[30, 5:95] = True
    grid[30, 20:35] = grid[30, 60:75] = False  # hidden under the bars
    grid[45, 40:55] = True  # a short stroke, not across the plot
    kept = drop_rules_under_marks(grid, ink | grid, (5, 5, 95, 55))
    assert not kept[30].any()
    assert kept[45, 40:55].all()


def test_a_lines_flat_run_beside_an_area_fill_is_kept():
    """A filled line chart: the line's flat stretch runs on beside the area's fill across the plot. It is one
    piece, no gridline seen between marks, and stays in the series (it had been cut, the line read from half
    its points: a drawn matplotlib area chart's values 1.0 -> 0.7)."""
    from crafteditor.charts.strokes import drop_rules_under_marks

    fill = np.zeros((60, 100), bool)
    fill[20:55, 5:70] = True  # the area under the line's first, higher stretch, across the flat run's row
    line = np.zeros_like(fill)
    line[30, 70:95] = True  # the line's flat run, beside the fill's top
    kept = drop_rules_under_marks(line, fill | line, (5, 5, 95, 55))
    assert kept[30, 70:95].all()


def test_a_lines_low_runs_on_top_of_its_area_fill_are_kept():
    """The line of a filled line chart touches one row twice, at a valley and along a flat stretch, with its area's
    fill right under both pieces: no gridline seen between marks (dark_background's area chart had its first half
    cut off so)."""
    from crafteditor.charts.strokes import drop_rules_under_marks

    line = np.zeros((60, 100), bool)
    line[30, 30:36] = True  # the valley's bottom
    line[30, 60:95] = True  # the flat stretch
    fill = np.zeros_like(line)
    fill[20:55, 5:95] = True  # the area, up to the line: across the row wherever the line is higher
    fill[20:30, 30:36] = fill[20:30, 60:95] = False  # (above the line's low pieces, the page)
    fill &= ~line
    kept = drop_rules_under_marks(line, fill | line, (5, 5, 95, 55))
    assert kept[30, 30:36].all() and kept[30, 60:95].all()


def test_a_lone_stroke_read_unsurely_is_still_a_label():
    """Vega-Lite's 'I' at 0.75x read 'I' at 0.49: the ink, one plain stroke, says what it is (all nine labels
    had been thrown away for it, and the bars numbered); a letter read as unsurely is not kept."""
    from crafteditor.charts.hanging import _lone_stroke

    assert _lone_stroke("I", np.ones((2, 6), bool))
    assert _lone_stroke("l", np.ones((2, 6), bool))
    assert not _lone_stroke("A", np.ones((2, 6), bool))
    flagged = np.ones((4, 6), bool)
    flagged[2:, 3:] = False  # half the box bare: no plain stroke
    assert not _lone_stroke("1", flagged)
