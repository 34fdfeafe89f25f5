"""A chart's x axis of dates or times (issue 31 round 20, vega20b): tick labels such as '2005 Apr Jul
Oct 2006', 'Jan 2020', '2020-03' or '12:00' read as one time scale (days since 1970-01-01), the
values' x given back as ISO dates; years alone stay numbers and month names alone stay categories."""

from __future__ import annotations

import datetime as dt
import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.dates as mdates  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from mpl_helpers import mpl_png  # noqa: E402

from crafteditor import convert  # noqa: E402
from crafteditor.charts.axes import date_axis  # noqa: E402
from crafteditor.charts.numbers import date_text, parse_dates, time_format  # noqa: E402
from crafteditor.realset import score_values  # noqa: E402

_DAY0 = dt.date(1970, 1, 1)


def _days(*ymd: int) -> float:
    return float((dt.date(*ymd) - _DAY0).days)


def test_months_after_a_named_year_take_that_year_and_wrap_into_the_next():
    got = parse_dates(["2005", "Apr", "Jul", "Oct", "2006", "Apr"])
    assert got == [_days(2005, 1, 1), _days(2005, 4, 1), _days(2005, 7, 1), _days(2005, 10, 1),
                   _days(2006, 1, 1), _days(2006, 4, 1)]
    assert parse_dates(["2020", "Nov", "Dec", "Jan"])[-1] == _days(2021, 1, 1)
    # Vega-Lite's 'May', 'September', '1994': the months before the first year named are the year before's
    assert parse_dates(["May", "September", "1994", "May"]) == [_days(1993, 5, 1), _days(1993, 9, 1),
                                                                _days(1994, 1, 1), _days(1994, 5, 1)]


def test_full_dates_iso_dates_and_times_of_day_are_read():
    assert parse_dates(["Jan 2020", "Apr 2020"]) == [_days(2020, 1, 1), _days(2020, 4, 1)]
    assert parse_dates(["2020-03", "2020-03-15"]) == [_days(2020, 3, 1), _days(2020, 3, 15)]
    assert parse_dates(["12:00", "18:00", "00:00"]) == [0.5, 0.75, 1.0]  # the hours wrap into the next day


def test_years_alone_and_month_names_alone_are_no_dates():
    assert parse_dates(["2019", "2020", "2021"]) == [None, None, None]  # plain numbers, read as before
    assert parse_dates(["Jan", "Feb", "Mar"]) == [None, None, None]  # categories under bars
    assert parse_dates(["5", "Q3", "v1.2"]) == [None, None, None]
    assert parse_dates(["Mar 08", "Mar 15", "Mar 22"]) == [None, None, None]  # no year named: none made up
    assert date_axis([(10.0, "Jan"), (20.0, "Feb"), (30.0, "Mar")]) is None


def test_a_date_axis_fits_tick_positions_linearly_in_days():
    ticks = [(100.0, "2005"), (190.0, "Apr"), (281.0, "Jul"), (373.0, "Oct"), (465.0, "2006")]
    axis = date_axis(ticks)
    assert axis is not None and axis.time
    assert abs(axis.value(190.0) - _days(2005, 4, 1)) < 1.0
    assert date_text(axis.value(281.0), 365) == "2005-07-01"
    assert date_text(0.5, 1) == "1970-01-01T12:00"


def _weekly_series():
    """Forty weeks of a sine from 2020-01-01, drawn by matplotlib: (figure, axes, days, values)."""
    start = dt.date(2020, 1, 1)
    days = [start + dt.timedelta(days=7 * k) for k in range(40)]
    ys = [20 + 10 * math.sin(k / 6) for k in range(40)]
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    ax.plot(days, ys)
    return fig, ax, days, ys


def test_a_matplotlib_time_series_reads_its_values_at_their_dates():
    fig, ax, days, ys = _weekly_series()
    loc = mdates.AutoDateLocator()
    ax.xaxis.set_major_locator(loc)
    ax.xaxis.set_major_formatter(mdates.ConciseDateFormatter(loc))
    conv = convert(mpl_png(fig))
    chart = conv.figure.of_kind("chart")[0]
    assert chart.spec["encoding"]["x"]["type"] == "temporal"
    xs = [row["x"] for row in chart.spec["data"]["values"]]
    assert all(isinstance(x, str) and "2019-12-01" <= x <= "2020-10-31" for x in xs)  # the data carries ISO dates
    truth = {"values": [["", d.isoformat(), y] for d, y in zip(days, ys)]}
    assert score_values(conv.figure, truth) >= 0.8


