"""`craftbench makers mpl-gallery`: real matplotlib example scripts run as written, their truth read off the live
Figure (values per panel in reading order, words as drawn), real-set sources left out."""

from __future__ import annotations

import json
import os
import signal
import socket
import time
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


def test_a_script_that_opens_a_socket_fails_and_never_reaches_the_network(tmp_path: Path) -> None:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(0.5)
    port = listener.getsockname()[1]
    for call in (f"socket.create_connection(('127.0.0.1', {port}), timeout=5)",
                 f"socket.socket().connect(('127.0.0.1', {port}))", "socket.getaddrinfo('example.org', 80)",
                 f"urllib.request.urlopen('http://127.0.0.1:{port}/', timeout=5)"):
        code = f"import socket, urllib.request\n{call}\nimport matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\n"
        assert mpl_gallery.run_script(code, "net.py", tmp_path / "net", 100, timeout=30) is None, call
        with pytest.raises(TimeoutError):
            listener.accept()  # nothing ever connected
    listener.close()


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return True
    return state in ("Z", "X")


def test_a_time_out_kills_the_scripts_whole_process_group(tmp_path: Path) -> None:
    out = tmp_path / "out"
    code = f"""
import subprocess, time
child = subprocess.Popen(["sleep", "120"])
with open({str(tmp_path / "pid")!r}, "w") as f:
    f.write(str(child.pid))
time.sleep(120)
"""
    assert mpl_gallery.run_script(code, "slow.py", out, 100, timeout=25) is None  # starting takes seconds
    pid = int((tmp_path / "pid").read_text())
    deadline = time.monotonic() + 5
    while not _gone(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    gone = _gone(pid)
    if not gone:
        os.kill(pid, signal.SIGKILL)
    assert gone, "the script's child outlived its time-out"


def test_a_script_runs_in_a_minimal_environment_with_its_home_in_a_scratch_folder_and_a_memory_limit(
        tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("CRAFTBENCH_SECRET", "leak")
    code = f"""
import json, os
json.dump(dict(os.environ), open({str(tmp_path / "env.json")!r}, "w"))
import matplotlib.pyplot as plt
plt.plot([0, 1, 2, 3], [1, 3, 2, 4])
"""
    got = mpl_gallery.run_script(code, "env.py", tmp_path / "out", 100, home=tmp_path / "home")
    env = json.loads((tmp_path / "env.json").read_text())
    assert got is not None and "CRAFTBENCH_SECRET" not in env
    assert env["HOME"] == str(tmp_path / "home") and env["MPLCONFIGDIR"].startswith(env["HOME"])
    big = "x = bytearray(3 << 30)\n"  # 3 GiB under a 1 GiB limit
    assert mpl_gallery.run_script(big, "big.py", tmp_path / "big", 100, memory=1 << 30) is None


def test_a_dark_style_is_saved_on_its_own_dark_face(tmp_path: Path) -> None:
    from PIL import Image

    code = """
import matplotlib.pyplot as plt
plt.style.use("dark_background")
fig, ax = plt.subplots()
ax.plot([0, 1, 2, 3], [1, 3, 2, 4], label="a")
fig.savefig("dark.png")
"""
    got = mpl_gallery.run_script(code, "dark.py", tmp_path / "out", 100)
    assert got is not None
    with Image.open(got[0]["png"]) as im:
        assert im.convert("RGB").getpixel((2, 2)) == (0, 0, 0)
    assert mpl_gallery.opaque((0, 0, 0, 0)) == (1, 1, 1, 1.0)  # a face of none is white
    assert mpl_gallery.opaque((0.2, 0.4, 0.6, 0.5)) == pytest.approx((0.6, 0.7, 0.8, 1.0))


def test_log_and_percent_axes_are_numeric_and_a_category_axis_is_categorical() -> None:
    from matplotlib.ticker import PercentFormatter

    fig, ax = plt.subplots()
    ax.plot([1, 10, 100, 1000], [10, 20, 30, 40], color="k")
    ax.set_xscale("log")
    ax.yaxis.set_major_formatter(PercentFormatter())
    fig.canvas.draw()
    t = mpl_gallery.figure_values(fig)
    assert t is not None and _close(t["values"], [["", 10.0, 20], ["", 1000.0, 40]])
    plt.close(fig)
    fig, ax = plt.subplots()
    ax.plot([0, 1, 2, 3], [5, 6, 7, 8], color="k")
    ax.xaxis.set_major_formatter(PercentFormatter(xmax=3))  # 0 %, 33 %…: the vertices stay where they are
    fig.canvas.draw()
    t = mpl_gallery.figure_values(fig)
    assert t is not None and _close(t["values"], [["", 1.0, 6]])
    plt.close(fig)
    fig, ax = plt.subplots()
    ax.bar(["10", "20", "x"], [3, 4, 5], color="k")
    fig.canvas.draw()
    t = mpl_gallery.figure_values(fig)
    assert t is not None and _close(t["values"], [["", "10", 3], ["", "x", 5]])
    plt.close(fig)


def test_a_polar_figure_gives_no_values() -> None:
    fig = plt.figure()
    ax = fig.add_subplot(projection="polar")
    ax.plot([0, 1, 2, 3], [1, 2, 3, 4], color="k")
    assert mpl_gallery.figure_values(fig) is None
    plt.close(fig)


def test_a_script_failing_after_a_figure_keeps_that_figure_and_every_figure_is_recorded(tmp_path: Path) -> None:
    code = """
import matplotlib.pyplot as plt
fig, ax = plt.subplots()
ax.imshow([[1, 2], [3, 4]])
fig.savefig("image.png")
fig, ax = plt.subplots()
ax.plot([0, 1, 2, 3], [1, 3, 2, 4], color="k")
fig.savefig("line.png")
raise RuntimeError("a later figure fails")
"""
    got = mpl_gallery.run_script(code, "late.py", tmp_path / "out", 100)
    assert got is not None and [r["name"] for r in got] == ["image.png", "line.png"]
    assert got[0]["values"] is None and got[0]["fingerprint"] and got[1]["values"]
    assert all(r["partial"] for r in got)


def test_a_figure_of_the_same_data_in_another_style_has_the_same_fingerprint() -> None:
    figs = []
    for style in ("default", "dark_background"):
        with plt.style.context(style):
            fig, ax = plt.subplots()
            ax.plot([0, 1, 2], [3, 1, 2], linewidth=3)
            ax.bar([0, 1], [1, 2])
            figs.append(fig)
    other, ax = plt.subplots()
    ax.plot([0, 1, 2], [3, 1, 2.5])
    ax.bar([0, 1], [1, 2])
    prints = [mpl_gallery.fingerprint(f) for f in (*figs, other)]
    for f in (*figs, other):
        plt.close(f)
    assert prints[0] == prints[1] != prints[2]


def test_a_real_set_figure_without_values_still_takes_out_its_siblings(tmp_path: Path) -> None:
    manifest = tmp_path / "manifest.json"
    manifest.write_text(json.dumps({"figures": [{"id": "y", "repo": "o/r", "path": "img/fig07.png"}]}))
    real = RealSet(manifest)
    records = [{"name": "fig07.png", "fingerprint": "f1", "values": None},
               {"name": "fig08.png", "fingerprint": "f1", "values": [["", 1.0, 2.0]]},
               {"name": "fig09.png", "fingerprint": "f2", "values": None},
               {"name": "fig10.png", "fingerprint": "f3", "values": [["", 1.0, 3.0]]}]
    assert [r["name"] for r in mpl_gallery._left_out(records, "o/r", real)] == ["fig10.png"]


def test_same_named_scripts_in_two_folders_get_two_ids() -> None:
    a = mpl_gallery.figure_id("mplhep", "examples/Examples_HEP/plot.py", 0, False)
    b = mpl_gallery.figure_id("mplhep", "examples/other/plot.py", 0, False)
    assert a != b and a == "D_mpl_mplhep_Examples_HEP_plot"
    assert mpl_gallery.figure_id("seaborn", "examples/jitter.py", 1, True) == "D_mpl_seaborn_jitter_1"


def test_points_over_a_category_y_axis_give_no_values() -> None:
    fig, ax = plt.subplots()
    ax.scatter([10, 200, 3000, 40], ["a", "b", "a", "c"], color="k")  # a horizontal strip plot on a log x axis
    ax.set_xscale("log")
    fig.canvas.draw()
    assert mpl_gallery.figure_values(fig) is None
    plt.close(fig)
