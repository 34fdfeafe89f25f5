"""Round 14's chart mends (issue 31): radial charts (Vega-Lite's arc with a radius channel: slices
of several radii about one centre) read as arcs with each slice's share and radius, and a bare bar
among axis labels read as the 'I' or '1' the row holds (Vega-Lite's category 'I' had been lost)."""

from __future__ import annotations

import re

import cv2
import numpy as np
import pytest

from crafteditor import convert
from crafteditor.ocr.lone_glyphs import BAR_SCORE, bar_in_label_row
from crafteditor.ocr.runs import TextRun
from crafter.charts.render.painter import chart_svg
from crafter.spec import Chart

_SLICES = [(30.0, 60), (20.0, 100), (35.0, 140), (15.0, 80)]  # (share in %, radius in px)
_PAINTS = [(76, 120, 168), (245, 133, 24), (228, 87, 86), (114, 183, 178)]  # Vega's category10 look


def _rose(radii: list[int], page: tuple[int, int, int] = (255, 255, 255)) -> np.ndarray:
    """Slices of the shares of ``_SLICES`` clockwise from 12 o'clock, each out to its radius, on a
    page of colour ``page`` (white)."""
    img = np.full((340, 340, 3), page, np.uint8)
    start = 0.0
    for (share, _), r, paint in zip(_SLICES, radii, _PAINTS):
        cv2.ellipse(img, (170, 170), (r, r), -90, start, start + 3.6 * share, paint, -1, cv2.LINE_AA)
        start += 3.6 * share
    return img


@pytest.mark.parametrize("page", [(255, 255, 255), (0, 30, 60)])
def test_a_radial_chart_reads_each_slices_share_and_radius(page):
    """On a dark page too, where the seam at 12 o'clock (the last slice's paint blended with the
    first's, no page between them) had been read as a slice of 0.56 %."""
    conv = convert(_rose([r for _, r in _SLICES], page))
    (read,) = [c for c in conv.figure.components if isinstance(c, Chart)]
    assert read.spec["mark"]["type"] == "arc" and read.spec["encoding"]["radius"]["field"] == "r"
    # each slice's share with its radius (the first read may be any: no edge marks where one begins)
    read_pairs = sorted((row["y"], row["r"]) for row in read.spec["data"]["values"])
    assert len(read_pairs) == len(_SLICES)
    for (share, r), (want_share, want_r) in zip(read_pairs, sorted(_SLICES)):
        assert abs(share - want_share) <= 1.0 and abs(r - want_r) <= 3.0


def test_a_plain_pie_stays_without_a_radius_channel():
    conv = convert(_rose([120] * len(_SLICES)))
    (read,) = [c for c in conv.figure.components if isinstance(c, Chart)]
    assert "radius" not in read.spec["encoding"]
    assert sorted(row["y"] for row in read.spec["data"]["values"]) == pytest.approx(sorted(s for s, _ in _SLICES),
                                                                                     abs=1.0)


def test_the_arc_painter_draws_each_slice_out_to_its_radius_field():
    spec = {"mark": {"type": "arc"}, "data": {"values": [{"x": "a", "y": 30, "r": 50.0}, {"x": "b", "y": 70, "r": 100.0}]},
            "encoding": {"theta": {"field": "y", "type": "quantitative", "stack": True},
                         "color": {"field": "x", "type": "nominal"},
                         "radius": {"field": "r", "type": "quantitative", "scale": {"type": "linear", "zero": True}}}}
    svg = chart_svg(Chart(id="c", kind="chart", spec=spec, width=200, height=200))
    arcs = re.findall(r'<path[^>]*d="M[^"]*A([\d.]+),[\d.]+ ', svg)
    assert sorted(float(r) for r in arcs[:2]) == pytest.approx([50.0, 100.0])


def _run(text: str, x: float, y: float, w: float, h: float) -> TextRun:
    return TextRun(text=text, x=x, y=y, w=w, h=h, angle=0, font_px=h, bold=False, color=(0, 0, 0), confidence=0.99,
                   baseline=y + h, glyphs=np.ones((int(h), int(w)), bool))


def _bar(h: int = 14, w: int = 2) -> np.ndarray:
    return np.ones((h, w), bool)


