"""`craftbench makers gallery`: real Vega-Lite example specs, their truth read off the drawn scene graph."""

from __future__ import annotations

import json

import pytest

from craftbench.makers import gallery

vlc = pytest.importorskip("vl_convert")


def _truth(spec: dict) -> dict | None:
    return gallery.truth_of(vlc.vegalite_to_scenegraph(json.dumps(spec))["scenegraph"])


def _bars(extra: dict | None = None, **enc: dict) -> dict:
    rows = [{"c": c, "g": g, "v": v} for c, g, v in
            [("A", "x", 12), ("A", "y", 30), ("B", "x", -8), ("B", "y", 21), ("C", "x", 17), ("C", "y", 5)]]
    encoding = {"x": {"field": "c", "type": "nominal"}, "y": {"field": "v", "type": "quantitative"},
                "color": {"field": "g", "type": "nominal"}, **enc}
    return {"data": {"values": rows}, "mark": "bar", "encoding": encoding, **(extra or {})}


def _close(values: list, want: list, tol: float) -> bool:
    return all(any(s == ws and x == wx and abs(y - wy) <= tol for s, x, y in values) for ws, wx, wy in want)


def test_grouped_bars_read_back_as_their_data_with_legend_series() -> None:
    t = _truth(_bars(xOffset={"field": "g"}))
    assert t is not None and t["style"] == "bar"
    assert _close(t["values"], [["x", "A", 12], ["y", "A", 30], ["x", "B", -8], ["y", "C", 5]], 0.1)
    lo, hi = t["value_axis"]
    assert lo <= -8 and hi >= 30 and hi - lo < 60
    assert {"A", "B", "C", "x", "y"} <= set(t["text"].split())


def test_stacked_segments_read_as_their_own_lengths() -> None:
    spec = _bars()
    spec["data"]["values"] = [r for r in spec["data"]["values"] if r["v"] > 0]
    t = _truth(spec)
    assert t is not None and _close(t["values"], [["y", "A", 30], ["x", "A", 12], ["y", "C", 5]], 0.2)


def test_a_pie_reads_as_shares_named_by_its_legend() -> None:
    spec = {"data": {"values": [{"k": "a", "v": 1}, {"k": "b", "v": 3}]}, "mark": "arc",
            "encoding": {"theta": {"field": "v", "type": "quantitative"}, "color": {"field": "k", "type": "nominal"}}}
    t = _truth(spec)
    assert t is not None and t["value_axis"] == [0.0, 100.0]
    assert _close(t["values"], [["share", "a", 25.0], ["share", "b", 75.0]], 0.01)


def test_log_axis_points_read_in_data_units() -> None:
    spec = {"data": {"values": [{"x": i, "y": 10 ** i} for i in range(5)]}, "mark": "point",
            "encoding": {"x": {"field": "x", "type": "quantitative"},
                         "y": {"field": "y", "type": "quantitative", "scale": {"type": "log"}}}}
    t = _truth(spec)
    assert t is not None and t.get("value_scale") == "log"
    assert all(abs(y / 10 ** round(x) - 1) < 0.02 for _, x, y in t["values"])


def test_ticks_and_ranged_bars_are_left_out() -> None:
    """A tick's or a Gantt bar's length is not its value: no unambiguous truth, no figure."""
    ticks = {"data": {"values": [{"c": c, "v": v} for c, v in (("A", 3), ("B", 7), ("C", 5))]}, "mark": "tick",
             "encoding": {"x": {"field": "c", "type": "nominal"}, "y": {"field": "v", "type": "quantitative"}}}
    assert _truth(ticks) is None
    gantt = {"data": {"values": [{"t": t, "a": a, "b": b} for t, a, b in (("p", 1, 4), ("q", 3, 8), ("r", 5, 9))]},
             "mark": "bar", "encoding": {"y": {"field": "t", "type": "nominal"},
                                         "x": {"field": "a", "type": "quantitative"}, "x2": {"field": "b"}}}
    assert _truth(gantt) is None
