"""The crafteditor command: help for every command, one-line errors, a real conversion."""

import json

import pytest
from ce_helpers import box_image, png_bytes
from typer.testing import CliRunner

from crafteditor.cli import app, main

runner = CliRunner()


@pytest.mark.parametrize("cmd", ["convert", "bench", "presets"])
def test_every_command_has_help_with_an_example(cmd):
    res = runner.invoke(app, [cmd, "--help"])
    assert res.exit_code == 0 and "Example:" in res.output


def test_unknown_option_is_one_line_error(tmp_path, capsys):
    (tmp_path / "a.png").write_bytes(png_bytes(box_image()))
    code = main(["convert", str(tmp_path / "a.png"), "-o", str(tmp_path / "o"), "--set", "colour=red"])
    err = capsys.readouterr().err
    assert code == 1 and err.startswith("error: unknown option(s): colour") and "Traceback" not in err


def test_missing_input_is_one_line_error(tmp_path, capsys):
    code = main(["convert", str(tmp_path / "missing.png"), "-o", str(tmp_path / "o")])
    assert code == 1 and "missing.png: no such file or folder" in capsys.readouterr().err


def test_convert_writes_svg_and_manifest(tmp_path, capsys):
    (tmp_path / "a.png").write_bytes(png_bytes(box_image(160, 110)))
    code = main(["convert", str(tmp_path / "a.png"), "-o", str(tmp_path / "o"), "--preset", "diagram",
                 "--set", "ocr=false", "--no-progress"])
    assert code == 0
    assert "1 converted, 0 failed" in capsys.readouterr().out
    svg = (tmp_path / "o" / "a.svg").read_text()
    assert "data-crafter-kind=\"node\"" in svg
    rec = json.loads((tmp_path / "o" / "manifest.jsonl").read_text())
    assert rec["status"] == "ok" and rec["metrics"]["components"] == {"node": 1} and rec["metrics"]["ssim"] > 0.9


def test_bench_draws_generated_charts_under_style_sheets(capsys):
    """`crafteditor bench --kind chart --sheet ggplot` scores charts drawn in another matplotlib
    style sheet; an unknown sheet is a one-line error that lists the known ones."""
    code = main(["bench", "-n", "1", "--kind", "chart", "--sheet", "ggplot", "--per-figure"])
    out = capsys.readouterr().out
    assert code == 0 and "chart-1-scatter-ggplot" in out and "chart_values=1.00" in out
    code = main(["bench", "-n", "1", "--kind", "chart", "--sheet", "gplot"])
    err = capsys.readouterr().err
    assert code != 0 and "unknown matplotlib style sheet 'gplot'" in err and "ggplot" in err


def test_bench_sets_the_source_figures_own_element_count_beside_both(capsys):
    """Where the source is a FigureSpec (a generated diagram) the bench prints its own SVG's
    element count: the fewest a faithful editable copy can have, against which vtracer's count
    and CraftEditor's are read."""
    code = main(["bench", "-n", "1", "--kind", "diagram", "--per-figure"])
    out = capsys.readouterr().out
    assert code == 0
    line = next(ln for ln in out.splitlines() if "source SVG" in ln)
    assert "the original's own SVG (1 of 1)" in line and "fewer than vtracer" in line
    figure = next(ln for ln in out.splitlines() if ln.strip().startswith("diagram-1"))
    assert "(source " in figure
