"""Charts drawn in a learned style take its look and read back their data unchanged."""

from __future__ import annotations

from crafter.benchmarks.style import chart_read_back
from crafter.style import learn_from_files


def test_a_chart_in_a_learned_style_reads_back_its_data(svg_sets, tmp_path) -> None:
    style = learn_from_files(svg_sets["lab"], "lab")
    rb = chart_read_back(style, tmp_path)
    assert rb["marks"] >= 4 and rb["problems"] == 0 and rb["max_error"] < 0.005
    svg = (tmp_path / "chart-in-learned-style.svg").read_text(encoding="utf-8")
    assert "#B2182B" in svg  # the lab's first series colour