@pytest.mark.parametrize("row,expected", [(["A", "B", "H"], "I"), (["10", "20", "30"], "1"), (["ab", "cd"], "1")])
def test_a_bare_bar_in_a_row_of_axis_labels_is_the_rows_kind_of_glyph(row, expected):
    runs = [_run(t, 100 + 40 * k, 637, 12, 14) for k, t in enumerate(row)]
    text, conf = bar_in_label_row("1", 0.83, _bar(), (637, 427), runs)
    assert text == expected
    assert (conf == BAR_SCORE) == (expected != "1" or row[0].isdigit())


def test_a_bare_bar_in_a_column_of_flush_right_labels_is_an_i():
    runs = [_run(t, 40 - w, 20 + 30 * k, w, 14) for k, (t, w) in enumerate([("A", 10), ("B", 9), ("H", 10)])]
    assert bar_in_label_row("1", 0.83, _bar(), (110, 38), runs) == ("I", BAR_SCORE)


def test_a_bar_alone_or_with_a_flag_is_left_as_read():
    runs = [_run(t, 100 + 40 * k, 637, 12, 14) for k, t in enumerate(["A", "B"])]
    assert bar_in_label_row("1", 0.83, _bar(), (300, 427), runs) == ("1", 0.83)  # not in the row
    flagged = _bar(14, 4)
    flagged[4:, :2] = False  # a '1' with its flag: wider at the top
    assert bar_in_label_row("1", 0.83, flagged, (637, 427), runs) == ("1", 0.83)


@pytest.mark.parametrize("gap", [slice(3, 5), slice(10, 12)])  # a 1-px 'i' (its dot apart) and a '!'
def test_a_one_pixel_bar_with_a_gap_is_no_bare_bar(gap):
    runs = [_run(t, 100 + 40 * k, 637, 12, 14) for k, t in enumerate(["A", "B", "H"])]
    glyph = _bar(14, 1)
    glyph[gap] = False
    assert bar_in_label_row("1", 0.83, glyph, (637, 427), runs) == ("1", 0.83)


def test_an_unsure_reading_of_a_bar_is_not_raised():
    runs = [_run(t, 100 + 40 * k, 637, 12, 14) for k, t in enumerate(["A", "B", "H"])]
    assert bar_in_label_row("1", 0.6, _bar(), (637, 427), runs) == ("1", 0.6)


def _arc_radii(values: list, radius: dict, inner: float = 0.0) -> list[float]:
    """The outer radius of each slice the arc painter draws (a 200 px chart: a full radius under 100)."""
    mark = {"type": "arc", "innerRadius": inner} if inner else {"type": "arc"}
    spec = {"mark": mark, "data": {"values": [{"x": str(k), "y": 1, "r": v} for k, v in enumerate(values)]},
            "encoding": {"theta": {"field": "y", "type": "quantitative", "stack": True},
                         "color": {"field": "x", "type": "nominal"}, "radius": {"field": "r", **radius}}}
    svg = chart_svg(Chart(id="c", kind="chart", spec=spec, width=200, height=200))
    return [float(r) for r in re.findall(r'<path[^>]*d="M[^"]*?A([\d.]+),[\d.]+ ', svg)[:len(values)]]


def test_the_arc_painter_honours_a_sqrt_radius_scale_and_its_range_min():
    """Vega-Lite's radial example: sqrt scale, rangeMin 20, innerRadius 20; its 6 had been drawn at
    11.5 px, inside the hole."""
    values = [12, 23, 47, 6, 52, 19]
    radii = _arc_radii(values, {"type": "quantitative", "scale": {"type": "sqrt", "zero": True, "rangeMin": 20}},
                       inner=20)
    full = max(radii)
    want = [20 + (full - 20) * (v / 52) ** 0.5 for v in values]
    assert radii == pytest.approx(want, abs=0.6)
    assert min(radii) > 20


def test_the_arc_painter_clamps_a_negative_radius_and_parses_numbers_written_as_text():
    radii = _arc_radii(["-50", "50", "100"], {"type": "quantitative"}, inner=10)
    assert radii[0] == pytest.approx(10.0)  # at the hole's edge: no slice drawn mirrored
    assert radii[1] == pytest.approx(radii[2] * 2 / 3, abs=0.6)  # the domain from -50 to 100, as Vega's


def test_the_arc_painter_names_the_radius_field_that_holds_no_number():
    from crafter.charts.errors import ChartSpecError
    with pytest.raises(ChartSpecError, match="radius field 'r'"):
        _arc_radii(["big", 50], {"type": "quantitative"})
