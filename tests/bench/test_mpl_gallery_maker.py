"""`craftbench makers mpl-gallery`: real matplotlib example scripts run as written, their truth read off the live
Figure (values per panel in reading order, words as drawn), real-set sources left out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from craftbench.makers import mpl_gallery
from craftbench.makers.mermaid_versions import RealSet
from tests.bench.mirror_helpers import bare_mirror

plt = pytest.importorskip("matplotlib.pyplot")


def _close(values: list, want: list, tol: float = 1e-6) -> bool:
    return all(any(s == ws and x == wx and abs(y - wy) <= tol for s, x, y in values) for ws, wx, wy in want)


def test_a_two_panel_figure_names_each_panels_series_by_its_place_in_reading_order() -> None:
    fig, (left, right) = plt.subplots(1, 2)
    left.bar(["A", "B", "C"], [3, 5, 2], color="tab:blue", label="ours")
    left.bar(["A", "B", "C"], [1, 2, 1], bottom=[3, 5, 2], color="tab:orange", label="theirs")
    left.legend()
    right.plot([0, 1, 2, 3], [1, 4, 2, 6], color="tab:green")
    left.set_ylim(0, 8)
    right.set_ylim(0, 7)
    t = mpl_gallery.figure_values(fig)
    plt.close(fig)
    assert t is not None and t["style"] == "multi-panel" and t["panels"] == 2
    # bars by their category label, a stacked segment by its own length; the line's vertices under (b)
    assert _close(t["values"], [["(a) ours", "B", 5], ["(a) theirs", "B", 2], ["(b)", 2.0, 2], ["(b)", 3.0, 6]])
    assert len(t["values"]) == 10 and t["value_axis"] in ([0, 8], [0, 7])


def test_a_panel_on_another_range_keeps_no_values_and_the_letters_stay_in_reading_order() -> None:
    fig, (top, bottom) = plt.subplots(2, 1, sharex=True)
    top.plot([0, 1, 2, 3, 4], [100, 300, 200, 500, 400])
    bottom.plot([0, 1, 2, 3, 4], [1.0, 1.1, 0.9, 1.2, 1.0])  # a ratio panel: 0.2 of a 500 range
    bottom.set_ylim(0.5, 1.5)
    t = mpl_gallery.figure_values(fig)
    plt.close(fig)
    assert t is not None and {s for s, _, _ in t["values"]} == {"(a)"}
    assert t["value_axis"][1] >= 500


def test_stacked_histogram_steps_read_as_their_own_heights_and_a_hatched_band_is_no_value() -> None:
    fig, ax = plt.subplots()
    ax.stairs([3, 5, 2], [0, 1, 2, 3], fill=True, color="tab:blue", label="low")
    ax.stairs([4, 7, 3], [0, 1, 2, 3], baseline=[3, 5, 2], fill=True, color="tab:orange", label="high")
    ax.stairs([5, 8, 4], [0, 1, 2, 3], baseline=[3, 6, 2], hatch="////", fill=False, label="unc.")
    ax.legend()
    t = mpl_gallery.figure_values(fig)
    plt.close(fig)
    assert t is not None and t["style"] == "histogram" and len(t["values"]) == 6
    assert _close(t["values"], [["low", 1.5, 5], ["high", 1.5, 2], ["high", 0.5, 1]])


def test_a_panel_of_unnamed_colours_and_twin_axes_give_no_values() -> None:
    fig, ax = plt.subplots()
    ax.plot([0, 1, 2], [1, 2, 3], color="red")
    ax.plot([0, 1, 2], [3, 2, 1], color="blue")  # two series, no legend: whose is which cannot be told
    assert mpl_gallery.figure_values(fig) is None
    ax.legend(["up", "down"])
    assert _close(mpl_gallery.figure_values(fig)["values"], [["up", 2.0, 3], ["down", 2.0, 1]])
    ax.twinx().plot([0, 1, 2], [10, 20, 30])
    assert mpl_gallery.figure_values(fig) is None
    plt.close(fig)


def test_a_script_runs_in_its_own_interpreter_and_each_saved_figure_is_read(tmp_path: Path) -> None:
    code = """
import matplotlib.pyplot as plt
for k in (1, 2):
    fig, ax = plt.subplots()
    ax.plot([0, 1, 2, 3], [0, k, 2 * k, 3 * k], label="gain")
    ax.set_xlabel(r"Current ($\\mu$A)")
    ax.set_title("Run <&> " + str(k))
    ax.legend()
    fig.savefig(f"figures/fig{k}.png", dpi=300)
    plt.close(fig)
"""
    got = mpl_gallery.run_script(code, "demo.py", tmp_path / "out", 100)
    assert got is not None and [r["name"] for r in got] == ["fig1.png", "fig2.png"]
    assert _close(got[1]["values"], [["gain", 3.0, 6]])
    assert "Current (μA)" in got[0]["text"] and "Run <&> 1" in got[0]["text"]
    assert Path(got[0]["png"]).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert mpl_gallery.run_script("raise SystemExit(2)", "bad.py", tmp_path / "bad", 100) is None


def test_real_set_sources_and_figures_of_the_same_data_are_left_out(tmp_path: Path, monkeypatch) -> None:
    work = tmp_path / "work"
    (work / "examples").mkdir(parents=True)
    (work / "examples" / "kept.py").write_text("print(1)\n")
    (work / "examples" / "fig_real.py").write_text("print(2)\n")
    mirror = tmp_path / "mirror"
    bare_mirror(work, mirror, "mwaskom+seaborn")
    manifest = tmp_path / "manifest.json"
    manifest.write_text(json.dumps({"figures": [{"id": "x", "repo": "mwaskom/seaborn", "path": "img/fig_real.png"},
                                                {"id": "y", "repo": "mwaskom/seaborn", "path": "img/fig07.jpg"}]}))
    real = RealSet(manifest)
    assert [s.path for s in mpl_gallery.scripts(mirror, real)] == ["examples/kept.py"]
    same = [["", 1.0, 2.0]]
    records = [{"name": "fig07.jpg", "values": same}, {"name": "fig08.jpg", "values": same},
               {"name": "fig09.jpg", "values": [["", 1.0, 3.0]]}]
    assert [r["name"] for r in mpl_gallery._left_out(records, "mwaskom/seaborn", real)] == ["fig09.jpg"]
