"""The real track of ``crafteditor bench``: per split and maker, the aims, report.html and report.json.

The real-figure set is other people's work and never in git: these tests draw a tiny set of
their own (a Crafter diagram, a matplotlib chart) laid out as the real set is (figures in a
folder, the truth in a manifest), and run the bench on it as a user does.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import numpy as np
import pytest

from crafteditor.bench import BenchRow
from crafteditor.cli import main
from crafteditor.perceptual import gmsd
from crafteditor.realhtml import report_html
from crafteditor.realreport import check_aims, format_real, real_track, summarise
from crafteditor.realset import RealSetError, figure_group, find_manifest, load_real, score_real
from crafter.spec.model import Figure

DSL = """figure "Pipeline"
enc node "Encoder"
dec node "Decoder"
e1 edge enc -> dec
"""


def _row(name: str, split: str = "test", group: str = "graphviz", **kw) -> BenchRow:
    base = dict(name=name, kind="real-diagram", ce_seconds=1.0, ce_cpu=1.0, ce_ssim=0.95, ce_elements=10,
                ce_text=1.0, vt_seconds=0.2, vt_cpu=0.5, vt_ssim=0.97, vt_elements=100,
                scores={"words": 1.0, "nodes": 0.9, "edges": 0.8}, ce_gmsd=0.05, vt_gmsd=0.03,
                budget_s=20.0, split=split, group=group)
    base.update(kw)
    return BenchRow(**base)


def test_gmsd_is_zero_for_the_same_image_and_grows_as_edges_go():
    rng = np.random.RandomState(0)
    im = np.full((80, 120, 3), 255, np.uint8)
    im[20:60, 30:90] = (30, 60, 120)
    im[rng.rand(80, 120) > 0.97] = 0
    assert gmsd(im, im) == 0.0
    blank = np.full_like(im, 255)
    shifted = np.roll(im, 1, axis=1)
    assert 0 < gmsd(im, shifted) < gmsd(im, blank)
    with pytest.raises(ValueError, match="one size"):
        gmsd(im, im[:40])


def test_aims_pass_and_fail_on_the_test_split():
    rows = [_row("a"), _row("b", scores={"words": 0.9, "nodes": 0.7}), _row("c", split="dev", ce_ssim=0.5),
            _row("d", over_budget=["shapes"])]
    track = real_track(rows)
    assert track["aims_on"] == "test" and track["splits"]["test"]["n"] == 3 and track["splits"]["dev"]["n"] == 1
    aims = {a["aim"]: a for a in track["aims"]}
    assert aims["words"]["pass"] is False and aims["words"]["value"] == pytest.approx(2.9 / 3)
    assert aims["nodes"]["value"] == pytest.approx(2.5 / 3) and aims["nodes"]["pass"] is False
    assert aims["edges"]["pass"] is True and aims["edges"]["figures"] == 2
    assert aims["ssim"]["pass"] is True  # the dev figure's 0.5 is not in the test split
    assert aims["fewer_elements"]["pass"] is True and aims["cpu_ratio"]["pass"] is True  # 10× fewer, 2× CPU
    assert aims["values"]["pass"] is None  # no chart values in the truth: not judged
    assert aims["over_budget"]["pass"] is False and aims["over_budget"]["shown"] == "1"
    text = format_real(track)
    assert "FAIL  words kept as text" in text and "n/a   chart values" in text and "split test" in text


def test_each_split_shows_its_own_makers_not_only_the_pooled_ones():
    """A maker strong on dev and weak on the frozen test split: the pooled row averages the two, the test
    split's own row shows the weakness (the text and the page both carry it)."""
    rows = [_row("a", group="ggplot2", scores={"words": 0.5}), _row("b", split="dev", group="ggplot2"),
            _row("c", split="dev", group="mermaid")]
    track = real_track(rows)
    assert track["groups"]["ggplot2"]["words"] == pytest.approx(0.75)
    assert track["split_groups"]["test"]["ggplot2"]["words"] == pytest.approx(0.5)
    assert set(track["split_groups"]["test"]) == {"ggplot2"} and set(track["split_groups"]["dev"]) == {"ggplot2", "mermaid"}
    text = format_real(track)
    assert "test split by maker:" in text and "dev split by maker:" in text
    page = report_html(track, rows, [], sheet=lambda r: "x.png")
    assert "The test split by style or chart maker" in page and "The dev split by style or chart maker" in page
    alone = real_track([_row("d", split="dev")])  # one split: its makers are the pooled ones, shown once
    assert "split by maker" not in format_real(alone)


def test_a_figure_slower_than_its_budget_counts_as_over_it():
    assert summarise([_row("a", ce_cpu=25.0)])["over_budget"] == 1
    assert summarise([_row("a", ce_cpu=25.0, budget_s=None)])["over_budget"] == 0
    # the budget is CPU time: a figure that waited on a busy machine spent no more of it
    assert summarise([_row("a", ce_seconds=25.0, ce_cpu=5.0)])["over_budget"] == 0
    assert check_aims(summarise([_row("a", scores={"words": 1.0, "values": 0.95})]))[3]["pass"] is True


