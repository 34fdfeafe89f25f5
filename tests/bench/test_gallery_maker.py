"""`craftbench makers gallery`: real Vega-Lite example specs, their truth read off the drawn scene graph."""

from __future__ import annotations

import json

import pytest

from craftbench.makers import gallery, mirrors

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


def test_a_stacked_area_layer_reads_as_its_own_height() -> None:
    """Layer a (2) stacked on b (3): a's top edge is at 5, its truth is 2."""
    spec = {"data": {"values": [{"x": x, "g": g, "v": v} for x in range(4) for g, v in (("a", 2), ("b", 3))]},
            "mark": "area", "encoding": {"x": {"field": "x", "type": "quantitative"},
                                         "y": {"field": "v", "type": "quantitative"},
                                         "color": {"field": "g", "type": "nominal"}}}
    t = _truth(spec)
    assert t is not None and t["style"] == "area"
    assert _close(t["values"], [["a", 0.0, 2], ["a", 3.0, 2], ["b", 0.0, 3], ["b", 3.0, 3]], 0.05)


def test_a_diverging_stack_keeps_its_segments_below_zero_negative() -> None:
    """A/x = -5 is stacked under A/y = -3: it spans -8..-3, off zero, and reads -5, not +5."""
    spec = _bars()
    spec["data"]["values"] = [{"c": c, "g": g, "v": v} for c, g, v in
                              (("A", "x", -5), ("A", "y", -3), ("B", "x", 4), ("B", "y", 2), ("C", "x", -2), ("C", "y", 6))]
    t = _truth(spec)
    assert t is not None and _close(t["values"], [["x", "A", -5], ["y", "A", -3], ["x", "B", 4], ["y", "B", 2]], 0.05)


def test_horizontal_bars_read_along_the_x_axis() -> None:
    """A category y axis and a numeric x axis: horizontal bars, their values read on x."""
    t = _truth(_bars(x={"field": "v", "type": "quantitative"}, y={"field": "c", "type": "nominal"},
                     yOffset={"field": "g"}))
    assert t is not None and t["style"] == "bar-h"
    assert _close(t["values"], [["x", "A", 12], ["y", "A", 30], ["x", "B", -8], ["y", "C", 5]], 0.1)
    lo, hi = t["value_axis"]
    assert lo <= -7.9 and hi >= 29.9


def test_two_labels_do_not_fix_a_scale() -> None:
    """Any two labels fit a straight line, so a two-label log axis would read linear: three are needed."""
    assert gallery._fit([(0.0, 1000.0), (100.0, 10.0)]) is None
    fit = gallery._fit([(0.0, 1000.0), (50.0, 100.0), (100.0, 10.0)])
    assert fit is not None and fit[2]


_CHART = "import altair as alt\nimport pandas as pd\nalt.Chart(pd.DataFrame({'a': [1, 2, 3]})).mark_point().encode(y='a')\n"


def test_altair_examples_run_apart_and_url_specs_are_left_out(tmp_path, monkeypatch) -> None:
    """An example that switches Altair to its json data transformer gives a url spec (left out), and the
    switch does not carry over to the next example; a script that never ends is stopped."""
    pytest.importorskip("altair")
    monkeypatch.chdir(tmp_path)
    json_chart = _CHART.replace("import pandas as pd\n", "import pandas as pd\nalt.data_transformers.enable('json')\n")
    assert gallery._run_altair(json_chart) is None
    spec = gallery._run_altair(_CHART)
    assert spec is not None and "url" not in json.dumps(spec) and "datasets" in spec
    assert not list(tmp_path.iterdir())  # the json transformer's data file was not written here
    assert gallery._run_altair("import time\ntime.sleep(30)\n1\n", timeout=2) is None


def test_snapshots_are_found_under_the_makers_one_mirror_folder(tmp_path, monkeypatch) -> None:
    """The gallery reads its snapshots where every maker does: $CRAFTBENCH_MIRRORS (mirrors.mirror_root)."""
    (tmp_path / "vega+vega-lite" / "repo").mkdir(parents=True)
    (tmp_path / "vega+vega-lite" / "repo" / "HEAD").write_text("ref: refs/heads/main\n")
    monkeypatch.setenv("CRAFTBENCH_MIRRORS", str(tmp_path))
    assert mirrors.git_dir(gallery.REPO) == tmp_path / "vega+vega-lite" / "repo"
    assert mirrors.git_dir(gallery.ALTAIR) is None


@pytest.mark.parametrize("theme", ["ggplot2", "googlecharts", "powerbi"])
def test_a_theme_that_draws_no_domain_line_still_reads_its_values(theme: str) -> None:
    """These themes draw no axis domain: the value axis spans the view (they had kept no figure at all)."""
    t = gallery.truth_of(vlc.vegalite_to_scenegraph(json.dumps(_bars(xOffset={"field": "g"})), theme=theme)["scenegraph"])
    assert t is not None
    assert _close(t["values"], [["x", "A", 12], ["y", "A", 30], ["x", "B", -8], ["y", "C", 5]], 0.1)
    lo, hi = t["value_axis"]
    assert lo <= -8 and hi >= 30 and hi - lo < 60


def test_the_themed_maker_draws_each_example_under_every_theme_grouped_by_theme(tmp_path, monkeypatch) -> None:
    spec = _bars(xOffset={"field": "g"})
    monkeypatch.setattr(gallery, "_sources", lambda: [(gallery.REPO, "0" * 40, "examples/specs/bars.vl.json",
                                                       "vega-lite", spec)])
    recs = gallery.draw(tmp_path, n=3, seed=0, themes=("default", "dark", "vox"))
    assert [r["group"] for r in recs] == ["vega-lite-default", "vega-lite-dark", "vega-lite-vox"]
    assert len({r["id"] for r in recs}) == 3 and all((tmp_path / f"{r['id']}.png").exists() for r in recs)
    # their fonts are not in vl-convert: no text drawn, or no tick labels
    assert not {"urbaninstitute", "powerbi"} & set(gallery.THEMES)
