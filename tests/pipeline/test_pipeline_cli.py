"""The pipeline's CLI: thin commands, one-line errors, reports people can read."""

from __future__ import annotations

import json

import pytest

from crafter.cli import main


def test_generate_writes_the_figure_and_a_report(tmp_path, db, capsys) -> None:
    out = tmp_path / "fig.svg"
    assert main(["generate", "Input image -> CNN backbone -> Detection head", "--backend", "none",
                 "-o", str(out), "--db", str(db), "-q"]) == 0
    text = capsys.readouterr().out
    assert "components: 3 nodes, 2 edges" in text and "issues:" in text and f"wrote {out}" in text
    assert '<g id="cnn_backbone" data-crafter-kind="node"' in out.read_text()


@pytest.mark.parametrize("suffix", [".png", ".pdf", ".dsl"])
def test_generate_other_formats(tmp_path, db, suffix) -> None:
    out = tmp_path / f"fig{suffix}"
    assert main(["generate", "A -> B", "--backend", "none", "-o", str(out), "--db", str(db), "-q"]) == 0
    assert out.stat().st_size > 0


def test_generate_json_report(tmp_path, db, capsys) -> None:
    assert main(["generate", "A -> B -> C", "--backend", "none", "-o", str(tmp_path / "f.svg"), "--db", str(db),
                 "--json", "-q"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["components"] == {"node": 3, "edge": 2} and rep["status"] == "done" and "seconds" in rep


def test_brief_from_a_file_and_stdin(tmp_path, db, monkeypatch) -> None:
    brief = tmp_path / "brief.txt"
    brief.write_text("Encoder -> Decoder")
    assert main(["generate", "--brief-file", str(brief), "--backend", "none", "-o", str(tmp_path / "a.svg"),
                 "--db", str(db), "-q"]) == 0
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("Encoder -> Decoder"))
    assert main(["generate", "-", "--backend", "none", "-o", str(tmp_path / "b.svg"), "--db", str(db), "-q"]) == 0


@pytest.mark.parametrize("args,message", [
    (["generate", "", "--backend", "none"], "brief is empty"),
    (["generate", "A -> B", "--backend", "none", "--data", "missing.csv"], "no such table"),
    (["generate", "", "--backend", "none", "--image", "missing.png"], "no such image"),
])
def test_bad_input_is_one_line(tmp_path, db, capsys, args, message) -> None:
    assert main(args + ["-o", str(tmp_path / "x.svg"), "--db", str(db), "-q"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0] and "Traceback" not in err[0]


def test_unsupported_output_fails_before_the_run(tmp_path, db, capsys) -> None:
    assert main(["generate", "A -> B", "--backend", "none", "-o", str(tmp_path / "x.docx"), "--db", str(db)]) == 1
    assert "cannot export to '.docx'" in capsys.readouterr().err
    assert main(["runs", "--db", str(db), "--json"]) == 0
    assert capsys.readouterr().out == ""  # nothing ran


def test_edit_and_runs(tmp_path, db, capsys) -> None:
    fig = tmp_path / "fig.svg"
    assert main(["generate", "Encoder -> Decoder", "--backend", "none", "-o", str(fig), "--db", str(db), "-q"]) == 0
    out = tmp_path / "out.svg"
    assert main(["edit", str(fig), "make the encoder blue and rename Decoder to Generator", "--backend", "none",
                 "-o", str(out), "--db", str(db), "-q"]) == 0
    text = capsys.readouterr().out
    assert "changed: 'Encoder' filled blue (encoder)" in text
    svg = out.read_text()
    assert "Generator" in svg and 'fill="blue"' in svg
    assert main(["runs", "--db", str(db)]) == 0
    listing = capsys.readouterr().out
    assert "make the encoder blue" in listing and "Encoder -> Decoder" in listing and "done" in listing


def test_resume_unknown_run(db, capsys) -> None:
    assert main(["resume", "nope", "--db", str(db)]) == 1
    assert "no run 'nope'" in capsys.readouterr().err


def test_bench_pipeline_prints_percentiles(capsys) -> None:
    assert main(["bench", "pipeline", "--backend", "none"]) == 0
    out = capsys.readouterr().out
    assert "seconds per figure: p50" in out and "p95" in out and "10-node diagram" in out
