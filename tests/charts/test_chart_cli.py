"""`crafter chart` and `crafter bench chart`: files out, one-line errors, help."""

from __future__ import annotations

import json

import pytest
from charts_testlib import EXAMPLES

from crafter.cli import main


def run(args, capsys):
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("suffix", [".svg", ".png", ".pdf", ".json", ".dsl", ".vl.json"])
def test_outputs(tmp_path, capsys, suffix):
    out = tmp_path / f"acc{suffix}"
    code, stdout, err = run(["chart", str(EXAMPLES / "accuracy.csv"), "--x", "model", "--y", "top1_accuracy",
                             "--color", "dataset", "-o", str(out)], capsys)
    assert code == 0, err
    assert f"wrote {out}" in stdout and out.stat().st_size > 200
    if suffix == ".vl.json":
        vl = json.loads(out.read_text())
        assert vl["$schema"].startswith("https://vega.github.io/schema/vega-lite/")
    if suffix == ".svg":
        from crafter.charts import check_chart
        from crafter.formats import load_figure

        text = out.read_text()
        assert 'data-crafter-kind="chart"' in text and "data-crafter-datum" in text
        fig = load_figure(out)  # the figure comes back from the SVG
        assert check_chart(text, fig.get("chart")) == []


def test_auto_chart_with_explain_width_and_theme(tmp_path, capsys):
    out = tmp_path / "loss.svg"
    code, stdout, err = run(["chart", str(EXAMPLES / "loss_curves.tsv"), "--explain", "--width", "double",
                             "--theme", "slides", "-o", str(out)], capsys)
    assert code == 0, err
    assert stdout.startswith("line: x=step y=train_loss color=model (")


def test_sheet_option(tmp_path, capsys):
    out = tmp_path / "mem.svg"
    code, _, err = run(["chart", str(EXAMPLES / "throughput.xlsx"), "--sheet", "memory", "-o", str(out)], capsys)
    assert code == 0, err


@pytest.mark.parametrize("args,message", [
    (["--y", "acc"], "no column 'acc'"),
    (["--mark", "pie"], "unknown mark 'pie'"),
    (["--theme", "dark"], "unknown theme 'dark'"),
    (["--width", "wide"], "--width must be single, double or a number"),
])
def test_errors_are_one_line(tmp_path, capsys, args, message):
    code, _, err = run(["chart", str(EXAMPLES / "accuracy.csv"), "-o", str(tmp_path / "x.svg"), *args], capsys)
    assert code == 1 and message in err and err.count("\n") == 1 and "Traceback" not in err


def test_bad_table_is_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b\n1,2\n3\n")
    code, _, err = run(["chart", str(bad), "-o", str(tmp_path / "x.svg")], capsys)
    assert code == 1 and "bad.csv: row 3" in err and "Traceback" not in err


def test_help(capsys):
    assert main(["chart", "--help"]) == 0
    out = capsys.readouterr().out
    assert "Example" in out and "--color" in out


@pytest.mark.slow
def test_bench_chart_prints_charts_per_second(capsys):
    code, out, err = run(["bench", "chart", "-n", "2", "--no-vl-convert"], capsys)
    assert code == 0, err
    assert "charts/s" in out and "matplotlib (svg)" in out and "first call" in out and "crafter is" in out