def test_month_bars_without_a_year_stay_categories():
    months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun"]
    vals = [3.0, 5.0, 4.0, 7.0, 6.0, 2.0]
    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.bar(months, vals)
    conv = convert(mpl_png(fig))
    chart = conv.figure.of_kind("chart")[0]
    assert chart.spec["encoding"]["x"]["type"] == "nominal"
    assert score_values(conv.figure, {"values": [["", m, v] for m, v in zip(months, vals)]}) >= 0.99


def test_a_vega_lite_temporal_line_reads_its_dates():
    vlc = pytest.importorskip("vl_convert")
    start = dt.date(2004, 6, 1)
    rows = [{"date": (start + dt.timedelta(days=30 * k)).isoformat(), "v": round(80 + 30 * math.sin(k / 4), 2)}
            for k in range(24)]
    spec = {"data": {"values": rows}, "mark": "line",
            "encoding": {"x": {"field": "date", "type": "temporal"}, "y": {"field": "v", "type": "quantitative"}}}
    conv = convert(vlc.vegalite_to_png(spec, scale=2))
    truth = {"values": [["", r["date"], r["v"]] for r in rows]}
    assert score_values(conv.figure, truth) >= 0.8


def test_a_date_axis_labelled_with_years_alone_reads_decimal_years_scored_at_their_dates():
    start = dt.date(1950, 1, 1)
    days = [start + dt.timedelta(days=30 * k) for k in range(120)]
    ys = [200 + 5 * k + 40 * math.sin(k / 8) for k in range(120)]
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    ax.plot(days, ys)
    conv = convert(mpl_png(fig))
    chart = conv.figure.of_kind("chart")[0]
    assert chart.spec["encoding"]["x"]["type"] == "quantitative"  # '1950', '1952' …: numbers, as before
    truth = {"values": [["", d.isoformat(), y] for d, y in zip(days, ys)]}
    assert score_values(conv.figure, truth) >= 0.8


def test_a_time_axis_format_is_the_one_pattern_every_label_is_written_in():
    assert time_format([(_days(2020, m, 1), f"{name} 2020") for m, name in ((1, "Jan"), (4, "Apr"), (7, "Jul"))]) == "%b %Y"
    assert time_format([(_days(2020, m, 1), f"2020-{m:02d}") for m in (1, 4, 7)]) == "%Y-%m"
    assert time_format([(h / 24, f"{h:02d}:00") for h in (0, 6, 12)]) == "%H:%M"
    # concise labels (years and months by turns): no one pattern writes them ('%b' would write 1926 'Jan'),
    # Vega's multi-format does, a pattern for each unit the ticks start
    assert time_format([(_days(1925, 11, 1), "Nov"), (_days(1925, 12, 1), "Dec"), (_days(1926, 1, 1), "1926")]) == \
        {"month": "%b", "year": "%Y"}
    assert time_format([(_days(1993, 12, 1), "December"), (_days(1994, 1, 1), "1994"), (_days(1994, 4, 1), "April")]) \
        == {"month": "%B", "year": "%Y", "quarter": "%B"}


def test_the_chart_engine_writes_a_time_multi_format_as_vega_does():
    vlc = pytest.importorskip("vl_convert")
    import re

    from crafter.charts.scales import time_label

    ticks = [_days(2005, 1, 1), _days(2005, 4, 1), _days(2005, 5, 1), _days(2005, 5, 8), _days(2006, 1, 1)]
    ms = [round(d * 86_400_000) for d in ticks]
    fmt = {"year": "%Y", "quarter": "%b", "month": "%B"}
    spec = {"data": {"values": [{"d": "2005-01-01", "v": 1}, {"d": "2006-01-01", "v": 2}]}, "mark": "line",
            "encoding": {"x": {"field": "d", "type": "temporal", "title": None, "axis": {"values": ms, "format": fmt}},
                         "y": {"field": "v", "type": "quantitative", "title": None, "axis": None}}}
    vega = re.findall(r"<text[^>]*>([^<]*)</text>", vlc.vegalite_to_svg(spec))
    assert [time_label(v, fmt) for v in ms] == vega == ["2005", "Apr", "May", "May 08", "2006"]


def test_a_converted_time_series_is_drawn_back_with_the_figures_own_tick_labels():
    fig, ax, _, _ = _weekly_series()
    ax.xaxis.set_major_locator(mdates.MonthLocator(bymonth=(1, 3, 5, 7, 9)))
    ax.xaxis.set_major_formatter(mdates.DateFormatter("%b %Y"))
    conv = convert(mpl_png(fig))
    axis = conv.figure.of_kind("chart")[0].spec["encoding"]["x"]["axis"]
    assert axis["format"] == "%b %Y"
    assert len(axis["values"]) >= 4
    for label in ("Mar 2020", "May 2020", "Jul 2020", "Sep 2020"):  # the engine's own ticks had been 'Mar', 'May'...
        assert f">{label}<" in conv.svg