def test_a_container_read_as_a_labelled_group_counts_as_a_component_not_as_a_node():
    """Some truth lists a frame's title ("Cluster") as a node: the node F1 (the aim) counts Node labels
    only; the component F1 beside it counts labelled groups too, and their edges."""
    fig = Figure.model_validate({"components": [
        {"id": "a", "kind": "node", "label": "API"},
        {"id": "g", "kind": "group", "label": "Cluster", "members": ["a"]},
        {"id": "b", "kind": "node", "label": "DB"},
        {"id": "e1", "kind": "edge", "source": "g", "target": "b"}]})
    truth = {"text": "API Cluster DB", "nodes": ["API", "Cluster", "DB"], "edges": [["Cluster", "DB"]]}
    s = score_real(fig, "<svg/>", truth)
    assert s["nodes"] == pytest.approx(0.8) and s["components"] == 1.0
    assert s["edges"] == 0.0 and s["component_edges"] == 1.0
    track = real_track([_row("a", scores=s)])
    assert "with labelled groups as components: node F1 1.000, edge F1 1.000" in format_real(track)
    assert track["aims"][1]["value"] == pytest.approx(0.8)  # the aim stays the node F1


def test_a_node_named_by_a_symbol_is_matched_on_its_symbol():
    """A residual block's circled '+', a gate's '×', a UML '...': the truth names the node by its symbol. It had
    normalised to '' on both sides and could never be a hit; a drawn '+' now matches, a drawn '×' does not."""
    fig = Figure.model_validate({"components": [
        {"id": "x", "kind": "node", "label": "Layer"}, {"id": "p", "kind": "node", "label": "+"},
        {"id": "m", "kind": "node", "label": "×"},  # not in the truth: a false node now, as any other would be
        {"id": "e1", "kind": "edge", "source": "x", "target": "p"}]})
    truth = {"text": "Layer", "nodes": ["Layer", "+"], "edges": [["Layer", "+"]]}
    s = score_real(fig, "<svg/>", truth)
    assert s["nodes"] == pytest.approx(0.8) and s["edges"] == 1.0
    assert score_real(fig, "<svg/>", {**truth, "nodes": ["Layer", "+", "…"]})["nodes"] == pytest.approx(4 / 6)


def test_a_line_alike_at_both_ends_matches_its_pair_in_either_order():
    """A two-headed arrow (or a bare line) has no direction of its own: the truth's pair matches it whichever order
    the reader found its ends in; a one-headed arrow read the wrong way round does not."""
    nodes = [{"id": k, "kind": "node", "label": k.upper()} for k in "abcd"]
    fig = Figure.model_validate({"components": [*nodes,
        {"id": "e1", "kind": "edge", "source": "b", "target": "a", "head": "arrow", "tail": "arrow"},
        {"id": "e2", "kind": "edge", "source": "c", "target": "b", "head": "none", "tail": "none"},
        {"id": "e3", "kind": "edge", "source": "d", "target": "c"}]})
    truth = {"text": "A B C D", "nodes": ["A", "B", "C", "D"], "edges": [["A", "B"], ["B", "C"], ["C", "D"]]}
    assert score_real(fig, "<svg/>", truth)["edges"] == pytest.approx(2 / 3)


def test_groups_by_maker_then_style():
    assert figure_group({"maker": "Matplotlib", "style": "bar"}) == "matplotlib"
    assert figure_group({"style": "graphviz, serif"}) == "graphviz"
    assert figure_group({}) == "unknown"


def test_the_manifest_is_found_in_the_folder_then_in_the_repository(tmp_path, monkeypatch):
    figs = tmp_path / "figs"
    figs.mkdir()
    (figs / "a.png").write_bytes(b"png")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RealSetError, match="--manifest"):
        find_manifest(figs)
    (tmp_path / "realset").mkdir()
    (tmp_path / "realset" / "manifest.json").write_text(json.dumps({"figures": [
        {"id": "a", "file": "a.png", "text": "x", "split": "test"}]}))
    assert find_manifest(figs) == Path("realset/manifest.json")
    assert [f.id for f in load_real(figs, "test")] == ["a"]  # files relative to the folder, truth from git
    own = tmp_path / "own.json"
    own.write_text(json.dumps({"figures": [{"id": "b", "file": "a.png", "text": "y"}]}))
    assert [f.id for f in load_real(figs, manifest=own)] == ["b"]
    with pytest.raises(RealSetError, match="nope.json: no such manifest"):
        load_real(figs, manifest=tmp_path / "nope.json")


