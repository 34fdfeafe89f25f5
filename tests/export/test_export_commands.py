"""The CLI side: every export format from `crafter render -o`, and `crafter import / vegalite / sanitize`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from export_helpers import ROOT, laid_out
from test_svg_foreign import MALICIOUS
from test_svg_merge import Inkscape

from crafter.cli import main
from crafter.formats import load_figure
from crafter.render import figure_to_svg
from crafter.spec import Figure

RAG = ROOT / "examples" / "rag_pipeline.dsl"


@pytest.fixture
def rag_json(tmp_path: Path) -> Path:
    """The RAG example laid out, saved as JSON (so the CLI needs no layout run)."""
    path = tmp_path / "rag.json"
    path.write_text(laid_out(load_figure(RAG)).to_json(), encoding="utf-8")
    return path


@pytest.mark.parametrize("suffix, starts", [
    (".tex", "% Crafter figure"), (".tikz", "% Crafter figure as TikZ"), (".drawio", "<mxfile"),
])
def test_render_writes_every_export_format(rag_json: Path, tmp_path: Path, capsys, suffix: str, starts: str) -> None:
    out = tmp_path / f"fig{suffix}"
    assert main(["render", str(rag_json), "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8").startswith(starts)
    assert f"wrote {out}" in capsys.readouterr().out


def test_render_writes_vega_lite(chart_figure: Figure, tmp_path: Path) -> None:
    src = tmp_path / "charts.json"
    src.write_text(chart_figure.to_json(), encoding="utf-8")
    out = tmp_path / "charts.vl.json"
    assert main(["render", str(src), "-o", str(out)]) == 0
    assert len(json.loads(out.read_text())["vconcat"]) == 2
    one = tmp_path / "acc.vl.json"
    assert main(["vegalite", str(src), "--chart", "acc", "-o", str(one)]) == 0
    assert json.loads(one.read_text())["title"] == "Accuracy by model"


def test_vegalite_names_the_charts_when_one_is_missing(chart_figure: Figure, tmp_path: Path, capsys) -> None:
    src = tmp_path / "charts.json"
    src.write_text(chart_figure.to_json(), encoding="utf-8")
    assert main(["vegalite", str(src), "--chart", "nope", "-o", str(tmp_path / "x.vl.json")]) == 1
    assert "no chart with id 'nope' (charts: acc, loss)" in capsys.readouterr().err


def test_import_merges_an_inkscape_edit(rag_json: Path, tmp_path: Path, capsys) -> None:
    fig = load_figure(rag_json)
    ink = Inkscape(figure_to_svg(fig))
    ink.retype("emb", ["Dense retriever"])
    ink.delete("e3")
    edited = tmp_path / "edited.svg"
    edited.write_text(ink.text(), encoding="utf-8")
    out = tmp_path / "back.dsl"
    assert main(["import", str(edited), "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "merged: node 'emb': label changed to 'Dense retriever'" in printed
    assert "merged: edge 'e3' deleted" in printed
    back = load_figure(out)
    assert back.get("emb").label == "Dense retriever" and "e3" not in back.by_id()


def test_import_a_drawio_file(rag_json: Path, tmp_path: Path) -> None:
    drawio = tmp_path / "fig.drawio"
    assert main(["render", str(rag_json), "-o", str(drawio)]) == 0
    out = tmp_path / "back.json"
    assert main(["import", str(drawio), "-o", str(out)]) == 0
    assert load_figure(out) == load_figure(rag_json)


def test_sanitize_and_import_hostile_svg(tmp_path: Path, capsys) -> None:
    evil = tmp_path / "evil.svg"
    evil.write_text(MALICIOUS, encoding="utf-8")
    clean = tmp_path / "clean.svg"
    assert main(["sanitize", str(evil), "-o", str(clean)]) == 0
    assert "<script" not in clean.read_text() and "removed: <script> element" in capsys.readouterr().out
    out = tmp_path / "evil.dsl"
    assert main(["import", str(evil), "-o", str(out)]) == 0
    assert "alert" not in out.read_text()


def test_import_errors_are_one_line(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.svg"
    bad.write_text("<svg", encoding="utf-8")
    assert main(["import", str(bad), "-o", str(tmp_path / "x.dsl")]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: ") and "bad.svg" in err and "\n" not in err