@pytest.fixture(scope="module")
def drawn_set(tmp_path_factory) -> Path:
    """Two figures we draw, laid out as the real set: figs/ and a manifest with a test split."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from crafteditor.bench import render_truth

    root = tmp_path_factory.mktemp("drawnset")
    (root / "figs").mkdir()
    dsl = root / "pipe.dsl"
    dsl.write_text(DSL, encoding="utf-8")
    _, png = render_truth(dsl, 100)
    (root / "figs" / "pipe.png").write_bytes(png)
    fig, ax = plt.subplots(figsize=(4, 3), dpi=100)
    ax.bar(["alpha", "beta"], [3, 5])
    ax.set_title("Scores")
    fig.savefig(root / "figs" / "bars <1>.png")
    plt.close(fig)
    (root / "manifest.json").write_text(json.dumps({"figures": [
        {"id": "pipe", "file": "figs/pipe.png", "split": "test", "kind": "diagram", "style": "crafter, sans",
         "text": "Pipeline Encoder Decoder", "nodes": ["Encoder", "Decoder"], "edges": [["Encoder", "Decoder"]]},
        {"id": "bars <1>", "file": "figs/bars <1>.png", "split": "dev", "kind": "chart", "maker": "matplotlib",
         "text": "Scores alpha beta 0 1 2 3 4 5"}]}), encoding="utf-8")
    return root


def test_bench_real_writes_a_report_a_person_reads(drawn_set, tmp_path, capsys):
    out = tmp_path / "report"
    code = main(["bench", "-n", "0", "--real", str(drawn_set), "--report", str(out)])
    text = capsys.readouterr().out
    assert code == 0, text
    assert "split test" in text and "aims on the test split:" in text and "report:" in text
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "Aims on the test split" in page and "GMSD" in page
    assert "bars &lt;1&gt;" in page and "bars <1>" not in page  # the manifest's names are escaped
    for src in re.findall(r'<img loading=lazy src="([^"]+)"', page):  # the worst cases, side by side
        assert (out / html.unescape(src)).is_file(), src
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert data["aims_on"] == "test" and {f["name"] for f in data["figures"]} == {"pipe", "bars <1>"}
    assert {a["aim"] for a in data["aims"]} >= {"words", "nodes", "edges", "ssim", "fewer_elements", "cpu_ratio"}
    pipe = next(f for f in data["figures"] if f["name"] == "pipe")
    assert pipe["scores"]["words"] == 1.0 and pipe["split"] == "test" and pipe["group"] == "crafter"
    assert 0 <= pipe["ce_gmsd"] < 0.3 and pipe["vt_elements"] > pipe["ce_elements"]
    # where the CPU went: each figure's stages sum to its CPU time, the split sums them over its figures
    assert {"load", "text", "shapes", "lines", "assemble", "render"} <= set(pipe["cpu_stages"])
    assert sum(pipe["cpu_stages"].values()) == pytest.approx(pipe["ce_cpu"], abs=0.01)
    assert "ocr recognize" in pipe["cpu_parts"]
    test = data["splits"]["test"]
    in_test = [f for f in data["figures"] if f["split"] == "test"]
    assert test["cpu_stages"]["text"] == pytest.approx(sum(f["cpu_stages"]["text"] for f in in_test), abs=0.01)
    assert "CPU s by stage" in text and "Where the CPU went" in page


def test_report_needs_a_real_set(capsys):
    assert main(["bench", "-n", "0", "--report", "/tmp/x"]) == 2  # a usage error, as a bad --sheet is
    assert "--manifest, --only and --report go with --real DIR" in capsys.readouterr().err


def test_only_runs_the_named_figures_and_names_a_pattern_that_matches_none(drawn_set, capsys):
    import crafteditor.bench as bench

    assert [f.name for f in bench.real_figures(drawn_set, "all", only="bars*")] == ["bars <1>"]
    assert [f.name for f in bench.real_figures(drawn_set, "all", only="pipe, bars <1>")] == ["pipe", "bars <1>"]
    with pytest.raises(RealSetError, match="no dev figure matches pipe"):  # pipe is a test figure
        bench.real_figures(drawn_set, "dev", only="pipe")
    assert main(["bench", "-n", "0", "--real", str(drawn_set), "--only", "pie*"]) != 0
    assert "pie*" in capsys.readouterr().err


def test_a_figure_that_fails_to_convert_is_a_row_scored_as_nothing_and_the_bench_goes_on(drawn_set, monkeypatch,
                                                                                        capsys):
    """One figure's failure (a reading the renderer refuses) is that figure's row, not the whole bench's end."""
    import crafteditor.bench as bench
    from crafter.errors import RenderError

    real_convert = bench.convert

    def convert(png, config, name=None):
        if name == "pipe":
            raise RenderError("rendering the recovered figure failed: KeyError: '1'", file=name)
        return real_convert(png, config, name=name)

    monkeypatch.setattr(bench, "convert", convert)
    assert main(["bench", "-n", "0", "--real", str(drawn_set)]) == 0
    text = capsys.readouterr().out
    assert "failed: pipe:" in text and "KeyError" in text
    track = real_track(bench.run_bench(bench.real_figures(drawn_set, "all")))
    test = track["splits"]["test"]
    assert test["failed"] == 1 and test["words"] == 0.0 and test["nodes"] == 0.0
    assert track["splits"]["dev"]["failed"] == 0 and track["splits"]["dev"]["words"] > 0.5
    assert {a["aim"]: a["pass"] for a in track["aims"]}["failed"] is False
